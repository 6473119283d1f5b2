import { randomUUID } from 'node:crypto';
import type { Sequelize, Transaction } from 'sequelize';
import { DUNNABLE, dunningVariables } from '../../../app/dunning/dunning.server.ts';
import { renderPaymentSlip, slipFileName, slipInvoice } from '../../../app/dunning/payment-slip.server.ts';
import { DEFAULT_DUNNING_LEVELS } from '../../../app/dunning/schemas.ts';
import { renderEmail } from '../../../app/email/render.server.ts';
import { factorAccount } from '../../../app/banking/factor-account.server.ts';
import type { ObjectStore } from '../../../app/storage/object-store.server.ts';
import { DAY, HOUR, MINUTE, type Clock, type Row, date, insertRows, json } from './plumbing.ts';
import type { StaffSet } from './staff.ts';

/**
 * Dunning in the demo book (docs/collections.md#dunning): the first overdue financed invoices (by due date and number)
 * whose debtor has an email address got every default level whose day has passed, each on its day at the job's hour
 * with its payment slip stored as the job stores it, its mail (sent, the older ones opened) and the activity row; the
 * next overdue invoice is on hold by a manager. Nothing was paid on them in between, so each invoice's slips are the
 * same file: rendered once (a slip takes a moment, and the seed is timed), one document row per reminder. Drawn from
 * no PRNG, after the ledger, so the rest of the book does not move. Returns the rows it wrote, for the log line.
 */
const DUNNED_INVOICES = 3;
/** The job's hour: 06:30 in Zagreb is 05:30 UTC in winter, close enough for a demo. */
const JOB_HOUR = 5.5;

export async function seedDunning(sequelize: Sequelize, transaction: Transaction, clock: Clock, store: ObjectStore, staff: StaffSet): Promise<string[]> {
  const today = clock.dayAgo(0);
  const [overdue] = (await sequelize.query(
    `SELECT i.id, to_char(i.due_date, 'YYYY-MM-DD') AS due_date
       FROM invoices i JOIN customers cu ON cu.id = i.customer_id
      WHERE ${DUNNABLE} AND i.due_date < CAST($1 AS date) AND cu.email IS NOT NULL
      ORDER BY i.due_date, i.invoice_number LIMIT ${DUNNED_INVOICES + 1}`,
    { bind: [today], transaction },
  )) as [Array<{ id: string; due_date: string }>, unknown];
  const [manager] = staff.deciders;
  if (overdue.length < DUNNED_INVOICES + 1 || !manager) throw new Error('the demo book has too few overdue financed invoices or no manager for dunning');
  const [templates] = (await sequelize.query(`SELECT id, trigger, subject, body FROM email_templates WHERE is_active AND trigger LIKE 'dunning_%'`, { transaction })) as [
    Array<{ id: string; trigger: string; subject: string; body: string }>,
    unknown,
  ];
  const factor = factorAccount();
  const documents: Row[] = [];
  const logs: Row[] = [];
  const attachments: Row[] = [];
  const notices: Row[] = [];
  const activity: Row[] = [];

  for (const { id, due_date: dueDate } of overdue.slice(0, DUNNED_INVOICES)) {
    const invoice = (await slipInvoice(id, { transaction }))!;
    let stored: Awaited<ReturnType<ObjectStore['put']>> | null = null;
    for (const level of DEFAULT_DUNNING_LEVELS) {
      const dueMs = Date.parse(`${dueDate}T00:00:00Z`) + level.days * DAY;
      const at = dueMs + JOB_HOUR * HOUR;
      if (at >= clock.now) continue;
      const day = clock.day(dueMs);
      const template = templates.find((candidate) => candidate.trigger === `dunning_${level.level}`);
      if (!template) throw new Error(`the demo book has no active dunning_${level.level} template`);
      stored ??= await store.put(await renderPaymentSlip(invoice, { createdAt: date(at) }), { contentType: 'application/pdf' });
      const documentId = randomUUID();
      documents.push({
        id: documentId,
        name: slipFileName(invoice.invoice_number),
        type: 'invoice',
        mime_type: 'application/pdf',
        size: stored.size,
        storage_key: stored.key,
        checksum: stored.checksum,
        entity_type: 'invoice',
        entity_id: invoice.id,
        created_at: date(at),
        updated_at: date(at),
      });
      const variables = { debtor_name: invoice.customer_name, factor_name: factor.name, factor_iban: factor.iban, ...dunningVariables(invoice) };
      const logId = randomUUID();
      const sentAt = at + 2 * MINUTE;
      const opened = clock.now - sentAt > 3 * DAY;
      logs.push({
        id: logId,
        template_id: template.id,
        client_id: invoice.client_id,
        customer_id: invoice.customer_id,
        invoice_id: invoice.id,
        recipient: invoice.customer_email!.trim().toLowerCase(),
        subject: renderEmail(template, variables).subject,
        status: opened ? 'opened' : 'sent',
        message_id: `<email-${logId}@finflow.local>`,
        attempts: 1,
        sent_at: date(sentAt),
        opened_at: opened ? date(sentAt + 5 * HOUR) : null,
        created_at: date(at),
        updated_at: date(opened ? sentAt + 5 * HOUR : sentAt),
      });
      attachments.push({ email_log_id: logId, position: 0, document_id: documentId });
      notices.push({
        id: randomUUID(),
        invoice_id: invoice.id,
        level: level.level,
        day,
        status: 'sent',
        open_amount: invoice.open_amount,
        email_log_id: logId,
        document_id: documentId,
        created_at: date(at),
      });
      activity.push({
        id: randomUUID(),
        action: 'dunning_notice_sent',
        entity_type: 'invoice',
        entity_id: invoice.id,
        user_id: null,
        // Without the mail's and the slip's ids, which differ between two seeds of the same book.
        details: json({ invoiceNumber: invoice.invoice_number, level: level.level, day, openAmount: Number(invoice.open_amount), to: logs.at(-1)!.recipient }),
        created_at: date(at),
      });
    }
  }

  // The next overdue invoice: a manager stopped its reminders yesterday while the debtor negotiates instalments.
  const held = overdue[DUNNED_INVOICES];
  const heldAt = clock.past(clock.midnight - DAY + 10 * HOUR);
  const reason = 'Dužnik predložio obročnu otplatu; čekamo potpisani sporazum';
  const holds: Row[] = [{ id: randomUUID(), invoice_id: held.id, reason, held_at: date(heldAt), held_by: manager.id }];
  activity.push({
    id: randomUUID(),
    action: 'dunning_hold_set',
    entity_type: 'invoice',
    entity_id: held.id,
    user_id: manager.id,
    ip_address: '10.20.1.11',
    details: json({ reason }),
    created_at: date(heldAt),
  });

  await insertRows(sequelize, transaction, 'documents', documents);
  await insertRows(sequelize, transaction, 'email_logs', logs);
  await insertRows(sequelize, transaction, 'email_attachments', attachments);
  await insertRows(sequelize, transaction, 'dunning_notices', notices);
  await insertRows(sequelize, transaction, 'dunning_holds', holds);
  await insertRows(sequelize, transaction, 'activity_logs', activity);
  return [`${notices.length} dunning_notices`, `${holds.length} dunning_holds`];
}
