import { createHash } from 'node:crypto';
import type { Transaction } from 'sequelize';
import { OUTGOING_EINVOICE_STATUSES, type OutgoingEInvoicePurpose, type OutgoingEInvoiceStatus, type OutgoingEInvoiceTypeCode } from '../../db/models/enums.ts';
import { logActivity } from '../activity-log.server.ts';
import { execute, selectOne, selectRows } from '../db.server.ts';
import { sendJob } from '../jobs/boss.server.ts';
import { containsPattern } from '../search.server.ts';
import { apiError } from '../utils/api.server.ts';
import { UBL_MESSAGES } from './ubl-constants.ts';
import { formatEur } from '../utils/format.ts';
import { centsToDecimalString, centsToNumber, percentOfCents, toCents } from '../utils/money.ts';
import { factorParty } from './factor-party.server.ts';
import { writeUblInvoice, type UblWriteInvoice } from './ubl-write.server.ts';
import { sqlBusinessLocal } from '../utils/business-time.ts';
import { iso, money } from '../utils/api-values.ts';
import type { Client, Customer, Invoice, OutgoingEInvoice } from '../../db/models/index.ts';
import type { InvoicePartyNames } from '../invoices/invoice-dto.server.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { sqlUserName } from '../auth/user-record.server.ts';
import { pageBounds } from '../utils/list-url.ts';

/**
 * The factor's own e-invoices (docs/croatian-formats.md; docs/decisions/006-outgoing-einvoices.md): when an
 * invoice is financed, the fee (invoices.factor_fee, the net amount) is
 * invoiced to the client as a UBL 2.1 / HR CIUS e-invoice, in the financing
 * transaction, with its activity row. Its number comes from the year's
 * counter row, locked until commit, so numbers have no gaps. After commit
 * the 'einvoice-send' job sends it through the e-invoicing intermediary
 * (outgoing-send.server.ts), after checking it against the rules; the job is
 * idempotent (a sent row is never sent again) and retried with backoff; the
 * last failure marks it failed, and a manager can send it again.
 * At settlement a completing fee invoice or a credit note (UBL CreditNote,
 * 381) corrects the fee invoiced, from the same counter and sent the same way
 * (issueFeeSettlementDocument; docs/decisions/015-fee-documents-at-settlement.md).
 */

/**
 * Factoring is not exempt: the Directive 2006/112/EC art. 135(1)(d)
 * exemption excludes debt collection, which includes factoring (CJEU C-305/01
 * MKG), and so does the Croatian VAT Act (čl. 40. st. 1. t. d) ZPDV): the
 * standard rate, 25 %.
 */
export const FEE_VAT = { category: 'S', rate: '25.00', name: 'HR:PDV25' } as const;
/**
 * Croatian e-invoices (Fiskalizacija 2.0, HR CIUS 2025) exist from this day:
 * the official rule HR-BR-40 refuses an earlier issue date. A financing
 * before it (a backdated demo book, a restored old book) has no fee e-invoice.
 */
export const E_INVOICING_FROM = '2026-01-01';
/** Days from issue to the due date of a fee e-invoice. */
export const FEE_PAYMENT_DAYS = 15;
/** HR CIUS business process P1: invoicing of deliveries under a contract (the factoring agreement). */
export const FEE_PROFILE_ID = 'P1';
/** UNTDID 4461 30: credit transfer (to the factor's IBAN, with the HR payment reference). */
export const FEE_PAYMENT_MEANS = '30';

export const SEND_QUEUE = 'einvoice-send' as const;

export const EINVOICE_MESSAGES = {
  notFound: 'einvoices.refusals.notFound',
  alreadySent: 'einvoices.refusals.alreadySent',
  alreadyQueued: 'einvoices.refusals.alreadyQueued',
  invalidStatus: 'einvoices.refusals.invalidStatus',
  noFeeInvoice: 'einvoices.refusals.noFeeInvoice',
  creditExceedsFee: 'einvoices.refusals.creditExceedsFee',
} as const;

export interface OutgoingEInvoiceDto {
  id: string;
  number: string;
  invoiceId: string;
  invoiceNumber: string;
  clientId: string;
  clientName: string;
  customerName: string;
  issuedAt: string;
  issueDate: string;
  dueDate: string;
  currency: string;
  netAmount: number;
  vatRate: number;
  vatAmount: number;
  grossAmount: number;
  paymentReference: string;
  status: OutgoingEInvoiceStatus;
  /** financing_fee (the fee invoice at financing), fee_completion (a completing invoice at settlement), fee_credit (a credit note at settlement). */
  purpose: OutgoingEInvoicePurpose;
  /** UNTDID 1001: '380' invoice, '381' credit note (its amounts are positive, as the document states them). */
  typeCode: OutgoingEInvoiceTypeCode;
  /** The fee invoice a completion or credit note refers to (BT-25); null for the fee invoice itself. */
  precedingNumber: string | null;
  documentId: string | null;
  sentAt: string | null;
  error: string | null;
  /** The rule ids the document broke when checked before sending (status failed), else null. */
  ruleFailures: string[] | null;
  attempts: number;
  createdAt: string;
}

type OutgoingRow = RowOf<
  typeof OutgoingEInvoice,
  | 'id'
  | 'number'
  | 'invoice_id'
  | 'client_id'
  | 'issued_at'
  | 'issue_date'
  | 'due_date'
  | 'currency'
  | 'net_amount'
  | 'vat_rate'
  | 'vat_amount'
  | 'gross_amount'
  | 'payment_reference'
  | 'status'
  | 'document_id'
  | 'sent_at'
  | 'error'
  | 'rule_failures'
  | 'attempts'
  | 'created_at'
  | 'purpose'
  | 'type_code'
> &
  RowOf<typeof Invoice, 'invoice_number'> &
  InvoicePartyNames & { preceding_number: RowOf<typeof OutgoingEInvoice>['number'] | null };

const SELECT_OUTGOING = `
  SELECT o.id, o.number, o.invoice_id, i.invoice_number, o.client_id, c.company_name AS client_name, cu.company_name AS customer_name,
         o.issued_at, o.issue_date, o.due_date, o.currency, o.net_amount, o.vat_rate, o.vat_amount, o.gross_amount,
         o.payment_reference, o.status, o.document_id, o.sent_at, o.error, o.rule_failures, o.attempts, o.created_at,
         o.purpose, o.type_code, p.number AS preceding_number
    FROM outgoing_einvoices o
    JOIN invoices i ON i.id = o.invoice_id
    JOIN clients c ON c.id = o.client_id
    JOIN customers cu ON cu.id = i.customer_id
    LEFT JOIN outgoing_einvoices p ON p.id = o.preceding_id`;

function toDto(row: OutgoingRow): OutgoingEInvoiceDto {
  return {
    id: row.id,
    number: row.number,
    invoiceId: row.invoice_id,
    invoiceNumber: row.invoice_number,
    clientId: row.client_id,
    clientName: row.client_name,
    customerName: row.customer_name,
    issuedAt: iso(row.issued_at),
    issueDate: row.issue_date,
    dueDate: row.due_date,
    currency: row.currency,
    netAmount: money(row.net_amount),
    vatRate: Number(row.vat_rate),
    vatAmount: money(row.vat_amount),
    grossAmount: money(row.gross_amount),
    paymentReference: row.payment_reference,
    status: row.status,
    purpose: row.purpose,
    typeCode: row.type_code,
    precedingNumber: row.preceding_number,
    documentId: row.document_id,
    sentAt: iso(row.sent_at),
    error: row.error,
    ruleFailures: row.rule_failures,
    attempts: row.attempts,
    createdAt: iso(row.created_at),
  };
}

/** The VAT and gross of a net fee: 25 % rounded half-up to the cent. */
export function feeFigures(netCents: number): { net: number; vat: number; gross: number } {
  const vat = percentOfCents(netCents, FEE_VAT.rate);
  return { net: netCents, vat, gross: netCents + vat };
}

/** FF-2026-000001 and its HR00 payment reference (model 00: no check digit, parts of digits joined by '-'). */
export function feeNumber(year: number, sequence: number): { number: string; paymentReference: string } {
  const padded = String(sequence).padStart(6, '0');
  return { number: `FF-${year}-${padded}`, paymentReference: `HR00 ${year}-${padded}` };
}

export const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * The first of `count` numbers of `year` from the one counter every fee
 * document draws from (fee invoice, completing invoice, credit note): the
 * counter row stays locked until commit, so concurrent issuers queue here
 * and a rollback returns the numbers (docs/decisions/006-outgoing-einvoices.md).
 */
export async function drawNumbers(year: number, count: number, transaction: Transaction): Promise<number> {
  const { rows } = await execute<{ last_number: number }>(
    `INSERT INTO outgoing_einvoice_counters (year, last_number) VALUES (:year, :count)
     ON CONFLICT (year) DO UPDATE SET last_number = outgoing_einvoice_counters.last_number + :count
     RETURNING last_number`,
    { year, count },
    { transaction },
  );
  return rows[0].last_number - count + 1;
}

// ---------------------------------------------------------------------------
// Issuing

type ClientRow = RowOf<typeof Client>;
/** The financed invoice, its parties in the fee e-invoice's terms, and the e-invoice already issued for it (the LEFT JOIN's nulls). */
type IssueSource = RowOf<typeof Invoice, 'id' | 'invoice_number' | 'amount' | 'status' | 'factor_fee' | 'financed_at' | 'financed_by' | 'client_id'> & {
  /** Business-local day and time of the financing, formatted in SQL. */
  issue_date: string;
  issue_time: string;
  due_date: string;
  client_name: ClientRow['company_name'];
  client_oib: ClientRow['oib'];
  client_address: ClientRow['address'];
  client_city: ClientRow['city'];
  client_postal_code: ClientRow['postal_code'];
  client_email: ClientRow['email'];
  customer_name: RowOf<typeof Customer>['company_name'];
  operator_name: string | null;
  existing_id: RowOf<typeof OutgoingEInvoice>['id'] | null;
  existing_number: RowOf<typeof OutgoingEInvoice>['number'] | null;
  existing_gross: RowOf<typeof OutgoingEInvoice>['gross_amount'] | null;
};

export interface IssuedEInvoice {
  id: string;
  number: string;
  grossAmount: number;
  /** False when the invoice already had its fee e-invoice (nothing was written). */
  created: boolean;
}

/** A fee e-invoice ready to insert. */
interface Draft {
  source: IssueSource;
  fee: { net: number; vat: number; gross: number };
  year: number;
  sequence: number;
  number: string;
  paymentReference: string;
  xml: string;
}

/**
 * Issues the fee e-invoice of a financed invoice in the caller's transaction
 * (the financing's): issue date and time are the financing moment in
 * Croatia, the seller the factor, the buyer the client, one line for the fee
 * at 25 % VAT. Writes the row (with the UBL and its sha256) and its
 * einvoice_issued activity row; after commit queues the sending unless
 * `send: false`. Returns the existing e-invoice when the invoice already has
 * one, and null when there is no fee to invoice (or the financing predates
 * E_INVOICING_FROM). Throws 404/409 when the
 * invoice is unknown or not financed.
 */
export async function issueFeeEInvoice(invoiceId: string, transaction: Transaction, options: { send?: boolean } = {}): Promise<IssuedEInvoice | null> {
  return (await issueFeeEInvoices([invoiceId], transaction, options))[0];
}

/**
 * issueFeeEInvoice for many invoices at once (the demo book issues hundreds),
 * numbered in the order given: one read, one counter update per year, and
 * the inserts in batches. Results in the order of `invoiceIds`.
 */
export async function issueFeeEInvoices(invoiceIds: string[], transaction: Transaction, options: { send?: boolean } = {}): Promise<Array<IssuedEInvoice | null>> {
  if (invoiceIds.length === 0) return [];
  const sources = await selectRows<IssueSource>(
    `SELECT i.id, i.invoice_number, i.amount, i.status, i.factor_fee, i.financed_at, i.financed_by,
            to_char(${sqlBusinessLocal('i.financed_at')}, 'YYYY-MM-DD') AS issue_date,
            to_char(${sqlBusinessLocal('i.financed_at')}, 'HH24:MI:SS') AS issue_time,
            to_char(${sqlBusinessLocal('i.financed_at')}::date + CAST(:days AS integer), 'YYYY-MM-DD') AS due_date,
            c.id AS client_id, c.company_name AS client_name, c.oib AS client_oib, c.address AS client_address,
            c.city AS client_city, c.postal_code AS client_postal_code, c.email AS client_email,
            cu.company_name AS customer_name,
            coalesce(${sqlUserName('u')}, u.email) AS operator_name,
            o.id AS existing_id, o.number AS existing_number, o.gross_amount AS existing_gross
       FROM invoices i
       JOIN clients c ON c.id = i.client_id
       JOIN customers cu ON cu.id = i.customer_id
       LEFT JOIN users u ON u.id = i.financed_by
       LEFT JOIN outgoing_einvoices o ON o.invoice_id = i.id AND o.purpose = 'financing_fee'
      WHERE i.id IN (:invoiceIds)`,
    { invoiceIds, days: FEE_PAYMENT_DAYS },
    { transaction },
  );
  const byId = new Map(sources.map((source) => [source.id, source]));
  const results: Array<IssuedEInvoice | null> = [];
  const drafts: Draft[] = [];
  for (const invoiceId of invoiceIds) {
    const source = byId.get(invoiceId);
    if (!source) throw apiError(404, UBL_MESSAGES.invoiceNotFound);
    if (source.existing_id) {
      results.push({ id: source.existing_id, number: source.existing_number!, grossAmount: money(source.existing_gross!), created: false });
      continue;
    }
    if (!['financed', 'paid'].includes(source.status) || source.financed_at === null || source.factor_fee === null) {
      throw apiError(409, UBL_MESSAGES.noFee, { params: { number: source.invoice_number, status: source.status } });
    }
    const fee = feeFigures(toCents(source.factor_fee));
    // A zero fee (a 0 % agreement) is nothing to invoice; EN 16931 would allow it, the client gains nothing from it.
    if (fee.net <= 0 || source.issue_date < E_INVOICING_FROM) {
      results.push(null);
      continue;
    }
    results.push(null); // replaced once inserted
    drafts.push({ source, fee, year: Number(source.issue_date.slice(0, 4)), sequence: 0, number: '', paymentReference: '', xml: '' });
  }

  // The year's counter row stays locked until commit: concurrent issuers queue here, and a rollback returns the numbers.
  const perYear = new Map<number, Draft[]>();
  for (const draft of drafts) perYear.set(draft.year, [...(perYear.get(draft.year) ?? []), draft]);
  for (const [year, ofYear] of perYear) {
    const first = await drawNumbers(year, ofYear.length, transaction);
    ofYear.forEach((draft, index) => {
      draft.sequence = first + index;
      Object.assign(draft, feeNumber(year, draft.sequence));
    });
  }

  const factor = factorParty();
  for (const draft of drafts) draft.xml = writeFeeUbl(draft, factor);

  // Inserted in batches: a few MB of XML per statement at most.
  const inserted = new Map<string, string>();
  for (let start = 0; start < drafts.length; start += 50) {
    const batch = drafts.slice(start, start + 50);
    const replacements: Record<string, unknown> = {};
    const tuples = batch.map((draft, index) => {
      Object.assign(replacements, {
        [`number${index}`]: draft.number,
        [`year${index}`]: draft.year,
        [`sequence${index}`]: draft.sequence,
        [`invoiceId${index}`]: draft.source.id,
        [`clientId${index}`]: draft.source.client_id,
        [`issuedAt${index}`]: new Date(draft.source.financed_at!).toISOString(),
        [`issueDate${index}`]: draft.source.issue_date,
        [`dueDate${index}`]: draft.source.due_date,
        [`net${index}`]: centsToDecimalString(draft.fee.net),
        [`vat${index}`]: centsToDecimalString(draft.fee.vat),
        [`gross${index}`]: centsToDecimalString(draft.fee.gross),
        [`reference${index}`]: draft.paymentReference,
        [`xml${index}`]: draft.xml,
        [`sha${index}`]: sha256(draft.xml),
        [`createdBy${index}`]: draft.source.financed_by,
      });
      return `(:number${index}, :year${index}, :sequence${index}, :invoiceId${index}, :clientId${index}, :issuedAt${index}, :issueDate${index},
               :dueDate${index}, 'EUR', :net${index}, :vatRate, :vat${index}, :gross${index}, :reference${index}, :xml${index}, :sha${index},
               :createdBy${index}, :issuedAt${index})`;
    });
    const { rows } = await execute<RowOf<typeof OutgoingEInvoice, 'id' | 'invoice_id'>>(
      `INSERT INTO outgoing_einvoices (number, year, sequence, invoice_id, client_id, issued_at, issue_date, due_date, currency,
                                       net_amount, vat_rate, vat_amount, gross_amount, payment_reference, ubl_xml, ubl_sha256,
                                       created_by, created_at)
       VALUES ${tuples.join(',\n')}
       RETURNING id, invoice_id`,
      { ...replacements, vatRate: FEE_VAT.rate },
      { transaction },
    );
    for (const row of rows) inserted.set(row.invoice_id, row.id);
  }

  for (const draft of drafts) {
    const id = inserted.get(draft.source.id)!;
    // Details carry no ids (entity_id does): the demo book's activity stays the same from run to run.
    await logActivity(
      {
        action: 'einvoice_issued',
        userId: draft.source.financed_by,
        entityType: 'outgoing_einvoice',
        entityId: id,
        createdAt: draft.source.financed_at,
        details: {
          number: draft.number,
          invoiceNumber: draft.source.invoice_number,
          clientName: draft.source.client_name,
          issueDate: draft.source.issue_date,
          dueDate: draft.source.due_date,
          netAmount: centsToNumber(draft.fee.net),
          vatRate: Number(FEE_VAT.rate),
          vatAmount: centsToNumber(draft.fee.vat),
          grossAmount: centsToNumber(draft.fee.gross),
          paymentReference: draft.paymentReference,
        },
      },
      transaction,
    );
    if (options.send !== false) enqueueAfterCommit(transaction, id);
    results[invoiceIds.indexOf(draft.source.id)] = { id, number: draft.number, grossAmount: centsToNumber(draft.fee.gross), created: true };
  }
  return results;
}

export type FeeClient = Pick<IssueSource, 'client_name' | 'client_oib' | 'client_address' | 'client_city' | 'client_postal_code' | 'client_email' | 'operator_name'>;

/** Seller (the factor), its operator and buyer (the client) of every fee document. */
function feeParties(source: FeeClient, factor: ReturnType<typeof factorParty>): Pick<UblWriteInvoice, 'seller' | 'sellerContact' | 'buyer'> {
  return {
    seller: { name: factor.name, oib: factor.oib, vatId: `HR${factor.oib}`, street: factor.street, city: factor.city, postalCode: factor.postalCode, countryCode: 'HR' },
    sellerContact: { oib: factor.oib, name: source.operator_name ?? factor.name },
    // Clients are Croatian companies (an OIB is required of every client): country HR, VAT id HR + OIB.
    buyer: {
      name: source.client_name,
      oib: source.client_oib,
      vatId: `HR${source.client_oib}`,
      street: source.client_address,
      city: source.client_city,
      postalCode: source.client_postal_code,
      countryCode: 'HR',
      email: source.client_email,
    },
  };
}

/** What the client is asked to pay a fee with: the factor's IBAN and the document's reference, within the fee's days. */
export function feePayment(factor: ReturnType<typeof factorParty>, paymentReference: string): Pick<UblWriteInvoice, 'payment' | 'paymentTermsNote'> {
  return {
    payment: { meansCode: FEE_PAYMENT_MEANS, iban: factor.iban, bic: factor.bic, reference: paymentReference },
    paymentTermsNote: `Plaćanje u roku od ${FEE_PAYMENT_DAYS} dana na IBAN ${factor.iban}, poziv na broj ${paymentReference}.`,
  };
}

/**
 * The UBL of one fee document (the factor sells, the client buys) with its
 * one line: the fee's net at the fee's VAT. The writer derives the figures
 * from the line; they must be the ones stored beside the XML.
 */
export function writeFeeDocument(
  document: Pick<UblWriteInvoice, 'kind' | 'number' | 'dueDate' | 'typeCode' | 'notes' | 'precedingInvoice' | 'payment' | 'paymentTermsNote'>,
  line: { name: string; description: string },
  { source, fee, factor }: { source: FeeClient & Pick<IssueSource, 'issue_date' | 'issue_time'>; fee: ReturnType<typeof feeFigures>; factor: ReturnType<typeof factorParty> },
): string {
  const { xml, totals } = writeUblInvoice({
    ...document,
    issueDate: source.issue_date,
    issueTime: source.issue_time,
    currency: 'EUR',
    profileId: FEE_PROFILE_ID,
    ...feeParties(source, factor),
    lines: [{ id: '1', ...line, quantity: '1', unitCode: 'C62', price: centsToDecimalString(fee.net), kpdCode: factor.kpdCode, vat: FEE_VAT }],
  });
  if (totals.taxExclusive !== fee.net || totals.tax !== fee.vat || totals.payable !== fee.gross) {
    throw new Error(`e-invoice ${document.number}: written totals do not match the fee figures`);
  }
  return xml;
}

/** The UBL of one fee e-invoice; its totals are checked against the figures stored beside it. */
function writeFeeUbl(draft: Draft, factor: ReturnType<typeof factorParty>): string {
  const { source, fee, number, paymentReference } = draft;
  return writeFeeDocument(
    {
      number,
      dueDate: source.due_date,
      typeCode: '380',
      notes: [`Naknada za faktoring prema ugovoru o faktoringu za financirani račun ${source.invoice_number}.`],
      ...feePayment(factor, paymentReference),
    },
    {
      name: 'Naknada za faktoring',
      description: `Naknada za faktoring računa ${source.invoice_number} (kupac ${source.customer_name}, iznos ${formatEur(source.amount)})`,
    },
    { source, fee, factor },
  );
}

// ---------------------------------------------------------------------------
/** The invoice page's fee documents: every e-invoice of the invoice, in the order issued. */
export async function listInvoiceFeeDocuments(invoiceId: string): Promise<OutgoingEInvoiceDto[]> {
  const rows = await selectRows<OutgoingRow>(`${SELECT_OUTGOING} WHERE o.invoice_id = :invoiceId ORDER BY o.year, o.sequence`, { invoiceId });
  return rows.map(toDto);
}

/** Queues the sending once `transaction` commits; a failed enqueue is logged and left to the sync job's sweep. */
export function enqueueAfterCommit(transaction: Transaction, einvoiceId: string): void {
  transaction.afterCommit(async () => {
    try {
      await sendJob(SEND_QUEUE, { einvoiceId });
    } catch (error) {
      console.error(`einvoices: could not enqueue sending of ${einvoiceId}`, error);
    }
  });
}

// ---------------------------------------------------------------------------
// Reads

/** GET /api/einvoices and the /integrations/einvoicing list: newest first; q (number, client, invoice number), status; the page and the full count. */
export async function listOutgoingEInvoices(
  options: { q?: string | null; status?: string | null; limit?: number; offset?: number } = {},
): Promise<{ items: OutgoingEInvoiceDto[]; total: number }> {
  const { limit, offset } = pageBounds(options);
  const replacements: Record<string, unknown> = { limit, offset };
  const conditions: string[] = [];
  const term = options.q?.trim();
  if (term) {
    replacements.pattern = containsPattern(term);
    conditions.push('(o.number ILIKE :pattern OR c.company_name ILIKE :pattern OR i.invoice_number ILIKE :pattern)');
  }
  if (options.status) {
    if (!(OUTGOING_EINVOICE_STATUSES as readonly string[]).includes(options.status)) {
      const refusal = { code: EINVOICE_MESSAGES.invalidStatus, params: { statuses: OUTGOING_EINVOICE_STATUSES.join(', ') } };
      throw apiError(400, refusal.code, { params: refusal.params, errors: { status: [refusal] } });
    }
    replacements.status = options.status;
    conditions.push('o.status = :status');
  }
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  const [rows, count] = await Promise.all([
    selectRows<OutgoingRow>(`${SELECT_OUTGOING} ${where} ORDER BY o.created_at DESC, o.number DESC LIMIT :limit OFFSET :offset`, replacements),
    selectOne<{ total: number }>(
      `SELECT count(*)::int AS total FROM outgoing_einvoices o JOIN invoices i ON i.id = o.invoice_id JOIN clients c ON c.id = o.client_id ${where}`,
      replacements,
    ),
  ]);
  return { items: rows.map(toDto), total: count?.total ?? 0 };
}

/** One e-invoice in its API shape (in `transaction` when given); null when unknown. */
export async function readOutgoingEInvoice(id: string, transaction?: Transaction): Promise<OutgoingEInvoiceDto | null> {
  const row = await selectOne<OutgoingRow>(`${SELECT_OUTGOING} WHERE o.id = :id`, { id }, { transaction });
  return row ? toDto(row) : null;
}

/** GET /api/einvoices/{id}/ubl: the stored XML exactly as issued (and sent). Throws 404. */
export async function getOutgoingUbl(id: string): Promise<{ number: string; xml: string; sha256: string }> {
  const row = /^[0-9a-f-]{36}$/i.test(id)
    ? await selectOne<RowOf<typeof OutgoingEInvoice, 'number' | 'ubl_xml' | 'ubl_sha256'>>('SELECT number, ubl_xml, ubl_sha256 FROM outgoing_einvoices WHERE id = :id', { id })
    : null;
  if (!row) throw apiError(404, EINVOICE_MESSAGES.notFound);
  return { number: row.number, xml: row.ubl_xml, sha256: row.ubl_sha256 };
}
