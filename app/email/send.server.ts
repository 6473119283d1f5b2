import type { Transaction } from 'sequelize';
import { sendJob } from '../jobs/boss.server.ts';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { getEnv } from '../env.server.ts';
import { getObjectStore, sha256Hex } from '../storage/object-store.server.ts';
import { sendMail, type OutgoingMail } from './mailer.server.ts';
import { renderEmail, type TemplateVariables } from './render.server.ts';
import { factorAccount } from '../banking/factor-account.server.ts';
import type { DebtorEmailTrigger, EmailTrigger, TemplateVariable } from './schemas.ts';
import { activeTemplateFor } from './templates.server.ts';
import type { Client, Customer, Document, EmailCampaign } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';

/**
 * Sending (docs/domain-model.md): a log row (status 'queued') is written inside the
 * business transaction and the 'email-send' job is sent after it commits; the
 * worker renders, sends (SMTP or the outbox), and marks the row sent under a
 * row lock, so a repeated job never sends the same row twice. A failure is
 * recorded and re-thrown for pg-boss's retries; the last one marks it failed.
 *
 * Delivery guarantee: at-least-once, with the duplicate window as small as we
 * can make it without giving up that guarantee. The row stays locked (FOR
 * UPDATE) for the whole SMTP exchange and is marked sent right after the
 * server's 250, in the same transaction; a crash before the 250 rolls the
 * transaction back and the message was not accepted, so the retry sends it
 * once. Only a crash in the milliseconds between the server's 250 and our
 * COMMIT re-sends an accepted message; that re-send carries the same
 * Message-ID (messageIdFor), so receivers can recognise it. We deliberately
 * do not claim the row (a committed 'sending' mark) before the SMTP call: the
 * only safe reading of a stale claim is "maybe sent", which would turn every
 * crash during an SMTP exchange (far likelier than one between 250 and
 * COMMIT) into a lost email or a manual check — at-most-once, which is the
 * wrong trade for invoices and payment reminders.
 */

export type JobVariables = Partial<Record<TemplateVariable, string>>;

const DELIVERED = `status IN ('sent', 'delivered', 'opened', 'clicked')`;

/** The Message-ID of a log row: the same on every attempt, so a message re-sent after a crash is recognisably the same mail. */
export function messageIdFor(logId: string): string {
  const domain = /@([^>\s]+)/.exec(getEnv().MAIL_FROM)?.[1] ?? 'finflow.local';
  return `<email-${logId}@${domain}>`;
}

export function trackingUrls(token: string) {
  const base = getEnv().APP_URL.replace(/\/+$/, '');
  return {
    pixelUrl: `${base}/email/open/${token}.gif`,
    clickUrl: (index: number) => `${base}/email/click/${token}/${index}`,
  };
}

/** Sends the 'email-send' job of a log row once `transaction` commits; a failed enqueue is logged (the row stays queued). */
export function enqueueAfterCommit(transaction: Transaction, logId: string, variables?: JobVariables): void {
  transaction.afterCommit(async () => {
    try {
      await sendJob('email-send', { logId, variables }, { singletonKey: logId });
    } catch (error) {
      console.error(`email: could not enqueue log ${logId}`, error);
    }
  });
}

/**
 * Writes the queued log row of one message; the job follows the commit. Returns the log id, or null without a recipient.
 * Mail to a debtor names it (`customerId`) and the invoice it is about (`invoiceId`); `attachments` are stored
 * documents, sent in this order.
 */
export async function queueEmail(
  input: {
    template: { id: string; subject: string; body: string };
    recipient: string | null | undefined;
    clientId?: string | null;
    customerId?: string | null;
    invoiceId?: string | null;
    attachments?: readonly string[];
    variables: JobVariables;
  },
  transaction: Transaction,
): Promise<string | null> {
  const recipient = input.recipient?.trim().toLowerCase();
  if (!recipient) return null;
  const { subject } = renderEmail(input.template, input.variables);
  const { rows } = await execute<{ id: string }>(
    `INSERT INTO email_logs (template_id, client_id, customer_id, invoice_id, recipient, subject, status)
     VALUES (:templateId, :clientId, :customerId, :invoiceId, :recipient, :subject, 'queued') RETURNING id`,
    {
      templateId: input.template.id,
      clientId: input.clientId ?? null,
      customerId: input.customerId ?? null,
      invoiceId: input.invoiceId ?? null,
      recipient: recipient.slice(0, 255),
      subject,
    },
    { transaction },
  );
  for (const [position, documentId] of (input.attachments ?? []).entries()) {
    await execute(
      `INSERT INTO email_attachments (email_log_id, position, document_id) VALUES (:logId, :position, :documentId)`,
      { logId: rows[0].id, position, documentId },
      { transaction },
    );
  }
  enqueueAfterCommit(transaction, rows[0].id, input.variables);
  return rows[0].id;
}

/** The stored files of a message's attachments, checked against their recorded checksums. */
async function attachmentsOf(logId: string, transaction: Transaction): Promise<NonNullable<OutgoingMail['attachments']>> {
  const documents = await selectRows<RowOf<typeof Document, 'name' | 'mime_type' | 'storage_key' | 'checksum'>>(
    `SELECT d.name, d.mime_type, d.storage_key, d.checksum
       FROM email_attachments a JOIN documents d ON d.id = a.document_id
      WHERE a.email_log_id = :logId ORDER BY a.position`,
    { logId },
    { transaction },
  );
  const files = [];
  for (const document of documents) {
    const content = await getObjectStore().get(document.storage_key);
    // A file that is not the one recorded is not sent; the error is kept on the log row and retried.
    if (sha256Hex(content) !== document.checksum.trim()) throw new Error(`Attachment ${document.name} does not match its checksum`);
    files.push({ filename: document.name, content, contentType: document.mime_type });
  }
  return files;
}

export type TriggerOutcome = { queued: true; logId: string; to: string } | { queued: false; reason: 'no_template' | 'no_recipient' };

/**
 * The active template of an event trigger, to a client: skipped (no log) when
 * there is no active template or the client has no email address.
 */
export async function sendTriggeredEmail(
  trigger: Exclude<EmailTrigger, 'manual'>,
  input: { clientId: string; variables?: JobVariables },
  transaction: Transaction,
): Promise<TriggerOutcome> {
  const template = await activeTemplateFor(trigger, transaction);
  if (!template) return { queued: false, reason: 'no_template' };
  const client = await selectOne<RowOf<typeof Client, 'email' | 'company_name' | 'contact_person'>>(
    'SELECT email, company_name, contact_person FROM clients WHERE id = :id',
    { id: input.clientId },
    { transaction },
  );
  const to = client?.email?.trim().toLowerCase();
  if (!client || !to) return { queued: false, reason: 'no_recipient' };
  const variables = { ...clientVariables(client), ...input.variables };
  const logId = await queueEmail({ template, recipient: to, clientId: input.clientId, variables }, transaction);
  return logId ? { queued: true, logId, to } : { queued: false, reason: 'no_recipient' };
}

/**
 * The active template of a debtor's event (the notice of assignment, a reminder level, docs/collections.md) to the
 * debtor: skipped (no log) without an active template or without the debtor's email address. The debtor's and the
 * factor's names and the factor's IBAN are filled in; the caller gives the rest (invoice, reference, link). The log
 * row names the debtor, the client and the invoice, so the invoice's history lists the mail.
 */
export async function sendDebtorEmail(
  trigger: DebtorEmailTrigger,
  input: { customerId: string; clientId?: string | null; invoiceId?: string | null; variables: JobVariables; attachments?: readonly string[] },
  transaction: Transaction,
): Promise<TriggerOutcome> {
  const template = await activeTemplateFor(trigger, transaction);
  if (!template) return { queued: false, reason: 'no_template' };
  const debtor = await selectOne<RowOf<typeof Customer, 'email' | 'company_name'>>(
    'SELECT email, company_name FROM customers WHERE id = :id',
    { id: input.customerId },
    { transaction },
  );
  const to = debtor?.email?.trim().toLowerCase();
  if (!debtor || !to) return { queued: false, reason: 'no_recipient' };
  const factor = factorAccount();
  const variables: JobVariables = { debtor_name: debtor.company_name, factor_name: factor.name, factor_iban: factor.iban, ...input.variables };
  const logId = await queueEmail(
    { template, recipient: to, clientId: input.clientId, customerId: input.customerId, invoiceId: input.invoiceId, attachments: input.attachments, variables },
    transaction,
  );
  return logId ? { queued: true, logId, to } : { queued: false, reason: 'no_recipient' };
}

export function clientVariables(client: { company_name: string; contact_person: string | null }): JobVariables {
  return { client_name: client.contact_person?.trim() || client.company_name, company_name: client.company_name };
}

interface LockedLog {
  id: string;
  status: string;
  recipient: string;
  tracking_token: string;
  template_id: string | null;
  campaign_id: string | null;
  template_subject: string | null;
  template_body: string | null;
  company_name: string | null;
  contact_person: string | null;
}

export type SendResult = 'sent' | 'skipped' | 'failed' | 'retry';

/**
 * The worker's side of one message. `delivery.retryCount` counts earlier
 * deliveries; at `retryLimit` a failure is final (status failed). Throws the
 * send error (after recording it) unless it was final, so pg-boss retries.
 */
export async function processEmailJob(
  job: { logId: string; variables?: JobVariables },
  delivery: { retryCount: number; retryLimit: number } = { retryCount: 0, retryLimit: 0 },
): Promise<SendResult> {
  let failure: unknown;
  const result = await inTransaction(async (transaction): Promise<SendResult> => {
    const log = await selectOne<LockedLog>(
      `SELECT l.id, l.status, l.recipient, l.tracking_token, l.template_id, l.campaign_id,
              t.subject AS template_subject, t.body AS template_body, c.company_name, c.contact_person
         FROM email_logs l
         LEFT JOIN email_templates t ON t.id = l.template_id
         LEFT JOIN clients c ON c.id = l.client_id
        WHERE l.id = :id FOR UPDATE OF l`,
      { id: job.logId },
      { transaction },
    );
    // Already sent (a repeated or resumed job), failed for good, or gone: nothing to do.
    if (!log || log.status !== 'queued') return 'skipped';
    if (log.template_subject === null || log.template_body === null) {
      await execute(
        `UPDATE email_logs SET status = 'failed', error_message = 'Template no longer exists', attempts = attempts + 1 WHERE id = :id`,
        { id: log.id },
        { transaction },
      );
      await completeCampaignIfDone(log.campaign_id, transaction);
      return 'failed';
    }
    const variables: TemplateVariables = { ...(log.company_name ? clientVariables({ company_name: log.company_name, contact_person: log.contact_person }) : {}), ...job.variables };
    const rendered = renderEmail({ subject: log.template_subject, body: log.template_body }, variables, { tracking: trackingUrls(log.tracking_token) });
    try {
      const attachments = await attachmentsOf(log.id, transaction);
      const { messageId } = await sendMail({
        to: log.recipient,
        subject: rendered.subject,
        text: rendered.text,
        html: rendered.html,
        messageId: messageIdFor(log.id),
        attachments,
      });
      await execute(
        `UPDATE email_logs SET status = 'sent', sent_at = now(), message_id = :messageId, subject = :subject, links = CAST(:links AS jsonb),
                attempts = attempts + 1, error_message = NULL
          WHERE id = :id`,
        { id: log.id, messageId, subject: rendered.subject, links: JSON.stringify(rendered.links) },
        { transaction },
      );
      await execute('UPDATE email_templates SET usage_count = usage_count + 1 WHERE id = :id', { id: log.template_id }, { transaction });
      await completeCampaignIfDone(log.campaign_id, transaction);
      return 'sent';
    } catch (error) {
      failure = error;
      const final = delivery.retryCount >= delivery.retryLimit;
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
      await execute(
        `UPDATE email_logs SET attempts = attempts + 1, error_message = :message, status = CASE WHEN :final THEN 'failed' ELSE status END WHERE id = :id`,
        { id: log.id, message, final },
        { transaction },
      );
      if (final) await completeCampaignIfDone(log.campaign_id, transaction);
      return final ? 'failed' : 'retry';
    }
  });
  if (result === 'retry') throw failure;
  return result;
}

/**
 * A sending campaign with no queued log left is completed (or failed when not
 * one message went out). The campaign row is locked first, so of two jobs
 * finishing together the second sees the first's committed row.
 */
export async function completeCampaignIfDone(campaignId: string | null, transaction: Transaction): Promise<void> {
  if (!campaignId) return;
  const campaign = await selectOne<RowOf<typeof EmailCampaign, 'status'>>('SELECT status FROM email_campaigns WHERE id = :id FOR UPDATE', { id: campaignId }, { transaction });
  if (campaign?.status !== 'sending') return;
  await execute(
    `UPDATE email_campaigns c
        SET status = CASE WHEN EXISTS (SELECT 1 FROM email_logs l WHERE l.campaign_id = c.id AND l.${DELIVERED}) OR NOT EXISTS (SELECT 1 FROM email_logs l WHERE l.campaign_id = c.id)
                          THEN 'completed' ELSE 'failed' END,
            completed_at = now()
      WHERE c.id = :id AND NOT EXISTS (SELECT 1 FROM email_logs l WHERE l.campaign_id = c.id AND l.status = 'queued')`,
    { id: campaignId },
    { transaction },
  );
}

/** GET /email/open/{token}.gif: the first open sets opened_at (status opened unless already clicked). Unknown tokens are ignored. */
export async function recordOpen(token: string): Promise<void> {
  await execute(
    `UPDATE email_logs SET opened_at = now(), status = CASE WHEN status IN ('sent', 'delivered') THEN 'opened' ELSE status END
      WHERE tracking_token = :token AND opened_at IS NULL AND sent_at IS NOT NULL`,
    { token },
  );
}

/** GET /email/click/{token}/{index}: the stored link (null when unknown: no open redirect); the first click sets clicked_at. */
export async function recordClick(token: string, index: number): Promise<string | null> {
  if (!Number.isInteger(index) || index < 0) return null;
  const row = await selectOne<{ url: string | null }>('SELECT links ->> CAST(:index AS int) AS url FROM email_logs WHERE tracking_token = :token', { token, index });
  if (!row?.url) return null;
  await execute(
    `UPDATE email_logs SET clicked_at = coalesce(clicked_at, now()), opened_at = coalesce(opened_at, now()),
            status = CASE WHEN status IN ('sent', 'delivered', 'opened') THEN 'clicked' ELSE status END
      WHERE tracking_token = :token AND clicked_at IS NULL`,
    { token },
  );
  return row.url;
}
