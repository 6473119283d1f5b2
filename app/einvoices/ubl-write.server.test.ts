import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { croatianIban, oibCheckDigit } from '../utils/validation.ts';
import { validateEn16931 } from './en16931-rules.server.ts';
import { parseUblInvoice } from './ubl-document.server.ts';
import { all, first, parseUblXml, textOf } from './ubl-xml.server.ts';
import { escapeXml } from '../xml/writer.ts';
import { computeTotals, writeUblInvoice, type UblWriteInvoice, type UblWriteLine } from './ubl-write.server.ts';

const oib = (first10: string) => `${first10}${oibCheckDigit(first10)}`;
const SELLER = oib('6180355482');
const BUYER = oib('4712058930');

const line = (id: string, price: string, rate = '25', quantity = '1'): UblWriteLine => ({
  id,
  name: `Usluga ${id}`,
  quantity,
  unitCode: 'C62',
  price,
  kpdCode: '64.92.07',
  vat: { category: 'S', rate, name: `HR:PDV${rate}` },
});

function invoice(overrides: Partial<UblWriteInvoice> = {}): UblWriteInvoice {
  return {
    number: 'FF-2026-000007',
    issueDate: '2026-05-04',
    issueTime: '14:05:00',
    dueDate: '2026-05-19',
    typeCode: '380',
    currency: 'EUR',
    profileId: 'P1',
    notes: [],
    seller: { name: 'FinFlow Faktoring d.o.o.', oib: SELLER, vatId: `HR${SELLER}`, street: 'Radnička cesta 80', city: 'Zagreb', postalCode: '10000', countryCode: 'HR' },
    sellerContact: { oib: SELLER, name: 'Marko Marić' },
    buyer: { name: 'Kupac d.o.o.', oib: BUYER, vatId: `HR${BUYER}`, street: null, city: 'Split', postalCode: '21000', countryCode: 'HR' },
    payment: { meansCode: '30', iban: croatianIban('2402006', '1100123456'), bic: null, reference: 'HR00 2026-000007' },
    lines: [line('1', '100.00')],
    ...overrides,
  };
}

describe('computeTotals', () => {
  it('rounds the VAT once per category and rate, not per line (EN 16931 BR-CO-17)', () => {
    // Three lines of 0.10 at 25 %: per line 0.025 → 0.03 each (0.09 in all); on the sum 0.30 → 0.075 → 0.08.
    const totals = computeTotals([line('1', '0.10'), line('2', '0.10'), line('3', '0.10')]);
    expect(totals.vat).toEqual([{ category: 'S', rate: '25.00', name: 'HR:PDV25', taxable: 30, tax: 8 }]);
    expect(totals).toMatchObject({ lineExtension: 30, taxExclusive: 30, tax: 8, taxInclusive: 38, payable: 38 });
  });

  it('keeps one breakdown per rate and rounds line nets half-up to the cent', () => {
    const totals = computeTotals([line('1', '33.335', '25', '3'), line('2', '10.00', '13'), line('3', '0.005', '25')]);
    // 3 × 33.335 = 100.005 → 100.01; 0.005 → 0.01.
    expect(totals.lineNets).toEqual([10001, 1000, 1]);
    expect(totals.vat).toEqual([
      { category: 'S', rate: '25.00', name: 'HR:PDV25', taxable: 10002, tax: 2501 },
      { category: 'S', rate: '13.00', name: 'HR:PDV13', taxable: 1000, tax: 130 },
    ]);
    expect(totals.payable).toBe(10002 + 2501 + 1000 + 130);
  });

  it('refuses a line whose quantity or price is not a decimal', () => {
    expect(() => computeTotals([line('1', '1e3')])).toThrow(RangeError);
    expect(() => computeTotals([line('1', '1.00', '25', 'one')])).toThrow(RangeError);
  });
});

describe('writeUblInvoice', () => {
  it('writes the HR CIUS header, parties, payment, totals and line in schema order', () => {
    const { xml } = writeUblInvoice(invoice({ notes: ['Napomena'], paymentTermsNote: 'U roku od 15 dana' }));
    expect(XMLValidator.validate(xml)).toBe(true);
    const root = parseUblXml(xml);
    const order = root.children.map((child) => child.name);
    expect(order).toEqual([
      'CustomizationID',
      'ProfileID',
      'ID',
      'IssueDate',
      'IssueTime',
      'DueDate',
      'InvoiceTypeCode',
      'Note',
      'DocumentCurrencyCode',
      'AccountingSupplierParty',
      'AccountingCustomerParty',
      'PaymentMeans',
      'PaymentTerms',
      'TaxTotal',
      'LegalMonetaryTotal',
      'InvoiceLine',
    ]);
    const seller = first(root, 'cac:AccountingSupplierParty');
    expect(first(seller, 'cac:Party', 'cbc:EndpointID')?.attrs).toEqual({ schemeID: '9934' });
    expect(textOf(seller, 'cac:Party', 'cbc:EndpointID')).toBe(SELLER);
    expect(textOf(seller, 'cac:Party', 'cac:PartyTaxScheme', 'cbc:CompanyID')).toBe(`HR${SELLER}`);
    expect(seller?.children.map((child) => child.name)).toEqual(['Party', 'SellerContact']);
    expect(textOf(seller, 'cac:SellerContact', 'cbc:ID')).toBe(SELLER);
    const means = first(root, 'cac:PaymentMeans');
    expect(textOf(means, 'cbc:PaymentMeansCode')).toBe('30');
    expect(textOf(means, 'cbc:PaymentID')).toBe('HR00 2026-000007');
    // No BIC given: no FinancialInstitutionBranch.
    expect(all(means, 'cac:PayeeFinancialAccount', 'cac:FinancialInstitutionBranch')).toEqual([]);
    const item = first(root, 'cac:InvoiceLine', 'cac:Item');
    expect(first(item, 'cac:CommodityClassification', 'cbc:ItemClassificationCode')?.attrs).toEqual({ listID: 'CG' });
    expect(textOf(item, 'cac:ClassifiedTaxCategory', 'cbc:Name')).toBe('HR:PDV25');
    expect(textOf(item, 'cac:ClassifiedTaxCategory', 'cbc:Percent')).toBe('25.00');
    // A missing street is left out, not written empty.
    expect(first(root, 'cac:AccountingCustomerParty', 'cac:Party', 'cac:PostalAddress', 'cbc:StreetName')).toBeUndefined();
    expect(textOf(root, 'cac:LegalMonetaryTotal', 'cbc:PayableAmount')).toBe('125.00');
    expect(first(root, 'cac:LegalMonetaryTotal', 'cbc:PayableAmount')?.attrs).toEqual({ currencyID: 'EUR' });
    expect(validateEn16931(xml)).toEqual([]);
  });

  it('escapes every text and attribute, and drops characters XML 1.0 cannot carry', () => {
    const hostile = `Kupac <b>&amp;</b> "Škola" 'd.o.o.' ]]> \u0001\u000B\uFFFE kraj`;
    const { xml } = writeUblInvoice(
      invoice({
        notes: [hostile, '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>&e;'],
        buyer: { ...invoice().buyer, name: hostile, email: 'a"b@example.hr' },
        lines: [{ ...line('1', '100.00'), description: '</cbc:Description><cbc:Name>x</cbc:Name>', unitCode: 'C62" evil="1' }],
      }),
    );
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).not.toContain('<b>');
    expect(xml).not.toContain('<!DOCTYPE');
    // The reader gets back exactly what was written, minus the characters XML cannot hold.
    const read = parseUblInvoice(xml);
    expect(read.buyer.name).toBe(`Kupac <b>&amp;</b> "Škola" 'd.o.o.' ]]>  kraj`);
    expect(read.notes[1]).toBe('<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>&e;');
    expect(read.buyer.email).toBe('a"b@example.hr');
    expect(first(parseUblXml(xml), 'cac:InvoiceLine', 'cbc:InvoicedQuantity')?.attrs).toEqual({ unitCode: 'C62" evil="1' });
    expect(read.lines[0].description).toBe('Usluga 1 — </cbc:Description><cbc:Name>x</cbc:Name>');
  });

  it('keeps astral characters and refuses lone surrogates', () => {
    expect(escapeXml('€ 😀 \uD800x')).toBe('€ 😀 x');
  });
});

describe('a CreditNote (381)', () => {
  const preceding = { number: 'FF-2026-000001', issueDate: '2026-05-01' };
  const credit = (overrides: Partial<UblWriteInvoice> = {}) =>
    // Payment terms say how the credit is settled: EN 16931 (BR-CO-25) wants them, or a due date, beside a positive BT-115.
    writeUblInvoice(
      invoice({ kind: 'creditNote', typeCode: '381', dueDate: null, payment: null, paymentTermsNote: 'Prebija se u obračunu.', precedingInvoice: preceding, ...overrides }),
    );

  it('is written in the CreditNote namespace with its own type code, line and quantity elements, positive amounts and the reference', () => {
    const { xml, totals } = credit();
    const root = parseUblXml(xml);
    expect([root.name, root.ns]).toEqual(['CreditNote', 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2']);
    expect(textOf(root, 'cbc:CreditNoteTypeCode')).toBe('381');
    expect([textOf(root, 'cbc:InvoiceTypeCode'), textOf(root, 'cbc:DueDate'), first(root, 'cac:PaymentMeans')]).toEqual([null, null, undefined]);
    expect(all(root, 'cac:InvoiceLine')).toEqual([]);
    const [creditLine] = all(root, 'cac:CreditNoteLine');
    expect(first(creditLine, 'cbc:CreditedQuantity')?.attrs.unitCode).toBe('C62');
    expect([
      textOf(root, 'cac:BillingReference', 'cac:InvoiceDocumentReference', 'cbc:ID'),
      textOf(root, 'cac:BillingReference', 'cac:InvoiceDocumentReference', 'cbc:IssueDate'),
    ]).toEqual(['FF-2026-000001', '2026-05-01']);
    expect(totals).toMatchObject({ lineExtension: 10000, tax: 2500, payable: 12500 });
    expect(textOf(root, 'cac:LegalMonetaryTotal', 'cbc:PayableAmount')).toBe('125.00');
    expect(validateEn16931(xml)).toEqual([]);
  });

  it('carries a due date, if one is given, in its payment means (a UBL 2.1 CreditNote has no DueDate)', () => {
    const { xml } = credit({ dueDate: '2026-05-19', payment: invoice().payment });
    const root = parseUblXml(xml);
    expect(textOf(root, 'cac:PaymentMeans', 'cbc:PaymentDueDate')).toBe('2026-05-19');
    expect(textOf(root, 'cbc:DueDate')).toBeNull();
    expect(validateEn16931(xml)).toEqual([]);
  });

  it('an Invoice keeps its elements: no reference unless one is given', () => {
    expect(writeUblInvoice(invoice()).xml).not.toContain('BillingReference');
    expect(writeUblInvoice(invoice({ precedingInvoice: preceding })).xml).toMatch(/<\/cbc:DocumentCurrencyCode>\s*<cac:BillingReference>/);
  });
});
