import { decimalToFixed, parseDecimal, type Decimal } from './decimal.ts';
import { UBL_CREDIT_NOTE_NS, UBL_INVOICE_NS } from './ubl-constants.ts';
import { all, first, textOf, type XmlElement } from './ubl-xml.server.ts';

/**
 * An e-invoice as the rules of en16931-rules.server.ts see it: the business
 * terms they check, read from the XML as written (never from the writer's
 * inputs), so the rules judge what is actually sent or received.
 */

export interface Amount {
  text: string;
  /** Cents, rounded half-up when more than two decimals are written (BR-DEC reports those); null when not a number. */
  cents: number | null;
  decimals: number;
}

export interface PartyView {
  name: string | null;
  endpointId: string | null;
  endpointScheme: string | null;
  vatIds: string[];
  hasAddress: boolean;
  countryCode: string | null;
}

export interface LineView {
  label: string;
  id: string | null;
  quantity: string | null;
  unitCode: string | null;
  net: Amount | null;
  itemName: string | null;
  price: Decimal | null;
  priceText: string | null;
  category: string | null;
  rate: string | null;
  taxName: string | null;
  kpdCodes: string[];
}

export interface SubtotalView {
  taxable: Amount | null;
  tax: Amount | null;
  category: string | null;
  rate: string | null;
  exemption: string | null;
}

export interface AllowanceChargeView {
  isCharge: boolean;
  amount: Amount | null;
  category: string | null;
  rate: string | null;
}

/** The UBL document: an Invoice or a CreditNote, each in its own namespace; null for anything else. */
export type DocumentKind = 'invoice' | 'creditNote';

export function documentKindOf(root: XmlElement): DocumentKind | null {
  if (root.name === 'Invoice' && root.ns === UBL_INVOICE_NS) return 'invoice';
  if (root.name === 'CreditNote' && root.ns === UBL_CREDIT_NOTE_NS) return 'creditNote';
  return null;
}

export interface DocumentView {
  kind: DocumentKind | null;
  customizationId: string | null;
  profileId: string | null;
  number: string | null;
  issueDate: string | null;
  issueTime: string | null;
  dueDate: string | null;
  typeCode: string | null;
  currency: string | null;
  paymentTermsNote: string | null;
  /** Preceding invoice references (BG-3): BT-25 and BT-26 as written. */
  precedingInvoices: Array<{ id: string | null; issueDate: string | null }>;
  seller: PartyView | null;
  buyer: PartyView | null;
  sellerContact: { id: string | null; name: string | null } | null;
  lines: LineView[];
  allowanceCharges: AllowanceChargeView[];
  paymentMeans: Array<{ code: string | null; accountIds: string[]; paymentId: string | null }>;
  taxAmount: Amount | null;
  subtotals: SubtotalView[];
  totals: Record<'lineExtension' | 'taxExclusive' | 'taxInclusive' | 'allowances' | 'charges' | 'prepaid' | 'rounding' | 'payable', Amount | null>;
}

function amountOf(element: XmlElement | undefined): Amount | null {
  if (!element) return null;
  const value = parseDecimal(element.text);
  if (!value) return { text: element.text, cents: null, decimals: 0 };
  const cents = Number(decimalToFixed(value, 2).replace('.', ''));
  return { text: element.text, cents, decimals: value.scale };
}

/** '25', '25.0', '25.00' → '25.00'. */
function rateOf(text: string | null): string | null {
  // An absent rate is 0 (categories E, O, … have none); one that is not a number is null.
  if (text === null) return '0.00';
  const value = parseDecimal(text);
  return value ? decimalToFixed(value, 2) : null;
}

function partyOf(role: XmlElement | undefined): PartyView | null {
  const party = first(role, 'cac:Party');
  if (!party) return null;
  const endpoint = first(party, 'cbc:EndpointID');
  return {
    name: textOf(party, 'cac:PartyLegalEntity', 'cbc:RegistrationName'),
    endpointId: endpoint?.text || null,
    endpointScheme: endpoint?.attrs.schemeID ?? null,
    vatIds: all(party, 'cac:PartyTaxScheme')
      .filter((scheme) => textOf(scheme, 'cac:TaxScheme', 'cbc:ID') === 'VAT')
      .map((scheme) => textOf(scheme, 'cbc:CompanyID'))
      .filter((id): id is string => id !== null),
    hasAddress: first(party, 'cac:PostalAddress') !== undefined,
    countryCode: textOf(party, 'cac:PostalAddress', 'cac:Country', 'cbc:IdentificationCode'),
  };
}

/** The view the rules check, read from a parsed document (ubl-xml.server.ts). */
export function readDocument(root: XmlElement): DocumentView {
  const totals = first(root, 'cac:LegalMonetaryTotal');
  const taxTotals = all(root, 'cac:TaxTotal');
  const currency = textOf(root, 'cbc:DocumentCurrencyCode');
  // BT-110 is the TaxTotal in the document currency, the one with the breakdown; a second one (BT-111) has none.
  const taxTotal =
    taxTotals.find((total) => first(total, 'cac:TaxSubtotal')) ?? taxTotals.find((total) => first(total, 'cbc:TaxAmount')?.attrs.currencyID === currency) ?? taxTotals[0];
  const contact = first(root, 'cac:AccountingSupplierParty', 'cac:SellerContact');
  const kind = documentKindOf(root);
  const creditNote = kind === 'creditNote';
  return {
    kind,
    customizationId: textOf(root, 'cbc:CustomizationID'),
    profileId: textOf(root, 'cbc:ProfileID'),
    number: textOf(root, 'cbc:ID'),
    issueDate: textOf(root, 'cbc:IssueDate'),
    issueTime: textOf(root, 'cbc:IssueTime'),
    // A UBL 2.1 CreditNote carries BT-9 in its payment means (it has no DueDate).
    dueDate: creditNote ? (all(root, 'cac:PaymentMeans', 'cbc:PaymentDueDate').find((date) => date.text !== '')?.text ?? null) : textOf(root, 'cbc:DueDate'),
    typeCode: textOf(root, creditNote ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode'),
    currency,
    paymentTermsNote: textOf(root, 'cac:PaymentTerms', 'cbc:Note'),
    precedingInvoices: all(root, 'cac:BillingReference').map((reference) => ({
      id: textOf(reference, 'cac:InvoiceDocumentReference', 'cbc:ID'),
      issueDate: textOf(reference, 'cac:InvoiceDocumentReference', 'cbc:IssueDate'),
    })),
    seller: partyOf(first(root, 'cac:AccountingSupplierParty')),
    buyer: partyOf(first(root, 'cac:AccountingCustomerParty')),
    sellerContact: contact ? { id: textOf(contact, 'cbc:ID'), name: textOf(contact, 'cbc:Name') } : null,
    lines: all(root, creditNote ? 'cac:CreditNoteLine' : 'cac:InvoiceLine').map((line, index) => {
      const quantity = first(line, creditNote ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity');
      const item = first(line, 'cac:Item');
      const priceText = textOf(line, 'cac:Price', 'cbc:PriceAmount');
      return {
        label: `line ${textOf(line, 'cbc:ID') ?? index + 1}`,
        id: textOf(line, 'cbc:ID'),
        quantity: quantity?.text || null,
        unitCode: quantity?.attrs.unitCode || null,
        net: amountOf(first(line, 'cbc:LineExtensionAmount')),
        itemName: textOf(item, 'cbc:Name'),
        price: priceText === null ? null : parseDecimal(priceText),
        priceText,
        category: textOf(item, 'cac:ClassifiedTaxCategory', 'cbc:ID'),
        rate: rateOf(textOf(item, 'cac:ClassifiedTaxCategory', 'cbc:Percent')),
        taxName: textOf(item, 'cac:ClassifiedTaxCategory', 'cbc:Name'),
        kpdCodes: all(item, 'cac:CommodityClassification', 'cbc:ItemClassificationCode')
          .filter((code) => code.attrs.listID === 'CG')
          .map((code) => code.text),
      };
    }),
    allowanceCharges: all(root, 'cac:AllowanceCharge').map((entry) => ({
      isCharge: textOf(entry, 'cbc:ChargeIndicator') === 'true',
      amount: amountOf(first(entry, 'cbc:Amount')),
      category: textOf(entry, 'cac:TaxCategory', 'cbc:ID'),
      rate: rateOf(textOf(entry, 'cac:TaxCategory', 'cbc:Percent')),
    })),
    paymentMeans: all(root, 'cac:PaymentMeans').map((means) => ({
      code: textOf(means, 'cbc:PaymentMeansCode'),
      accountIds: all(means, 'cac:PayeeFinancialAccount', 'cbc:ID')
        .map((id) => id.text)
        .filter(Boolean),
      paymentId: textOf(means, 'cbc:PaymentID'),
    })),
    taxAmount: amountOf(first(taxTotal, 'cbc:TaxAmount')),
    subtotals: all(taxTotal, 'cac:TaxSubtotal').map((subtotal) => ({
      taxable: amountOf(first(subtotal, 'cbc:TaxableAmount')),
      tax: amountOf(first(subtotal, 'cbc:TaxAmount')),
      category: textOf(subtotal, 'cac:TaxCategory', 'cbc:ID'),
      rate: rateOf(textOf(subtotal, 'cac:TaxCategory', 'cbc:Percent')),
      exemption: textOf(subtotal, 'cac:TaxCategory', 'cbc:TaxExemptionReason') ?? textOf(subtotal, 'cac:TaxCategory', 'cbc:TaxExemptionReasonCode'),
    })),
    totals: {
      lineExtension: amountOf(first(totals, 'cbc:LineExtensionAmount')),
      taxExclusive: amountOf(first(totals, 'cbc:TaxExclusiveAmount')),
      taxInclusive: amountOf(first(totals, 'cbc:TaxInclusiveAmount')),
      allowances: amountOf(first(totals, 'cbc:AllowanceTotalAmount')),
      charges: amountOf(first(totals, 'cbc:ChargeTotalAmount')),
      prepaid: amountOf(first(totals, 'cbc:PrepaidAmount')),
      rounding: amountOf(first(totals, 'cbc:PayableRoundingAmount')),
      payable: amountOf(first(totals, 'cbc:PayableAmount')),
    },
  };
}
