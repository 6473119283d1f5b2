import { selectOne, selectRows } from '../db.server.ts';
import { openForPaymentSql, payableSql } from '../payments/open-amount.server.ts';
import { invoiceSearchCondition } from '../search.server.ts';
import { invoiceStatusTotals, payableInvoiceTotal, type StatusTotals } from './summaries.server.ts';
import { apiError } from '../utils/api.server.ts';
import { INVOICE_MESSAGES, INVOICE_STATUSES, INVOICE_TABS, type InvoiceStatus, type InvoiceTab } from './schemas.ts';
import { isUuid } from '../utils/validation.ts';
import {
  INVOICE_DTO_COLUMNS,
  readInvoice,
  selectInvoiceColumns,
  toInvoiceDto,
  type InvoiceColumnsRow,
  type InvoiceDto,
  type InvoiceDtoRow,
  type InvoiceRow,
} from './invoice-dto.server.ts';
import { iso, money } from '../utils/api-values.ts';
import type { ActivityLog, Client, Customer, Document, InvoiceLine, Payment, Payout, User } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { sqlUserName } from '../auth/user-record.server.ts';
import { pageBounds } from '../utils/list-url.ts';
import { AGREEMENT_COLUMNS, agreementInForce, type AgreementRow } from '../agreements/in-force.server.ts';
import { businessDay } from '../utils/business-time.ts';

/** Reading invoices: the list and its tab counts, one invoice's detail, and the payable list of the payment form. */

export interface InvoiceLineDto {
  id: string;
  lineNumber: number;
  description: string;
  quantity: string;
  unitCode: string;
  unitPrice: string;
  netAmount: number;
  vatCategory: string;
  vatRate: number;
  kpdCode: string | null;
}

export interface InvoiceHistoryEntry {
  id: string;
  action: string;
  userId: string | null;
  userName: string | null;
  userEmail: string | null;
  ipAddress: string | null;
  details: Record<string, unknown>;
  createdAt: string;
}

export interface InvoiceDetailDto extends InvoiceDto {
  rejectionReason: string | null;
  ublDocumentId: string | null;
  verifiedAt: string | null;
  approvedAt: string | null;
  financedAt: string | null;
  rejectedAt: string | null;
  paidAt: string | null;
  updatedAt: string;
  lines: InvoiceLineDto[];
  client: {
    id: string;
    companyName: string;
    oib: string;
    iban: string | null;
    /** Of the agreement version the financing used, or in force today; null without one. */
    advanceRate: number | null;
    feeRate: number | null;
    creditLimit: number | null;
    usedCredit: number;
  };
  customer: { id: string; companyName: string; oib: string; accountBlocked: boolean; blockageReason: string | null };
  documents: Array<{ id: string; name: string; type: string; mimeType: string; size: number; createdAt: string }>;
  payments: Array<{
    id: string;
    amount: number;
    currency: string;
    paymentMethod: string;
    status: string;
    reference: string | null;
    createdAt: string;
    processedAt: string | null;
  }>;
  payouts: Array<{ id: string; kind: string; amount: number; currency: string; iban: string; status: string; createdAt: string }>;
  /** Every activity row of the invoice, oldest first: each state change with who and when. */
  history: InvoiceHistoryEntry[];
}

/** docs/domain-model.md Payable invoice (id, invoiceNumber, customerName, amount, currency) and what the payment form also shows. */
export interface PayableInvoiceDto {
  id: string;
  invoiceNumber: string;
  customerName: string;
  amount: number;
  currency: string;
  clientId: string;
  clientName: string;
  customerId: string;
  paidAmount: number;
  /** Payments recorded and waiting for confirmation. */
  pendingAmount: number;
  /** What a new payment may still cover: amount − paidAmount − the credit notes − pendingAmount. */
  openAmount: number;
  dueDate: string;
}

export type InvoiceTabCounts = Record<InvoiceTab, number>;

function searchCondition(q: string | null | undefined, replacements: Record<string, unknown>): string | null {
  const term = q?.trim();
  if (!term) return null;
  return invoiceSearchCondition('i', term, replacements);
}

/**
 * One page of invoices, newest first, and the full count of the same filter.
 * A searched list takes its matches first (MATERIALIZED) and then the page:
 * otherwise the planner may walk the date index past a million rows looking
 * for rare matches; and it counts the matches it already holds, so the
 * indexes are searched once, not again for the count. Otherwise `count` gives
 * the total (maintained totals where they apply).
 */
async function pageWithTotal<Row extends object>(
  where: string,
  replacements: Record<string, unknown>,
  { columns, searched, extra = '', count }: { columns: ReadonlyArray<keyof InvoiceRow>; searched: boolean; extra?: string; count: () => Promise<number> },
): Promise<{ rows: Row[]; total: number }> {
  const select = (more: string) => selectInvoiceColumns(columns, more);
  if (!searched) {
    const [rows, total] = await Promise.all([
      selectRows<Row>(`${select(extra)} ${where} ORDER BY i.created_at DESC, i.id DESC LIMIT :limit OFFSET :offset`, replacements),
      count(),
    ]);
    return { rows, total };
  }
  const rows = await selectRows<Row & { match_total: number }>(
    `WITH matches AS MATERIALIZED (SELECT i.id, i.created_at FROM invoices i ${where}),
          page AS (SELECT id, created_at FROM matches ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset)
     ${select([extra, '(SELECT count(*)::int FROM matches) AS match_total'].filter(Boolean).join(', '))}
       JOIN page ON page.id = i.id ORDER BY page.created_at DESC, page.id DESC`,
    replacements,
  );
  // An empty page past the end says nothing about the total; an empty first page means none.
  const total = rows.length > 0 ? rows[0].match_total : Number(replacements.offset) > 0 ? await count() : 0;
  return { rows, total };
}

function uuidFilter(name: 'clientId' | 'customerId', value: string | null | undefined): string | null {
  if (!value) return null;
  if (!isUuid(value)) {
    const code = name === 'clientId' ? INVOICE_MESSAGES.clientIdInvalid : INVOICE_MESSAGES.customerIdInvalid;
    throw apiError(400, code, { errors: { [name]: [code] } });
  }
  return value.toLowerCase();
}

/** GET /api/invoices: newest first; `q` (number, description), `status`, `clientId`, `customerId`; the page and the full count. */
export async function listInvoices(
  options: {
    q?: string | null;
    status?: string | null;
    clientId?: string | null;
    customerId?: string | null;
    limit?: number;
    offset?: number;
    /** The maintained totals when the caller reads them anyway (the /invoices page's tabs): one query for both. */
    statusTotals?: Promise<StatusTotals>;
  } = {},
): Promise<{ items: InvoiceDto[]; total: number }> {
  const { limit, offset } = pageBounds(options);
  const replacements: Record<string, unknown> = { limit, offset };
  const conditions: string[] = [];
  const search = searchCondition(options.q, replacements);
  if (search) conditions.push(search);
  if (options.status) {
    if (!(INVOICE_STATUSES as readonly string[]).includes(options.status)) {
      throw apiError(400, INVOICE_MESSAGES.invalidStatus, { errors: { status: [INVOICE_MESSAGES.invalidStatus] } });
    }
    replacements.status = options.status;
    conditions.push('i.status = :status');
  }
  const clientId = uuidFilter('clientId', options.clientId);
  if (clientId) {
    replacements.clientId = clientId;
    conditions.push('i.client_id = :clientId');
  }
  const customerId = uuidFilter('customerId', options.customerId);
  if (customerId) {
    replacements.customerId = customerId;
    conditions.push('i.customer_id = :customerId');
  }
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  // The whole book or one status: the maintained totals; any other filter is counted.
  const byStatusOnly = !search && !clientId && !customerId;
  const { rows, total } = await pageWithTotal<InvoiceDtoRow>(where, replacements, {
    columns: INVOICE_DTO_COLUMNS,
    searched: Boolean(search),
    count: () =>
      byStatusOnly
        ? (options.statusTotals ?? invoiceStatusTotals()).then((totals) => (options.status ? totals[options.status as InvoiceStatus] : totals.all))
        : selectOne<{ total: number }>(`SELECT count(*)::int AS total FROM invoices i ${where}`, replacements).then((row) => row?.total ?? 0),
  });
  return { items: rows.map(toInvoiceDto), total };
}

/** The /invoices tabs' counts over the same search, in one query. */
export async function invoiceTabCounts(options: { q?: string | null; statusTotals?: Promise<StatusTotals> } = {}): Promise<InvoiceTabCounts> {
  const replacements: Record<string, unknown> = {};
  const search = searchCondition(options.q, replacements);
  if (!search) {
    const totals = await (options.statusTotals ?? invoiceStatusTotals());
    return Object.fromEntries(INVOICE_TABS.map((tab) => [tab, totals[tab]])) as InvoiceTabCounts;
  }
  const row = await selectOne<InvoiceTabCounts>(
    `SELECT count(*)::int AS "all",
            count(*) FILTER (WHERE i.status = 'pending')::int AS pending,
            count(*) FILTER (WHERE i.status = 'verified')::int AS verified,
            count(*) FILTER (WHERE i.status = 'approved')::int AS approved,
            count(*) FILTER (WHERE i.status = 'rejected')::int AS rejected,
            count(*) FILTER (WHERE i.status = 'charged_back')::int AS charged_back,
            count(*) FILTER (WHERE i.status = 'written_off')::int AS written_off
       FROM invoices i ${search ? `WHERE ${search}` : ''}`,
    replacements,
  );
  return Object.fromEntries(INVOICE_TABS.map((tab) => [tab, row?.[tab] ?? 0])) as InvoiceTabCounts;
}

/** GET /api/invoices/{id}: the invoice with its lines, parties, documents, payments, payouts and history. Throws 404. */
export async function getInvoiceDetail(id: string): Promise<InvoiceDetailDto> {
  const row = await readInvoice(id);
  if (!row) throw apiError(404, INVOICE_MESSAGES.notFound);
  const [lines, client, customer, documents, payments, payouts, history] = await Promise.all([
    selectRows<RowOf<typeof InvoiceLine>>('SELECT * FROM invoice_lines WHERE invoice_id = :id ORDER BY line_number', { id: row.id }),
    selectOne<RowOf<typeof Client, 'id' | 'company_name' | 'oib' | 'iban' | 'credit_limit' | 'used_credit'>>(
      'SELECT id, company_name, oib, iban, credit_limit, used_credit FROM clients WHERE id = :id',
      { id: row.client_id },
    ),
    selectOne<RowOf<typeof Customer, 'id' | 'company_name' | 'oib' | 'account_blocked' | 'blockage_reason'>>(
      'SELECT id, company_name, oib, account_blocked, blockage_reason FROM customers WHERE id = :id',
      { id: row.customer_id },
    ),
    selectRows<RowOf<typeof Document, 'id' | 'name' | 'type' | 'mime_type' | 'size' | 'created_at'>>(
      `SELECT id, name, type, mime_type, size, created_at FROM documents
        WHERE entity_type = 'invoice' AND entity_id = :id ORDER BY created_at DESC, id DESC`,
      { id: row.id },
    ),
    selectRows<RowOf<typeof Payment>>('SELECT * FROM payments WHERE invoice_id = :id ORDER BY created_at DESC, id DESC', { id: row.id }),
    selectRows<RowOf<typeof Payout>>('SELECT * FROM payouts WHERE invoice_id = :id ORDER BY created_at, id', { id: row.id }),
    selectRows<
      RowOf<typeof ActivityLog, 'id' | 'action' | 'user_id' | 'ip_address' | 'details' | 'created_at'> & {
        user_name: string | null;
        user_email: RowOf<typeof User>['email'] | null;
      }
    >(
      `SELECT a.id, a.action, a.user_id, a.ip_address, a.details, a.created_at, u.email AS user_email,
              ${sqlUserName('u')} AS user_name
         FROM activity_logs a LEFT JOIN users u ON u.id = a.user_id
        WHERE a.entity_type = 'invoice' AND a.entity_id = :id
        ORDER BY a.created_at, a.id`,
      { id: row.id },
    ),
  ]);
  // The terms of the version the financing used, else of the version in force today (docs/money.md#the-agreement).
  const terms = row.agreement_id
    ? await selectOne<AgreementRow>(`SELECT ${AGREEMENT_COLUMNS} FROM agreements WHERE id = :id`, { id: row.agreement_id })
    : await agreementInForce(row.client_id, businessDay());
  return {
    ...toInvoiceDto(row),
    rejectionReason: row.rejection_reason,
    ublDocumentId: row.ubl_document_id,
    verifiedAt: iso(row.verified_at),
    approvedAt: iso(row.approved_at),
    financedAt: iso(row.financed_at),
    rejectedAt: iso(row.rejected_at),
    paidAt: iso(row.paid_at),
    updatedAt: iso(row.updated_at),
    lines: lines.map((line) => ({
      id: line.id,
      lineNumber: line.line_number,
      description: line.description,
      quantity: line.quantity,
      unitCode: line.unit_code,
      unitPrice: line.unit_price,
      netAmount: money(line.net_amount),
      vatCategory: line.vat_category,
      vatRate: Number(line.vat_rate),
      kpdCode: line.kpd_code,
    })),
    client: {
      id: client!.id,
      companyName: client!.company_name,
      oib: client!.oib,
      iban: client!.iban,
      advanceRate: terms ? Number(terms.advance_rate) : null,
      feeRate: terms ? Number(terms.fee_rate) : null,
      creditLimit: money(client!.credit_limit),
      usedCredit: money(client!.used_credit),
    },
    customer: {
      id: customer!.id,
      companyName: customer!.company_name,
      oib: customer!.oib,
      accountBlocked: customer!.account_blocked,
      blockageReason: customer!.blockage_reason,
    },
    documents: documents.map((doc) => ({
      id: doc.id,
      name: doc.name,
      type: doc.type,
      mimeType: doc.mime_type,
      size: doc.size,
      createdAt: iso(doc.created_at),
    })),
    payments: payments.map((payment) => ({
      id: payment.id,
      amount: money(payment.amount),
      currency: payment.currency,
      paymentMethod: payment.payment_method,
      status: payment.status,
      reference: payment.reference,
      createdAt: iso(payment.created_at),
      processedAt: iso(payment.processed_at),
    })),
    payouts: payouts.map((payout) => ({
      id: payout.id,
      kind: payout.kind,
      amount: money(payout.amount),
      currency: payout.currency,
      iban: payout.iban,
      status: payout.status,
      createdAt: iso(payout.created_at),
    })),
    history: history.map((entry) => ({
      id: entry.id,
      action: entry.action,
      userId: entry.user_id,
      userName: entry.user_name,
      userEmail: entry.user_email,
      ipAddress: entry.ip_address,
      details: entry.details,
      createdAt: iso(entry.created_at),
    })),
  };
}

/** The invoice columns a payable list item shows. */
const PAYABLE_COLUMNS = ['id', 'invoice_number', 'amount', 'currency', 'client_id', 'customer_id', 'paid_amount', 'pending_amount', 'due_date'] as const;

/**
 * GET /api/invoices/payable and the record-payment form: financed invoices a
 * new payment may still go to (amount above the confirmed and pending
 * payments), newest first, with that open amount; `q` as the list. The
 * definition is the one recording checks (app/payments/open-amount.server.ts).
 */
export async function listPayableInvoices(options: { q?: string | null; limit?: number; offset?: number } = {}): Promise<{ items: PayableInvoiceDto[]; total: number }> {
  const { limit, offset } = pageBounds(options);
  const replacements: Record<string, unknown> = { limit, offset };
  const conditions = [payableSql('i')];
  const search = searchCondition(options.q, replacements);
  if (search) conditions.push(search);
  const where = `WHERE ${conditions.join(' AND ')}`;
  const { rows, total } = await pageWithTotal<InvoiceColumnsRow<(typeof PAYABLE_COLUMNS)[number]> & { open_for_payment: string }>(where, replacements, {
    columns: PAYABLE_COLUMNS,
    searched: Boolean(search),
    extra: `${openForPaymentSql('i')} AS open_for_payment`,
    // The whole payable list: the maintained total; a search is counted.
    count: () =>
      search ? selectOne<{ total: number }>(`SELECT count(*)::int AS total FROM invoices i ${where}`, replacements).then((row) => row?.total ?? 0) : payableInvoiceTotal(),
  });
  return {
    items: rows.map((row) => ({
      id: row.id,
      invoiceNumber: row.invoice_number,
      customerName: row.customer_name,
      amount: money(row.amount),
      currency: row.currency,
      clientId: row.client_id,
      clientName: row.client_name,
      customerId: row.customer_id,
      paidAmount: money(row.paid_amount),
      pendingAmount: money(row.pending_amount),
      openAmount: money(row.open_for_payment),
      dueDate: row.due_date,
    })),
    total,
  };
}
