import { apiError } from '../utils/api.server.ts';
import { UBL_MESSAGES } from './ubl-constants.ts';
import { centsToDecimalString, toCents } from '../utils/money.ts';
import { isCalendarDate, isValidOib } from '../utils/validation.ts';
import { decimalToFixed, lineAmountCents, parseDecimal, type Decimal } from './decimal.ts';
import { checkEInvoiceRules } from './en16931-rules.server.ts';
import { isKpd2025Code } from './kpd.ts';
import {
  HR_CIUS_CUSTOMIZATION_ID,
  HR_PROFILE_ID,
  OIB_SCHEME_ID,
  UBL_INVOICE_NS,
  type UblAddress,
  type UblInvoice,
  type UblLine,
  type UblParty,
  type UblVatBreakdown,
} from './ubl-constants.ts';
import { all, first, parseUblXml, textOf, type XmlElement } from './ubl-xml.server.ts';

/**
 * Intake of a client's e-invoice, the document alone: a UBL 2.1 Invoice
 * conforming to EN 16931 and the Croatian CIUS (docs/croatian-formats.md).
 * `parseUblInvoice` reads it safely (ubl-xml.server.ts), checks the UBL root
 * and each business term as it reads it (present, well-formed, the Croatian CIUS identifiers), and
 * runs the relations between the terms — the EN 16931 calculation rules —
 * through the one rules engine (en16931-rules.server.ts). Every refusal names
 * its rule ('BR-CO-15: …'); all problems found are listed in `errors.xml`.
 * The ids are those of the official rules (vendor/einvoice-rules: EN 16931
 * BR-*, Croatian HR-BR-*) wherever a check is one of them;
 * app/einvoices/official-rules.test.ts holds the two to the same verdict.
 * The parties against the book: ubl-parties.server.ts.
 *
 * Amounts are integer cents; quantities and prices exact decimals (decimal.ts).
 */

// ---------------------------------------------------------------------------
// Checks

export interface Problem {
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

/** 400 naming every failing rule: message = the first, errors.xml = all; the rule id and its (English) text are params. */
export function ruleRefusal(problems: Problem[]): Response {
  const refusals = problems.map((problem) => ({ code: UBL_MESSAGES.rule, params: { rule: problem.rule, text: problem.message } }));
  return apiError(400, UBL_MESSAGES.rule, { params: refusals[0]?.params, errors: { xml: refusals } });
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

/** Parses and checks one e-invoice. Throws 400 (every failing rule), 413 (over 5 MB). */
export function parseUblInvoice(input: Buffer | string): UblInvoice {
  try {
    return checkUblInvoice(input);
  } catch (error) {
    // Exact money arithmetic refuses results past 2^53 cents: numbers that large are not an invoice.
    if (error instanceof RangeError) throw ruleRefusal([{ rule: 'BR-DEC', message: `a number is out of range (${error.message})` }]);
    throw error;
  }
}

function checkUblInvoice(input: Buffer | string): UblInvoice {
  const root = parseUblXml(input);
  if (root.name !== 'Invoice' || root.ns !== UBL_INVOICE_NS) {
    throw ruleRefusal([
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
    if (
      (category === 'E' || category === 'O') &&
      !textOf(item, 'cac:ClassifiedTaxCategory', 'cbc:TaxExemptionReason') &&
      !textOf(item, 'cac:ClassifiedTaxCategory', 'cbc:TaxExemptionReasonCode')
    ) {
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
        for (const rule of isCharge ? ['BR-44', 'BR-CO-24'] : ['BR-42', 'BR-CO-23'])
          problems.add(rule, `${label}: line ${isCharge ? 'charge' : 'allowance'} has no reason nor reason code`);
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
  for (const allowanceCharge of all(root, 'cac:AllowanceCharge')) {
    const isCharge = textOf(allowanceCharge, 'cbc:ChargeIndicator') === 'true';
    const what = isCharge ? 'Document level charge' : 'Document level allowance';
    const amount = amountOf(problems, first(allowanceCharge, 'cbc:Amount'), `${what} amount`, currency);
    if (amount === null) {
      problems.add(isCharge ? 'BR-36' : 'BR-31', `${what} amount is missing`);
      continue;
    }
    if (!hasReason(allowanceCharge)) {
      for (const rule of isCharge ? ['BR-38', 'BR-CO-22'] : ['BR-33', 'BR-CO-21']) problems.add(rule, `${what} has no reason nor reason code`);
    }
    const category = textOf(allowanceCharge, 'cac:TaxCategory', 'cbc:ID');
    const rate = rateText(textOf(allowanceCharge, 'cac:TaxCategory', 'cbc:Percent'));
    if (category === null || rate === null) {
      problems.add(isCharge ? 'BR-37' : 'BR-32', `${what} has no VAT category code`);
      continue;
    }
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
  const taxTotal =
    taxTotals.find((total) => first(total, 'cac:TaxSubtotal')) ?? taxTotals.find((total) => first(total, 'cbc:TaxAmount')?.attrs.currencyID === currency) ?? taxTotals[0];
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

  // The relations between the terms (BR-CO-10…18, BR-x-01, BR-x-08, BR-S-09): the one rules engine.
  for (const violation of checkEInvoiceRules(root, 'intake')) problems.add(violation.rule, violation.message);

  if (problems.list.length > 0) throw ruleRefusal(problems.list);

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
