import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { disputeById, type InvoiceDisputeDto } from '../debtors/disputes.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import type { InvoiceCommand } from '../auth/users.server.ts';
import { execute, inTransaction, selectOne } from '../db.server.ts';
import { apiError, parseInput } from '../utils/api.server.ts';
import { centsToDecimalString, centsToNumber, toCents } from '../utils/money.ts';
import type { InvoiceDispute, Task } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { creditableCents, lockCreditedInvoice, recordCreditNote, type CreditNoteDto } from './credit-notes.server.ts';
import { DILUTION_ERRORS, disputeResolveSchema, type DisputeResolveInput } from './schemas.ts';

/**
 * Resolving a debtor's dispute (docs/collections.md#dilution-and-disputes-resolved).
 * Disputes are opened elsewhere (the debtor's link, or staff on its behalf:
 * an invoice_disputes row and the invoice's disputed flag); a manager closes
 * the open one with an outcome and a note:
 *  - rejected: the invoice stands as it is;
 *  - reduced, with the amount the debtor still owes on the invoice: a credit
 *    note (source 'dispute') for the difference to what the invoice asked
 *    after earlier credit notes, diluting the invoice as any credit note;
 *  - upheld: a credit note for everything still open on it.
 * A credit note needs a purchased (financed) invoice: before financing there
 * is nothing to dilute, and such an invoice is rejected instead (409).
 * In one transaction: the outcome on the dispute, the invoice's flag and
 * reason cleared, the open tasks the dispute opened on the invoice completed,
 * and 'dispute_resolved' logged. 409 when no dispute is open.
 */

/**
 * The tasks the dispute opened on its invoice: the 'customer_contact' tasks a
 * debtor's dispute opens (app/debtors/links.server.ts), still open, outside
 * any workflow (a workflow's task closes with its decision), created since
 * the dispute was opened; other work on the invoice is left alone. Completed
 * with their activity rows.
 */
async function completeDisputeTasks(dispute: { id: string; invoice_id: string; opened_at: Date }, actorId: string, ip: string | null | undefined, transaction: Transaction) {
  const { rows: tasks } = await execute<RowOf<typeof Task, 'id' | 'title' | 'status'>>(
    `UPDATE tasks t SET status = 'completed', completed_at = now()
       FROM (SELECT id, status FROM tasks
              WHERE entity_type = 'invoice' AND entity_id = :invoiceId AND status IN ('pending', 'in_progress') AND type = 'customer_contact'
                AND workflow_instance_id IS NULL AND created_at >= :openedAt
              FOR UPDATE) open
      WHERE t.id = open.id
     RETURNING t.id, t.title, open.status`,
    { invoiceId: dispute.invoice_id, openedAt: dispute.opened_at },
    { transaction },
  );
  for (const task of tasks) {
    await logActivity(
      {
        action: 'task_completed',
        userId: actorId,
        entityType: 'task',
        entityId: task.id,
        ipAddress: ip,
        details: { title: task.title, from: task.status, to: 'completed', disputeId: dispute.id },
      },
      transaction,
    );
  }
  return tasks.length;
}

/**
 * PUT /api/invoices/{id}/dispute/resolve and the invoice page's form (manager).
 * 400 invalid, 403, 404 unknown invoice, 409 no open dispute / a credit note
 * on an invoice not financed / an agreed amount not below what the invoice
 * asks / a credit above what is open.
 */
export async function resolveDispute({
  actor,
  invoiceId,
  input,
  ip,
}: InvoiceCommand<DisputeResolveInput>): Promise<{ dispute: InvoiceDisputeDto; creditNote: CreditNoteDto | null }> {
  assertCan(actor, 'resolve:dispute');
  const data = parseInput(disputeResolveSchema, input);
  return inTransaction(async (transaction) => {
    const locked = await lockCreditedInvoice(invoiceId, transaction);
    if (!locked) throw apiError(404, DILUTION_ERRORS.invoiceNotFound);
    const { invoice } = locked;
    const dispute = await selectOne<RowOf<typeof InvoiceDispute, 'id' | 'invoice_id' | 'reason' | 'opened_at'>>(
      'SELECT id, invoice_id, reason, opened_at FROM invoice_disputes WHERE invoice_id = :invoiceId AND resolved_at IS NULL FOR UPDATE',
      { invoiceId: invoice.id },
      { transaction },
    );
    if (!dispute) throw apiError(409, DILUTION_ERRORS.noOpenDispute, { params: { number: invoice.invoice_number } });

    // What the invoice asks after earlier credit notes; a reduced outcome credits the difference to the agreed amount.
    const asked = toCents(invoice.amount) - toCents(invoice.credited_amount);
    let creditCents = 0;
    if (data.outcome === 'reduced') {
      const agreed = data.agreedAmount!;
      if (agreed >= asked) {
        const params = { agreed: centsToDecimalString(agreed), asked: centsToDecimalString(asked), currency: invoice.currency };
        throw apiError(409, DILUTION_ERRORS.agreedNotBelowAmount, { params, errors: { agreedAmount: [{ code: DILUTION_ERRORS.agreedNotBelowAmount, params }] } });
      }
      creditCents = asked - agreed;
    } else if (data.outcome === 'upheld') {
      creditCents = creditableCents(invoice);
    }
    if (creditCents > 0 && invoice.status !== 'financed') {
      throw apiError(409, DILUTION_ERRORS.creditOnlyWhenPurchased, { params: { number: invoice.invoice_number, invoiceStatus: invoice.status } });
    }
    const creditNote =
      creditCents > 0
        ? await recordCreditNote(
            locked,
            {
              number: `SPOR-${invoice.invoice_number}-${dispute.id.slice(0, 8).toUpperCase()}`.slice(0, 100),
              issueDate: invoice.today,
              amountCents: creditCents,
              reason: data.note,
              source: 'dispute',
              disputeId: dispute.id,
            },
            { actorId: actor.id, ip },
            transaction,
          )
        : null;

    await execute(
      `UPDATE invoice_disputes SET outcome = :outcome, agreed_amount = :agreed, resolution_note = :note, resolved_at = now(), resolved_by = :actorId WHERE id = :id`,
      {
        id: dispute.id,
        outcome: data.outcome,
        agreed: data.outcome === 'reduced' ? centsToDecimalString(data.agreedAmount!) : null,
        note: data.note,
        actorId: actor.id,
      },
      { transaction },
    );
    await execute('UPDATE invoices SET disputed = false, dispute_reason = NULL WHERE id = :id', { id: invoice.id }, { transaction });
    const tasksCompleted = await completeDisputeTasks(dispute, actor.id, ip, transaction);
    await logActivity(
      {
        action: 'dispute_resolved',
        userId: actor.id,
        entityType: 'invoice',
        entityId: invoice.id,
        ipAddress: ip,
        details: {
          disputeId: dispute.id,
          invoiceNumber: invoice.invoice_number,
          reason: dispute.reason,
          outcome: data.outcome,
          agreedAmount: data.outcome === 'reduced' ? centsToNumber(data.agreedAmount!) : null,
          note: data.note,
          creditNoteId: creditNote?.id ?? null,
          creditNoteAmount: creditNote ? creditNote.amount : null,
          tasksCompleted,
        },
      },
      transaction,
    );
    return { dispute: (await disputeById(dispute.id, transaction))!, creditNote };
  });
}
