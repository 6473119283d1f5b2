import { centsToDecimalString, percentOfCents, sumCents } from '../utils/money.ts';
import { isCalendarDate, isValidOib } from '../utils/validation.ts';
import { parseDecimal } from './decimal.ts';
import { documentKindOf, readDocument, type Amount, type DocumentView, type LineView } from './en16931-document.server.ts';
import { isKpd2025Code } from './kpd.ts';
import { HR_CIUS_CUSTOMIZATION_ID, HR_PROFILE_ID, OIB_SCHEME_ID, UBL_CREDIT_NOTE_NS, UBL_INVOICE_NS } from './ubl-constants.ts';
import { parseUblXml, type XmlElement } from './ubl-xml.server.ts';

/**
 * The one rules engine of FinFlow's e-invoices (UBL 2.1 Invoice and CreditNote): our own checks of the
 * EN 16931 business rules (BR-*, BR-CO-* calculation rules, BR-S-* standard
 * rated, BR-DEC-* decimals) and of the Croatian CIUS (HR-BR-* where the
 * official rules have the same check, FinFlow's own 'HR-CIUS-…' ids for what
 * FinFlow promises about the documents it writes; docs/croatian-formats.md).
 * They run over the document read back from its XML
 * (en16931-document.server.ts).
 *
 * One production caller per direction:
 * - intake (ubl-document.server.ts, `parseUblInvoice`): the CALCULATION rules,
 *   the relations between the business terms. The intake reader checks each
 *   term itself while reading it (it needs the value to store it), so the
 *   TERM rules are not run twice there;
 * - outgoing (outgoing.server.ts, before every send): every rule. A document
 *   that breaks one is not sent.
 *
 * A rule whose inputs are missing stays silent: the rule that requires the
 * input reports it, so one defect gives one violation. Amounts are compared
 * exactly in cents; the VAT of a breakdown is rounded half-up to the cent and
 * allowed less than one currency unit of difference, as the official rule.
 *
 * A CreditNote is read as EN 16931 maps it (its type code, lines and
 * quantities; its due date in PaymentMeans) and its amount due is credited,
 * not owed by the buyer (HR-BR-4); docs/decisions/015-fee-documents-at-settlement.md.
 *
 * Not covered: code-list rules (BR-CL-*) except the document type code
 * (BR-CL-01), allowances and charges beyond their sums (BR-31…BR-48; the
 * intake reader checks their reasons).
 */

export interface RuleViolation {
  rule: string;
  message: string;
}

export interface Rule {
  id: string;
  /** What the rule requires (EN 16931 wording, shortened). */
  description: string;
  /** A text per place that breaks it; a family of rules (BR-x-08) names the member broken (BR-S-08) with each. */
  check(document: DocumentView): Array<string | RuleViolation>;
}

/** 'creditNoteIntake': a received CreditNote, which no term-by-term reader checks first (app/einvoices/ubl-credit-note.server.ts). */
export type RuleDirection = 'intake' | 'creditNoteIntake' | 'outgoing';

// ---------------------------------------------------------------------------
// Helpers

const fmt = centsToDecimalString;
const cents = (value: Amount | null) => value?.cents ?? null;
/** An optional amount (BT-107, BT-108, BT-113, BT-114) counts as zero when absent. */
const optional = (value: Amount | null) => (value === null ? 0 : value.cents);
/**
 * What the buyer is asked to pay: BT-115 of an invoice. A credit note's
 * BT-115 is what the seller credits, so the official Croatian rules read it
 * negated (nothing is due from the buyer, no due date is required).
 */
const dueFromBuyer = (d: DocumentView) => {
  const payable = cents(d.totals.payable);
  return payable === null ? null : d.kind === 'creditNote' ? -payable : payable;
};

/** UNTDID 1001 codes EN 16931 allows (BR-CL-01): an Invoice's and a CreditNote's. */
const TYPE_CODES = {
  invoice: new Set(
    '71 80 81 82 84 102 130 202 203 204 211 218 219 295 325 326 331 380 382 383 384 385 386 387 388 389 390 393 394 395 456 457 471 472 473 500 501 527 553 575 623 633 751 780 817 870 875 876 877 935'.split(
      ' ',
    ),
  ),
  creditNote: new Set('81 83 261 262 296 308 381 396 420 458 502 503 532'.split(' ')),
};

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

/** The business terms one by one: run on what FinFlow sends (the intake reader checks them while reading). */
const TERM_RULES: readonly Rule[] = [
  present('BR-01', 'An Invoice shall have a Specification identifier (BT-24)', (d) => d.customizationId),
  present('BR-02', 'An Invoice shall have an Invoice number (BT-1)', (d) => d.number),
  {
    id: 'BR-03',
    description: 'An Invoice shall have an Invoice issue date (BT-2)',
    check: (d) =>
      d.issueDate === null
        ? ['An Invoice shall have an Invoice issue date (BT-2)']
        : isCalendarDate(d.issueDate)
          ? []
          : [`Invoice issue date (BT-2) '${d.issueDate}' is not a YYYY-MM-DD date`],
  },
  present('BR-04', 'An Invoice shall have an Invoice type code (BT-3)', (d) => d.typeCode),
  {
    id: 'BR-CL-01',
    description: 'The document type code (BT-3) shall be of the invoice (Invoice) or credit note (CreditNote) codes of UNTDID 1001',
    check: (d) =>
      d.typeCode === null || d.kind === null || TYPE_CODES[d.kind].has(d.typeCode)
        ? []
        : [`Type code ${d.typeCode} is not a${d.kind === 'creditNote' ? ' credit note' : 'n invoice'} type code of UNTDID 1001`],
  },
  present('BR-05', 'An Invoice shall have an Invoice currency code (BT-5)', (d) => d.currency),
  present('BR-06', 'An Invoice shall contain the Seller name (BT-27)', (d) => d.seller?.name ?? null),
  present('BR-07', 'An Invoice shall contain the Buyer name (BT-44)', (d) => d.buyer?.name ?? null),
  present('BR-08', 'An Invoice shall contain the Seller postal address (BG-5)', (d) => (d.seller?.hasAddress ? true : null)),
  present('BR-09', 'The Seller postal address (BG-5) shall contain a Seller country code (BT-40)', (d) =>
    d.seller?.hasAddress === false ? true : (d.seller?.countryCode ?? null),
  ),
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
    id: 'BR-55',
    description: 'Each Preceding Invoice reference (BG-3) shall contain a Preceding Invoice reference (BT-25)',
    check: (d) => d.precedingInvoices.filter((reference) => reference.id === null).map(() => 'A Preceding Invoice reference (BG-3) has no invoice number (BT-25)'),
  },
  {
    id: 'BR-49',
    description: 'A Payment instruction (BG-16) shall specify the Payment means type code (BT-81)',
    check: (d) => d.paymentMeans.filter((means) => means.code === null).map(() => 'A Payment instruction (BG-16) has no Payment means type code (BT-81)'),
  },
  {
    id: 'BR-61',
    description:
      'If the Payment means type code (BT-81) means SEPA credit transfer, Local credit transfer or Non-SEPA international credit transfer, the Payment account identifier (BT-84) shall be present',
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
      [...(d.seller?.vatIds ?? []).map((id) => ['Seller', id]), ...(d.buyer?.vatIds ?? []).map((id) => ['Buyer', id])]
        .filter(([, id]) => !COUNTRY_CODES.has(id.slice(0, 2)))
        .map(([role, id]) => `${role} VAT identifier '${id}' does not start with an ISO 3166-1 alpha-2 country code`),
  },
  {
    id: 'BR-CO-25',
    description: 'In case the Amount due for payment (BT-115) is positive, either the Payment due date (BT-9) or the Payment terms (BT-20) shall be present',
    check: (d) => {
      const payable = cents(d.totals.payable);
      return payable !== null && payable > 0 && d.dueDate === null && d.paymentTermsNote === null
        ? ['A positive amount is due but there is no Payment due date (BT-9) or Payment terms (BT-20)']
        : [];
    },
  },
  {
    id: 'BR-S-02',
    description:
      'An Invoice with a "Standard rated" line shall contain the Seller VAT identifier (BT-31), the Seller tax registration identifier (BT-32) or the Seller tax representative VAT identifier (BT-63)',
    check: (d) =>
      d.lines.some((line) => line.category === 'S') && d.seller !== null && d.seller.vatIds.length === 0 ? ['Standard rated lines but no Seller VAT identifier (BT-31)'] : [],
  },
  perLine(
    'BR-S-05',
    'in a "Standard rated" Invoice line the Invoiced item VAT rate (BT-152) shall be greater than zero',
    (line) => line.category === 'S' && (line.rate === null || Number(line.rate) <= 0),
  ),
  {
    id: 'BR-S-10',
    description: 'A VAT breakdown (BG-23) with category "Standard rated" shall not have a VAT exemption reason code (BT-121) or text (BT-120)',
    check: (d) =>
      d.subtotals
        .filter((subtotal) => subtotal.category === 'S' && subtotal.exemption !== null)
        .map((subtotal) => `VAT S ${subtotal.rate ?? '?'} % has an exemption reason '${subtotal.exemption}'`),
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
    id: 'HR-BR-5',
    description: `The Specification identifier (BT-24) shall be ${HR_CIUS_CUSTOMIZATION_ID}`,
    check: (d) => (d.customizationId !== null && d.customizationId !== HR_CIUS_CUSTOMIZATION_ID ? [`CustomizationID '${d.customizationId}' is not the HR CIUS identifier`] : []),
  },
  {
    id: 'HR-BR-34',
    description: "The Business process type (BT-23, ProfileID) shall be P1–P12, or P99 followed by the buyer's designation (P99:…)",
    check: (d) =>
      d.profileId === null ? ['ProfileID (BT-23) is missing'] : HR_PROFILE_ID.test(d.profileId) ? [] : [`ProfileID '${d.profileId}' is not P1–P12 or P99:<designation>`],
  },
  {
    id: 'HR-BR-2',
    description: 'An Invoice shall have its issue time (IssueTime, hh:mm:ss)',
    check: (d) => (d.issueTime === null ? ['IssueTime is missing'] : /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/.test(d.issueTime) ? [] : [`IssueTime '${d.issueTime}' is not hh:mm:ss`]),
  },
  {
    id: 'HR-BR-4',
    description: 'An Invoice with an amount due from the buyer shall have a Payment due date (BT-9: DueDate, in a CreditNote PaymentMeans/PaymentDueDate)',
    check: (d) => {
      const due = dueFromBuyer(d);
      // With neither a due date nor payment terms BR-CO-25 speaks; the CIUS wants the date even beside terms.
      return d.dueDate === null && due !== null && due > 0 && d.paymentTermsNote !== null ? ['DueDate (BT-9) is missing'] : [];
    },
  },
  {
    id: 'HR-BR-6',
    description: 'Each Preceding Invoice reference (BG-3) shall have the preceding invoice issue date (BT-26)',
    check: (d) =>
      d.precedingInvoices
        .filter((reference) => reference.issueDate === null || !isCalendarDate(reference.issueDate))
        .map((reference) =>
          reference.issueDate === null
            ? `Preceding invoice ${reference.id ?? '?'} has no issue date (BT-26)`
            : `Preceding invoice ${reference.id ?? '?'}: issue date '${reference.issueDate}' is not a YYYY-MM-DD date`,
        ),
  },
  {
    // FinFlow's promise (docs/decisions/015-fee-documents-at-settlement.md): a credit note names the invoice it corrects.
    id: 'HR-CIUS-CREDIT-NOTE-REF',
    description: 'A credit note shall refer to the invoice it credits (BG-3, BT-25)',
    check: (d) => (d.kind === 'creditNote' && !d.precedingInvoices.some((reference) => reference.id !== null) ? ['The credit note names no preceding invoice (BT-25)'] : []),
  },
  {
    id: 'BT-9',
    description: 'The Payment due date (BT-9) shall be a date, not before the issue date',
    check: (d) => {
      if (d.dueDate === null) return [];
      if (!isCalendarDate(d.dueDate)) return [`DueDate '${d.dueDate}' is not a YYYY-MM-DD date`];
      return d.issueDate !== null && isCalendarDate(d.issueDate) && d.dueDate < d.issueDate ? [`DueDate ${d.dueDate} is before the issue date ${d.issueDate}`] : [];
    },
  },
  ...(['Seller', 'Buyer'] as const).map((role): Rule => ({
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
  })),
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
    id: 'HR-BR-37',
    description: 'The operator who issued the invoice shall be named (SellerContact Name)',
    check: (d) => (d.sellerContact?.name ? [] : ['The operator (SellerContact Name) is missing']),
  },
  {
    id: 'HR-BR-9',
    description: 'The operator who issued the invoice shall be given by a valid OIB (SellerContact ID)',
    check: (d) => (d.sellerContact?.id && isValidOib(d.sellerContact.id) ? [] : [`SellerContact ID '${d.sellerContact?.id ?? ''}' is not a valid OIB`]),
  },
  perLine('HR-BR-25', 'each Invoice line shall have a KPD classification (ItemClassificationCode listID="CG")', (line) => !line.kpdCodes.some((code) => code !== '')),
  {
    id: 'HR-BR-CL-2',
    description: 'a KPD classification shall be a code of the KPD 2025 list (app/einvoices/kpd.ts)',
    check: (d) =>
      d.lines.flatMap((line) => line.kpdCodes.filter((code) => code !== '' && !isKpd2025Code(code)).map((code) => `${line.label}: KPD code ${code} is not in the KPD 2025 list`)),
  },
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

// ---------------------------------------------------------------------------
// The relations between the terms: run in both directions

interface VatBasis {
  category: string;
  rate: string;
  cents: number[];
}

/**
 * Net amounts of the lines and document allowances (−) / charges (+) per VAT
 * category and rate ('S 25.00%'); null when one of them lacks its amount,
 * category or rate (BR-24, BR-CO-04, … report that, and the sums cannot be checked).
 */
function taxableBasis(document: DocumentView): Map<string, VatBasis> | null {
  const basis = new Map<string, VatBasis>();
  const entries = [
    ...document.lines.map((line) => ({ category: line.category, rate: line.rate, value: cents(line.net) })),
    ...document.allowanceCharges.map((entry) => {
      const value = cents(entry.amount);
      return { category: entry.category, rate: entry.rate, value: value === null ? null : entry.isCharge ? value : -value };
    }),
  ];
  for (const { category, rate, value } of entries) {
    if (category === null || rate === null || value === null) return null;
    const key = `${category} ${rate}%`;
    const entry = basis.get(key) ?? { category, rate, cents: [] };
    entry.cents.push(value);
    basis.set(key, entry);
  }
  return basis;
}

/** The VAT breakdowns whose category, rate, taxable and tax amounts are all given. */
function completeSubtotals(d: DocumentView) {
  return d.subtotals.flatMap((s) => {
    const [taxable, tax] = [cents(s.taxable), cents(s.tax)];
    return s.category !== null && s.rate !== null && taxable !== null && tax !== null
      ? [{ key: `${s.category} ${s.rate}%`, category: s.category, rate: s.rate, taxable, tax }]
      : [];
  });
}

/** BR-CO-17 / BR-S-09: the official rule allows less than one currency unit of difference (a zero rate: a tax that rounds to 0). */
function vatOff(subtotal: { rate: string; taxable: number; tax: number }): string | null {
  const expected = percentOfCents(subtotal.taxable, subtotal.rate);
  const off = Number(subtotal.rate) === 0 ? Math.abs(subtotal.tax) >= 50 : Math.abs(Math.abs(subtotal.tax) - Math.abs(expected)) >= 100;
  return off ? `tax amount ${fmt(subtotal.tax)} ≠ taxable ${fmt(subtotal.taxable)} × ${subtotal.rate} % = ${fmt(expected)}` : null;
}

const CALCULATION_RULES: readonly Rule[] = [
  {
    id: 'BR-CO-10',
    description: 'Sum of Invoice line net amount (BT-106) = Σ Invoice line net amount (BT-131)',
    check: (d) => {
      const total = cents(d.totals.lineExtension);
      const nets = d.lines.map((line) => cents(line.net));
      if (total === null || d.lines.length === 0 || nets.includes(null)) return [];
      const sum = sumCents(nets as number[]);
      return sum === total ? [] : [`Sum of line net amounts ${fmt(sum)} ≠ LineExtensionAmount (BT-106) ${fmt(total)}`];
    },
  },
  ...([false, true] as const).map((isCharge): Rule => ({
    id: isCharge ? 'BR-CO-12' : 'BR-CO-11',
    description: isCharge
      ? 'Sum of charges on document level (BT-108) = Σ Document level charge amount (BT-99)'
      : 'Sum of allowances on document level (BT-107) = Σ Document level allowance amount (BT-92)',
    check: (d) => {
      const amounts = d.allowanceCharges.filter((entry) => entry.isCharge === isCharge).map((entry) => cents(entry.amount));
      const given = isCharge ? d.totals.charges : d.totals.allowances;
      const total = optional(given);
      if (total === null || (given === null && amounts.length === 0)) return [];
      const sum = sumCents(amounts.filter((value): value is number => value !== null));
      const [what, term] = isCharge ? ['charges', 'ChargeTotalAmount (BT-108)'] : ['allowances', 'AllowanceTotalAmount (BT-107)'];
      return sum === total ? [] : [`Sum of document level ${what} ${fmt(sum)} ≠ ${term} ${fmt(total)}`];
    },
  })),
  {
    id: 'BR-CO-13',
    description:
      'Invoice total amount without VAT (BT-109) = Σ Invoice line net amount (BT-106) − Sum of allowances on document level (BT-107) + Sum of charges on document level (BT-108)',
    check: (d) => {
      const [lines, exclusive, allowances, charges] = [cents(d.totals.lineExtension), cents(d.totals.taxExclusive), optional(d.totals.allowances), optional(d.totals.charges)];
      if (lines === null || exclusive === null || allowances === null || charges === null) return [];
      const expected = lines - allowances + charges;
      return expected === exclusive
        ? []
        : [`TaxExclusiveAmount (BT-109) ${fmt(exclusive)} ≠ LineExtensionAmount ${fmt(lines)} − allowances ${fmt(allowances)} + charges ${fmt(charges)} = ${fmt(expected)}`];
    },
  },
  {
    id: 'BR-CO-14',
    description: 'Invoice total VAT amount (BT-110) = Σ VAT category tax amount (BT-117)',
    check: (d) => {
      const total = cents(d.taxAmount);
      const subtotals = completeSubtotals(d);
      if (total === null || subtotals.length === 0) return [];
      const sum = sumCents(subtotals.map((subtotal) => subtotal.tax));
      return sum === total ? [] : [`Invoice total VAT amount (BT-110) ${fmt(total)} ≠ sum of VAT category tax amounts ${fmt(sum)}`];
    },
  },
  {
    id: 'BR-CO-15',
    description: 'Invoice total amount with VAT (BT-112) = Invoice total amount without VAT (BT-109) + Invoice total VAT amount (BT-110)',
    check: (d) => {
      const [exclusive, tax, inclusive] = [cents(d.totals.taxExclusive), cents(d.taxAmount), cents(d.totals.taxInclusive)];
      if (exclusive === null || tax === null || inclusive === null) return [];
      return exclusive + tax === inclusive
        ? []
        : [`TaxInclusiveAmount (BT-112) ${fmt(inclusive)} ≠ TaxExclusiveAmount ${fmt(exclusive)} + TaxAmount ${fmt(tax)} = ${fmt(exclusive + tax)}`];
    },
  },
  {
    id: 'BR-CO-16',
    description: 'Amount due for payment (BT-115) = Invoice total amount with VAT (BT-112) − Paid amount (BT-113) + Rounding amount (BT-114)',
    check: (d) => {
      const [inclusive, prepaid, rounding, payable] = [cents(d.totals.taxInclusive), optional(d.totals.prepaid), optional(d.totals.rounding), cents(d.totals.payable)];
      if (inclusive === null || prepaid === null || rounding === null || payable === null) return [];
      const expected = inclusive - prepaid + rounding;
      return expected === payable
        ? []
        : [`PayableAmount (BT-115) ${fmt(payable)} ≠ TaxInclusiveAmount ${fmt(inclusive)} − PrepaidAmount ${fmt(prepaid)} + RoundingAmount ${fmt(rounding)} = ${fmt(expected)}`];
    },
  },
  {
    id: 'BR-CO-17',
    description: 'VAT category tax amount (BT-117) = VAT category taxable amount (BT-116) × (VAT category rate (BT-119) / 100), rounded to two decimals',
    check: (d) => completeSubtotals(d).flatMap((subtotal) => (vatOff(subtotal) ? [`VAT ${subtotal.key}: ${vatOff(subtotal)}`] : [])),
  },
  present('BR-CO-18', 'An Invoice shall at least have one VAT breakdown group (BG-23)', (d) => (d.subtotals.length > 0 ? true : null)),
  {
    // BR-S-01, BR-Z-01, BR-E-01, …: a category used by a line, allowance or charge has its VAT breakdown.
    id: 'BR-x-01',
    description: 'An Invoice with a line, allowance or charge of a VAT category shall have a VAT breakdown (BG-23) of that category and rate',
    check: (d) => {
      const basis = taxableBasis(d);
      if (d.subtotals.length === 0 || basis === null) return [];
      const keys = new Set(completeSubtotals(d).map((subtotal) => subtotal.key));
      return [...basis]
        .filter(([key]) => !keys.has(key))
        .map(([key, basis]) => ({ rule: `BR-${basis.category}-01`, message: `VAT ${key} is used by lines or allowances/charges but has no VAT breakdown` }));
    },
  },
  {
    // BR-S-08, BR-Z-08, BR-E-08, …
    id: 'BR-x-08',
    description: 'For each VAT category and rate, the VAT category taxable amount (BT-116) = Σ line net amounts − allowances + charges of that category and rate',
    check: (d) => {
      const basis = taxableBasis(d);
      if (basis === null) return [];
      return completeSubtotals(d).flatMap((subtotal) => {
        const expected = sumCents(basis.get(subtotal.key)?.cents ?? []);
        return expected === subtotal.taxable
          ? []
          : [
              {
                rule: `BR-${subtotal.category}-08`,
                message: `VAT ${subtotal.key}: taxable amount ${fmt(subtotal.taxable)} ≠ lines − allowances + charges of that category ${fmt(expected)}`,
              },
            ];
      });
    },
  },
  {
    id: 'BR-S-09',
    description: 'The VAT category tax amount (BT-117) of category "Standard rated" = VAT category taxable amount (BT-116) × VAT category rate (BT-119), rounded to two decimals',
    check: (d) =>
      completeSubtotals(d)
        .filter((subtotal) => subtotal.category === 'S')
        .flatMap((subtotal) => (vatOff(subtotal) ? [`VAT ${subtotal.key}: ${vatOff(subtotal)}`] : [])),
  },
];

/** Every rule, in the order they report: the terms, then their relations. */
export const RULES: readonly Rule[] = [...TERM_RULES, ...CALCULATION_RULES];

/** FinFlow's own promises about the documents it writes, not asked of a document it receives. */
const WRITER_PROMISES = new Set(['HR-CIUS-TAX-NAME', 'HR-CIUS-PAYMENT-ID']);

/**
 * The violations of a parsed document: on intake the relations between the
 * terms, outgoing every rule, on a received credit note every rule but the
 * writer's promises.
 */
export function checkEInvoiceRules(root: XmlElement, direction: RuleDirection): RuleViolation[] {
  if (documentKindOf(root) === null) {
    return [{ rule: 'UBL', message: `The root element is not a UBL 2.1 Invoice (${UBL_INVOICE_NS}) or CreditNote (${UBL_CREDIT_NOTE_NS})` }];
  }
  const document = readDocument(root);
  const rules = direction === 'intake' ? CALCULATION_RULES : direction === 'creditNoteIntake' ? RULES.filter((rule) => !WRITER_PROMISES.has(rule.id)) : RULES;
  return rules.flatMap((rule) => rule.check(document).map((finding) => (typeof finding === 'string' ? { rule: rule.id, message: finding } : finding)));
}

/** Every violation of every rule in the XML FinFlow is about to send; [] for a conforming document. */
export function validateEn16931(xml: string | Buffer): RuleViolation[] {
  let root: XmlElement;
  try {
    root = parseUblXml(xml);
  } catch {
    return [{ rule: 'XML', message: 'The document is not well-formed XML (or has a DOCTYPE, or is not UTF-8)' }];
  }
  return checkEInvoiceRules(root, 'outgoing');
}
