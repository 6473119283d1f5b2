import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { apiError, parseInput, readApiError } from '../utils/api.server.ts';
import { SQL_BUSINESS_TODAY, sqlBusinessLocal } from '../utils/business-time.ts';
import { optionalChoiceSchema, pageBounds, pageOffset, readListUrl, tabSchema } from '../utils/list-url.ts';
import { centsToNumber, toCents } from '../utils/money.ts';
import type { Client, Customer, Invoice } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import {
  AGEING_BUCKET_DAYS,
  AGEING_BUCKETS,
  AGEING_BY,
  AGEING_ERRORS,
  AGEING_PAGE_SIZE,
  ageingInvoicesQuerySchema,
  ageingQuerySchema,
  type AgeingBucket,
  type AgeingBy,
} from './ageing.ts';

/**
 * The ageing report of the factor's open receivables (docs/collections.md#ageing):
 * on an as-of day, every invoice the factor had financed and not yet collected,
 * in buckets by days past due on that day, per client or per debtor, and the
 * invoices behind one row and bucket. Sums, counts, order and pages in SQL.
 */

export interface AgeingAmounts extends Record<AgeingBucket, number> {
  /** EUR, the sum of the buckets. */
  total: number;
  /** Open invoices. */
  invoices: number;
}

export interface AgeingRow extends AgeingAmounts {
  /** The client's or the customer's id. */
  id: string;
  name: string;
  oib: string;
}

export interface AgeingReport {
  /** The as-of day, YYYY-MM-DD. */
  asOf: string;
  by: AgeingBy;
  /** Rows of the whole report (parties with something open). */
  count: number;
  /** The whole report, not only this page. */
  totals: AgeingAmounts;
  rows: AgeingRow[];
}

export interface AgeingInvoice {
  id: string;
  invoiceNumber: string;
  clientId: string;
  clientName: string;
  customerId: string;
  customerName: string;
  dueDate: string;
  /** As-of day − due date; 0 or below is not yet due. */
  daysPastDue: number;
  bucket: AgeingBucket;
  amount: number;
  /** What was still open on the as-of day, EUR. */
  openAmount: number;
}

export interface AgeingInvoices {
  asOf: string;
  by: AgeingBy;
  party: { id: string; name: string };
  /** null: every bucket (the row's total). */
  bucket: AgeingBucket | null;
  /** Invoices in the row and bucket, and their open amount (the report's cell). */
  total: number;
  openTotal: number;
  items: AgeingInvoice[];
}

const PARTY = {
  client: { column: 'client_id', table: 'clients' },
  customer: { column: 'customer_id', table: 'customers' },
} as const satisfies Record<AgeingBy, { column: string; table: string }>;

/** SQL: the Croatian day the invoice `x` was charged back or written off; NULL while it has not been. */
const CLOSED_ON = (x: string) => `CAST(${sqlBusinessLocal(`coalesce(${x}.charged_back_at, ${x}.written_off_at)`)} AS date)`;

/**
 * THE definition of what is open on the as-of day `:asOf`; the report and its
 * drill-down are both built from the fragments below, so a change of the
 * rule is made here once.
 *
 * The client's ledger is the book's truth for both days that matter
 * (docs/money.md#the-clients-account): an invoice enters the book with its
 * `advance` entry and is paid down by its `collection` entries, each on its
 * `booked_on` day (a refund books the collection back). Rather than summing
 * a million invoices' entries up to the day, the book as it stands now is
 * rolled back by the entries booked after the day:
 *  - an invoice no entry touched after the day was then as it is now: in the
 *    book when financed, with amount − paid amount open (paid_amount moves
 *    with every collection entry, in the same transaction);
 *  - an invoice touched after the day (`later`) was open by what is open now
 *    plus the collections booked since (which brings back those settled
 *    since), unless its advance was booked after the day (not yet bought).
 * So the as-of-today report reads the financed invoices alone, and a past day
 * costs in proportion to what was booked since.
 *
 * An invoice charged back or written off (docs/collections.md#recourse-and-write-off)
 * has left the book on the Croatian day of its `charged_back_at` /
 * `written_off_at` (a chargeback of an invoice whose advance the debtor
 * had already repaid books nothing, so the ledger cannot tell that day):
 * one closed after the as-of day is `later` (it was still open then, by its
 * amount less the collections up to the day), one closed on or before it is
 * not in the book, whatever was collected since. The `advance` entry of
 * minus the outstanding advance that a chargeback, a write-off or a
 * dilution's excess books is not a financing: only a positive advance
 * after the day means "not yet bought".
 *
 * Where the dilution work lands, this is the one place to add it: credit
 * notes come off OPEN_NOW (and those dated after the day are given back in
 * `later`).
 */
const LATER_SQL = `
    later AS (
      SELECT t.invoice_id, bool_or(t.financed_later) AS financed_later, sum(t.collected_later) AS collected_later
        FROM (
          SELECT l.invoice_id, l.kind = 'advance' AND l.amount > 0 AS financed_later, CASE WHEN l.kind = 'collection' THEN -l.amount ELSE 0 END AS collected_later
            FROM client_ledger l
           WHERE l.kind IN ('advance', 'collection') AND l.booked_on > CAST(:asOf AS date) AND l.invoice_id IS NOT NULL
          UNION ALL
          SELECT c.id, false, 0 FROM invoices c
           WHERE c.status IN ('charged_back', 'written_off') AND ${CLOSED_ON('c')} > CAST(:asOf AS date)) t
       GROUP BY t.invoice_id)`;

/**
 * SQL: the invoice of the `later` row `a`, read by its primary key. OFFSET 0
 * keeps it a lookup per touched invoice: joined plainly, the planner reads
 * all million invoices to hash them once some thousands are touched (a
 * month back on the benchmark book: 2.8 s instead of a fraction of that).
 */
const TOUCHED_INVOICE = `SELECT x.id, x.status, x.client_id, x.customer_id, x.due_date, x.amount, x.paid_amount, ${CLOSED_ON('x')} AS closed_on
  FROM invoices x WHERE x.id = a.invoice_id OFFSET 0`;

/** SQL: the invoice `i` is in the factor's open book now. */
const IN_BOOK_NOW = (i: string) => `${i}.status = 'financed'`;

/** SQL: what is open of the invoice `i` now. */
const OPEN_NOW = (i: string) => `(${i}.amount - ${i}.paid_amount)`;

/**
 * SQL: what was open on the day of the invoice `i` touched after it (`a`, its `later` row); 0 when it was not in the
 * book (bought after the day, or charged back or written off on or before it).
 */
const OPEN_THEN_TOUCHED = `(CASE WHEN NOT a.financed_later AND NOT coalesce(i.closed_on <= CAST(:asOf AS date), false) AND ${OPEN_NOW('i')} + a.collected_later > 0
  THEN ${OPEN_NOW('i')} + a.collected_later ELSE 0 END)`;

/** SQL: the invoices of one party open on the day, `open_items` (id, due_date, open_amount): the drill-down. */
function openItemsSql(partyColumn: string): string {
  return `${LATER_SQL},
    open_items AS (
      SELECT i.id, i.due_date, ${OPEN_NOW('i')} AS open_amount
        FROM invoices i
       WHERE ${IN_BOOK_NOW('i')} AND i.${partyColumn} = :partyId AND NOT EXISTS (SELECT 1 FROM later a WHERE a.invoice_id = i.id)
      UNION ALL
      SELECT i.id, i.due_date, ${OPEN_THEN_TOUCHED}
        FROM later a CROSS JOIN LATERAL (${TOUCHED_INVOICE}) i
       WHERE i.${partyColumn} = :partyId AND ${OPEN_THEN_TOUCHED} > 0)`;
}

/**
 * SQL: the open amount and invoices per party and bucket on the day, `per`
 * (party_id, each bucket, total, invoices): the book now summed per party in
 * one pass over the financed invoices (in party order on its covering
 * index), corrected by the touched invoices (what was open then less what
 * the book now counts of them).
 */
function perPartySql(partyColumn: string): string {
  const sums = (amount: string) => AGEING_BUCKETS.map((bucket) => `sum(${amount}) FILTER (WHERE ${dueInBucketSql(bucket, 'i')}) AS "${bucket}"`).join(', ');
  const both = (key: string) => `coalesce(n."${key}", 0) + coalesce(t."${key}", 0)`;
  return `${LATER_SQL},
    now_per AS (
      SELECT i.${partyColumn} AS party_id, ${sums(OPEN_NOW('i'))}, count(*) AS invoices
        FROM invoices i WHERE ${IN_BOOK_NOW('i')} GROUP BY i.${partyColumn}),
    touched AS (
      SELECT i.${partyColumn}, i.due_date, ${OPEN_THEN_TOUCHED} - CASE WHEN ${IN_BOOK_NOW('i')} THEN ${OPEN_NOW('i')} ELSE 0 END AS amount,
             (${OPEN_THEN_TOUCHED} > 0)::int - (${IN_BOOK_NOW('i')})::int AS invoices
        FROM later a CROSS JOIN LATERAL (${TOUCHED_INVOICE}) i),
    touched_per AS (SELECT i.${partyColumn} AS party_id, ${sums('i.amount')}, sum(i.invoices) AS invoices FROM touched i GROUP BY i.${partyColumn}),
    per AS (
      SELECT coalesce(n.party_id, t.party_id) AS party_id, ${AGEING_BUCKETS.map((bucket) => `${both(bucket)} AS "${bucket}"`).join(', ')},
             ${AGEING_BUCKETS.map(both).join(' + ')} AS total, (${both('invoices')})::int AS invoices
        FROM now_per n FULL JOIN touched_per t ON t.party_id = n.party_id
       WHERE ${both('invoices')} > 0)`;
}

/**
 * SQL: the invoice `i`'s due date puts it in `bucket` on the day (AGEING_BUCKET_DAYS:
 * days past due = as-of day − due date), as comparisons of the due date with
 * fixed days, which an index scan checks without arithmetic per row.
 */
function dueInBucketSql(bucket: AgeingBucket, i: string): string {
  const { from, to } = AGEING_BUCKET_DAYS[bucket];
  return [from === null ? null : `${i}.due_date <= CAST(:asOf AS date) - ${from}`, to === null ? null : `${i}.due_date >= CAST(:asOf AS date) - ${to}`]
    .filter(Boolean)
    .join(' AND ');
}

/** SQL: the bucket's name of the open item `o`. */
const BUCKET_OF_SQL = `CASE ${AGEING_BUCKETS.map((bucket) => `WHEN ${dueInBucketSql(bucket, 'o')} THEN '${bucket}'`).join(' ')} END`;

/**
 * Runs a report query with room for its per-party sums (up to one row per
 * customer: the planner cannot foresee how many) and without parallel
 * workers, which on the two shared cores cost more than they save
 * (docs/benchmarks.md, the ageing report).
 */
function reportQuery<T extends object>(sql: string, replacements: Record<string, unknown>): Promise<T[]> {
  return inTransaction(async (transaction) => {
    await execute(`SET LOCAL work_mem = '64MB'; SET LOCAL max_parallel_workers_per_gather = 0`, {}, { transaction });
    return selectRows<T>(sql, replacements, { transaction });
  });
}

const eur = (value: string | null | undefined) => centsToNumber(toCents(value ?? '0'));

/** The as-of day: today in Croatia unless given; a day after today is refused (nothing is known of it yet). */
async function asOfDay(asOf: string | undefined): Promise<string> {
  const { today } = (await selectOne<{ today: string }>(`SELECT to_char(${SQL_BUSINESS_TODAY}, 'YYYY-MM-DD') AS today`))!;
  if (asOf === undefined) return today;
  if (asOf > today) throw apiError(400, AGEING_ERRORS.asOfFuture, { params: { asOf, today }, errors: { asOf: [AGEING_ERRORS.asOfFuture] } });
  return asOf;
}

type Sums = Record<AgeingBucket, string | null> & { total: string | null; invoices: number | null };
type TotalsRow = { [Key in keyof Sums as `all_${Key}`]: Sums[Key] } & { parties: number };
type PageRow = Partial<Sums & RowOf<typeof Client, 'company_name' | 'oib'> & { party_id: string }>;

const amountsOf = (sums: Partial<Sums>, prefix = ''): AgeingAmounts => {
  const read = sums as Record<string, string | number | null | undefined>;
  return {
    ...(Object.fromEntries(AGEING_BUCKETS.map((bucket) => [bucket, eur(read[`${prefix}${bucket}`] as string | null)])) as Record<AgeingBucket, number>),
    total: eur(read[`${prefix}total`] as string | null),
    invoices: Number(read[`${prefix}invoices`] ?? 0),
  };
};

/**
 * The report: one row per client or customer with something open on the
 * day, its buckets, total and invoice count, largest total first (then name,
 * id), one page of them; and the whole report's count and totals.
 * `limit: null` is every row (the exports).
 */
export async function ageingReport(input: { asOf?: unknown; by?: unknown; limit?: number | null; offset?: number }): Promise<AgeingReport> {
  const query = parseInput(ageingQuerySchema, { asOf: input.asOf, by: input.by });
  const asOf = await asOfDay(query.asOf);
  const { column, table } = PARTY[query.by];
  const { limit, offset } = pageBounds({ limit: input.limit ?? undefined, offset: input.offset });
  const allSums = [...AGEING_BUCKETS, 'total', 'invoices'].map((key) => `sum(p."${key}") AS "all_${key}"`).join(', ');
  const rows = await reportQuery<TotalsRow & PageRow>(
    `WITH ${perPartySql(column)},
     totals AS (SELECT count(*)::int AS parties, ${allSums} FROM per p),
     page AS (
       SELECT p.*, e.company_name, e.oib FROM per p JOIN ${table} e ON e.id = p.party_id
        ORDER BY p.total DESC, e.company_name, p.party_id
        LIMIT ${input.limit === null ? 'ALL' : ':limit'} OFFSET :offset)
     SELECT t.*, g.* FROM totals t LEFT JOIN page g ON true
      ORDER BY g.total DESC, g.company_name, g.party_id`,
    { asOf, limit, offset },
  );
  const first = rows[0];
  return {
    asOf,
    by: query.by,
    count: first.parties,
    totals: amountsOf(first, 'all_'),
    rows: rows.filter((row) => row.party_id).map((row) => ({ id: row.party_id!, name: row.company_name!, oib: row.oib!, ...amountsOf(row) })),
  };
}

type InvoiceRow = RowOf<typeof Invoice, 'id' | 'invoice_number' | 'client_id' | 'customer_id' | 'amount' | 'due_date'> & {
  client_name: RowOf<typeof Client>['company_name'];
  customer_name: RowOf<typeof Customer>['company_name'];
  days_past_due: number;
  bucket: AgeingBucket;
  open_amount: string;
};

/**
 * The drill-down: the invoices behind one row of the report and one bucket
 * (or all of the row's), most days past due first (then number), one page;
 * the count and open sum of all of them, which equal the report's cell.
 * 404 for a party that is no client (by=client) or customer (by=customer).
 */
export async function ageingInvoices(input: { asOf?: unknown; by?: unknown; partyId?: unknown; bucket?: unknown; limit?: number; offset?: number }): Promise<AgeingInvoices> {
  const query = parseInput(ageingInvoicesQuerySchema, { asOf: input.asOf, by: input.by, partyId: input.partyId, bucket: input.bucket });
  const asOf = await asOfDay(query.asOf);
  const { column, table } = PARTY[query.by];
  const party = await selectOne<RowOf<typeof Client, 'id' | 'company_name'>>(`SELECT id, company_name FROM ${table} WHERE id = :id`, { id: query.partyId });
  if (!party) throw apiError(404, AGEING_ERRORS.partyNotFound, { params: { by: query.by } });
  const { limit, offset } = pageBounds(input);
  const rows = await selectRows<{ total: number; open_total: string | null } & Partial<InvoiceRow>>(
    `WITH ${openItemsSql(column)},
     chosen AS (
       SELECT o.id, o.open_amount, o.due_date, CAST(:asOf AS date) - o.due_date AS days_past_due, ${BUCKET_OF_SQL} AS bucket
         FROM open_items o ${query.bucket ? `WHERE ${dueInBucketSql(query.bucket, 'o')}` : ''}),
     counted AS (SELECT count(*)::int AS total, sum(open_amount) AS open_total FROM chosen),
     page AS (
       SELECT c.*, i.invoice_number, i.client_id, i.customer_id, i.amount, cl.company_name AS client_name, cu.company_name AS customer_name
         FROM chosen c JOIN invoices i ON i.id = c.id JOIN clients cl ON cl.id = i.client_id JOIN customers cu ON cu.id = i.customer_id
        ORDER BY c.days_past_due DESC, i.invoice_number, c.id
        LIMIT :limit OFFSET :offset)
     SELECT k.*, g.id, g.invoice_number, g.client_id, g.customer_id, g.client_name, g.customer_name, g.amount, g.open_amount, g.bucket,
            g.days_past_due, to_char(g.due_date, 'YYYY-MM-DD') AS due_date
       FROM counted k LEFT JOIN page g ON true
      ORDER BY g.days_past_due DESC, g.invoice_number, g.id`,
    { asOf, partyId: query.partyId, limit, offset },
  );
  const first = rows[0];
  return {
    asOf,
    by: query.by,
    party: { id: party.id, name: party.company_name },
    bucket: query.bucket ?? null,
    total: first.total,
    openTotal: eur(first.open_total),
    items: rows
      .filter((row) => row.id)
      .map((row) => ({
        id: row.id!,
        invoiceNumber: row.invoice_number!,
        clientId: row.client_id!,
        clientName: row.client_name!,
        customerId: row.customer_id!,
        customerName: row.customer_name!,
        dueDate: row.due_date!,
        daysPastDue: row.days_past_due!,
        bucket: row.bucket!,
        amount: eur(row.amount),
        openAmount: eur(row.open_amount),
      })),
  };
}

/** The ageing tab of /analytics: what its URL asks for, and the report and drill-down it gets. */
export interface AgeingPageData {
  /** The day as typed (the form shows it back), '' for today. */
  asOfInput: string;
  by: AgeingBy;
  bucket: AgeingBucket | null;
  page: number;
  drillPage: number;
  report: AgeingReport | null;
  drill: AgeingInvoices | null;
  /** A refusal of the URL's values (encoded for the page), e.g. a day after today; nothing is shown for them. */
  error: string | null;
}

/**
 * Reads `?asOf=&by=&party=&bucket=&page=&ipage=` (readListUrl: an unknown
 * `by` or bucket is the default, a bad page is 1) and loads the report's page
 * and, with a party, the drill-down's. A bad or future day is the domain's
 * refusal, shown on the page instead of figures.
 */
export async function ageingPage(url: URL): Promise<AgeingPageData> {
  const list = readListUrl(url);
  const asOfInput = (list.params.get('asOf') ?? '').trim();
  const by = list.read(tabSchema(AGEING_BY, 'client'), 'by');
  const bucket = list.read(optionalChoiceSchema(AGEING_BUCKETS), 'bucket');
  const party = list.id('party');
  const page = list.page;
  const drillPage = list.pageOf('ipage');
  const data: AgeingPageData = { asOfInput, by, bucket, page, drillPage, report: null, drill: null, error: null };
  try {
    const asOf = asOfInput || undefined;
    const [report, drill] = await Promise.all([
      ageingReport({ asOf, by, limit: AGEING_PAGE_SIZE, offset: pageOffset(page, AGEING_PAGE_SIZE) }),
      party ? ageingInvoices({ asOf, by, partyId: party, bucket, limit: AGEING_PAGE_SIZE, offset: pageOffset(drillPage, AGEING_PAGE_SIZE) }) : null,
    ]);
    return { ...data, report, drill };
  } catch (error) {
    const refusal = await readApiError(error);
    if (!refusal) throw error;
    return { ...data, error: refusal.message };
  }
}
