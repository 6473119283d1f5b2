import { centsToDecimalString, percentOfCents, sumCents } from '../utils/money.ts';
import { decimalToFixed, lineAmountCents, parseDecimal } from './decimal.ts';
import { el, serialiseXml, type XmlNode } from '../xml/writer.ts';
import { HR_CIUS_CUSTOMIZATION_ID, OIB_SCHEME_ID, UBL_CREDIT_NOTE_NS, UBL_INVOICE_NS } from './ubl-constants.ts';

/**
 * Writes a UBL 2.1 Invoice or CreditNote conforming to EN 16931 and the
 * Croatian CIUS (docs/croatian-formats.md, docs/decisions/006-outgoing-einvoices.md,
 * docs/decisions/015-fee-documents-at-settlement.md). The two differ only in
 * the root and its namespace, the type code element, the line element and its
 * quantity element, and where the due date goes (BT-9: the Invoice's DueDate,
 * a CreditNote's PaymentMeans/PaymentDueDate); a credit note states positive
 * amounts, as EN 16931 requires. The writer computes every
 * amount from the lines (line net = quantity × price to the cent; per VAT
 * category and rate: taxable = sum of line nets, VAT = taxable × rate rounded
 * once half-up; the document totals from those), so the totals agree by
 * construction; en16931-rules.server.ts checks the written document
 * independently before it is sent.
 *
 * The XML is built as an element tree and serialised in one place
 * (app/xml/writer.ts), so every text and attribute value is escaped (and
 * stripped of characters XML 1.0 cannot carry): no value is ever
 * concatenated into markup. Elements are in the order the UBL 2.1 schema
 * requires.
 */

const CAC_NS = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
const CBC_NS = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';

export interface UblWriteParty {
  name: string;
  oib: string;
  /** The VAT identifier (BT-31 / BT-48), 'HR' + OIB for a Croatian taxable person. */
  vatId: string | null;
  street: string | null;
  city: string | null;
  postalCode: string | null;
  /** ISO 3166-1 alpha-2. */
  countryCode: string;
  email?: string | null;
}

export interface UblWriteLine {
  id: string;
  name: string;
  description?: string | null;
  /** Decimal text, e.g. '1'. */
  quantity: string;
  /** UN/ECE Rec 20, e.g. 'C62' (one). */
  unitCode: string;
  /** Net unit price (BT-146), decimal text. */
  price: string;
  /** KPD 2025 (ItemClassificationCode listID="CG"). */
  kpdCode: string;
  /** UNTDID 5305 category, rate in percent as decimal text, and the HR tax category name (e.g. 'HR:PDV25'). */
  vat: { category: string; rate: string; name: string };
}

/** The UBL document written: an Invoice (380, also a completing invoice) or a CreditNote (381). */
export type UblDocumentKind = 'invoice' | 'creditNote';

const KIND = {
  invoice: { root: 'Invoice', ns: UBL_INVOICE_NS, typeCode: 'cbc:InvoiceTypeCode', line: 'cac:InvoiceLine', quantity: 'cbc:InvoicedQuantity' },
  creditNote: { root: 'CreditNote', ns: UBL_CREDIT_NOTE_NS, typeCode: 'cbc:CreditNoteTypeCode', line: 'cac:CreditNoteLine', quantity: 'cbc:CreditedQuantity' },
} as const;

export interface UblWriteInvoice {
  /** Default 'invoice'. */
  kind?: UblDocumentKind;
  number: string;
  /** 'YYYY-MM-DD' and 'hh:mm:ss' in Croatian time. */
  issueDate: string;
  issueTime: string;
  /** BT-9; null for a document with nothing due (a credit note settled in the client's account). */
  dueDate: string | null;
  /** UNTDID 1001: 380 commercial invoice, 381 credit note. */
  typeCode: string;
  currency: string;
  /** HR CIUS business process (BT-23), P1–P12 or P99. */
  profileId: string;
  notes: string[];
  /** The preceding invoice this document completes or credits (BG-3: BT-25 number, BT-26 issue date). */
  precedingInvoice?: { number: string; issueDate: string } | null;
  seller: UblWriteParty;
  /** The operator who issued it (HR CIUS: cac:SellerContact, ID = OIB, Name). */
  sellerContact: { oib: string; name: string };
  buyer: UblWriteParty;
  /** The payment instruction (BG-16); null when nothing is to be paid by transfer (a credit note). */
  payment: {
    /** UNTDID 4461: 30 credit transfer, 58 SEPA credit transfer. */
    meansCode: string;
    iban: string;
    bic: string | null;
    /** BT-83 in a Croatian model, e.g. 'HR00 2026-000001'. */
    reference: string;
  } | null;
  paymentTermsNote?: string | null;
  lines: UblWriteLine[];
}

export interface UblVatGroup {
  category: string;
  /** Percent with two decimals ('25.00'). */
  rate: string;
  name: string;
  taxable: number;
  tax: number;
}

/** All in cents. */
export interface UblWrittenTotals {
  lineNets: number[];
  lineExtension: number;
  taxExclusive: number;
  tax: number;
  taxInclusive: number;
  payable: number;
  vat: UblVatGroup[];
}

// ---------------------------------------------------------------------------

/** Amounts carry their currency (currencyID) and exactly two decimals. */
const amount = (tag: string, cents: number, currency: string) => el(tag, centsToDecimalString(cents), { currencyID: currency });

function rateText(rate: string): string {
  const parsed = parseDecimal(rate);
  if (!parsed) throw new RangeError(`not a VAT rate: ${rate}`);
  return decimalToFixed(parsed, 2);
}

/** The EN 16931 figures of the lines: line nets, the VAT breakdown per category and rate, the totals. */
export function computeTotals(lines: UblWriteLine[]): UblWrittenTotals {
  const lineNets = lines.map((line) => {
    const quantity = parseDecimal(line.quantity);
    const price = parseDecimal(line.price);
    if (!quantity || !price) throw new RangeError(`line ${line.id}: quantity and price must be decimals`);
    return lineAmountCents(quantity, price);
  });
  const groups = new Map<string, { category: string; rate: string; name: string; nets: number[] }>();
  lines.forEach((line, index) => {
    const rate = rateText(line.vat.rate);
    const key = `${line.vat.category} ${rate}`;
    const group = groups.get(key) ?? { category: line.vat.category, rate, name: line.vat.name, nets: [] };
    group.nets.push(lineNets[index]);
    groups.set(key, group);
  });
  const vat = [...groups.values()].map(({ category, rate, name, nets }) => {
    const taxable = sumCents(nets);
    return { category, rate, name, taxable, tax: percentOfCents(taxable, rate) };
  });
  const lineExtension = sumCents(lineNets);
  const tax = sumCents(vat.map((group) => group.tax));
  // No document-level allowances, charges, prepayment or rounding: exclusive = lines, payable = inclusive.
  return { lineNets, lineExtension, taxExclusive: lineExtension, tax, taxInclusive: lineExtension + tax, payable: lineExtension + tax, vat };
}

function party(p: UblWriteParty, role: 'supplier' | 'customer'): XmlNode | null {
  return el('cac:Party', [
    el('cbc:EndpointID', p.oib, { schemeID: OIB_SCHEME_ID }),
    el('cac:PartyName', [el('cbc:Name', p.name)]),
    el('cac:PostalAddress', [
      el('cbc:StreetName', p.street),
      el('cbc:CityName', p.city),
      el('cbc:PostalZone', p.postalCode),
      el('cac:Country', [el('cbc:IdentificationCode', p.countryCode)]),
    ]),
    p.vatId ? el('cac:PartyTaxScheme', [el('cbc:CompanyID', p.vatId), el('cac:TaxScheme', [el('cbc:ID', 'VAT')])]) : null,
    el('cac:PartyLegalEntity', [el('cbc:RegistrationName', p.name), el('cbc:CompanyID', p.oib)]),
    // The buyer's contact email helps the intermediary route a copy; the seller's is not needed.
    role === 'customer' && p.email ? el('cac:Contact', [el('cbc:ElectronicMail', p.email)]) : null,
  ]);
}

function taxCategory(tag: string, group: { category: string; rate: string; name?: string }): XmlNode | null {
  return el(tag, [el('cbc:ID', group.category), group.name ? el('cbc:Name', group.name) : null, el('cbc:Percent', group.rate), el('cac:TaxScheme', [el('cbc:ID', 'VAT')])]);
}

/** The UBL document and the figures it states. Throws RangeError on a line that is not decimal. */
export function writeUblInvoice(input: UblWriteInvoice): { xml: string; totals: UblWrittenTotals } {
  const kind = KIND[input.kind ?? 'invoice'];
  const isCreditNote = kind.root === 'CreditNote';
  const totals = computeTotals(input.lines);
  const c = input.currency;
  const root = el(
    kind.root,
    [
      el('cbc:CustomizationID', HR_CIUS_CUSTOMIZATION_ID),
      el('cbc:ProfileID', input.profileId),
      el('cbc:ID', input.number),
      el('cbc:IssueDate', input.issueDate),
      el('cbc:IssueTime', input.issueTime),
      // A UBL 2.1 CreditNote has no DueDate: its BT-9 is PaymentMeans/PaymentDueDate.
      isCreditNote ? null : el('cbc:DueDate', input.dueDate),
      el(kind.typeCode, input.typeCode),
      ...input.notes.map((note) => el('cbc:Note', note)),
      el('cbc:DocumentCurrencyCode', c),
      input.precedingInvoice
        ? el('cac:BillingReference', [el('cac:InvoiceDocumentReference', [el('cbc:ID', input.precedingInvoice.number), el('cbc:IssueDate', input.precedingInvoice.issueDate)])])
        : null,
      el('cac:AccountingSupplierParty', [
        party(input.seller, 'supplier'),
        el('cac:SellerContact', [el('cbc:ID', input.sellerContact.oib), el('cbc:Name', input.sellerContact.name)]),
      ]),
      el('cac:AccountingCustomerParty', [party(input.buyer, 'customer')]),
      input.payment
        ? el('cac:PaymentMeans', [
            el('cbc:PaymentMeansCode', input.payment.meansCode),
            isCreditNote ? el('cbc:PaymentDueDate', input.dueDate) : null,
            el('cbc:PaymentID', input.payment.reference),
            el('cac:PayeeFinancialAccount', [el('cbc:ID', input.payment.iban), input.payment.bic ? el('cac:FinancialInstitutionBranch', [el('cbc:ID', input.payment.bic)]) : null]),
          ])
        : null,
      input.paymentTermsNote ? el('cac:PaymentTerms', [el('cbc:Note', input.paymentTermsNote)]) : null,
      el('cac:TaxTotal', [
        amount('cbc:TaxAmount', totals.tax, c),
        ...totals.vat.map((group) =>
          el('cac:TaxSubtotal', [amount('cbc:TaxableAmount', group.taxable, c), amount('cbc:TaxAmount', group.tax, c), taxCategory('cac:TaxCategory', group)]),
        ),
      ]),
      el('cac:LegalMonetaryTotal', [
        amount('cbc:LineExtensionAmount', totals.lineExtension, c),
        amount('cbc:TaxExclusiveAmount', totals.taxExclusive, c),
        amount('cbc:TaxInclusiveAmount', totals.taxInclusive, c),
        amount('cbc:PayableAmount', totals.payable, c),
      ]),
      ...input.lines.map((line, index) =>
        el(kind.line, [
          el('cbc:ID', line.id),
          el(kind.quantity, line.quantity, { unitCode: line.unitCode }),
          amount('cbc:LineExtensionAmount', totals.lineNets[index], c),
          el('cac:Item', [
            el('cbc:Description', line.description ?? null),
            el('cbc:Name', line.name),
            el('cac:CommodityClassification', [el('cbc:ItemClassificationCode', line.kpdCode, { listID: 'CG' })]),
            taxCategory('cac:ClassifiedTaxCategory', { ...line.vat, rate: rateText(line.vat.rate) }),
          ]),
          el('cac:Price', [el('cbc:PriceAmount', line.price, { currencyID: c })]),
        ]),
      ),
    ],
    { xmlns: kind.ns, 'xmlns:cac': CAC_NS, 'xmlns:cbc': CBC_NS },
  )!;
  return { xml: `<?xml version="1.0" encoding="UTF-8"?>\n${serialiseXml(root)}\n`, totals };
}
