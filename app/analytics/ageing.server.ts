import { selectOne, selectRows } from '../db.server.ts';
import { apiError, parseInput, readApiError } from '../utils/api.server.ts';
import { SQL_BUSINESS_TODAY } from '../utils/business-time.ts';
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

/**
 * THE definition of the open receivables on the as-of day: a CTE `open_items`
 * (id, client_id, customer_id, due_date, open_amount) of every invoice open on
 * `:asOf`, with what was open of it then. Every figure of the report and its
 * drill-down reads it, so a change of the rule is made here once.
 *
 * The client's ledger is the book's truth for both days that matter
 * (docs/money.md#the-clients-account): an invoice enters the book with its
 * `advance` entry and is paid down by its `collection` entries, each on its
 * `booked_on` day (a refund books the collection back). Rather than summing
 * a million invoices' entries up to the day, the book as it stands now is
 * rolled back by the entries booked after the day:
 *  - open now: status financed, open amount − paid amount (paid_amount moves
 *    with every collection entry, in the same transaction);
 *  - plus, per invoice, the collections booked after the day (it owed them then),
 *    which also brings back the invoices that were settled after the day;
 *  - less the invoices whose advance was booked after the day (not yet bought).
 * So the as-of-today report reads the financed invoices alone, and a past day
 * costs in proportion to what was booked since.
 *
 * Where the dilution and recourse work lands, this is the one place to add
 * it: credit notes lower the open amount (and those dated after the day give
 * it back), and an invoice charged back or written off after the day was
 * still open on it.
 */
function openReceivablesSql(partyColumn: string | null): string {
  const party = partyColumn ? `AND i.${partyColumn} = :partyId` : '';
  return `
    later AS (
      SELECT l.invoice_id, bool_or(l.kind = 'advance') AS financed_later,
             coalesce(-sum(l.amount) FILTER (WHERE l.kind = 'collection'), 0) AS collected_later
        FROM client_ledger l
       WHERE l.kind IN ('advance', 'collection') AND l.booked_on > CAST(:asOf AS date) AND l.invoice_id IS NOT NULL
       GROUP BY l.invoice_id),
    open_items AS (
      SELECT * FROM (
        SELECT i.id, i.client_id, i.customer_id, i.due_date, i.amount - i.paid_amount + coalesce(a.collected_later, 0) AS open_amount
          FROM invoices i LEFT JOIN later a ON a.invoice_id = i.id
         WHERE i.status = 'financed' AND a.financed_later IS NOT TRUE ${party}
        UNION ALL
        SELECT i.id, i.client_id, i.customer_id, i.due_date, i.amount - i.paid_amount + a.collected_later
          FROM later a JOIN invoices i ON i.id = a.invoice_id
         WHERE i.status <> 'financed' AND NOT a.financed_later ${party}) open_then
       WHERE open_then.open_amount > 0)`;
}

/** SQL: the open item `o`'s days past due on the as-of day. */
const DAYS_PAST_DUE = '(CAST(:asOf AS date) - o.due_date)';

/** SQL: the condition that the open item `o` falls in `bucket` (AGEING_BUCKET_DAYS). */
function inBucketSql(bucket: AgeingBucket): string {
  const { from, to } = AGEING_BUCKET_DAYS[bucket];
  return [from === null ? null : `${DAYS_PAST_DUE} >= ${from}`, to === null ? null : `${DAYS_PAST_DUE} <= ${to}`].filter(Boolean).join(' AND ');
}

/** SQL: the bucket's name of the open item `o`. */
const BUCKET_OF_SQL = `CASE ${AGEING_BUCKETS.map((bucket) => `WHEN ${inBucketSql(bucket)} THEN '${bucket}'`).join(' ')} END`;

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
  const bucketSums = AGEING_BUCKETS.map((bucket) => `sum(o.open_amount) FILTER (WHERE ${inBucketSql(bucket)}) AS "${bucket}"`).join(', ');
  const allSums = [...AGEING_BUCKETS, 'total', 'invoices'].map((key) => `sum(p."${key}") AS "all_${key}"`).join(', ');
  const rows = await selectRows<TotalsRow & PageRow>(
    `WITH ${openReceivablesSql(null)},
     per AS (
       SELECT o.${column} AS party_id, ${bucketSums}, sum(o.open_amount) AS total, count(*)::int AS invoices
         FROM open_items o GROUP BY o.${column}),
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
    `WITH ${openReceivablesSql(column)},
     chosen AS (
       SELECT o.id, o.open_amount, o.due_date, ${DAYS_PAST_DUE} AS days_past_due, ${BUCKET_OF_SQL} AS bucket
         FROM open_items o ${query.bucket ? `WHERE ${inBucketSql(query.bucket)}` : ''}),
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
