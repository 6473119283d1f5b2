import { selectOne, selectRows } from '../db.server.ts';
import { apiError } from '../utils/api.server.ts';
import { money } from '../utils/api-values.ts';
import { businessDay } from '../utils/business-time.ts';
import { pageCount } from '../utils/list-url.ts';
import { centsToNumber, toCents } from '../utils/money.ts';
import { isUuid } from '../utils/validation.ts';
import type { Client, LedgerEntry } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { LEDGER_ERRORS } from './schemas.ts';

/**
 * Reading the client's account (docs/money.md#the-clients-account): the
 * paged ledger with its running balance, the account's figures and the
 * statement of a period. Every sum is SQL over NUMERIC; the running balance is
 * a window over the client's whole account in the ledger's order (booked_on,
 * entry_number), so a page's first balance already includes the pages before.
 */

export const LEDGER_PAGE_SIZE = 25;

export interface LedgerEntryDto {
  id: string;
  entryNumber: number;
  bookedOn: string;
  kind: RowOf<typeof LedgerEntry>['kind'];
  /** Signed EUR from the factor's side: positive the client owes, negative it is owed. */
  amount: number;
  /** The positive amount in the debit column (the client owes more), else null. */
  debit: number | null;
  /** The negative amount as a positive figure in the credit column, else null. */
  credit: number | null;
  /** The account's balance after this entry. */
  balance: number;
  description: string;
  invoiceId: string | null;
  invoiceNumber: string | null;
  paymentId: string | null;
  payoutId: string | null;
  einvoiceId: string | null;
  einvoiceNumber: string | null;
  adjustmentId: string | null;
  adjustmentReason: string | null;
}

type EntryRow = RowOf<typeof LedgerEntry, 'id' | 'kind' | 'amount' | 'description' | 'invoice_id' | 'payment_id' | 'payout_id' | 'einvoice_id' | 'adjustment_id'> & {
  entry_number: number | string;
  booked_on: string;
  balance: string;
  invoice_number: string | null;
  einvoice_number: string | null;
  adjustment_reason: string | null;
};

/** The entries with their links, from a `w` subquery that carries the ledger columns and `balance`. */
const SELECT_LINKED = `
  SELECT w.id, w.entry_number, to_char(w.booked_on, 'YYYY-MM-DD') AS booked_on, w.kind, w.amount, w.balance, w.description,
         w.invoice_id, i.invoice_number, w.payment_id, w.payout_id, w.einvoice_id, e.number AS einvoice_number,
         w.adjustment_id, a.reason AS adjustment_reason
    FROM w
    LEFT JOIN invoices i ON i.id = w.invoice_id
    LEFT JOIN outgoing_einvoices e ON e.id = w.einvoice_id
    LEFT JOIN ledger_adjustments a ON a.id = w.adjustment_id`;

function toEntry(row: EntryRow): LedgerEntryDto {
  const cents = toCents(row.amount);
  return {
    id: row.id,
    entryNumber: Number(row.entry_number),
    bookedOn: row.booked_on,
    kind: row.kind,
    amount: centsToNumber(cents),
    debit: cents > 0 ? centsToNumber(cents) : null,
    credit: cents < 0 ? centsToNumber(-cents) : null,
    balance: money(row.balance),
    description: row.description,
    invoiceId: row.invoice_id,
    invoiceNumber: row.invoice_number,
    paymentId: row.payment_id,
    payoutId: row.payout_id,
    einvoiceId: row.einvoice_id,
    einvoiceNumber: row.einvoice_number,
    adjustmentId: row.adjustment_id,
    adjustmentReason: row.adjustment_reason,
  };
}

type AccountClient = RowOf<typeof Client, 'id' | 'company_name' | 'oib' | 'address' | 'postal_code' | 'city' | 'used_credit'>;

/** The client, or 404 (an id that is no uuid names no client either). */
async function accountClient(clientId: string): Promise<AccountClient> {
  const client = isUuid(clientId)
    ? await selectOne<AccountClient>('SELECT id, company_name, oib, address, postal_code, city, used_credit FROM clients WHERE id = :clientId', { clientId })
    : null;
  if (!client) throw apiError(404, LEDGER_ERRORS.clientNotFound);
  return client;
}

/**
 * One page of the client's ledger, oldest first, each entry with the balance
 * after it. `page` is 1-based; a page past the end is the last one. Throws 404
 * for an unknown client.
 */
export async function ledgerPage(
  clientId: string,
  options: { page?: number; pageSize?: number } = {},
): Promise<{ entries: LedgerEntryDto[]; total: number; page: number; pages: number; pageSize: number }> {
  await accountClient(clientId);
  const pageSize = options.pageSize ?? LEDGER_PAGE_SIZE;
  const counted = await selectOne<{ total: number }>('SELECT count(*)::int AS total FROM client_ledger WHERE client_id = :clientId', { clientId });
  const total = counted?.total ?? 0;
  const pages = pageCount(total, pageSize);
  const page = Math.min(Math.max(1, Math.trunc(options.page ?? 1)), pages);
  const rows = await selectRows<EntryRow>(
    `WITH w AS (
       SELECT l.*, sum(l.amount) OVER (ORDER BY l.booked_on, l.entry_number ROWS UNBOUNDED PRECEDING) AS balance
         FROM client_ledger l WHERE l.client_id = :clientId
        ORDER BY l.booked_on, l.entry_number
        LIMIT :limit OFFSET :offset)
     ${SELECT_LINKED}
     ORDER BY w.booked_on, w.entry_number`,
    { clientId, limit: pageSize, offset: (page - 1) * pageSize },
  );
  return { entries: rows.map(toEntry), total, page, pages, pageSize };
}

export interface AccountSummaryDto {
  clientId: string;
  /** Σ of every entry: what the client owes the factor (negative: what it is owed). */
  balance: number;
  /** clients.used_credit: the advances still outstanding (a ledger sum kept by postLedgerEntries). */
  usedCredit: number;
  /** What the factor will owe once the client's financed invoices are collected: Σ (amount − paid) − Σ their ledger balances. */
  reserve: number;
  /** Fees and their VAT booked this calendar year (Croatian days). */
  feesThisYear: number;
  feeVatThisYear: number;
  year: number;
  entryCount: number;
}

/** The account's figures for the client page and the API. Throws 404 for an unknown client. */
export async function clientAccountSummary(clientId: string, today: string = businessDay()): Promise<AccountSummaryDto> {
  const client = await accountClient(clientId);
  const year = Number(today.slice(0, 4));
  const row = await selectOne<{ balance: string; fees: string; fee_vat: string; entries: number; open_amount: string; open_ledger: string }>(
    `SELECT coalesce(sum(l.amount), 0) AS balance,
            coalesce(sum(l.amount) FILTER (WHERE l.kind = 'fee' AND l.booked_on >= make_date(:year, 1, 1) AND l.booked_on < make_date(:year + 1, 1, 1)), 0) AS fees,
            coalesce(sum(l.amount) FILTER (WHERE l.kind = 'fee_vat' AND l.booked_on >= make_date(:year, 1, 1) AND l.booked_on < make_date(:year + 1, 1, 1)), 0) AS fee_vat,
            count(l.id)::int AS entries,
            (SELECT coalesce(sum(i.amount - i.paid_amount - i.credited_amount), 0) FROM invoices i WHERE i.client_id = :clientId AND i.status = 'financed') AS open_amount,
            (SELECT coalesce(sum(f.amount), 0) FROM client_ledger f JOIN invoices i ON i.id = f.invoice_id
              WHERE f.client_id = :clientId AND i.client_id = :clientId AND i.status = 'financed') AS open_ledger
       FROM client_ledger l WHERE l.client_id = :clientId`,
    { clientId, year },
  );
  const balance = toCents(row?.balance ?? '0');
  return {
    clientId,
    balance: centsToNumber(balance),
    usedCredit: money(client.used_credit),
    reserve: centsToNumber(toCents(row?.open_amount ?? '0') - toCents(row?.open_ledger ?? '0')),
    feesThisYear: money(row?.fees ?? '0'),
    feeVatThisYear: money(row?.fee_vat ?? '0'),
    year,
    entryCount: row?.entries ?? 0,
  };
}

export interface StatementDto {
  client: { id: string; companyName: string; oib: string; address: string };
  from: string;
  to: string;
  /** Σ of every entry booked before `from`. */
  broughtForward: number;
  movements: LedgerEntryDto[];
  /** Σ of the movements' debit and credit columns. */
  totalDebit: number;
  totalCredit: number;
  /** Σ of every entry booked on or before `to`, computed on its own: equals broughtForward + Σ movements. */
  closing: number;
}

/**
 * The statement of account for `from`..`to` (calendar days, inclusive): the
 * balance brought forward, each movement with the balance after it, and the
 * closing balance. The caller has checked the range (statementQuerySchema).
 * Throws 404 for an unknown client.
 */
export async function statement(clientId: string, from: string, to: string): Promise<StatementDto> {
  const client = await accountClient(clientId);
  const range = { clientId, from, to };
  const [totals, rows] = await Promise.all([
    selectOne<{ brought_forward: string; closing: string; debit: string; credit: string }>(
      `SELECT coalesce(sum(amount) FILTER (WHERE booked_on < CAST(:from AS date)), 0) AS brought_forward,
              coalesce(sum(amount) FILTER (WHERE booked_on <= CAST(:to AS date)), 0) AS closing,
              coalesce(sum(amount) FILTER (WHERE booked_on BETWEEN CAST(:from AS date) AND CAST(:to AS date) AND amount > 0), 0) AS debit,
              coalesce(-sum(amount) FILTER (WHERE booked_on BETWEEN CAST(:from AS date) AND CAST(:to AS date) AND amount < 0), 0) AS credit
         FROM client_ledger WHERE client_id = :clientId`,
      range,
    ),
    selectRows<EntryRow>(
      `WITH w AS (
         SELECT * FROM (
           SELECT l.*, sum(l.amount) OVER (ORDER BY l.booked_on, l.entry_number ROWS UNBOUNDED PRECEDING) AS balance
             FROM client_ledger l WHERE l.client_id = :clientId AND l.booked_on <= CAST(:to AS date)) running
          WHERE running.booked_on >= CAST(:from AS date))
       ${SELECT_LINKED}
       ORDER BY w.booked_on, w.entry_number`,
      range,
    ),
  ]);
  return {
    client: {
      id: client.id,
      companyName: client.company_name,
      oib: client.oib,
      address: [client.address, [client.postal_code, client.city].filter(Boolean).join(' ')].filter(Boolean).join(', '),
    },
    from,
    to,
    broughtForward: money(totals?.brought_forward ?? '0'),
    movements: rows.map(toEntry),
    totalDebit: money(totals?.debit ?? '0'),
    totalCredit: money(totals?.credit ?? '0'),
    closing: money(totals?.closing ?? '0'),
  };
}
