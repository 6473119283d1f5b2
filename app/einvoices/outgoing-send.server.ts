import type { Transaction } from 'sequelize';
import type { OutgoingEInvoiceStatus } from '../../db/models/enums.ts';
import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { getEInvoicing } from '../integrations/einvoicing.server.ts';
import { sendJob } from '../jobs/boss.server.ts';
import { noLiveJobCondition } from '../jobs/job-table.server.ts';
import { createTask } from '../tasks/tasks.server.ts';
import { apiError } from '../utils/api.server.ts';
import { validateEn16931, type RuleViolation } from './en16931-rules.server.ts';
import { EINVOICE_MESSAGES, enqueueAfterCommit, readOutgoingEInvoice, SEND_QUEUE, type OutgoingEInvoiceDto } from './outgoing.server.ts';
import type { OutgoingEInvoice } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';

/**
 * Sending the factor's fee e-invoices (issued by outgoing.server.ts): the
 * worker's job, the rules check before every send, a manager's resend, and
 * the sweep of pending ones whose job was lost.
 */

export type SendOutcome = 'sent' | 'skipped' | 'failed' | 'retry';

/**
 * The worker's side of one e-invoice: under the row's lock, sends a pending
 * one through the intermediary and records the answer (sent, or delivered
 * when the intermediary says so, with its document id). Anything not pending
 * is skipped, so a repeated job never sends twice. A failure is recorded
 * (attempts, error, activity) and rethrown for pg-boss to retry, except the
 * last (`retryCount` at `retryLimit`), which marks it failed.
 */
export async function sendOutgoingEInvoice(einvoiceId: string, delivery: { retryCount: number; retryLimit: number } = { retryCount: 0, retryLimit: 0 }): Promise<SendOutcome> {
  let failure: unknown;
  const outcome = await inTransaction(async (transaction): Promise<SendOutcome> => {
    const row = await selectOne<SendRow>(
      'SELECT id, number, invoice_id, status, ubl_xml, attempts FROM outgoing_einvoices WHERE id = :id FOR UPDATE',
      { id: einvoiceId },
      { transaction },
    );
    if (!row || row.status !== 'pending') return 'skipped';
    // Every send is preceded by the rules: a document that breaks one never reaches the intermediary.
    const violations = validateEn16931(row.ubl_xml);
    if (violations.length > 0) {
      await failOnRules(row, violations, transaction);
      return 'failed';
    }
    const attempt = row.attempts + 1;
    try {
      const sent = await getEInvoicing().sendDocument(row.ubl_xml);
      const status: OutgoingEInvoiceStatus = sent.status === 'delivered' ? 'delivered' : 'sent';
      await execute(
        `UPDATE outgoing_einvoices SET status = :status, document_id = :documentId, sent_at = now(), attempts = :attempt, error = NULL WHERE id = :id`,
        { id: row.id, status, documentId: sent.documentId.slice(0, 255), attempt },
        { transaction },
      );
      await logActivity(
        { action: 'einvoice_sent', userId: null, entityType: 'outgoing_einvoice', entityId: row.id, details: { number: row.number, status, documentId: sent.documentId, attempt } },
        transaction,
      );
      return 'sent';
    } catch (error) {
      failure = error;
      const final = delivery.retryCount >= delivery.retryLimit;
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 2000) || 'Sending failed';
      await execute(
        `UPDATE outgoing_einvoices SET attempts = :attempt, error = :message, status = CASE WHEN :final THEN 'failed' ELSE status END WHERE id = :id`,
        { id: row.id, attempt, message, final },
        { transaction },
      );
      await logActivity(
        { action: 'einvoice_send_failed', userId: null, entityType: 'outgoing_einvoice', entityId: row.id, details: { number: row.number, attempt, final, error: message } },
        transaction,
      );
      return final ? 'failed' : 'retry';
    }
  });
  if (outcome === 'retry') throw failure;
  return outcome;
}

type SendRow = RowOf<typeof OutgoingEInvoice, 'id' | 'number' | 'invoice_id' | 'status' | 'ubl_xml' | 'attempts'>;

/**
 * A document that breaks rules: marked failed with the rule ids (each once,
 * in the engine's order) and what each found as the error, its activity
 * row, and a manual_review task on the financed invoice for staff, all in
 * the sending transaction. Sending it again runs the rules again.
 */
async function failOnRules(row: SendRow, violations: RuleViolation[], transaction: Transaction): Promise<void> {
  const rules = [...new Set(violations.map((violation) => violation.rule))];
  const error = violations
    .map((violation) => `${violation.rule}: ${violation.message}`)
    .join('; ')
    .slice(0, 2000);
  await execute(
    `UPDATE outgoing_einvoices SET status = 'failed', error = :error, rule_failures = ARRAY[:rules]::text[] WHERE id = :id`,
    { id: row.id, error, rules },
    { transaction },
  );
  await logActivity(
    {
      action: 'einvoice_rules_failed',
      userId: null,
      entityType: 'outgoing_einvoice',
      entityId: row.id,
      details: { number: row.number, rules, violations: violations.slice(0, 50) },
    },
    transaction,
  );
  // Task texts are data shown as written (like a workflow step's name): Croatian, the staff's language.
  await createTask(
    {
      actor: null,
      input: {
        title: `E-račun ${row.number} nije poslan: krši pravila ${rules.join(', ')}`.slice(0, 255),
        description:
          `Provjera prije slanja (EN 16931, HR CIUS) odbila je e-račun ${row.number}:\n${violations.map((violation) => `${violation.rule}: ${violation.message}`).join('\n')}`.slice(
            0,
            5000,
          ),
        type: 'manual_review',
        priority: 'high',
        entityType: 'invoice',
        entityId: row.invoice_id,
      },
    },
    { transaction },
  );
}

/**
 * POST /api/einvoices/{id}/send and the page's 'Pošalji ponovno' (manager):
 * a failed e-invoice goes back to pending and its job is queued after
 * commit. 409 when it is sent or already waiting; 404 unknown.
 */
export async function resendEInvoice({ actor, id, ip }: { actor: Actor; id: string; ip?: string | null }): Promise<OutgoingEInvoiceDto> {
  assertCan(actor, 'send:einvoice');
  return inTransaction(async (transaction) => {
    const row = /^[0-9a-f-]{36}$/i.test(id)
      ? await selectOne<RowOf<typeof OutgoingEInvoice, 'id' | 'number' | 'status' | 'error'>>(
          'SELECT id, number, status, error FROM outgoing_einvoices WHERE id = :id FOR UPDATE',
          { id },
          { transaction },
        )
      : null;
    if (!row) throw apiError(404, EINVOICE_MESSAGES.notFound);
    if (row.status === 'sent' || row.status === 'delivered') throw apiError(409, EINVOICE_MESSAGES.alreadySent, { params: { number: row.number } });
    if (row.status === 'pending') throw apiError(409, EINVOICE_MESSAGES.alreadyQueued, { params: { number: row.number } });
    // The last error stays in the activity log (einvoice_send_failed, einvoice_rules_failed); the row shows the next attempt's.
    await execute(`UPDATE outgoing_einvoices SET status = 'pending', error = NULL, rule_failures = NULL WHERE id = :id`, { id: row.id }, { transaction });
    await logActivity(
      {
        action: 'einvoice_resend_requested',
        userId: actor.id,
        entityType: 'outgoing_einvoice',
        entityId: row.id,
        ipAddress: ip,
        details: { number: row.number, previousError: row.error },
      },
      transaction,
    );
    enqueueAfterCommit(transaction, row.id);
    return (await readOutgoingEInvoice(row.id, transaction))!;
  });
}

/**
 * Pending e-invoices whose job was lost (an enqueue that failed after commit,
 * a queue purged): re-queued by the sync job. Older than `minutes`, with no
 * job waiting, retrying or running. Returns how many were queued.
 */
export async function requeueStalledEInvoices(options: { minutes?: number; limit?: number } = {}): Promise<number> {
  const noJob = noLiveJobCondition('o.id::text', { queue: SEND_QUEUE, dataKey: 'einvoiceId' });
  const rows = await selectRows<{ id: string }>(
    `SELECT o.id FROM outgoing_einvoices o
      WHERE o.status = 'pending' AND o.updated_at < now() - make_interval(mins => CAST(:minutes AS integer))
        AND ${noJob.sql}
      ORDER BY o.created_at LIMIT :limit`,
    { minutes: options.minutes ?? 10, limit: options.limit ?? 500, ...noJob.replacements },
  );
  for (const { id } of rows) await sendJob(SEND_QUEUE, { einvoiceId: id });
  return rows.length;
}
