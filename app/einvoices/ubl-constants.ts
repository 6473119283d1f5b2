import type { NewInvoiceLine } from '../invoices/invoice-create.server.ts';
/**
 * The constants and the data shape of a UBL 2.1 Invoice as FinFlow reads it
 * (EN 16931, Croatian CIUS 2025): shared by the reader
 * (ubl-document.server.ts), the party matching (ubl-parties.server.ts), the
 * writer (ubl-write.server.ts) and the rules (en16931-rules.server.ts).
 */

export const MAX_UBL_BYTES = 5 * 1024 * 1024;

export const UBL_INVOICE_NS = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
export const UBL_CREDIT_NOTE_NS = 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2';
export const CAC_NS = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
export const CBC_NS = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';

/** The Croatian CIUS specification identifier (BT-24) of Fiskalizacija 2.0 e-invoices. */
export const HR_CIUS_CUSTOMIZATION_ID = 'urn:cen.eu:en16931:2017#compliant#urn:mfin.gov.hr:cius-2025:1.0#conformant#urn:mfin.gov.hr:ext-2025:1.0';
/** Business process types (BT-23) the Croatian CIUS allows (HR-BR-34): P1–P12, or P99 followed by ':' and the buyer's own designation. */
export const HR_PROFILE_ID = /^P([1-9]|1[0-2])$|^P99:/;
/** The participant identifier scheme of the Croatian OIB (EndpointID schemeID). */
export const OIB_SCHEME_ID = '9934';

/** Refusal codes of the e-invoice calls (docs/decisions/013-error-codes.md). */
export const UBL_MESSAGES = {
  tooLarge: 'einvoices.refusals.tooLarge',
  encoding: 'einvoices.refusals.encoding',
  encodingDeclared: 'einvoices.refusals.encodingDeclared',
  empty: 'einvoices.refusals.empty',
  rule: 'einvoices.refusals.rule',
  sellerNotClient: 'einvoices.refusals.sellerNotClient',
  alreadyReceived: 'einvoices.refusals.alreadyReceived',
  incomingNotFound: 'einvoices.refusals.incomingNotFound',
  alreadyImported: 'einvoices.refusals.alreadyImported',
  invoiceNotFound: 'einvoices.refusals.invoiceNotFound',
  noFee: 'einvoices.refusals.noFee',
} as const;

export interface UblAddress {
  street: string | null;
  city: string | null;
  postalCode: string | null;
  countryCode: string | null;
}

export interface UblParty {
  name: string | null;
  oib: string | null;
  /** The VAT identifier (BT-31 / BT-48), e.g. HR + OIB. */
  vatId: string | null;
  endpointId: string | null;
  endpointScheme: string | null;
  address: UblAddress;
  email: string | null;
}

/** A line of an incoming UBL document: what the invoice stores, plus its number and tax category name. */
export interface UblLine extends NewInvoiceLine {
  lineNumber: string;
  /** The tax category name, e.g. 'HR:PDV25'. */
  vatName: string | null;
}

export interface UblPaymentMeans {
  code: string | null;
  iban: string | null;
  /** BT-83 as written, e.g. 'HR01 1234-56789'. */
  paymentId: string | null;
  /** The Croatian reference model of the payment id ('HR00', 'HR01', …) or null. */
  model: string | null;
  reference: string | null;
}

export interface UblVatBreakdown {
  category: string;
  rate: string;
  taxableAmount: number;
  taxAmount: number;
}

export interface UblTotals {
  lineExtension: number;
  allowances: number;
  charges: number;
  taxExclusive: number;
  taxAmount: number;
  taxInclusive: number;
  prepaid: number;
  rounding: number;
  payable: number;
}

export interface UblInvoice {
  customizationId: string;
  profileId: string;
  invoiceNumber: string;
  issueDate: string;
  issueTime: string;
  dueDate: string;
  typeCode: string;
  currency: string;
  notes: string[];
  /** The notes, or the first line's description when there are none (≤ 5,000 characters). */
  description: string | null;
  /** The amount due for payment (BT-115), in cents: what the factor finances. */
  amount: number;
  totals: UblTotals;
  vatBreakdown: UblVatBreakdown[];
  lines: UblLine[];
  seller: UblParty;
  /** The operator who issued the invoice (cac:SellerContact: OIB and name). */
  sellerContact: { oib: string | null; name: string | null } | null;
  buyer: UblParty;
  paymentMeans: UblPaymentMeans[];
}
