import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import type { InvoiceCommand } from '../auth/users.server.ts';
import { execute, inTransaction, isUniqueViolation, selectOne, selectRows } from '../db.server.ts';
import { deleteObjectIfUnreferenced, storeDocument } from '../documents/documents.server.ts';
import { sendDebtorEmail } from '../email/send.server.ts';
import { activeTemplateFor } from '../email/templates.server.ts';
import { hrDay } from '../ledger/statement-documents.server.ts';
import { payableSql } from '../payments/open-amount.server.ts';
import { apiError, parseInput } from '../utils/api.server.ts';
import { iso, money } from '../utils/api-values.ts';
import { SQL_BUSINESS_TODAY } from '../utils/business-time.ts';
import { centsToDecimalString, toCents } from '../utils/money.ts';
import { isUuid } from '../utils/validation.ts';
import type { Document, DunningHold, DunningNotice, DunningNoticeStatus, DunningSkipReason, EmailLog, EmailLogStatus, Invoice, User } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { dunningLevels } from './levels.server.ts';
import { renderPaymentSlip, slipFileName, slipInvoice, type SlipInvoiceRow } from './payment-slip.server.ts';
import { DUNNING_ERRORS, dunningHoldSchema, type DunningHoldInput, type DunningLevel, type DunningLevelNumber } from './schemas.ts';

/**
 * Dunning to the debtor (docs/collections.md#dunning): the daily job that
 * sends each reminder level once, on or after its day, to the debtor of every
 * financed invoice still open, with the payment slip attached; and the
 * manager's hold that stops it for one invoice.
 */

// ---------------------------------------------------------------------------
// Which level is due

/** Runs `run` in a transaction whose SQL "today" is `day` when given (tests walk the calendar; the job passes none). */
function onDay<T>(day: string | undefined, run: (transaction: Transaction) => Promise<T>): Promise<T> {
  return inTransaction(async (transaction) => {
    if (day) await selectOne(`SELECT set_config('finflow.business_day', :day, true)`, { day }, { transaction });
    return run(transaction);
  });
}

/**
 * SQL: the highest enabled level whose day (due date + its days) is today or past, for invoice alias `i`; NULL when
 * none is. Only the highest is ever sent: a level whose day passed while a later one is due too is not sent late.
 */
function dueLevelSql(levels: readonly DunningLevel[], replacements: Record<string, unknown>): string {
  const enabled = levels.filter((level) => level.enabled);
  if (enabled.length === 0) return 'CAST(NULL AS integer)';
  const values = enabled.map((level) => {
    replacements[`days${level.level}`] = level.days;
    return `(${level.level}, CAST(:days${level.level} AS integer))`;
  });
  return `(SELECT max(l.level) FROM (VALUES ${values.join(', ')}) AS l(level, days) WHERE i.due_date + l.days <= ${SQL_BUSINESS_TODAY})`;
}

/**
 * SQL: the invoice `i` may be dunned at all — financed, something still open after payments (confirmed and pending)
 * and credit notes (the payable predicate, the same figure the slip prints), not disputed, no hold on. The payable
 * predicate also admits a charged-back invoice (the debtor may still pay it), but what is owed on it is then the
 * client's debt (docs/collections.md#recourse-and-write-off), so reminders go only to financed ones.
 */
export const DUNNABLE = `i.status = 'financed' AND ${payableSql('i')} AND NOT i.disputed
  AND NOT EXISTS (SELECT 1 FROM dunning_holds h WHERE h.invoice_id = i.id AND h.lifted_at IS NULL)`;

/** SQL: the level `level` (an expression) or a later one was already sent or skipped for the invoice whose id is `id`. */
const reachedSql = (id: string, level: string) => `EXISTS (SELECT 1 FROM dunning_notices n WHERE n.invoice_id = ${id} AND n.level >= ${level})`;

// ---------------------------------------------------------------------------
// The daily job

export interface DunningRun {
  sent: number;
  skipped: number;
}

/** A level another run wrote first (the unique (invoice_id, level) row): this run's writes roll back. */
class AlreadyReached extends Error {}

/**
 * The daily job (worker/jobs/dunning.ts): every dunnable invoice whose highest due level is not yet reached gets it,
 * one transaction per invoice. `day` ('YYYY-MM-DD') fixes the business day (tests); the job runs on today. Safe to
 * run twice and by two workers at once: each invoice is locked and checked again, and the notice row is unique.
 */
export async function runDunning(options: { day?: string } = {}): Promise<DunningRun> {
  const levels = await dunningLevels();
  const replacements: Record<string, unknown> = {};
  const due = dueLevelSql(levels, replacements);
  const candidates = await onDay(options.day, (transaction) =>
    selectRows<RowOf<typeof Invoice, 'id'>>(
      `SELECT c.id FROM (SELECT i.id, ${due} AS level FROM invoices i WHERE ${DUNNABLE}) c
        WHERE c.level IS NOT NULL AND NOT ${reachedSql('c.id', 'c.level')}
        ORDER BY c.id`,
      replacements,
      { transaction },
    ),
  );
  const run: DunningRun = { sent: 0, skipped: 0 };
  for (const { id } of candidates) {
    const outcome = await dunInvoice(id, levels, options.day);
    if (outcome) run[outcome] += 1;
  }
  return run;
}

/** One invoice: lock it, find its due level again, and send it (or record it skipped). Null when nothing is due now. */
async function dunInvoice(invoiceId: string, levels: readonly DunningLevel[], day: string | undefined): Promise<DunningNoticeStatus | null> {
  // The slip's file, stored before the transaction commits: removed again if it rolls back (another run was first).
  const stored: { key: string | null } = { key: null };
  try {
    return await onDay(day, async (transaction) => {
      const invoice = await slipInvoice(invoiceId, { transaction, lock: true });
      if (!invoice) return null;
      const replacements: Record<string, unknown> = { id: invoiceId };
      const due = await selectOne<{ level: DunningLevelNumber | null; today: string }>(
        `SELECT CASE WHEN ${DUNNABLE} AND NOT ${reachedSql('i.id', dueLevelSql(levels, replacements))} THEN ${dueLevelSql(levels, replacements)} END AS level,
                to_char(${SQL_BUSINESS_TODAY}, 'YYYY-MM-DD') AS today
           FROM invoices i WHERE i.id = :id`,
        replacements,
        { transaction },
      );
      if (!due?.level) return null;
      return sendLevel(invoice, due.level, due.today, transaction, stored);
    });
  } catch (error) {
    if (stored.key) await deleteObjectIfUnreferenced(stored.key).catch(() => {});
    if (error instanceof AlreadyReached || isUniqueViolation(error)) return null;
    throw error;
  }
}

/**
 * A reminder's template variables for its invoice: the open amount (what the slip asks) and the amount as decimal EUR,
 * the due date as dd.mm.yyyy.; sendDebtorEmail adds the debtor's and the factor's names and the factor's IBAN.
 */
export function dunningVariables(invoice: SlipInvoiceRow) {
  return {
    invoice_number: invoice.invoice_number,
    company_name: invoice.client_name,
    due_date: hrDay(invoice.due_date),
    open_amount: centsToDecimalString(toCents(invoice.open_amount)),
    payment_reference: invoice.payment_reference ?? '',
    amount: centsToDecimalString(toCents(invoice.amount)),
  };
}

/** Writes the level: the slip, the queued mail and the notice row, or the notice skipped with its reason; with the activity row. */
async function sendLevel(
  invoice: SlipInvoiceRow,
  level: DunningLevelNumber,
  today: string,
  transaction: Transaction,
  stored: { key: string | null },
): Promise<DunningNoticeStatus> {
  const trigger = `dunning_${level}` as const;
  const template = await activeTemplateFor(trigger, transaction);
  const email = invoice.customer_email?.trim();
  const skipReason: DunningSkipReason | null = !template ? 'no_template' : !email ? 'no_email' : null;
  let documentId: string | null = null;
  let emailLogId: string | null = null;
  let to: string | null = null;
  if (!skipReason) {
    const bytes = await renderPaymentSlip(invoice);
    const document = await storeDocument(
      {
        actor: null,
        bytes,
        fileName: slipFileName(invoice.invoice_number),
        declaredMime: 'application/pdf',
        name: slipFileName(invoice.invoice_number),
        type: 'invoice',
        entityType: 'invoice',
        entityId: invoice.id,
        allowed: ['pdf'],
      },
      { transaction },
    );
    documentId = document.id;
    stored.key = (await selectOne<RowOf<typeof Document, 'storage_key'>>('SELECT storage_key FROM documents WHERE id = :id', { id: document.id }, { transaction }))!.storage_key;
    const outcome = await sendDebtorEmail(
      trigger,
      {
        customerId: invoice.customer_id,
        clientId: invoice.client_id,
        invoiceId: invoice.id,
        variables: dunningVariables(invoice),
        attachments: [document.id],
      },
      transaction,
    );
    if (outcome.queued) {
      emailLogId = outcome.logId;
      to = outcome.to;
    }
  }
  const status: DunningNoticeStatus = skipReason ? 'skipped' : 'sent';
  const { rows } = await execute<RowOf<typeof DunningNotice, 'id'>>(
    `INSERT INTO dunning_notices (invoice_id, level, day, status, skip_reason, open_amount, email_log_id, document_id)
     VALUES (:invoiceId, :level, :day, :status, :skipReason, :openAmount, :emailLogId, :documentId)
     ON CONFLICT (invoice_id, level) DO NOTHING RETURNING id`,
    { invoiceId: invoice.id, level, day: today, status, skipReason, openAmount: invoice.open_amount, emailLogId, documentId },
    { transaction },
  );
  if (rows.length === 0) throw new AlreadyReached();
  await logActivity(
    {
      action: skipReason ? 'dunning_notice_skipped' : 'dunning_notice_sent',
      userId: null,
      entityType: 'invoice',
      entityId: invoice.id,
      details: {
        invoiceNumber: invoice.invoice_number,
        level,
        day: today,
        openAmount: money(invoice.open_amount),
        ...(skipReason ? { skipped: skipReason } : { to, emailLogId, documentId }),
      },
    },
    transaction,
  );
  return status;
}

// ---------------------------------------------------------------------------
// The manual hold

export interface DunningHoldDto {
  id: string;
  reason: string;
  heldAt: string;
  heldBy: string | null;
  heldByName: string | null;
}

export interface DunningNoticeDto {
  id: string;
  level: number;
  day: string;
  status: DunningNoticeStatus;
  skipReason: DunningSkipReason | null;
  openAmount: number;
  emailLogId: string | null;
  emailStatus: EmailLogStatus | null;
  recipient: string | null;
  documentId: string | null;
  createdAt: string;
}

export interface DunningDto {
  invoiceId: string;
  hold: DunningHoldDto | null;
  notices: DunningNoticeDto[];
}

type HoldRow = RowOf<typeof DunningHold, 'id' | 'reason' | 'held_at' | 'held_by'> & { held_by_name: RowOf<typeof User>['first_name'] };
type NoticeRow = RowOf<typeof DunningNotice, 'id' | 'level' | 'day' | 'status' | 'skip_reason' | 'open_amount' | 'email_log_id' | 'document_id' | 'created_at'> & {
  email_status: RowOf<typeof EmailLog>['status'] | null;
  recipient: RowOf<typeof EmailLog>['recipient'] | null;
};

/** An invoice's reminders (at most one per level, so four rows) and its open hold, for the invoice page and the API. */
export async function invoiceDunning(invoiceId: string, transaction?: Transaction | null): Promise<DunningDto> {
  const [hold, notices] = await Promise.all([
    selectOne<HoldRow>(
      `SELECT h.id, h.reason, h.held_at, h.held_by, nullif(btrim(concat_ws(' ', u.first_name, u.last_name)), '') AS held_by_name
         FROM dunning_holds h LEFT JOIN users u ON u.id = h.held_by
        WHERE h.invoice_id = :id AND h.lifted_at IS NULL`,
      { id: invoiceId },
      { transaction },
    ),
    selectRows<NoticeRow>(
      `SELECT n.id, n.level, to_char(n.day, 'YYYY-MM-DD') AS day, n.status, n.skip_reason, n.open_amount, n.email_log_id, n.document_id, n.created_at,
              l.status AS email_status, l.recipient
         FROM dunning_notices n LEFT JOIN email_logs l ON l.id = n.email_log_id
        WHERE n.invoice_id = :id ORDER BY n.level`,
      { id: invoiceId },
      { transaction },
    ),
  ]);
  return {
    invoiceId,
    hold: hold ? { id: hold.id, reason: hold.reason, heldAt: iso(hold.held_at), heldBy: hold.held_by, heldByName: hold.held_by_name } : null,
    notices: notices.map((row) => ({
      id: row.id,
      level: row.level,
      day: row.day,
      status: row.status,
      skipReason: row.skip_reason,
      openAmount: money(row.open_amount),
      emailLogId: row.email_log_id,
      emailStatus: row.email_status,
      recipient: row.recipient,
      documentId: row.document_id,
      createdAt: iso(row.created_at),
    })),
  };
}

/** Statuses on which a hold means something: the invoice may still become, or is, one the job duns. */
const HOLDABLE_STATUSES = ['pending', 'verified', 'approved', 'financed'];

/**
 * PUT /api/invoices/{id}/dunning-hold {hold, reason} and the invoice page (manager): put the invoice's reminders on
 * hold with a reason, or lift the hold (an optional note). Throws 400, 403, 404, 409 (already on hold, not on hold,
 * an invoice that is paid or rejected).
 */
export async function setDunningHold({ actor, invoiceId, input, ip }: InvoiceCommand<DunningHoldInput>): Promise<DunningDto> {
  assertCan(actor, 'hold:dunning');
  const { hold, reason } = parseInput(dunningHoldSchema, input);
  if (!isUuid(invoiceId)) throw apiError(404, DUNNING_ERRORS.invoiceNotFound);
  return inTransaction(async (transaction) => {
    const invoice = await selectOne<RowOf<typeof Invoice, 'id' | 'invoice_number' | 'status'>>(
      'SELECT id, invoice_number, status FROM invoices WHERE id = :id FOR UPDATE',
      { id: invoiceId },
      { transaction },
    );
    if (!invoice) throw apiError(404, DUNNING_ERRORS.invoiceNotFound);
    const open = await selectOne<RowOf<typeof DunningHold, 'id' | 'reason'>>(
      'SELECT id, reason FROM dunning_holds WHERE invoice_id = :id AND lifted_at IS NULL',
      { id: invoice.id },
      { transaction },
    );
    if (hold) {
      if (!HOLDABLE_STATUSES.includes(invoice.status)) throw apiError(409, DUNNING_ERRORS.notDunnable, { params: { number: invoice.invoice_number, status: invoice.status } });
      if (open) throw apiError(409, DUNNING_ERRORS.alreadyOnHold, { params: { number: invoice.invoice_number } });
      await execute(
        `INSERT INTO dunning_holds (invoice_id, reason, held_by) VALUES (:invoiceId, :reason, :actorId)`,
        { invoiceId: invoice.id, reason, actorId: actor.id },
        { transaction },
      );
    } else {
      if (!open) throw apiError(409, DUNNING_ERRORS.notOnHold, { params: { number: invoice.invoice_number } });
      await execute(
        `UPDATE dunning_holds SET lifted_at = now(), lifted_by = :actorId, lift_note = :note WHERE id = :id`,
        { id: open.id, actorId: actor.id, note: reason },
        { transaction },
      );
    }
    await logActivity(
      {
        action: hold ? 'dunning_hold_set' : 'dunning_hold_lifted',
        userId: actor.id,
        entityType: 'invoice',
        entityId: invoice.id,
        ipAddress: ip,
        details: { invoiceNumber: invoice.invoice_number, reason: reason ?? undefined, ...(hold ? {} : { heldFor: open?.reason }) },
      },
      transaction,
    );
    return invoiceDunning(invoice.id, transaction);
  });
}

// ---------------------------------------------------------------------------
// The slip on demand

/** GET /api/invoices/{id}/payment-slip: the slip for today's open amount, not stored (the reminders store theirs). 404, 409. */
export async function currentPaymentSlip(invoiceId: string): Promise<{ fileName: string; bytes: Buffer }> {
  const invoice = isUuid(invoiceId) ? await slipInvoice(invoiceId) : null;
  if (!invoice) throw apiError(404, DUNNING_ERRORS.invoiceNotFound);
  return { fileName: slipFileName(invoice.invoice_number), bytes: await renderPaymentSlip(invoice) };
}
