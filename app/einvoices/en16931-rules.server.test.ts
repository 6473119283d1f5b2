import { describe, expect, it } from 'vitest';
import { croatianIban, oibCheckDigit } from '../utils/validation.ts';
import { RULES, validateEn16931 } from './en16931-rules.server.ts';
import { parseUblInvoice } from './ubl-document.server.ts';
import { writeUblInvoice, type UblWriteInvoice, type UblWriteLine } from './ubl-write.server.ts';

/**
 * Every rule of en16931-rules.server.ts: a conforming document passes all of
 * them, and a document changed so that exactly that rule breaks fails with
 * that rule's id (and, where EN 16931 states the same requirement twice, with
 * the rule that restates it: said at the case).
 */

const oib = (first10: string) => `${first10}${oibCheckDigit(first10)}`;
const SELLER_OIB = oib('6180355482');
const BUYER_OIB = oib('4712058930');
const OTHER_OIB = oib('8820413576');

const FEE_LINE: UblWriteLine = {
  id: '1',
  name: 'Naknada za faktoring',
  description: 'Naknada za faktoring računa R-2026-0042 (kupac Trgovina Jadran d.d.)',
  quantity: '1',
  unitCode: 'C62',
  // 187.50 × 25 % = 46.875: VAT rounds half-up to 46.88, gross 234.38.
  price: '187.50',
  kpdCode: '64.92.07',
  vat: { category: 'S', rate: '25', name: 'HR:PDV25' },
};

function sample(lines: UblWriteLine[] = [FEE_LINE]): UblWriteInvoice {
  return {
    number: 'FF-2026-000001',
    issueDate: '2026-03-02',
    issueTime: '09:41:17',
    dueDate: '2026-03-17',
    typeCode: '380',
    currency: 'EUR',
    profileId: 'P1',
    notes: ['Naknada za faktoring prema ugovoru o faktoringu.'],
    seller: { name: 'FinFlow Faktoring d.o.o.', oib: SELLER_OIB, vatId: `HR${SELLER_OIB}`, street: 'Radnička cesta 80', city: 'Zagreb', postalCode: '10000', countryCode: 'HR' },
    sellerContact: { oib: SELLER_OIB, name: 'Ivana Horvat' },
    buyer: {
      name: 'Drvoprerada Zagorje d.o.o.',
      oib: BUYER_OIB,
      vatId: `HR${BUYER_OIB}`,
      street: 'Zagorska ulica 14',
      city: 'Krapina',
      postalCode: '49000',
      countryCode: 'HR',
      email: 'racuni@drvoprerada.hr',
    },
    payment: { meansCode: '30', iban: croatianIban('2402006', '1100123456'), bic: 'ESBCHR22', reference: 'HR00 2026-000001' },
    paymentTermsNote: 'Plaćanje u roku od 15 dana.',
    lines,
  };
}

const XML = writeUblInvoice(sample()).xml;
/** A standard-rated line and a zero-rated one (Z): for the rules that must not be confused with the S rules. */
const ZERO_LINE: UblWriteLine = { ...FEE_LINE, id: '2', name: 'Knjiga', price: '20.00', kpdCode: '58.11.11', vat: { category: 'Z', rate: '0', name: 'HR:PDV0' } };
const XML_WITH_Z = writeUblInvoice(sample([FEE_LINE, ZERO_LINE])).xml;
const XML_ONLY_Z = writeUblInvoice(sample([{ ...ZERO_LINE, id: '1' }])).xml;
/** The settlement's documents (docs/decisions/015-fee-documents-at-settlement.md): a completing invoice and a credit note, each referring to the fee invoice. */
const PRECEDING = { number: 'FF-2026-000001', issueDate: '2026-03-02' };
const COMPLETION_XML = writeUblInvoice({ ...sample(), number: 'FF-2026-000002', precedingInvoice: PRECEDING }).xml;
const CREDIT_NOTE_XML = writeUblInvoice({
  ...sample(),
  kind: 'creditNote',
  typeCode: '381',
  number: 'FF-2026-000003',
  dueDate: null,
  payment: null,
  precedingInvoice: PRECEDING,
}).xml;

/** Replaces `from` (the first occurrence, or the n-th) inside the first `<tag …>…</tag>` element of `xml`; fails loudly if absent. */
function within(xml: string, tag: string, from: string | RegExp, to: string, nth = 0): string {
  const start = xml.search(new RegExp(`<${tag}[\\s>]`));
  const close = `</${tag}>`;
  const end = xml.indexOf(close, start);
  if (start === -1 || end === -1) throw new Error(`no <${tag}> in the document`);
  const part = xml.slice(start, end + close.length);
  let index = -1;
  let replaced = part;
  if (typeof from === 'string') {
    for (let n = 0; n <= nth; n++) index = part.indexOf(from, index + 1);
    if (index === -1) throw new Error(`'${from}' not in <${tag}>`);
    replaced = part.slice(0, index) + to + part.slice(index + from.length);
  } else {
    if (!from.test(part)) throw new Error(`${from} not in <${tag}>`);
    replaced = part.replace(from, to);
  }
  return xml.slice(0, start) + replaced + xml.slice(end + close.length);
}
const drop = (xml: string, tag: string, pattern: RegExp) => within(xml, tag, pattern, '');
const amount = (value: string) => `currencyID="EUR">${value}<`;
/** BT-112 and BT-115 together, so a change to the totals above them breaks nothing below. */
const grossTo = (xml: string, value: string) =>
  within(
    within(xml, 'cac:LegalMonetaryTotal', `TaxInclusiveAmount ${amount('234.38')}`, `TaxInclusiveAmount ${amount(value)}`),
    'cac:LegalMonetaryTotal',
    `PayableAmount ${amount('234.38')}`,
    `PayableAmount ${amount(value)}`,
  );

type Case = [rule: string, what: string, mutate: (xml: string) => string, expected?: string[]];

const CASES: Case[] = [
  ['BR-01', 'no CustomizationID', (x) => x.replace(/\s*<cbc:CustomizationID>[^<]*<\/cbc:CustomizationID>/, '')],
  ['BR-02', 'no invoice number', (x) => x.replace('<cbc:ID>FF-2026-000001</cbc:ID>', '')],
  ['BR-03', 'an issue date that is no date', (x) => x.replace('<cbc:IssueDate>2026-03-02</cbc:IssueDate>', '<cbc:IssueDate>2026-02-30</cbc:IssueDate>')],
  ['BR-04', 'no type code', (x) => x.replace(/\s*<cbc:InvoiceTypeCode>380<\/cbc:InvoiceTypeCode>/, '')],
  ['BR-05', 'no currency code', (x) => x.replace(/\s*<cbc:DocumentCurrencyCode>EUR<\/cbc:DocumentCurrencyCode>/, '')],
  ['BR-06', 'no seller name', (x) => within(x, 'cac:AccountingSupplierParty', /<cbc:RegistrationName>[^<]*<\/cbc:RegistrationName>/, '')],
  ['BR-07', 'no buyer name', (x) => within(x, 'cac:AccountingCustomerParty', /<cbc:RegistrationName>[^<]*<\/cbc:RegistrationName>/, '')],
  ['BR-08', 'no seller postal address', (x) => drop(x, 'cac:AccountingSupplierParty', /<cac:PostalAddress>[\s\S]*?<\/cac:PostalAddress>/)],
  ['BR-09', 'no seller country', (x) => drop(x, 'cac:AccountingSupplierParty', /<cac:Country>[\s\S]*?<\/cac:Country>/)],
  ['BR-10', 'no buyer postal address', (x) => drop(x, 'cac:AccountingCustomerParty', /<cac:PostalAddress>[\s\S]*?<\/cac:PostalAddress>/)],
  ['BR-11', 'no buyer country', (x) => drop(x, 'cac:AccountingCustomerParty', /<cac:Country>[\s\S]*?<\/cac:Country>/)],
  ['BR-12', 'no sum of line net amounts', (x) => drop(x, 'cac:LegalMonetaryTotal', /<cbc:LineExtensionAmount[^>]*>[^<]*<\/cbc:LineExtensionAmount>/)],
  ['BR-13', 'no total without VAT', (x) => drop(x, 'cac:LegalMonetaryTotal', /<cbc:TaxExclusiveAmount[^>]*>[^<]*<\/cbc:TaxExclusiveAmount>/)],
  ['BR-14', 'no total with VAT', (x) => drop(x, 'cac:LegalMonetaryTotal', /<cbc:TaxInclusiveAmount[^>]*>[^<]*<\/cbc:TaxInclusiveAmount>/)],
  ['BR-15', 'no amount due', (x) => drop(x, 'cac:LegalMonetaryTotal', /<cbc:PayableAmount[^>]*>[^<]*<\/cbc:PayableAmount>/)],
  [
    'BR-16',
    'no line (and every amount zero, so that nothing else disagrees)',
    (x) => x.replace(/\s*<cac:InvoiceLine>[\s\S]*<\/cac:InvoiceLine>/, '').replace(/>(187\.50|46\.88|234\.38)</g, '>0.00<'),
  ],
  ['BR-21', 'a line without its identifier', (x) => drop(x, 'cac:InvoiceLine', /<cbc:ID>1<\/cbc:ID>/)],
  ['BR-22', 'a line without quantity', (x) => drop(x, 'cac:InvoiceLine', /<cbc:InvoicedQuantity[^>]*>[^<]*<\/cbc:InvoicedQuantity>/)],
  ['BR-23', 'a quantity without unit', (x) => within(x, 'cac:InvoiceLine', ' unitCode="C62"', '')],
  ['BR-24', 'a line without net amount', (x) => drop(x, 'cac:InvoiceLine', /<cbc:LineExtensionAmount[^>]*>[^<]*<\/cbc:LineExtensionAmount>/)],
  ['BR-25', 'an item without name', (x) => drop(x, 'cac:InvoiceLine', /<cbc:Name>Naknada za faktoring<\/cbc:Name>/)],
  ['BR-26', 'a line without price', (x) => drop(x, 'cac:InvoiceLine', /<cac:Price>[\s\S]*?<\/cac:Price>/)],
  ['BR-27', 'a negative price', (x) => within(x, 'cac:Price', '>187.50<', '>-187.50<')],
  ['BR-49', 'payment means without code', (x) => drop(x, 'cac:PaymentMeans', /<cbc:PaymentMeansCode>30<\/cbc:PaymentMeansCode>/)],
  ['BR-61', 'a credit transfer without account', (x) => drop(x, 'cac:PaymentMeans', /<cac:PayeeFinancialAccount>[\s\S]*?<\/cac:PayeeFinancialAccount>/)],
  ['BR-62', 'a seller address without scheme', (x) => within(x, 'cac:AccountingSupplierParty', ' schemeID="9934"', '')],
  ['BR-63', 'a buyer address without scheme', (x) => within(x, 'cac:AccountingCustomerParty', ' schemeID="9934"', '')],
  ['BR-CO-04', 'a line without VAT category', (x) => drop(x, 'cac:ClassifiedTaxCategory', /<cbc:ID>S<\/cbc:ID>/)],
  ['BR-CO-09', 'a VAT identifier without country prefix', (x) => within(x, 'cac:AccountingSupplierParty', `HR${SELLER_OIB}</cbc:CompanyID>`, `XX${SELLER_OIB}</cbc:CompanyID>`)],
  [
    'BR-CO-10',
    'line nets that do not add up to BT-106 (totals above agreeing with BT-106)',
    (x) => grossTo(within(within(x, 'cac:LegalMonetaryTotal', amount('187.50'), amount('187.51')), 'cac:LegalMonetaryTotal', amount('187.50'), amount('187.51')), '234.39'),
  ],
  [
    'BR-CO-11',
    'an allowance total without allowances',
    (x) =>
      grossTo(
        within(
          x,
          'cac:LegalMonetaryTotal',
          `<cbc:TaxExclusiveAmount ${amount('187.50')}/cbc:TaxExclusiveAmount>`,
          `<cbc:TaxExclusiveAmount ${amount('187.49')}/cbc:TaxExclusiveAmount>\n    <cbc:AllowanceTotalAmount currencyID="EUR">0.01</cbc:AllowanceTotalAmount>`,
        ),
        '234.37',
      ),
  ],
  [
    'BR-CO-12',
    'a charge total without charges',
    (x) =>
      grossTo(
        within(
          x,
          'cac:LegalMonetaryTotal',
          `<cbc:TaxExclusiveAmount ${amount('187.50')}/cbc:TaxExclusiveAmount>`,
          `<cbc:TaxExclusiveAmount ${amount('187.51')}/cbc:TaxExclusiveAmount>\n    <cbc:ChargeTotalAmount currencyID="EUR">0.01</cbc:ChargeTotalAmount>`,
        ),
        '234.39',
      ),
  ],
  [
    'BR-CO-13',
    'a total without VAT that is not lines − allowances + charges',
    (x) => grossTo(within(x, 'cac:LegalMonetaryTotal', `TaxExclusiveAmount ${amount('187.50')}`, `TaxExclusiveAmount ${amount('187.51')}`), '234.39'),
  ],
  ['BR-CO-14', 'a VAT total that is not the sum of the breakdown', (x) => grossTo(within(x, 'cac:TaxTotal', amount('46.88'), amount('46.89')), '234.39')],
  ['BR-CO-15', 'a total with VAT that is not total without VAT + VAT', (x) => grossTo(x, '234.39')],
  [
    'BR-CO-16',
    'an amount due that is not total with VAT − paid + rounding',
    (x) => within(x, 'cac:LegalMonetaryTotal', `PayableAmount ${amount('234.38')}`, `PayableAmount ${amount('234.39')}`),
  ],
  // A zero-rated breakdown whose VAT is not 0 % of its taxable amount (the S rules do not apply to it).
  [
    'BR-CO-17',
    'a breakdown whose VAT is not taxable × rate',
    () => {
      const x = XML_WITH_Z;
      // A zero rate: a tax of 0.50 or more is off (less rounds to 0).
      const zeroSubtotal = within(x, 'cac:TaxTotal', amount('0.00'), amount('0.50'));
      return within(
        within(
          within(zeroSubtotal, 'cac:TaxTotal', amount('46.88'), amount('47.38')),
          'cac:LegalMonetaryTotal',
          `TaxInclusiveAmount ${amount('254.38')}`,
          `TaxInclusiveAmount ${amount('254.88')}`,
        ),
        'cac:LegalMonetaryTotal',
        `PayableAmount ${amount('254.38')}`,
        `PayableAmount ${amount('254.88')}`,
      );
    },
  ],
  // Zero-rated only: without S lines, a missing breakdown breaks BR-CO-18 alone (with them, BR-S-01 as well).
  ['BR-CO-18', 'no VAT breakdown', () => XML_ONLY_Z.replace(/\s*<cac:TaxSubtotal>[\s\S]*?<\/cac:TaxSubtotal>/, '')],
  [
    'BR-CO-25',
    'an amount due without due date or payment terms',
    (x) => x.replace(/\s*<cbc:DueDate>[^<]*<\/cbc:DueDate>/, '').replace(/\s*<cac:PaymentTerms>[\s\S]*?<\/cac:PaymentTerms>/, ''),
  ],
  // The breakdown turned Z also has no Z lines to add up to it: BR-Z-08.
  ['BR-S-01', 'standard-rated lines without a standard-rated breakdown', (x) => within(x, 'cac:TaxSubtotal', '<cbc:ID>S</cbc:ID>', '<cbc:ID>Z</cbc:ID>'), ['BR-S-01', 'BR-Z-08']],
  ['BR-S-02', 'standard-rated lines without the seller VAT identifier', (x) => drop(x, 'cac:AccountingSupplierParty', /<cac:PartyTaxScheme>[\s\S]*?<\/cac:PartyTaxScheme>/)],
  [
    'BR-S-05',
    'a standard-rated line at 0 % (its breakdown and VAT consistent with it)',
    (x) =>
      grossTo(
        within(
          within(
            within(
              within(x, 'cac:ClassifiedTaxCategory', '<cbc:Percent>25.00</cbc:Percent>', '<cbc:Percent>0.00</cbc:Percent>'),
              'cac:ClassifiedTaxCategory',
              'HR:PDV25',
              'HR:PDV0',
            ),
            'cac:TaxSubtotal',
            '<cbc:Percent>25.00</cbc:Percent>',
            '<cbc:Percent>0.00</cbc:Percent>',
          ),
          'cac:TaxTotal',
          /46\.88/g,
          '0.00',
        ),
        '187.50',
      ),
  ],
  // 187.51 × 25 % = 46.8775, which rounds to the same 46.88: only the taxable amount is wrong.
  ['BR-S-08', 'a taxable amount that is not the sum of the lines at that rate', (x) => within(x, 'cac:TaxSubtotal', amount('187.50'), amount('187.51'))],
  // BR-S-09 restates BR-CO-17 for category S: a standard-rated breakdown with a wrong VAT breaks both (one euro off: less is allowed, as by the official rule).
  [
    'BR-S-09',
    'a standard-rated VAT that is not taxable × rate',
    (x) => grossTo(within(within(x, 'cac:TaxSubtotal', amount('46.88'), amount('47.88')), 'cac:TaxTotal', amount('46.88'), amount('47.88')), '235.38'),
    ['BR-CO-17', 'BR-S-09'],
  ],
  [
    'BR-S-10',
    'a standard-rated breakdown with an exemption reason',
    (x) =>
      within(x, 'cac:TaxSubtotal', '<cbc:Percent>25.00</cbc:Percent>', '<cbc:Percent>25.00</cbc:Percent>\n          <cbc:TaxExemptionReason>Oslobođeno</cbc:TaxExemptionReason>'),
  ],
  ['BR-DEC-09', 'BT-106 with three decimals', (x) => within(x, 'cac:LegalMonetaryTotal', `LineExtensionAmount ${amount('187.50')}`, `LineExtensionAmount ${amount('187.500')}`)],
  ['BR-DEC-12', 'BT-109 with three decimals', (x) => within(x, 'cac:LegalMonetaryTotal', `TaxExclusiveAmount ${amount('187.50')}`, `TaxExclusiveAmount ${amount('187.500')}`)],
  ['BR-DEC-13', 'BT-110 with three decimals', (x) => within(x, 'cac:TaxTotal', amount('46.88'), amount('46.880'))],
  ['BR-DEC-14', 'BT-112 with three decimals', (x) => within(x, 'cac:LegalMonetaryTotal', `TaxInclusiveAmount ${amount('234.38')}`, `TaxInclusiveAmount ${amount('234.380')}`)],
  ['BR-DEC-18', 'BT-115 with three decimals', (x) => within(x, 'cac:LegalMonetaryTotal', `PayableAmount ${amount('234.38')}`, `PayableAmount ${amount('234.380')}`)],
  ['BR-DEC-19', 'BT-116 with three decimals', (x) => within(x, 'cac:TaxSubtotal', amount('187.50'), amount('187.500'))],
  ['BR-DEC-20', 'BT-117 with three decimals', (x) => within(x, 'cac:TaxSubtotal', amount('46.88'), amount('46.880'))],
  ['BR-DEC-23', 'BT-131 with three decimals', (x) => within(x, 'cac:InvoiceLine', amount('187.50'), amount('187.500'))],
  ['HR-BR-5', 'the plain EN 16931 identifier', (x) => x.replace(/<cbc:CustomizationID>[^<]*</, '<cbc:CustomizationID>urn:cen.eu:en16931:2017<')],
  ['HR-BR-34', 'a process P13', (x) => x.replace('<cbc:ProfileID>P1</cbc:ProfileID>', '<cbc:ProfileID>P13</cbc:ProfileID>')],
  ['HR-BR-2', 'no issue time', (x) => x.replace(/\s*<cbc:IssueTime>[^<]*<\/cbc:IssueTime>/, '')],
  ['HR-BR-2', 'an issue time without seconds', (x) => x.replace('<cbc:IssueTime>09:41:17</cbc:IssueTime>', '<cbc:IssueTime>9:41</cbc:IssueTime>')],
  ['HR-BR-4', 'payment terms but no due date', (x) => x.replace(/\s*<cbc:DueDate>[^<]*<\/cbc:DueDate>/, '')],
  ['BT-9', 'a due date before the issue date', (x) => x.replace('<cbc:DueDate>2026-03-17</cbc:DueDate>', '<cbc:DueDate>2026-03-01</cbc:DueDate>')],
  ['HR-CIUS-SELLER-OIB', 'a seller address in another scheme', (x) => within(x, 'cac:AccountingSupplierParty', 'schemeID="9934"', 'schemeID="0088"')],
  [
    'HR-CIUS-SELLER-OIB',
    'a seller address that is no valid OIB',
    (x) => within(x, 'cac:AccountingSupplierParty', `>${SELLER_OIB}</cbc:EndpointID>`, `>${SELLER_OIB.slice(0, 10)}${(Number(SELLER_OIB[10]) + 1) % 10}</cbc:EndpointID>`),
  ],
  ['HR-CIUS-BUYER-OIB', 'a buyer address in another scheme', (x) => within(x, 'cac:AccountingCustomerParty', 'schemeID="9934"', 'schemeID="0088"')],
  ['HR-CIUS-VAT-ID', 'a buyer VAT identifier of another OIB', (x) => within(x, 'cac:AccountingCustomerParty', `HR${BUYER_OIB}`, `HR${OTHER_OIB}`)],
  ['HR-BR-37', 'no operator (nor its OIB)', (x) => drop(x, 'cac:AccountingSupplierParty', /<cac:SellerContact>[\s\S]*?<\/cac:SellerContact>/), ['HR-BR-37', 'HR-BR-9']],
  ['HR-BR-9', 'an operator without a valid OIB', (x) => within(x, 'cac:SellerContact', `<cbc:ID>${SELLER_OIB}</cbc:ID>`, '<cbc:ID>Ivana</cbc:ID>')],
  ['HR-BR-25', 'a classification in another list', (x) => within(x, 'cac:CommodityClassification', 'listID="CG"', 'listID="STI"')],
  ['HR-BR-CL-2', 'a KPD code of four digits', (x) => within(x, 'cac:CommodityClassification', '>64.92.07<', '>64.92<')],
  ['HR-BR-CL-2', 'a KPD 2015 code the 2025 list no longer has', (x) => within(x, 'cac:CommodityClassification', '>64.92.07<', '>64.99.19<')],
  ['HR-CIUS-TAX-NAME', 'a tax category without the HR name', (x) => within(x, 'cac:ClassifiedTaxCategory', 'HR:PDV25', 'PDV')],
  ['HR-CIUS-PAYMENT-ID', 'a payment reference without model', (x) => within(x, 'cac:PaymentMeans', '>HR00 2026-000001<', '>2026-000001<')],
  ['BR-CL-01', 'an Invoice with the credit note type code', (x) => x.replace('<cbc:InvoiceTypeCode>380<', '<cbc:InvoiceTypeCode>381<')],
  ['BR-CL-01', 'a CreditNote with the invoice type code', () => CREDIT_NOTE_XML.replace('<cbc:CreditNoteTypeCode>381<', '<cbc:CreditNoteTypeCode>380<')],
  ['BR-55', 'a preceding invoice reference without its number', () => within(COMPLETION_XML, 'cac:BillingReference', '<cbc:ID>FF-2026-000001</cbc:ID>', '')],
  ['HR-BR-6', 'a preceding invoice reference without its issue date', () => within(COMPLETION_XML, 'cac:BillingReference', '<cbc:IssueDate>2026-03-02</cbc:IssueDate>', '')],
  ['HR-BR-6', 'a preceding invoice issue date that is no date', () => within(COMPLETION_XML, 'cac:BillingReference', '>2026-03-02<', '>2026-02-30<')],
  ['HR-CIUS-CREDIT-NOTE-REF', 'a credit note naming no invoice', () => drop(CREDIT_NOTE_XML, 'CreditNote', /\s*<cac:BillingReference>[\s\S]*?<\/cac:BillingReference>/)],
  // A CreditNote's due date (BT-9) is its PaymentMeans/PaymentDueDate: read there.
  [
    'BT-9',
    'a credit note whose payment due date is before its issue date',
    () => writeUblInvoice({ ...sample(), kind: 'creditNote', typeCode: '381', dueDate: '2026-03-01', precedingInvoice: PRECEDING }).xml,
  ],
];

describe('the conforming documents', () => {
  it.each([
    ['one standard-rated line', XML],
    ['a standard-rated and a zero-rated line', XML_WITH_Z],
    ['one zero-rated line', XML_ONLY_Z],
    ['a completing invoice referring to the fee invoice', COMPLETION_XML],
    // Its positive amount is credited, not due from the buyer: no due date is needed beside the payment terms (HR-BR-4 reads it negated).
    ['a credit note (CreditNote, 381) referring to the fee invoice, with nothing due', CREDIT_NOTE_XML],
    [
      'a credit note paid back by transfer, due (PaymentDueDate) after its issue date',
      writeUblInvoice({ ...sample(), kind: 'creditNote', typeCode: '381', precedingInvoice: PRECEDING }).xml,
    ],
  ])('%s break no rule', (_what, xml) => {
    expect(validateEn16931(xml)).toEqual([]);
  });

  it('are also read by the intake reader, which checks the calculation rules its own way', () => {
    const read = parseUblInvoice(XML);
    expect(read).toMatchObject({ invoiceNumber: 'FF-2026-000001', amount: 23438, totals: { lineExtension: 18750, taxAmount: 4688, payable: 23438 } });
    expect(read.seller.oib).toBe(SELLER_OIB);
    expect(read.buyer.oib).toBe(BUYER_OIB);
    expect(read.lines[0]).toMatchObject({ kpdCode: '64.92.07', vatName: 'HR:PDV25', vatRate: '25.00' });
  });
});

describe('each rule', () => {
  it('has at least one case below', () => {
    // BR-x-01 and BR-x-08 are families of the VAT categories: a case of any member (BR-S-08) covers it (BR-CL-01, a code list rule, is none).
    const family = (rule: string) => rule.replace(/^BR-(?!CL-)[A-Z]+-(01|08)$/, 'BR-x-$1');
    expect([...new Set(CASES.map(([rule]) => family(rule)))].sort()).toEqual(RULES.map((rule) => rule.id).sort());
  });

  it.each(CASES)('%s fails for %s', (rule, _what, mutate, expected = [rule]) => {
    const broken = mutate(XML);
    expect(broken).not.toBe(XML);
    const violations = validateEn16931(broken);
    expect(violations.map((violation) => violation.rule)).toEqual(expected);
    expect(violations.every((violation) => violation.message.length > 0)).toBe(true);
  });
});

describe('documents that are not UBL invoices', () => {
  it('refuses malformed XML and other roots with one violation', () => {
    expect(validateEn16931('<Invoice>')).toEqual([expect.objectContaining({ rule: 'XML' })]);
    expect(validateEn16931('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><x/>')).toEqual([expect.objectContaining({ rule: 'XML' })]);
    expect(validateEn16931(XML.replace(/Invoice-2"/, 'CreditNote-2"'))).toEqual([expect.objectContaining({ rule: 'UBL' })]);
  });
});
