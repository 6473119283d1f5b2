import { percentOfCents, sumCents } from '../utils/money.ts';
import { isCalendarDate, isValidOib } from '../utils/validation.ts';
import { decimalToFixed, parseDecimal, type Decimal } from './decimal.ts';
import { isKpd2025Code } from './kpd.ts';
import { all, first, HR_CIUS_CUSTOMIZATION_ID, OIB_SCHEME_ID, parseXmlSafely, textOf, UBL_INVOICE_NS, type XmlElement } from './ubl-read.server.ts';

/**
 * Our own checks of the EN 16931 business rules (BR-*, BR-CO-* calculation
 * rules, BR-S-* standard-rated rules, BR-DEC-* decimals) and of the Croatian
 * CIUS points of docs/croatian-formats.md that FinFlow's e-invoices rely on. They run over a
 * document read back from its XML (never over the writer's inputs), so they
 * validate what is actually sent.
 *
 * Each rule has its EN 16931 identifier (the CIUS points have FinFlow's own
 * 'HR-CIUS-…' ids) and reports every place that breaks it. A rule whose
 * inputs are missing stays silent: the rule that requires the input reports
 * it, so one defect gives one violation. Amounts are compared exactly in
 * cents; the VAT of a breakdown is rounded half-up to the cent.
 *
 * Not covered: code-list rules (BR-CL-*), allowances and charges beyond their
 * sums (BR-31…BR-48), and the categories FinFlow does not issue (BR-Z/E/AE/…).
 */

export interface RuleViolation {
  rule: string;
  message: string;
}

export interface Rule {
  id: string;
  /** What the rule requires (EN 16931 wording, shortened). */
  description: string;
  check(document: DocumentView): string[];
}

// ---------------------------------------------------------------------------
// The document as the rules see it

interface Amount {
  text: string;
  /** Cents, rounded half-up when more than two decimals are written (BR-DEC reports those); null when not a number. */
  cents: number | null;
  decimals: number;
}

interface PartyView {
  name: string | null;
  endpointId: string | null;
  endpointScheme: string | null;
  vatIds: string[];
  hasAddress: boolean;
  countryCode: string | null;
}

interface LineView {
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

interface SubtotalView {
  taxable: Amount | null;
  tax: Amount | null;
  category: string | null;
  rate: string | null;
  exemption: string | null;
}

interface AllowanceChargeView {
  isCharge: boolean;
  amount: Amount | null;
  category: string | null;
  rate: string | null;
}

export interface DocumentView {
  isInvoice: boolean;
  customizationId: string | null;
  profileId: string | null;
  number: string | null;
  issueDate: string | null;
  issueTime: string | null;
  dueDate: string | null;
  typeCode: string | null;
  currency: string | null;
  paymentTermsNote: string | null;
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

/** '25', '25.0', '25.00' → '25.00'; null when absent or not a number. */
function rateOf(text: string | null): string | null {
  const value = text === null ? null : parseDecimal(text);
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

/** Reads the XML (safely: no DOCTYPE, size cap) into the view the rules check. Null when it is not well-formed XML. */
export function readDocument(xml: string | Buffer): DocumentView | null {
  let root: XmlElement;
  try {
    root = parseXmlSafely(xml);
  } catch {
    return null;
  }
  const totals = first(root, 'cac:LegalMonetaryTotal');
  const taxTotals = all(root, 'cac:TaxTotal');
  const currency = textOf(root, 'cbc:DocumentCurrencyCode');
  // BT-110 is the TaxTotal in the document currency, the one with the breakdown; a second one (BT-111) has none.
  const taxTotal = taxTotals.find((total) => first(total, 'cac:TaxSubtotal')) ?? taxTotals.find((total) => first(total, 'cbc:TaxAmount')?.attrs.currencyID === currency);
  const contact = first(root, 'cac:AccountingSupplierParty', 'cac:SellerContact');
  return {
    isInvoice: root.name === 'Invoice' && root.ns === UBL_INVOICE_NS,
    customizationId: textOf(root, 'cbc:CustomizationID'),
    profileId: textOf(root, 'cbc:ProfileID'),
    number: textOf(root, 'cbc:ID'),
    issueDate: textOf(root, 'cbc:IssueDate'),
    issueTime: textOf(root, 'cbc:IssueTime'),
    dueDate: textOf(root, 'cbc:DueDate'),
    typeCode: textOf(root, 'cbc:InvoiceTypeCode'),
    currency,
    paymentTermsNote: textOf(root, 'cac:PaymentTerms', 'cbc:Note'),
    seller: partyOf(first(root, 'cac:AccountingSupplierParty')),
    buyer: partyOf(first(root, 'cac:AccountingCustomerParty')),
    sellerContact: contact ? { id: textOf(contact, 'cbc:ID'), name: textOf(contact, 'cbc:Name') } : null,
    lines: all(root, 'cac:InvoiceLine').map((line, index) => {
      const quantity = first(line, 'cbc:InvoicedQuantity');
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

// ---------------------------------------------------------------------------
// Helpers

const fmt = (cents: number) => `${cents < 0 ? '-' : ''}${Math.trunc(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;
const cents = (value: Amount | null) => value?.cents ?? null;
/** An optional amount (BT-107, BT-108, BT-113, BT-114) counts as zero when absent. */
const optional = (value: Amount | null) => (value === null ? 0 : value.cents);


/** ISO 3166-1 alpha-2, plus EL (Greece's VAT prefix, which BR-CO-9 allows). */
const COUNTRY_CODES = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU ' +
    'CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE ' +
    'IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT ' +
    'MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM ' +
    'SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW EL'
  ).split(' '),
);

/**
 * Net amounts of the lines and allowances/charges per VAT category and rate
 * ('S 25.00'); null when one of them lacks its amount, category or rate
 * (BR-24, BR-CO-04, … report that, and the sums cannot be checked).
 */
function taxableBasis(document: DocumentView): Map<string, number[]> | null {
  const basis = new Map<string, number[]>();
  const entries = [
    ...document.lines.map((line) => ({ category: line.category, rate: line.rate, value: cents(line.net) })),
    ...document.allowanceCharges.map((entry) => {
      const value = cents(entry.amount);
      return { category: entry.category, rate: entry.rate, value: value === null ? null : entry.isCharge ? value : -value };
    }),
  ];
  for (const { category, rate, value } of entries) {
    if (category === null || rate === null || value === null) return null;
    const key = `${category} ${rate}`;
    basis.set(key, [...(basis.get(key) ?? []), value]);
  }
  return basis;
}

const present = (id: string, description: string, read: (document: DocumentView) => unknown): Rule => ({
  id,
  description,
  check: (document) => (read(document) === null || read(document) === undefined ? [description] : []),
});

const perLine = (id: string, description: string, broken: (line: LineView) => boolean): Rule => ({
  id,
  description,
  check: (document) => document.lines.filter(broken).map((line) => `${line.label}: ${description}`),
});

/** BR-DEC-*: an amount of this business term has at most two decimals. */
const twoDecimals = (id: string, term: string, read: (document: DocumentView) => Array<Amount | null>): Rule => ({
  id,
  description: `${term} shall have at most 2 decimals`,
  check: (document) =>
    read(document)
      .filter((value): value is Amount => value !== null && value.decimals > 2)
      .map((value) => `${term} '${value.text}' has more than 2 decimals`),
});

// ---------------------------------------------------------------------------
// The rules

export const RULES: readonly Rule[] = [
  present('BR-01', 'An Invoice shall have a Specification identifier (BT-24)', (d) => d.customizationId),
  present('BR-02', 'An Invoice shall have an Invoice number (BT-1)', (d) => d.number),
  {
    id: 'BR-03',
    description: 'An Invoice shall have an Invoice issue date (BT-2)',
    check: (d) => (d.issueDate === null ? ['An Invoice shall have an Invoice issue date (BT-2)'] : isCalendarDate(d.issueDate) ? [] : [`Invoice issue date (BT-2) '${d.issueDate}' is not a YYYY-MM-DD date`]),
  },
  present('BR-04', 'An Invoice shall have an Invoice type code (BT-3)', (d) => d.typeCode),
  present('BR-05', 'An Invoice shall have an Invoice currency code (BT-5)', (d) => d.currency),
  present('BR-06', 'An Invoice shall contain the Seller name (BT-27)', (d) => d.seller?.name ?? null),
  present('BR-07', 'An Invoice shall contain the Buyer name (BT-44)', (d) => d.buyer?.name ?? null),
  present('BR-08', 'An Invoice shall contain the Seller postal address (BG-5)', (d) => (d.seller?.hasAddress ? true : null)),
  present('BR-09', 'The Seller postal address (BG-5) shall contain a Seller country code (BT-40)', (d) => (d.seller?.hasAddress === false ? true : (d.seller?.countryCode ?? null))),
  present('BR-10', 'An Invoice shall contain the Buyer postal address (BG-8)', (d) => (d.buyer?.hasAddress ? true : null)),
  present('BR-11', 'The Buyer postal address (BG-8) shall contain a Buyer country code (BT-55)', (d) => (d.buyer?.hasAddress === false ? true : (d.buyer?.countryCode ?? null))),
  present('BR-12', 'An Invoice shall have the Sum of Invoice line net amount (BT-106)', (d) => d.totals.lineExtension),
  present('BR-13', 'An Invoice shall have the Invoice total amount without VAT (BT-109)', (d) => d.totals.taxExclusive),
  present('BR-14', 'An Invoice shall have the Invoice total amount with VAT (BT-112)', (d) => d.totals.taxInclusive),
  present('BR-15', 'An Invoice shall have the Amount due for payment (BT-115)', (d) => d.totals.payable),
  present('BR-16', 'An Invoice shall have at least one Invoice line (BG-25)', (d) => (d.lines.length > 0 ? true : null)),
  perLine('BR-21', 'each Invoice line shall have an Invoice line identifier (BT-126)', (line) => line.id === null),
  perLine('BR-22', 'each Invoice line shall have an Invoiced quantity (BT-129)', (line) => line.quantity === null || parseDecimal(line.quantity) === null),
  perLine('BR-23', 'an Invoice line shall have an Invoiced quantity unit of measure code (BT-130)', (line) => line.quantity !== null && line.unitCode === null),
  perLine('BR-24', 'each Invoice line shall have an Invoice line net amount (BT-131)', (line) => line.net === null || line.net.cents === null),
  perLine('BR-25', 'each Invoice line shall contain the Item name (BT-153)', (line) => line.itemName === null),
  perLine('BR-26', 'each Invoice line shall contain the Item net price (BT-146)', (line) => line.price === null),
  perLine('BR-27', 'the Item net price (BT-146) shall NOT be negative', (line) => line.price !== null && line.price.units < 0n),
  {
    id: 'BR-49',
    description: 'A Payment instruction (BG-16) shall specify the Payment means type code (BT-81)',
    check: (d) => d.paymentMeans.filter((means) => means.code === null).map(() => 'A Payment instruction (BG-16) has no Payment means type code (BT-81)'),
  },
  {
    id: 'BR-61',
    description: 'If the Payment means type code (BT-81) means SEPA credit transfer, Local credit transfer or Non-SEPA international credit transfer, the Payment account identifier (BT-84) shall be present',
    check: (d) =>
      d.paymentMeans
        .filter((means) => (means.code === '30' || means.code === '58') && means.accountIds.length === 0)
        .map((means) => `Payment means ${means.code} (credit transfer) has no Payment account identifier (BT-84)`),
  },
  {
    id: 'BR-62',
    description: 'The Seller electronic address (BT-34) shall have a Scheme identifier',
    check: (d) => (d.seller?.endpointId && !d.seller.endpointScheme ? ['The Seller electronic address (BT-34) has no schemeID'] : []),
  },
  {
    id: 'BR-63',
    description: 'The Buyer electronic address (BT-49) shall have a Scheme identifier',
    check: (d) => (d.buyer?.endpointId && !d.buyer.endpointScheme ? ['The Buyer electronic address (BT-49) has no schemeID'] : []),
  },
  perLine('BR-CO-04', 'each Invoice line shall be categorized with an Invoiced item VAT category code (BT-151)', (line) => line.category === null),
  {
    id: 'BR-CO-09',
    description: 'The Seller VAT identifier (BT-31) and the Buyer VAT identifier (BT-48) shall have a prefix in accordance with ISO code ISO 3166-1 alpha-2',
    check: (d) =>
      [
        ...(d.seller?.vatIds ?? []).map((id) => ['Seller', id]),
        ...(d.buyer?.vatIds ?? []).map((id) => ['Buyer', id]),
      ]
        .filter(([, id]) => !COUNTRY_CODES.has(id.slice(0, 2)))
        .map(([role, id]) => `${role} VAT identifier '${id}' does not start with an ISO 3166-1 alpha-2 country code`),
  },
  {
    id: 'BR-CO-10',
    description: 'Sum of Invoice line net amount (BT-106) = Σ Invoice line net amount (BT-131)',
    check: (d) => {
      const total = cents(d.totals.lineExtension);
      const nets = d.lines.map((line) => cents(line.net));
      if (total === null || d.lines.length === 0 || nets.includes(null)) return [];
      const sum = sumCents(nets as number[]);
      return sum === total ? [] : [`Sum of line net amounts ${fmt(sum)} ≠ BT-106 ${fmt(total)}`];
    },
  },
  {
    id: 'BR-CO-11',
    description: 'Sum of allowances on document level (BT-107) = Σ Document level allowance amount (BT-92)',
    check: (d) => {
      const allowances = d.allowanceCharges.filter((entry) => !entry.isCharge).map((entry) => cents(entry.amount));
      const total = optional(d.totals.allowances);
      if (total === null || allowances.includes(null) || (d.totals.allowances === null && allowances.length === 0)) return [];
      const sum = sumCents(allowances as number[]);
      return sum === total ? [] : [`Sum of document level allowances ${fmt(sum)} ≠ BT-107 ${fmt(total)}`];
    },
  },
  {
    id: 'BR-CO-12',
    description: 'Sum of charges on document level (BT-108) = Σ Document level charge amount (BT-99)',
    check: (d) => {
      const charges = d.allowanceCharges.filter((entry) => entry.isCharge).map((entry) => cents(entry.amount));
      const total = optional(d.totals.charges);
      if (total === null || charges.includes(null) || (d.totals.charges === null && charges.length === 0)) return [];
      const sum = sumCents(charges as number[]);
      return sum === total ? [] : [`Sum of document level charges ${fmt(sum)} ≠ BT-108 ${fmt(total)}`];
    },
  },
  {
    id: 'BR-CO-13',
    description: 'Invoice total amount without VAT (BT-109) = Σ Invoice line net amount (BT-106) − Sum of allowances on document level (BT-107) + Sum of charges on document level (BT-108)',
    check: (d) => {
      const [lines, exclusive, allowances, charges] = [cents(d.totals.lineExtension), cents(d.totals.taxExclusive), optional(d.totals.allowances), optional(d.totals.charges)];
      if (lines === null || exclusive === null || allowances === null || charges === null) return [];
      const expected = lines - allowances + charges;
      return expected === exclusive ? [] : [`BT-109 ${fmt(exclusive)} ≠ BT-106 ${fmt(lines)} − BT-107 ${fmt(allowances)} + BT-108 ${fmt(charges)} = ${fmt(expected)}`];
    },
  },
  {
    id: 'BR-CO-14',
    description: 'Invoice total VAT amount (BT-110) = Σ VAT category tax amount (BT-117)',
    check: (d) => {
      const total = cents(d.taxAmount);
      const taxes = d.subtotals.map((subtotal) => cents(subtotal.tax));
      if (total === null || d.subtotals.length === 0 || taxes.includes(null)) return [];
      const sum = sumCents(taxes as number[]);
      return sum === total ? [] : [`BT-110 ${fmt(total)} ≠ sum of VAT category tax amounts ${fmt(sum)}`];
    },
  },
  {
    id: 'BR-CO-15',
    description: 'Invoice total amount with VAT (BT-112) = Invoice total amount without VAT (BT-109) + Invoice total VAT amount (BT-110)',
    check: (d) => {
      const [exclusive, tax, inclusive] = [cents(d.totals.taxExclusive), cents(d.taxAmount), cents(d.totals.taxInclusive)];
      if (exclusive === null || tax === null || inclusive === null) return [];
      return exclusive + tax === inclusive ? [] : [`BT-112 ${fmt(inclusive)} ≠ BT-109 ${fmt(exclusive)} + BT-110 ${fmt(tax)} = ${fmt(exclusive + tax)}`];
    },
  },
  {
    id: 'BR-CO-16',
    description: 'Amount due for payment (BT-115) = Invoice total amount with VAT (BT-112) − Paid amount (BT-113) + Rounding amount (BT-114)',
    check: (d) => {
      const [inclusive, prepaid, rounding, payable] = [cents(d.totals.taxInclusive), optional(d.totals.prepaid), optional(d.totals.rounding), cents(d.totals.payable)];
      if (inclusive === null || prepaid === null || rounding === null || payable === null) return [];
      const expected = inclusive - prepaid + rounding;
      return expected === payable ? [] : [`BT-115 ${fmt(payable)} ≠ BT-112 ${fmt(inclusive)} − BT-113 ${fmt(prepaid)} + BT-114 ${fmt(rounding)} = ${fmt(expected)}`];
    },
  },
  {
    id: 'BR-CO-17',
    description: 'VAT category tax amount (BT-117) = VAT category taxable amount (BT-116) × (VAT category rate (BT-119) / 100), rounded to two decimals',
    check: (d) =>
      d.subtotals.flatMap((subtotal) => {
        const [taxable, tax] = [cents(subtotal.taxable), cents(subtotal.tax)];
        if (taxable === null || tax === null || subtotal.rate === null) return [];
        const expected = percentOfCents(taxable, subtotal.rate);
        return expected === tax ? [] : [`VAT ${subtotal.category ?? '?'} ${subtotal.rate} %: tax ${fmt(tax)} ≠ ${fmt(taxable)} × ${subtotal.rate} % = ${fmt(expected)}`];
      }),
  },
  present('BR-CO-18', 'An Invoice shall at least have one VAT breakdown group (BG-23)', (d) => (d.subtotals.length > 0 ? true : null)),
  {
    id: 'BR-CO-25',
    description: 'In case the Amount due for payment (BT-115) is positive, either the Payment due date (BT-9) or the Payment terms (BT-20) shall be present',
    check: (d) => {
      const payable = cents(d.totals.payable);
      return payable !== null && payable > 0 && d.dueDate === null && d.paymentTermsNote === null ? ['A positive amount is due but there is no Payment due date (BT-9) or Payment terms (BT-20)'] : [];
    },
  },
  {
    id: 'BR-S-01',
    description: 'An Invoice with a line, allowance or charge of VAT category "Standard rated" shall have at least one VAT breakdown (BG-23) with the category code "Standard rated"',
    check: (d) => {
      const used = d.lines.some((line) => line.category === 'S') || d.allowanceCharges.some((entry) => entry.category === 'S');
      return used && !d.subtotals.some((subtotal) => subtotal.category === 'S') ? ['Standard rated lines but no VAT breakdown of category S'] : [];
    },
  },
  {
    id: 'BR-S-02',
    description: 'An Invoice with a "Standard rated" line shall contain the Seller VAT identifier (BT-31), the Seller tax registration identifier (BT-32) or the Seller tax representative VAT identifier (BT-63)',
    check: (d) => (d.lines.some((line) => line.category === 'S') && d.seller !== null && d.seller.vatIds.length === 0 ? ['Standard rated lines but no Seller VAT identifier (BT-31)'] : []),
  },
  perLine('BR-S-05', 'in a "Standard rated" Invoice line the Invoiced item VAT rate (BT-152) shall be greater than zero', (line) => line.category === 'S' && (line.rate === null || Number(line.rate) <= 0)),
  {
    id: 'BR-S-08',
    description: 'For each different VAT rate (BT-119) of category "Standard rated", the VAT category taxable amount (BT-116) = Σ line net amounts − allowances + charges at that rate',
    check: (d) => {
      const basis = taxableBasis(d);
      if (basis === null) return [];
      return d.subtotals
        .filter((subtotal) => subtotal.category === 'S' && subtotal.rate !== null && cents(subtotal.taxable) !== null)
        .flatMap((subtotal) => {
          const expected = sumCents(basis.get(`S ${subtotal.rate}`) ?? []);
          const taxable = cents(subtotal.taxable)!;
          return expected === taxable ? [] : [`VAT S ${subtotal.rate} %: taxable ${fmt(taxable)} ≠ lines − allowances + charges at that rate ${fmt(expected)}`];
        });
    },
  },
  {
    id: 'BR-S-09',
    description: 'The VAT category tax amount (BT-117) of category "Standard rated" = VAT category taxable amount (BT-116) × VAT category rate (BT-119), rounded to two decimals',
    check: (d) =>
      d.subtotals
        .filter((subtotal) => subtotal.category === 'S' && subtotal.rate !== null && cents(subtotal.taxable) !== null && cents(subtotal.tax) !== null)
        .flatMap((subtotal) => {
          const expected = percentOfCents(cents(subtotal.taxable)!, subtotal.rate!);
          return expected === cents(subtotal.tax) ? [] : [`VAT S ${subtotal.rate} %: tax ${fmt(cents(subtotal.tax)!)} ≠ ${fmt(expected)}`];
        }),
  },
  {
    id: 'BR-S-10',
    description: 'A VAT breakdown (BG-23) with category "Standard rated" shall not have a VAT exemption reason code (BT-121) or text (BT-120)',
    check: (d) => d.subtotals.filter((subtotal) => subtotal.category === 'S' && subtotal.exemption !== null).map((subtotal) => `VAT S ${subtotal.rate ?? '?'} % has an exemption reason '${subtotal.exemption}'`),
  },
  twoDecimals('BR-DEC-09', 'Sum of Invoice line net amount (BT-106)', (d) => [d.totals.lineExtension]),
  twoDecimals('BR-DEC-12', 'Invoice total amount without VAT (BT-109)', (d) => [d.totals.taxExclusive]),
  twoDecimals('BR-DEC-13', 'Invoice total VAT amount (BT-110)', (d) => [d.taxAmount]),
  twoDecimals('BR-DEC-14', 'Invoice total amount with VAT (BT-112)', (d) => [d.totals.taxInclusive]),
  twoDecimals('BR-DEC-18', 'Amount due for payment (BT-115)', (d) => [d.totals.payable]),
  twoDecimals('BR-DEC-19', 'VAT category taxable amount (BT-116)', (d) => d.subtotals.map((subtotal) => subtotal.taxable)),
  twoDecimals('BR-DEC-20', 'VAT category tax amount (BT-117)', (d) => d.subtotals.map((subtotal) => subtotal.tax)),
  twoDecimals('BR-DEC-23', 'Invoice line net amount (BT-131)', (d) => d.lines.map((line) => line.net)),

  // --- The Croatian CIUS (Fiskalizacija 2.0, docs/croatian-formats.md)
  {
    id: 'HR-CIUS-ID',
    description: `The Specification identifier (BT-24) shall be ${HR_CIUS_CUSTOMIZATION_ID}`,
    check: (d) => (d.customizationId !== null && d.customizationId !== HR_CIUS_CUSTOMIZATION_ID ? [`CustomizationID '${d.customizationId}' is not the HR CIUS identifier`] : []),
  },
  {
    id: 'HR-CIUS-PROFILE',
    description: 'The Business process type (BT-23, ProfileID) shall be P1–P12 or P99',
    check: (d) => (d.profileId === null ? ['ProfileID (BT-23) is missing'] : /^P([1-9]|1[0-2]|99)$/.test(d.profileId) ? [] : [`ProfileID '${d.profileId}' is not P1–P12 or P99`]),
  },
  {
    id: 'HR-CIUS-ISSUE-TIME',
    description: 'An Invoice shall have its issue time (IssueTime, hh:mm:ss)',
    check: (d) => (d.issueTime === null ? ['IssueTime is missing'] : /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/.test(d.issueTime) ? [] : [`IssueTime '${d.issueTime}' is not hh:mm:ss`]),
  },
  {
    id: 'HR-CIUS-DUE-DATE',
    description: 'An Invoice with an amount due shall have a Payment due date (BT-9, DueDate), not before the issue date',
    check: (d) => {
      const payable = cents(d.totals.payable);
      // With neither a due date nor payment terms BR-CO-25 speaks; the CIUS wants the date even beside terms.
      if (d.dueDate === null) return payable !== null && payable > 0 && d.paymentTermsNote !== null ? ['DueDate (BT-9) is missing'] : [];
      if (!isCalendarDate(d.dueDate)) return [`DueDate '${d.dueDate}' is not a YYYY-MM-DD date`];
      return d.issueDate !== null && isCalendarDate(d.issueDate) && d.dueDate < d.issueDate ? [`DueDate ${d.dueDate} is before the issue date ${d.issueDate}`] : [];
    },
  },
  ...(['Seller', 'Buyer'] as const).map(
    (role): Rule => ({
      id: `HR-CIUS-${role.toUpperCase()}-OIB`,
      description: `The ${role}'s electronic address (EndpointID) shall be its OIB with schemeID="${OIB_SCHEME_ID}"`,
      check: (d) => {
        const party = role === 'Seller' ? d.seller : d.buyer;
        if (party === null) return [];
        if (party.endpointId === null) return [`${role} EndpointID is missing`];
        // Without any schemeID BR-62/BR-63 speak.
        if (party.endpointScheme === null) return [];
        if (party.endpointScheme !== OIB_SCHEME_ID) return [`${role} EndpointID schemeID is '${party.endpointScheme}', not ${OIB_SCHEME_ID}`];
        return isValidOib(party.endpointId) ? [] : [`${role} EndpointID '${party.endpointId}' is not a valid OIB`];
      },
    }),
  ),
  {
    id: 'HR-CIUS-VAT-ID',
    description: "A Croatian party's VAT identifier shall be HR followed by its OIB (the EndpointID)",
    check: (d) =>
      (['Seller', 'Buyer'] as const).flatMap((role) => {
        const party = role === 'Seller' ? d.seller : d.buyer;
        // Compared only with a valid OIB address; HR-CIUS-SELLER-OIB/BUYER-OIB report a wrong one.
        if (!party?.endpointId || party.endpointScheme !== OIB_SCHEME_ID || !isValidOib(party.endpointId)) return [];
        return party.vatIds.filter((id) => id.startsWith('HR') && id !== `HR${party.endpointId}`).map((id) => `${role} VAT identifier '${id}' is not HR + OIB ${party.endpointId}`);
      }),
  },
  {
    id: 'HR-CIUS-OPERATOR',
    description: 'The operator who issued the invoice shall be given as SellerContact with its OIB (ID) and Name',
    check: (d) => {
      if (d.sellerContact === null) return ['SellerContact (the operator) is missing'];
      const problems: string[] = [];
      if (d.sellerContact.id === null || !isValidOib(d.sellerContact.id)) problems.push(`SellerContact ID '${d.sellerContact.id ?? ''}' is not a valid OIB`);
      if (d.sellerContact.name === null) problems.push('SellerContact Name is missing');
      return problems;
    },
  },
  // The official rules (HR-BR-25, code list HR-BR-CL-2) accept only the KPD 2025 list: app/einvoices/kpd.ts.
  perLine('HR-CIUS-KPD', 'each Invoice line shall have a KPD 2025 classification of the official list (ItemClassificationCode listID="CG", dd.dd.dd)', (line) => !line.kpdCodes.some(isKpd2025Code)),
  perLine('HR-CIUS-TAX-NAME', 'each "Standard rated" line shall name its tax category HR:PDV<rate> (e.g. HR:PDV25)', (line) => {
    if (line.category !== 'S' || line.rate === null) return false;
    const whole = line.rate.replace(/\.00$/, '').replace(/(\.\d)0$/, '$1');
    return line.taxName !== `HR:PDV${whole}`;
  }),
  {
    id: 'HR-CIUS-PAYMENT-ID',
    description: 'A credit transfer shall carry a payment reference (BT-83) in a Croatian model: HRnn followed by the reference number',
    check: (d) =>
      d.paymentMeans
        .filter((means) => means.code === '30' || means.code === '58')
        .filter((means) => means.paymentId === null || !/^HR\d{2} [0-9A-Za-z-]{1,22}$/.test(means.paymentId))
        .map((means) => `Payment reference '${means.paymentId ?? ''}' is not in a Croatian model (e.g. HR00 2026-000001)`),
  },
];

/** Every violation of every rule, in the order of RULES; [] for a conforming document. */
export function validateEn16931(xml: string | Buffer): RuleViolation[] {
  const document = readDocument(xml);
  if (document === null) return [{ rule: 'XML', message: 'The document is not well-formed XML (or has a DOCTYPE, or is not UTF-8)' }];
  if (!document.isInvoice) return [{ rule: 'UBL', message: `The root element is not a UBL 2.1 Invoice (${UBL_INVOICE_NS})` }];
  return RULES.flatMap((rule) => rule.check(document).map((message) => ({ rule: rule.id, message })));
}
