import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { inTransaction, selectOne, selectRows } from '../db.server.ts';
import { centsToDecimalString, toCents } from '../utils/money.ts';
import { sendTriggeredEmail, type TriggerOutcome } from './send.server.ts';
import { SQL_BUSINESS_TODAY } from '../utils/business-time.ts';
import type { Invoice } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';

/**
 * The event triggers (docs/domain-model.md): each sends the active template of its trigger
 * to the client, or nothing (no log) without one or without an address.
 *  - invoice_verified: verifyInvoice, in its transaction (the job after commit);
 *  - client_onboarding: the onboarding workflow's welcome step (which the wizard's submit starts);
 *  - payment_due / payment_overdue: the daily job below.
 */

export const PAYMENT_DUE_DAYS = 3;

export async function invoiceVariables(invoiceId: string, transaction?: Transaction | null) {
  const invoice = await selectOne<RowOf<typeof Invoice, 'client_id' | 'invoice_number' | 'amount'>>(
    'SELECT client_id, invoice_number, amount FROM invoices WHERE id = :id',
    { id: invoiceId },
    { transaction },
  );
  if (!invoice) return null;
  return { clientId: invoice.client_id, variables: { invoice_number: invoice.invoice_number, amount: centsToDecimalString(toCents(invoice.amount)) } };
}

/** invoice_verified: the verified invoice's client gets the active template (called inside the verify transaction). */
export async function sendInvoiceVerifiedTemplate(invoiceId: string, transaction: Transaction): Promise<TriggerOutcome> {
  const invoice = await invoiceVariables(invoiceId, transaction);
  if (!invoice) return { queued: false, reason: 'no_recipient' };
  return sendTriggeredEmail('invoice_verified', invoice, transaction);
}

/**
 * The daily reminders: financed invoices due within PAYMENT_DUE_DAYS days
 * (a missed day is caught up) get payment_due; those past due by one to seven
 * days get payment_overdue. Each invoice gets each mail once: the queued mail
 * is recorded in the activity log, which is also what marks it done.
 */
export async function sendPaymentReminders(): Promise<{ due: number; overdue: number }> {
  const today = SQL_BUSINESS_TODAY;
  const pick = (action: string, window: string) =>
    selectRows<RowOf<typeof Invoice, 'id' | 'invoice_number'>>(
      `SELECT i.id, i.invoice_number FROM invoices i
        WHERE i.status = 'financed' AND ${window}
          AND NOT EXISTS (SELECT 1 FROM activity_logs a WHERE a.action = '${action}' AND a.entity_type = 'invoice' AND a.entity_id = i.id)
        ORDER BY i.due_date, i.id`,
      { days: PAYMENT_DUE_DAYS },
    );
  const due = await pick('payment_due_email_queued', `i.due_date > ${today} AND i.due_date <= ${today} + CAST(:days AS int)`);
  const overdue = await pick('payment_overdue_email_queued', `i.due_date < ${today} AND i.due_date >= ${today} - 7`);
  let counts = { due: 0, overdue: 0 };
  for (const [trigger, rows] of [
    ['payment_due', due],
    ['payment_overdue', overdue],
  ] as const) {
    for (const row of rows) {
      const queued = await inTransaction(async (transaction) => {
        const invoice = await invoiceVariables(row.id, transaction);
        if (!invoice) return false;
        const outcome = await sendTriggeredEmail(trigger, invoice, transaction);
        // No active template: nothing is recorded, so the invoice is picked up once a template is switched on.
        if (!outcome.queued && outcome.reason === 'no_template') return false;
        await logActivity(
          {
            action: `${trigger}_email_queued`,
            userId: null,
            entityType: 'invoice',
            entityId: row.id,
            details: { invoiceNumber: row.invoice_number, queued: outcome.queued, ...(outcome.queued ? { to: outcome.to } : { skipped: outcome.reason }) },
          },
          transaction,
        );
        return outcome.queued;
      });
      if (queued) counts = { ...counts, [trigger === 'payment_due' ? 'due' : 'overdue']: counts[trigger === 'payment_due' ? 'due' : 'overdue'] + 1 };
    }
  }
  return counts;
}
