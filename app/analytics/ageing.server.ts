import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { apiError, parseInput, readApiError } from '../utils/api.server.ts';
import { SQL_BUSINESS_TODAY } from '../utils/business-time.ts';
import { optionalChoiceSchema, pageBounds, pageOffset, readListUrl, tabSchema } from '../utils/list-url.ts';
import { centsToNumber, toCents } from '../utils/money.ts';
import type { Client, Customer, Invoice, OpenBookChange, OpenBookScope } from '../../db/models/index.ts';
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

/*
 * THE reading of the factor's open book on the as-of day `:asOf`
 * (docs/collections.md#ageing); the report and its drill-down are both built
 * from the fragments below.
 *
 * What was open on an invoice on a day is the database's one rule
 * (`open_book_changes_of`, migration 2026.11.28T01.00.00.open-book): from its
 * financing day to the day it was charged back or written off, its amount
 * less the collections booked and the credit notes issued up to the day.
 * Triggers keep it as changes per invoice and day (open_book_changes), in the
 * transaction of every ledger entry, credit note or status change, and their
 * sums per client, customer and due date over every day, each calendar year
 * and each month (open_book_totals, one row per key, and the deltas written
 * since the last compaction, open_book_deltas), so:
 *  - an invoice's open amount on the day is the sum of its changes up to the
 *    day (the drill-down; a row's buckets sum the rows of its party);
 *  - a party's (or a due date's) is its folded sum over every day, corrected
 *    by the deltas not folded yet, the years and months after the day and
 *    the rest of the day's month (correctionSql).
 * Today's report thus reads one total per party and per due date, and a past
 * day a few rows more per party.
 */

/** SQL: the first day of the month after the as-of day's, and of the year after its year. */
const NEXT_MONTH = `CAST(date_trunc('month', CAST(:asOf AS date)) + interval '1 month' AS date)`;
const NEXT_YEAR = `CAST(date_trunc('year', CAST(:asOf AS date)) + interval '1 year' AS date)`;

/** SQL: the key column of open_book_totals / open_book_deltas for the scope. */
const keyOf = (scope: OpenBookScope) => (scope === 'due_date' ? 'due_date' : 'party_id');

/** SQL: the scope's folded rows over every day (`t`: key, open_cents, invoices), one per key. */
const foldedSql = (scope: OpenBookScope) => `SELECT t.${keyOf(scope)} AS key, t.open_cents, t.invoices FROM open_book_totals t WHERE t.scope = '${scope}' AND t.period = 'all'`;

/**
 * SQL: per client, customer or due date (`key`) whose open amount on the day
 * differs from its folded row over every day, by how much (`open_cents`,
 * `invoices`): the deltas not folded yet, less the whole years after the
 * day's year, the whole months after the day's month up to that year's end,
 * and that month's changes after the day. Today that is the few keys with
 * deltas since the last compaction; a year back about two rows per key.
 */
function correctionSql(scope: OpenBookScope): string {
  const key = keyOf(scope);
  const later = [`t.period = 'year' AND t.period_start >= ${NEXT_YEAR}`, `t.period = 'month' AND t.period_start >= ${NEXT_MONTH} AND t.period_start < ${NEXT_YEAR}`].flatMap(
    (period) =>
      ['open_book_totals', 'open_book_deltas'].map(
        (table) => `SELECT t.${key} AS key, -t.open_cents AS open_cents, -t.invoices AS invoices FROM ${table} t WHERE t.scope = '${scope}' AND ${period}`,
      ),
  );
  return `SELECT x.key, CAST(sum(x.open_cents) AS bigint) AS open_cents, CAST(sum(x.invoices) AS bigint) AS invoices FROM (
      SELECT t.${key} AS key, t.open_cents, t.invoices FROM open_book_deltas t WHERE t.scope = '${scope}' AND t.period = 'all'
      UNION ALL ${later.join(' UNION ALL ')}
      UNION ALL SELECT c.${scope === 'due_date' ? 'due_date' : PARTY[scope].column}, -c.open_cents, -c.invoices
        FROM open_book_changes c WHERE c.day > CAST(:asOf AS date) AND c.day < ${NEXT_MONTH}) x
    GROUP BY x.key`;
}

/** SQL: the changes up to the day of the party `:partyId` (`c`), from its index. */
const partyChangesSql = (partyColumn: string) => `open_book_changes c WHERE c.${partyColumn} = :partyId AND c.day <= CAST(:asOf AS date)`;

/** SQL: per bucket, the sum (cents) of `amount` over the rows whose due date (`<alias>.due_date`) falls in it on the day. */
const bucketSumsSql = (amount: string, alias: string, prefix = '') =>
  AGEING_BUCKETS.map((bucket) => `CAST(sum(${amount}) FILTER (WHERE ${dueInBucketSql(bucket, alias)}) AS bigint) AS "${prefix}${bucket}"`).join(', ');

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

/** The as-of day: today in Croatia unless given; a day after today is refused (nothing is known of it yet). */
async function asOfDay(asOf: string | undefined): Promise<string> {
  const { today } = (await selectOne<{ today: string }>(`SELECT to_char(${SQL_BUSINESS_TODAY}, 'YYYY-MM-DD') AS today`))!;
  if (asOf === undefined) return today;
  if (asOf > today) throw apiError(400, AGEING_ERRORS.asOfFuture, { params: { asOf, today }, errors: { asOf: [AGEING_ERRORS.asOfFuture] } });
  return asOf;
}

/** Sums in cents (bigint: numbers), null where nothing was summed. */
type Cents = RowOf<typeof OpenBookChange, 'open_cents'>['open_cents'] | null;
type Sums = Record<AgeingBucket | 'total' | 'invoices', Cents>;
type TotalsRow = { [Key in keyof Sums as `all_${Key}`]: Sums[Key] } & { parties: number };
type PageRow = Partial<Sums & RowOf<typeof Client, 'company_name' | 'oib'> & { party_id: string }>;

const amountsOf = (sums: Partial<Sums>, prefix = ''): AgeingAmounts => {
  const read = sums as Record<string, Cents | undefined>;
  return {
    ...(Object.fromEntries(AGEING_BUCKETS.map((bucket) => [bucket, centsToNumber(read[`${prefix}${bucket}`] ?? 0)])) as Record<AgeingBucket, number>),
    total: centsToNumber(read[`${prefix}total`] ?? 0),
    invoices: read[`${prefix}invoices`] ?? 0,
  };
};

/**
 * The report: one row per client or customer with something open on the
 * day, its buckets, total and invoice count, largest total first (then name,
 * id), one page of them; and the whole report's count and totals.
 * `limit: null` is every row (the exports).
 *
 * A party no correction touches (`kept`) has its folded row as its total on
 * the day, and those rows are read largest first from their index, only as
 * far as the page needs (with ties, so the name decides among equal totals
 * exactly as in the whole list); the corrected parties (`fixed`) join them.
 * Only the page's parties' changes are read for their buckets (every
 * party's, in one pass, for the exports); the whole report's buckets come
 * from the totals per due date, its count from the folded rows' count and
 * the corrections. Today, without deltas to fold, this reads a page's rows.
 */
export async function ageingReport(input: { asOf?: unknown; by?: unknown; limit?: number | null; offset?: number }): Promise<AgeingReport> {
  const query = parseInput(ageingQuerySchema, { asOf: input.asOf, by: input.by });
  const asOf = await asOfDay(query.asOf);
  const { column, table } = PARTY[query.by];
  const { limit, offset } = pageBounds({ limit: input.limit ?? undefined, offset: input.offset });
  const every = input.limit === null;
  const scope = `t.scope = '${query.by}' AND t.period = 'all'`;
  const rows = await reportQuery<TotalsRow & PageRow>(
    `WITH corr AS (${correctionSql(query.by)}),
     fixed AS (
       SELECT c.key AS party_id, coalesce(t.open_cents, 0) + c.open_cents AS total, coalesce(t.invoices, 0) + c.invoices AS invoices,
              coalesce(t.invoices, 0) AS folded_invoices
         FROM corr c LEFT JOIN open_book_totals t ON ${scope} AND t.party_id = c.key),
     kept AS (
       SELECT t.party_id, t.open_cents AS total, t.invoices FROM open_book_totals t
        WHERE ${scope} AND t.invoices > 0 AND t.party_id NOT IN (SELECT c.key FROM corr c)
        ${every ? '' : 'ORDER BY t.open_cents DESC FETCH FIRST (:window) ROWS WITH TIES'}),
     top AS (
       SELECT x.* FROM (SELECT * FROM kept UNION ALL SELECT f.party_id, f.total, f.invoices FROM fixed f WHERE f.invoices > 0) x
        ${every ? '' : 'ORDER BY x.total DESC FETCH FIRST (:window) ROWS WITH TIES'}),
     due AS (
       SELECT coalesce(t.key, c.key) AS due_date, coalesce(t.open_cents, 0) + coalesce(c.open_cents, 0) AS open_cents,
              coalesce(t.invoices, 0) + coalesce(c.invoices, 0) AS invoices
         FROM (${foldedSql('due_date')}) t FULL JOIN (${correctionSql('due_date')}) c ON c.key = t.key),
     totals AS (
       SELECT (SELECT count(*) FROM open_book_totals t WHERE ${scope} AND t.invoices > 0)
              - (SELECT count(*) FROM fixed f WHERE f.folded_invoices > 0) + (SELECT count(*) FROM fixed f WHERE f.invoices > 0) AS parties,
              ${bucketSumsSql('d.open_cents', 'd', 'all_')}, CAST(sum(d.open_cents) AS bigint) AS all_total, CAST(sum(d.invoices) AS bigint) AS all_invoices
         FROM due d),
     page AS (
       SELECT t.*, e.company_name, e.oib FROM top t JOIN ${table} e ON e.id = t.party_id
        ORDER BY t.total DESC, e.company_name, t.party_id
        LIMIT ${every ? 'ALL' : ':limit'} OFFSET :offset),
     cells AS (
       SELECT c.${column} AS party_id, ${bucketSumsSql('c.open_cents', 'c')}
         FROM ${every ? 'open_book_changes c WHERE' : `page p JOIN open_book_changes c ON c.${column} = p.party_id AND`} c.day <= CAST(:asOf AS date)
        GROUP BY c.${column})
     SELECT t.*, g.party_id, g.company_name, g.oib, g.total, g.invoices, ${AGEING_BUCKETS.map((bucket) => `k."${bucket}"`).join(', ')}
       FROM totals t LEFT JOIN page g ON true LEFT JOIN cells k ON k.party_id = g.party_id
      ORDER BY g.total DESC, g.company_name, g.party_id`,
    { asOf, limit, offset, window: offset + limit },
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
  open_cents: RowOf<typeof OpenBookChange>['open_cents'];
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
  const rows = await selectRows<{ total: number; open_total: Cents } & Partial<InvoiceRow>>(
    `WITH open_items AS (
       SELECT c.invoice_id AS id, c.due_date, CAST(sum(c.open_cents) AS bigint) AS open_cents
         FROM ${partyChangesSql(column)} GROUP BY c.invoice_id, c.due_date HAVING sum(c.invoices) > 0),
     chosen AS (
       SELECT o.id, o.open_cents, o.due_date, CAST(:asOf AS date) - o.due_date AS days_past_due, ${BUCKET_OF_SQL} AS bucket
         FROM open_items o ${query.bucket ? `WHERE ${dueInBucketSql(query.bucket, 'o')}` : ''}),
     counted AS (SELECT count(*)::int AS total, CAST(sum(open_cents) AS bigint) AS open_total FROM chosen),
     page AS (
       SELECT c.*, i.invoice_number, i.client_id, i.customer_id, i.amount, cl.company_name AS client_name, cu.company_name AS customer_name
         FROM chosen c JOIN invoices i ON i.id = c.id JOIN clients cl ON cl.id = i.client_id JOIN customers cu ON cu.id = i.customer_id
        ORDER BY c.days_past_due DESC, i.invoice_number, c.id
        LIMIT :limit OFFSET :offset)
     SELECT k.*, g.id, g.invoice_number, g.client_id, g.customer_id, g.client_name, g.customer_name, g.amount, g.open_cents, g.bucket,
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
    openTotal: centsToNumber(first.open_total ?? 0),
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
        amount: centsToNumber(toCents(row.amount!)),
        openAmount: centsToNumber(row.open_cents!),
      })),
  };
}

/**
 * Folds the open book's deltas into one row per key (the hourly housekeeping):
 * the report reads the same figures, summing fewer rows.
 */
export async function compactOpenBook(): Promise<void> {
  await execute('SELECT compact_open_book_totals()');
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
