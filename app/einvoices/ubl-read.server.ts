import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Transaction } from 'sequelize';
import { selectOne } from '../db.server.ts';
import { apiError } from '../utils/api.server.ts';
import { centsToDecimalString, percentOfCents, sumCents, toCents } from '../utils/money.ts';
import { isCalendarDate, isMultiLineText, isValidEmail, isValidOib } from '../utils/validation.ts';
import { decimalToFixed, lineAmountCents, parseDecimal, type Decimal } from './decimal.ts';
import { isKpd2025Code } from './kpd.ts';

/**
 * Intake of a client's e-invoice: a UBL 2.1 Invoice conforming to EN 16931
 * and the Croatian CIUS (docs/croatian-formats.md). Reading is two steps:
 *
 * 1. `parseUblInvoice` — the document alone: safe XML parsing (no DOCTYPE,
 *    hence no external entities and no entity expansion; a size cap; UTF-8),
 *    the UBL root, the required business terms, the Croatian CIUS identifiers
 *    and the EN 16931 calculation rules. Every refusal names its rule
 *    ('BR-CO-15: …'); all problems found are listed in `errors.xml`. The
 *    ids are those of the official rules (vendor/einvoice-rules: EN 16931
 *    BR-*, Croatian HR-BR-*) wherever a check is one of them;
 *    app/einvoices/official-rules.test.ts holds the two to the same verdict.
 * 2. `matchUblParties` — the document against the book: the seller's OIB must
 *    be the chosen client's, the buyer's OIB an existing customer's, or a new
 *    customer is proposed from the buyer's data.
 *
 * Amounts are integer cents; quantities and prices exact decimals (decimal.ts).
 */

export const MAX_UBL_BYTES = 5 * 1024 * 1024;

export const UBL_INVOICE_NS = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';

/** The Croatian CIUS specification identifier (BT-24) of Fiskalizacija 2.0 e-invoices. */
export const HR_CIUS_CUSTOMIZATION_ID =
  'urn:cen.eu:en16931:2017#compliant#urn:mfin.gov.hr:cius-2025:1.0#conformant#urn:mfin.gov.hr:ext-2025:1.0';
/** Business process types (BT-23) the Croatian CIUS allows (HR-BR-34): P1–P12, or P99 followed by ':' and the buyer's own designation. */
const HR_PROFILE_ID = /^P([1-9]|1[0-2])$|^P99:/;
/** The participant identifier scheme of the Croatian OIB (EndpointID schemeID). */
export const OIB_SCHEME_ID = '9934';

export const UBL_MESSAGES = {
  tooLarge: 'E-invoice XML is larger than 5 MB',
  doctype: 'XML with a DOCTYPE/entities is not accepted',
  encoding: 'E-invoice XML must be UTF-8 encoded',
  empty: 'E-invoice XML is empty',
  controlCharacter: 'XML text contains a control character',
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

export interface UblLine {
  lineNumber: string;
  description: string;
  quantity: string;
  unitCode: string;
  /** Net price per one unit (BT-146 ÷ BT-149), 4 decimals as stored. */
  unitPrice: string;
  /** BT-131 in cents. */
  netAmount: number;
  vatCategory: string;
  /** Percent with 2 decimals ('25.00'); '0.00' for categories without a rate. */
  vatRate: string;
  /** The tax category name, e.g. 'HR:PDV25'. */
  vatName: string | null;
  /** The KPD classification (ItemClassificationCode listID="CG"). */
  kpdCode: string | null;
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

// ---------------------------------------------------------------------------
// Safe XML → a namespace-resolved element tree

export interface XmlElement {
  ns: string;
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

type OrderedNode = Record<string, unknown> & { ':@'?: Record<string, string> };

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/**
 * The five predefined entities and character references: the only ones an XML
 * without a DOCTYPE can have. A reference to a control character (&#1;; only
 * tab, LF and CR are text) or to no character at all (a surrogate, past
 * U+10FFFF) refuses the document, as does a raw control character: neither may
 * reach the book.
 */
function decodeEntities(text: string): string {
  const decoded = text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g, (whole, ref: string) => {
    if (!ref.startsWith('#')) return PREDEFINED[ref] ?? whole;
    const char = safeCodePoint(ref.startsWith('#x') ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10));
    if (char === null || !isMultiLineText(char)) throw controlCharacter(`${UBL_MESSAGES.controlCharacter} (${whole})`);
    return char;
  });
  return checkedText(decoded);
}

function safeCodePoint(code: number): string | null {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : null;
}

function checkedText(text: string): string {
  if (!isMultiLineText(text)) throw controlCharacter(UBL_MESSAGES.controlCharacter);
  return text;
}

function controlCharacter(message: string): Response {
  return apiError(400, message, { file: [message] });
}

const MAX_DEPTH = 64;

function buildElement(node: OrderedNode, scope: Record<string, string>, depth: number): XmlElement | null {
  const tag = Object.keys(node).find((key) => key !== ':@');
  if (!tag || tag === '#text' || tag === '#cdata') return null;
  if (depth > MAX_DEPTH) {
    const message = `Malformed XML: elements nested deeper than ${MAX_DEPTH} levels`;
    throw apiError(400, message, { file: [message] });
  }
  const rawAttrs = node[':@'] ?? {};
  const namespaces = { ...scope };
  const attrs: Record<string, string> = {};
  for (const [key, value] of Object.entries(rawAttrs)) {
    const decoded = decodeEntities(String(value));
    if (key === 'xmlns') namespaces[''] = decoded;
    else if (key.startsWith('xmlns:')) namespaces[key.slice(6)] = decoded;
    else attrs[key.includes(':') ? key.slice(key.indexOf(':') + 1) : key] = decoded;
  }
  const colon = tag.indexOf(':');
  const prefix = colon === -1 ? '' : tag.slice(0, colon);
  const element: XmlElement = { ns: namespaces[prefix] ?? '', name: colon === -1 ? tag : tag.slice(colon + 1), attrs, children: [], text: '' };
  const content = node[tag];
  let text = '';
  if (Array.isArray(content)) {
    for (const child of content as OrderedNode[]) {
      if ('#text' in child) text += decodeEntities(String(child['#text']));
      else if ('#cdata' in child) {
        // CDATA is literal: no entity decoding.
        const parts = child['#cdata'] as Array<{ '#text'?: unknown }>;
        for (const part of parts) text += checkedText(String(part['#text'] ?? ''));
      } else {
        const built = buildElement(child, namespaces, depth + 1);
        if (built) element.children.push(built);
      }
    }
  }
  element.text = text.trim();
  return element;
}

/**
 * Bytes → root element. Refuses, before any parsing: more than 5 MB (413),
 * non-UTF-8, and any DOCTYPE or ENTITY declaration — that one check rules out
 * external entities (XXE) and entity expansion ("billion laughs") at once;
 * an e-invoice never needs either. Malformed XML is refused with the
 * validator's line and column.
 */
export function parseXmlSafely(input: Buffer | string): XmlElement {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  if (bytes.length > MAX_UBL_BYTES) throw apiError(413, UBL_MESSAGES.tooLarge, { file: [UBL_MESSAGES.tooLarge] });
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw apiError(400, UBL_MESSAGES.encoding, { file: [UBL_MESSAGES.encoding] });
  }
  if (text.trim() === '') throw apiError(400, UBL_MESSAGES.empty, { file: [UBL_MESSAGES.empty] });
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) throw apiError(400, UBL_MESSAGES.doctype, { file: [UBL_MESSAGES.doctype] });
  const declared = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([^"']+)["']/i.exec(text)?.[1];
  if (declared && !/^utf-?8$/i.test(declared)) {
    const message = `${UBL_MESSAGES.encoding} (declared ${declared})`;
    throw apiError(400, message, { file: [message] });
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    const { line, col, msg } = valid.err;
    const message = `Malformed XML at line ${line}, column ${col}: ${msg}`;
    throw apiError(400, message, { file: [message] });
  }
  const parser = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    cdataPropName: '#cdata',
    commentPropName: false,
    // Entities are decoded by decodeEntities above: only the predefined ones and character references.
    processEntities: false,
    htmlEntities: false,
  });
  let nodes: OrderedNode[];
  try {
    nodes = parser.parse(text) as OrderedNode[];
  } catch (error) {
    const message = `Malformed XML: ${error instanceof Error ? error.message : String(error)}`;
    throw apiError(400, message, { file: [message] });
  }
  const roots = nodes.map((node) => buildElement(node, {}, 0)).filter((node): node is XmlElement => node !== null);
  if (roots.length !== 1) {
    const message = 'Malformed XML: exactly one root element is required';
    throw apiError(400, message, { file: [message] });
  }
  return roots[0];
}

// ---------------------------------------------------------------------------
// Navigation: steps are 'cac:Name' or 'cbc:Name' in the UBL namespaces.

const PREFIXES: Record<string, string> = { cac: CAC, cbc: CBC };

function matches(element: XmlElement, step: string): boolean {
  const [prefix, name] = step.split(':');
  return element.ns === PREFIXES[prefix] && element.name === name;
}

export function all(element: XmlElement | undefined, ...steps: string[]): XmlElement[] {
  let current: XmlElement[] = element ? [element] : [];
  for (const step of steps) current = current.flatMap((node) => node.children.filter((child) => matches(child, step)));
  return current;
}

export function first(element: XmlElement | undefined, ...steps: string[]): XmlElement | undefined {
  return all(element, ...steps)[0];
}

export function textOf(element: XmlElement | undefined, ...steps: string[]): string | null {
  const found = steps.length ? first(element, ...steps) : element;
  return found && found.text !== '' ? found.text : null;
}

// ---------------------------------------------------------------------------
// Checks

interface Problem {
  rule: string;
  message: string;
}

class Problems {
  readonly list: Problem[] = [];
  add(rule: string, message: string) {
    this.list.push({ rule, message });
  }
  /** A required business term: records `rule` when missing. */
  required(rule: string, value: string | null, what: string): string | null {
    if (value === null) this.add(rule, `${what} is missing`);
    return value;
  }
}

/** 400 naming every failing rule: message = the first, errors.xml = all. */
function refusal(problems: Problem[]): Response {
  const texts = problems.map((problem) => `${problem.rule}: ${problem.message}`);
  return apiError(400, texts[0], { xml: texts });
}


const fmt = (cents: number) => centsToDecimalString(cents);

/** An amount element in cents; BR-DEC: at most two decimals. Null (and a problem) when it is not a decimal. */
/** What NUMERIC(15,2) holds, in cents. */
const MAX_AMOUNT_CENTS = 999_999_999_999_999;
const FITS_15_4 = /^-?\d{1,11}\.\d{4}$/;

function amountOf(problems: Problems, element: XmlElement | undefined, what: string, currency: string | null): number | null {
  if (!element || element.text === '') return null;
  let cents: number;
  try {
    cents = toCents(element.text);
  } catch {
    problems.add('BR-DEC', `${what} '${element.text}' must be a decimal with at most 2 decimals`);
    return null;
  }
  if (Math.abs(cents) > MAX_AMOUNT_CENTS) {
    problems.add('BR-DEC', `${what} '${element.text}' is too large`);
    return null;
  }
  const unit = element.attrs.currencyID;
  if (currency && unit && unit !== currency) problems.add('BR-CO-05', `${what} is in ${unit}, not in the invoice currency ${currency}`);
  return cents;
}

function decimalOf(problems: Problems, rule: string, element: XmlElement | undefined, what: string): Decimal | null {
  if (!element || element.text === '') return null;
  const value = parseDecimal(element.text);
  if (!value) problems.add(rule, `${what} '${element.text}' is not a decimal number`);
  return value;
}

/** '25' → '25.00'; null when not a decimal. */
function rateText(value: string | null): string | null {
  if (value === null) return '0.00';
  const parsed = parseDecimal(value);
  return parsed ? decimalToFixed(parsed, 2) : null;
}

function readAddress(party: XmlElement | undefined): UblAddress {
  const address = first(party, 'cac:PostalAddress');
  const street = [textOf(address, 'cbc:StreetName'), textOf(address, 'cbc:AdditionalStreetName')].filter(Boolean).join(', ');
  return {
    street: street || textOf(address, 'cac:AddressLine', 'cbc:Line'),
    city: textOf(address, 'cbc:CityName'),
    postalCode: textOf(address, 'cbc:PostalZone'),
    countryCode: textOf(address, 'cac:Country', 'cbc:IdentificationCode'),
  };
}

/**
 * A party and its OIB (docs/croatian-formats.md): the EndpointID with schemeID 9934, or the
 * VAT identifier HR + OIB. When both are given they must agree, and the OIB
 * must pass its MOD 11,10 check digit.
 */
function readParty(problems: Problems, container: XmlElement | undefined, role: 'Seller' | 'Buyer'): UblParty {
  const party = first(container, 'cac:Party');
  const endpoint = first(party, 'cbc:EndpointID');
  const vatSchemes = all(party, 'cac:PartyTaxScheme').filter((scheme) => (textOf(scheme, 'cac:TaxScheme', 'cbc:ID') ?? 'VAT') === 'VAT');
  const vatId = textOf(vatSchemes[0], 'cbc:CompanyID');
  const name = textOf(party, 'cac:PartyLegalEntity', 'cbc:RegistrationName') ?? textOf(party, 'cac:PartyName', 'cbc:Name');
  const endpointScheme = endpoint?.attrs.schemeID ?? null;
  const endpointOib = endpoint && endpointScheme === OIB_SCHEME_ID ? endpoint.text : null;
  const vatOib = vatId && /^HR\d{11}$/.test(vatId) ? vatId.slice(2) : null;

  const nameRule = role === 'Seller' ? 'BR-06' : 'BR-07';
  problems.required(nameRule, name, `${role} name (${role === 'Seller' ? 'BT-27' : 'BT-44'})`);
  const address = readAddress(party);
  if (!address.countryCode) problems.add(role === 'Seller' ? 'BR-09' : 'BR-11', `${role} country code is missing`);
  if (endpoint && !endpointScheme) problems.add('BR-62/BR-63', `${role} EndpointID has no schemeID`);
  // The Croatian CIUS requires both electronic addresses (BT-34, BT-49).
  if (!endpoint || endpoint.text === '') problems.add(role === 'Seller' ? 'HR-BR-7' : 'HR-BR-10', `${role} electronic address (EndpointID) is missing`);

  const oibRule = `HR-CIUS ${role.toLowerCase()} OIB`;
  if (endpointOib && vatOib && endpointOib !== vatOib) {
    problems.add(oibRule, `${role} EndpointID OIB ${endpointOib} differs from the VAT identifier ${vatId}`);
  }
  const oib = endpointOib ?? vatOib;
  if (!oib) problems.add(oibRule, `${role} OIB is missing (EndpointID schemeID="${OIB_SCHEME_ID}" or VAT identifier HR + OIB)`);
  else if (!isValidOib(oib)) problems.add(oibRule, `${role} OIB ${oib} is not a valid OIB (11 digits with a MOD 11,10 check digit)`);

  return {
    name,
    oib: oib && isValidOib(oib) ? oib : null,
    vatId,
    endpointId: endpoint?.text || null,
    endpointScheme,
    address,
    email: textOf(party, 'cac:Contact', 'cbc:ElectronicMail'),
  };
}

interface VatKey {
  category: string;
  rate: string;
}
const keyOf = ({ category, rate }: VatKey) => `${category} ${rate}%`;

/** Parses and checks one e-invoice. Throws 400 (every failing rule), 413 (over 5 MB). */
export function parseUblInvoice(input: Buffer | string): UblInvoice {
  try {
    return checkUblInvoice(input);
  } catch (error) {
    // Exact money arithmetic refuses results past 2^53 cents: numbers that large are not an invoice.
    if (error instanceof RangeError) throw refusal([{ rule: 'BR-DEC', message: `a number is out of range (${error.message})` }]);
    throw error;
  }
}

function checkUblInvoice(input: Buffer | string): UblInvoice {
  const root = parseXmlSafely(input);
  if (root.name !== 'Invoice' || root.ns !== UBL_INVOICE_NS) {
    throw refusal([
      {
        rule: 'UBL 2.1',
        message: `the root element must be Invoice in the namespace ${UBL_INVOICE_NS}, found ${root.name} in ${root.ns || 'no namespace'}`,
      },
    ]);
  }
  const problems = new Problems();

  // --- Identification and process (BT-24, BT-23)
  const customizationId = problems.required('BR-01', textOf(root, 'cbc:CustomizationID'), 'Specification identifier CustomizationID (BT-24)');
  if (customizationId !== null && customizationId !== HR_CIUS_CUSTOMIZATION_ID) {
    problems.add('HR-BR-5', `CustomizationID must be ${HR_CIUS_CUSTOMIZATION_ID}, found ${customizationId}`);
  }
  const profileId = textOf(root, 'cbc:ProfileID');
  if (profileId === null) problems.add('HR-BR-34', 'Business process ProfileID (BT-23) is missing');
  else if (!HR_PROFILE_ID.test(profileId)) problems.add('HR-BR-34', `ProfileID must be P1–P12, or P99:<designation>, found ${profileId}`);

  // --- Document terms
  const invoiceNumber = problems.required('BR-02', textOf(root, 'cbc:ID'), 'Invoice number (BT-1)');
  if (invoiceNumber !== null && invoiceNumber.length > 100) problems.add('BR-02', 'Invoice number (BT-1) is longer than 100 characters');
  const issueDate = problems.required('BR-03', textOf(root, 'cbc:IssueDate'), 'Issue date (BT-2)');
  if (issueDate !== null && !isCalendarDate(issueDate)) problems.add('BR-03', `Issue date (BT-2) '${issueDate}' is not a YYYY-MM-DD date`);
  // Croatian e-invoices exist from 1 January 2026 (Fiskalizacija 2.0).
  else if (issueDate !== null && (issueDate < '2026-01-01' || issueDate >= '2100-01-01')) {
    problems.add('HR-BR-40', `Issue date (BT-2) ${issueDate} must be from 2026-01-01 and before 2100-01-01`);
  }
  const issueTime = textOf(root, 'cbc:IssueTime');
  if (issueTime === null) problems.add('HR-BR-2', 'Issue time (IssueTime) is missing');
  else if (!/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/.test(issueTime)) {
    problems.add('HR-BR-2', `Issue time '${issueTime}' is not hh:mm:ss`);
  }
  const typeCode = problems.required('BR-04', textOf(root, 'cbc:InvoiceTypeCode'), 'Invoice type code (BT-3)');
  if (typeCode === '381') problems.add('BR-04', 'Invoice type code 381 is a credit note, which cannot be factored');
  const currency = problems.required('BR-05', textOf(root, 'cbc:DocumentCurrencyCode'), 'Invoice currency code (BT-5)');
  if (currency !== null && !/^[A-Z]{3}$/.test(currency)) problems.add('BR-05', `Invoice currency code '${currency}' is not an ISO 4217 code`);
  const dueDate = textOf(root, 'cbc:DueDate');
  if (dueDate !== null && !isCalendarDate(dueDate)) problems.add('BR-CO-25', `Due date (BT-9) '${dueDate}' is not a YYYY-MM-DD date`);
  if (dueDate && issueDate && isCalendarDate(dueDate) && isCalendarDate(issueDate) && dueDate < issueDate) {
    problems.add('BT-9', `Due date ${dueDate} is before the issue date ${issueDate}`);
  }
  const notes = all(root, 'cbc:Note')
    .map((note) => note.text)
    .filter(Boolean);

  // --- Parties
  const seller = readParty(problems, first(root, 'cac:AccountingSupplierParty'), 'Seller');
  const buyer = readParty(problems, first(root, 'cac:AccountingCustomerParty'), 'Buyer');
  const contact = first(root, 'cac:AccountingSupplierParty', 'cac:SellerContact');
  const sellerContact = contact ? { oib: textOf(contact, 'cbc:ID'), name: textOf(contact, 'cbc:Name') } : null;
  // The operator who issued it (HR-BT-4, HR-BT-5).
  if (!sellerContact?.name) problems.add('HR-BR-37', 'Operator name (SellerContact Name) is missing');
  if (!sellerContact?.oib || !isValidOib(sellerContact.oib)) problems.add('HR-BR-9', `Operator OIB (SellerContact ID) '${sellerContact?.oib ?? ''}' is not a valid OIB`);

  // --- Lines (BG-25)
  const lineElements = all(root, 'cac:InvoiceLine');
  if (lineElements.length === 0) problems.add('BR-16', 'The invoice has no lines (at least one InvoiceLine is required)');
  const lines: UblLine[] = [];
  const taxableByKey = new Map<string, { key: VatKey; cents: number[] }>();
  const addTaxable = (key: VatKey, cents: number) => {
    const entry = taxableByKey.get(keyOf(key)) ?? { key, cents: [] };
    entry.cents.push(cents);
    taxableByKey.set(keyOf(key), entry);
  };
  lineElements.forEach((line, index) => {
    const label = `Line ${textOf(line, 'cbc:ID') ?? index + 1}`;
    const lineNumber = problems.required('BR-21', textOf(line, 'cbc:ID'), `${label}: line identifier (BT-126)`) ?? String(index + 1);
    const quantityElement = first(line, 'cbc:InvoicedQuantity');
    const quantity = decimalOf(problems, 'BR-22', quantityElement, `${label}: invoiced quantity (BT-129)`);
    if (!quantityElement || quantityElement.text === '') problems.add('BR-22', `${label}: invoiced quantity (BT-129) is missing`);
    const unitCode = quantityElement?.attrs.unitCode ?? null;
    if (!unitCode) problems.add('BR-23', `${label}: unit of measure (BT-130) is missing`);
    const net = amountOf(problems, first(line, 'cbc:LineExtensionAmount'), `${label}: net amount (BT-131)`, currency);
    if (textOf(line, 'cbc:LineExtensionAmount') === null) problems.add('BR-24', `${label}: net amount (BT-131) is missing`);
    const item = first(line, 'cac:Item');
    const itemName = textOf(item, 'cbc:Name');
    if (itemName === null) problems.add('BR-25', `${label}: item name (BT-153) is missing`);
    const priceElement = first(line, 'cac:Price', 'cbc:PriceAmount');
    const price = decimalOf(problems, 'BR-26', priceElement, `${label}: item net price (BT-146)`);
    if (!priceElement || priceElement.text === '') problems.add('BR-26', `${label}: item net price (BT-146) is missing`);
    if (price && price.units < 0n) problems.add('BR-27', `${label}: item net price (BT-146) must not be negative`);
    const base = decimalOf(problems, 'BR-26', first(line, 'cac:Price', 'cbc:BaseQuantity'), `${label}: base quantity (BT-149)`);
    if (base && base.units <= 0n) problems.add('BT-149', `${label}: base quantity (BT-149) must be positive`);

    const category = textOf(item, 'cac:ClassifiedTaxCategory', 'cbc:ID');
    if (category === null) problems.add('BR-CO-04', `${label}: VAT category code (BT-151) is missing`);
    const rate = rateText(textOf(item, 'cac:ClassifiedTaxCategory', 'cbc:Percent'));
    if (rate === null) problems.add('BR-CO-04', `${label}: VAT rate (BT-152) is not a number`);
    checkCategoryRate(problems, label, category, rate);
    if ((category === 'E' || category === 'O') && !textOf(item, 'cac:ClassifiedTaxCategory', 'cbc:TaxExemptionReason') && !textOf(item, 'cac:ClassifiedTaxCategory', 'cbc:TaxExemptionReasonCode')) {
      problems.add('HR-BR-36', `${label}: a line exempt from or outside VAT (${category}) needs an exemption reason or reason code`);
    }
    const kpdCodes = all(item, 'cac:CommodityClassification', 'cbc:ItemClassificationCode').filter((code) => code.attrs.listID === 'CG');
    const kpd = kpdCodes[0];
    if (!kpd || kpd.text === '') problems.add('HR-BR-25', `${label}: KPD classification (ItemClassificationCode listID="CG") is missing`);
    for (const code of kpdCodes) {
      if (code.text !== '' && !isKpd2025Code(code.text)) problems.add('HR-BR-CL-2', `${label}: KPD code ${code.text} is not in the KPD 2025 list`);
    }

    // Line allowances (BG-27) and charges (BG-28) are part of the line net amount.
    let adjustments = 0;
    for (const allowanceCharge of all(line, 'cac:AllowanceCharge')) {
      const isCharge = textOf(allowanceCharge, 'cbc:ChargeIndicator') === 'true';
      const amount = amountOf(problems, first(allowanceCharge, 'cbc:Amount'), `${label}: line ${isCharge ? 'charge' : 'allowance'} amount`, currency);
      if (amount === null) problems.add(isCharge ? 'BR-43' : 'BR-41', `${label}: line ${isCharge ? 'charge' : 'allowance'} amount is missing`);
      else adjustments += isCharge ? amount : -amount;
      if (!hasReason(allowanceCharge)) {
        for (const rule of isCharge ? ['BR-44', 'BR-CO-24'] : ['BR-42', 'BR-CO-23']) problems.add(rule, `${label}: line ${isCharge ? 'charge' : 'allowance'} has no reason nor reason code`);
      }
    }
    // Line net amount = quantity × price ÷ base quantity − allowances + charges, to the cent.
    if (quantity && price && net !== null && (!base || base.units > 0n)) {
      const expected = lineAmountCents(quantity, price, base ?? undefined) + adjustments;
      if (expected !== net) {
        problems.add(
          'BR-LINE-NET',
          `${label}: net amount ${fmt(net)} is not quantity ${quantityElement!.text} × price ${priceElement!.text}${base ? ` ÷ base quantity ${decimalToFixed(base, base.scale)}` : ''}${adjustments ? ` ${adjustments > 0 ? '+' : '−'} ${fmt(Math.abs(adjustments))}` : ''} = ${fmt(expected)}`,
        );
      }
    }
    if (net !== null && category !== null && rate !== null) addTaxable({ category, rate }, net);
    const description = [itemName, textOf(item, 'cbc:Description')].filter(Boolean).join(' — ');
    const unitPrice = price ? decimalToFixed(base ? divideDecimal(price, base) : price, 4) : '0.0000';
    const quantityText = quantity ? decimalToFixed(quantity, 4) : '0.0000';
    // Stored as NUMERIC(15,4): at most 11 digits before the point.
    if (!FITS_15_4.test(quantityText)) problems.add('BR-DEC', `${label}: invoiced quantity (BT-129) '${quantityElement?.text}' is too large`);
    if (!FITS_15_4.test(unitPrice)) problems.add('BR-DEC', `${label}: item net price (BT-146) '${priceElement?.text}' is too large`);
    lines.push({
      lineNumber,
      description: (description || itemName || '').slice(0, 5000),
      quantity: quantityText,
      unitCode: (unitCode ?? 'H87').slice(0, 10),
      unitPrice,
      netAmount: net ?? 0,
      vatCategory: category ?? 'S',
      vatRate: rate ?? '0.00',
      vatName: textOf(item, 'cac:ClassifiedTaxCategory', 'cbc:Name'),
      kpdCode: kpd?.text ? kpd.text.slice(0, 20) : null,
    });
  });

  // --- Document-level allowances (BG-20) and charges (BG-21)
  const allowanceCents: number[] = [];
  const chargeCents: number[] = [];
  for (const allowanceCharge of all(root, 'cac:AllowanceCharge')) {
    const isCharge = textOf(allowanceCharge, 'cbc:ChargeIndicator') === 'true';
    const what = isCharge ? 'Document level charge' : 'Document level allowance';
    const amount = amountOf(problems, first(allowanceCharge, 'cbc:Amount'), `${what} amount`, currency);
    if (amount === null) {
      problems.add(isCharge ? 'BR-36' : 'BR-31', `${what} amount is missing`);
      continue;
    }
    (isCharge ? chargeCents : allowanceCents).push(amount);
    if (!hasReason(allowanceCharge)) {
      for (const rule of isCharge ? ['BR-38', 'BR-CO-22'] : ['BR-33', 'BR-CO-21']) problems.add(rule, `${what} has no reason nor reason code`);
    }
    const category = textOf(allowanceCharge, 'cac:TaxCategory', 'cbc:ID');
    const rate = rateText(textOf(allowanceCharge, 'cac:TaxCategory', 'cbc:Percent'));
    if (category === null || rate === null) {
      problems.add(isCharge ? 'BR-37' : 'BR-32', `${what} has no VAT category code`);
      continue;
    }
    addTaxable({ category, rate }, isCharge ? amount : -amount);
  }

  // --- Totals (BG-22)
  const totals = first(root, 'cac:LegalMonetaryTotal');
  // A required total that is there but empty is as missing as one that is not there.
  const money = (name: string, what: string) => amountOf(problems, first(totals, `cbc:${name}`), what, currency);
  const lineExtension = money('LineExtensionAmount', 'Sum of line net amounts (BT-106)');
  if (textOf(totals, 'cbc:LineExtensionAmount') === null) problems.add('BR-12', 'Sum of Invoice line net amount (BT-106) is missing');
  const taxExclusive = money('TaxExclusiveAmount', 'Invoice total without VAT (BT-109)');
  if (textOf(totals, 'cbc:TaxExclusiveAmount') === null) problems.add('BR-13', 'Invoice total amount without VAT (BT-109) is missing');
  const taxInclusive = money('TaxInclusiveAmount', 'Invoice total with VAT (BT-112)');
  if (textOf(totals, 'cbc:TaxInclusiveAmount') === null) problems.add('BR-14', 'Invoice total amount with VAT (BT-112) is missing');
  const payable = money('PayableAmount', 'Amount due for payment (BT-115)');
  if (textOf(totals, 'cbc:PayableAmount') === null) problems.add('BR-15', 'Amount due for payment (BT-115) is missing');
  const allowanceTotal = money('AllowanceTotalAmount', 'Sum of allowances (BT-107)');
  const chargeTotal = money('ChargeTotalAmount', 'Sum of charges (BT-108)');
  const prepaid = money('PrepaidAmount', 'Paid amount (BT-113)') ?? 0;
  const rounding = money('PayableRoundingAmount', 'Rounding amount (BT-114)') ?? 0;

  // --- VAT: the total in the invoice currency (BT-110) and its breakdown (BG-23)
  const taxTotals = all(root, 'cac:TaxTotal');
  const taxTotal = taxTotals.find((total) => first(total, 'cac:TaxSubtotal')) ?? taxTotals.find((total) => first(total, 'cbc:TaxAmount')?.attrs.currencyID === currency) ?? taxTotals[0];
  const taxAmount = amountOf(problems, first(taxTotal, 'cbc:TaxAmount'), 'Invoice total VAT amount (BT-110)', currency);
  const breakdown: UblVatBreakdown[] = [];
  for (const subtotal of all(taxTotal, 'cac:TaxSubtotal')) {
    const category = textOf(subtotal, 'cac:TaxCategory', 'cbc:ID');
    const rate = rateText(textOf(subtotal, 'cac:TaxCategory', 'cbc:Percent'));
    const taxable = amountOf(problems, first(subtotal, 'cbc:TaxableAmount'), 'VAT category taxable amount (BT-116)', currency);
    const tax = amountOf(problems, first(subtotal, 'cbc:TaxAmount'), 'VAT category tax amount (BT-117)', currency);
    if (category === null) problems.add('BR-47', 'A VAT breakdown has no VAT category code (BT-118)');
    if (taxable === null) problems.add('BR-45', 'A VAT breakdown has no taxable amount (BT-116)');
    if (tax === null) problems.add('BR-46', 'A VAT breakdown has no tax amount (BT-117)');
    if (category === null || rate === null || taxable === null || tax === null) continue;
    breakdown.push({ category, rate, taxableAmount: taxable, taxAmount: tax });
  }
  if (breakdown.length === 0 && all(taxTotal, 'cac:TaxSubtotal').length === 0) problems.add('BR-CO-18', 'The invoice has no VAT breakdown (TaxSubtotal)');
  if (taxAmount === null && taxTotals.length === 0) problems.add('BR-CO-18', 'The invoice has no TaxTotal');

  // --- EN 16931 calculation rules (exact in cents)
  const lineSum = sumCents(lines.map((line) => line.netAmount));
  const allowanceSum = sumCents(allowanceCents);
  const chargeSum = sumCents(chargeCents);
  if (lineExtension !== null && lineElements.length > 0 && lineSum !== lineExtension) {
    problems.add('BR-CO-10', `Sum of line net amounts ${fmt(lineSum)} ≠ LineExtensionAmount (BT-106) ${fmt(lineExtension)}`);
  }
  if ((allowanceTotal !== null || allowanceCents.length > 0) && allowanceSum !== (allowanceTotal ?? 0)) {
    problems.add('BR-CO-11', `Sum of document level allowances ${fmt(allowanceSum)} ≠ AllowanceTotalAmount (BT-107) ${fmt(allowanceTotal ?? 0)}`);
  }
  if ((chargeTotal !== null || chargeCents.length > 0) && chargeSum !== (chargeTotal ?? 0)) {
    problems.add('BR-CO-12', `Sum of document level charges ${fmt(chargeSum)} ≠ ChargeTotalAmount (BT-108) ${fmt(chargeTotal ?? 0)}`);
  }
  if (lineExtension !== null && taxExclusive !== null) {
    const expected = lineExtension - (allowanceTotal ?? 0) + (chargeTotal ?? 0);
    if (expected !== taxExclusive) {
      problems.add(
        'BR-CO-13',
        `TaxExclusiveAmount (BT-109) ${fmt(taxExclusive)} ≠ LineExtensionAmount ${fmt(lineExtension)} − allowances ${fmt(allowanceTotal ?? 0)} + charges ${fmt(chargeTotal ?? 0)} = ${fmt(expected)}`,
      );
    }
  }
  const breakdownTax = sumCents(breakdown.map((entry) => entry.taxAmount));
  if (taxAmount !== null && breakdown.length > 0 && breakdownTax !== taxAmount) {
    problems.add('BR-CO-14', `Invoice total VAT amount (BT-110) ${fmt(taxAmount)} ≠ sum of VAT category tax amounts ${fmt(breakdownTax)}`);
  }
  for (const entry of breakdown) {
    const expected = percentOfCents(entry.taxableAmount, entry.rate);
    // The official rule allows less than one currency unit of difference (a zero rate: a tax that rounds to 0).
    const off = Number(entry.rate) === 0 ? Math.abs(entry.taxAmount) >= 50 : Math.abs(Math.abs(entry.taxAmount) - Math.abs(expected)) >= 100;
    if (off) {
      // A standard-rated breakdown breaks BR-S-09 as well: the same check, restated for category S.
      if (entry.category === 'S') problems.add('BR-S-09', `VAT ${keyOf(entry)}: tax amount ${fmt(entry.taxAmount)} ≠ taxable ${fmt(entry.taxableAmount)} × ${entry.rate} % = ${fmt(expected)}`);
      problems.add(
        'BR-CO-17',
        `VAT ${keyOf(entry)}: tax amount ${fmt(entry.taxAmount)} ≠ taxable ${fmt(entry.taxableAmount)} × ${entry.rate} % = ${fmt(expected)}`,
      );
    }
  }
  // BR-S-08, BR-Z-08, BR-E-08, …: each breakdown's taxable amount = its lines' net amounts − allowances + charges of that category and rate.
  const breakdownKeys = new Set(breakdown.map(keyOf));
  for (const entry of breakdown) {
    const expected = sumCents(taxableByKey.get(keyOf(entry))?.cents ?? []);
    if (expected !== entry.taxableAmount) {
      problems.add(
        `BR-${entry.category}-08`,
        `VAT ${keyOf(entry)}: taxable amount ${fmt(entry.taxableAmount)} ≠ lines − allowances + charges of that category ${fmt(expected)}`,
      );
    }
  }
  for (const [key, { key: vatKey }] of taxableByKey) {
    if (!breakdownKeys.has(key) && breakdown.length > 0) {
      problems.add(`BR-${vatKey.category}-01`, `VAT ${key} is used by lines or allowances/charges but has no VAT breakdown`);
    }
  }
  if (taxExclusive !== null && taxInclusive !== null && taxAmount !== null && taxExclusive + taxAmount !== taxInclusive) {
    problems.add(
      'BR-CO-15',
      `TaxInclusiveAmount (BT-112) ${fmt(taxInclusive)} ≠ TaxExclusiveAmount ${fmt(taxExclusive)} + TaxAmount ${fmt(taxAmount)} = ${fmt(taxExclusive + taxAmount)}`,
    );
  }
  if (taxInclusive !== null && payable !== null && taxInclusive - prepaid + rounding !== payable) {
    problems.add(
      'BR-CO-16',
      `PayableAmount (BT-115) ${fmt(payable)} ≠ TaxInclusiveAmount ${fmt(taxInclusive)} − PrepaidAmount ${fmt(prepaid)} + RoundingAmount ${fmt(rounding)} = ${fmt(taxInclusive - prepaid + rounding)}`,
    );
  }
  if (payable !== null && payable <= 0) problems.add('BT-115', `Amount due for payment ${fmt(payable)} is not positive: there is nothing to factor`);
  if (payable !== null && payable > 0 && dueDate === null) {
    problems.add('HR-BR-4', 'Due date (BT-9) is required when an amount is payable');
  }
  // A standard-rated line needs the buyer's VAT identifier (BT-48).
  if (lines.some((line) => line.vatCategory === 'S') && buyer.vatId === null) {
    problems.add('HR-BR-S-1', 'Buyer VAT identifier (BT-48) is required when a line is standard rated (S)');
  }

  // --- Payment instructions (BG-16)
  const paymentMeans = all(root, 'cac:PaymentMeans').map((means) => {
    const paymentId = textOf(means, 'cbc:PaymentID');
    const model = paymentId ? /^(HR\d{2})\s*(.*)$/.exec(paymentId) : null;
    return {
      code: textOf(means, 'cbc:PaymentMeansCode'),
      iban: textOf(means, 'cac:PayeeFinancialAccount', 'cbc:ID')?.replace(/\s+/g, '').toUpperCase() ?? null,
      paymentId,
      model: model?.[1] ?? null,
      reference: model ? model[2] || null : paymentId,
    };
  });
  for (const means of paymentMeans) if (means.code === null) problems.add('BR-49', 'Payment means type code (BT-81) is missing');

  if (problems.list.length > 0) throw refusal(problems.list);

  const description = (notes.length ? notes.join('\n') : (lines[0]?.description ?? '')).slice(0, 5000) || null;
  return {
    customizationId: customizationId!,
    profileId: profileId!,
    invoiceNumber: invoiceNumber!,
    issueDate: issueDate!,
    issueTime: issueTime!,
    dueDate: dueDate!,
    typeCode: typeCode!,
    currency: currency!,
    notes,
    description,
    amount: payable!,
    totals: {
      lineExtension: lineExtension!,
      allowances: allowanceTotal ?? 0,
      charges: chargeTotal ?? 0,
      taxExclusive: taxExclusive!,
      taxAmount: taxAmount!,
      taxInclusive: taxInclusive!,
      prepaid,
      rounding,
      payable: payable!,
    },
    vatBreakdown: breakdown,
    lines,
    seller,
    sellerContact,
    buyer,
    paymentMeans,
  };
}

/** An allowance or charge states why: a reason text or a reason code (BR-33/38 on the document, BR-42/44 on a line). */
function hasReason(allowanceCharge: XmlElement): boolean {
  return Boolean(textOf(allowanceCharge, 'cbc:AllowanceChargeReason') || textOf(allowanceCharge, 'cbc:AllowanceChargeReasonCode'));
}

/** BR-S-05, BR-Z-05, BR-E-05, BR-AE-05, BR-K-05, BR-G-05: a standard-rated line has a rate above zero; the others zero. */
function checkCategoryRate(problems: Problems, label: string, category: string | null, rate: string | null) {
  if (category === null || rate === null) return;
  if (category === 'S' && rate === '0.00') problems.add('BR-S-05', `${label}: a standard rated line (S) needs a VAT rate above zero`);
  if (['Z', 'E', 'AE', 'K', 'G'].includes(category) && rate !== '0.00') {
    problems.add(`BR-${category}-05`, `${label}: VAT category ${category} must have the rate 0, found ${rate}`);
  }
}

/** price ÷ base quantity to 8 decimals (then shown with 4): the unit price of a line priced per 10 or 100 units. */
function divideDecimal(price: Decimal, base: Decimal): Decimal {
  const scale = 8;
  const units = (price.units * 10n ** BigInt(scale + base.scale)) / (base.units * 10n ** BigInt(price.scale));
  return { units, scale };
}

// ---------------------------------------------------------------------------
// The document against the book

export interface ProposedCustomer {
  companyName: string;
  oib: string;
  address: string | null;
  city: string | null;
  postalCode: string | null;
  country: string;
  email: string | null;
}

export interface UblPartyMatch {
  client: { id: string; companyName: string; oib: string };
  /** The existing customer whose OIB is the buyer's, or null. */
  customer: { id: string; companyName: string; oib: string; accountBlocked: boolean } | null;
  /** When no customer has the buyer's OIB: what the caller may create from the XML. */
  proposedCustomer: ProposedCustomer | null;
}

const COUNTRY_NAMES: Record<string, string> = { HR: 'Croatia', SI: 'Slovenia', AT: 'Austria', DE: 'Germany', IT: 'Italy', HU: 'Hungary', BA: 'Bosnia and Herzegovina', RS: 'Serbia' };

/** The buyer's data as a customer creation input (fields the creation schema would refuse are left out). */
export function proposeCustomer(buyer: UblParty): ProposedCustomer {
  const postalCode = buyer.address.postalCode && /^\d{5}$/.test(buyer.address.postalCode) ? buyer.address.postalCode : null;
  const code = buyer.address.countryCode?.toUpperCase() ?? 'HR';
  return {
    companyName: (buyer.name ?? '').slice(0, 255),
    oib: buyer.oib ?? '',
    address: buyer.address.street?.slice(0, 255) ?? null,
    city: buyer.address.city?.slice(0, 255) ?? null,
    postalCode,
    country: COUNTRY_NAMES[code] ?? code,
    email: buyer.email && isValidEmail(buyer.email.toLowerCase()) ? buyer.email.toLowerCase() : null,
  };
}

/**
 * The seller must be the client the invoice is submitted for (its OIB equals
 * the client's: a client can only sell its own receivables); the buyer is
 * looked up by OIB. Throws 400 on clientId when the client does not exist,
 * 400 naming both OIBs when the seller is someone else.
 */
export async function matchUblParties(
  invoice: Pick<UblInvoice, 'seller' | 'buyer'>,
  clientId: string,
  options: { transaction?: Transaction } = {},
): Promise<UblPartyMatch> {
  const client = /^[0-9a-f-]{36}$/i.test(clientId)
    ? await selectOne<{ id: string; company_name: string; oib: string }>(
        'SELECT id, company_name, oib FROM clients WHERE id = :clientId',
        { clientId },
        { transaction: options.transaction },
      )
    : null;
  if (!client) throw apiError(400, 'Client not found', { clientId: ['Client not found'] });
  if (invoice.seller.oib !== client.oib) {
    const message = `HR-CIUS seller OIB: Seller OIB ${invoice.seller.oib} is not the client's OIB ${client.oib} (${client.company_name})`;
    throw apiError(400, message, { xml: [message] });
  }
  const customer = await selectOne<{ id: string; company_name: string; oib: string; account_blocked: boolean }>(
    'SELECT id, company_name, oib, account_blocked FROM customers WHERE oib = :oib',
    { oib: invoice.buyer.oib },
    { transaction: options.transaction },
  );
  return {
    client: { id: client.id, companyName: client.company_name, oib: client.oib },
    customer: customer ? { id: customer.id, companyName: customer.company_name, oib: customer.oib, accountBlocked: customer.account_blocked } : null,
    proposedCustomer: customer ? null : proposeCustomer(invoice.buyer),
  };
}
