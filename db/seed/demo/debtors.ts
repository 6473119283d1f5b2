import { createHash, randomUUID } from 'node:crypto';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { factorParty } from '../../../app/einvoices/factor-party.server.ts';
import type { ObjectStore } from '../../../app/storage/object-store.server.ts';
import { type Clock, DAY, HOUR, date, insertRows } from './plumbing.ts';
import { minimalPdf } from './pdf.ts';
import type { StaffSet } from './staff.ts';

/**
 * The debtor's side of the demo book (docs/collections.md#the-notice-of-assignment-and-the-debtors-confirmation),
 * written after the rest from what the book holds, so the other tables stay as they were:
 * the notice of assignment of the three client–debtor pairs under a disclosed
 * agreement with the most open invoices, each at the pair's first financing
 * (its PDF, the mail with the PDF attached, the link, long expired); for the
 * first pair a confirmation request a few days ago, which the debtor answered
 * yesterday: one invoice confirmed, one disputed (the dispute open, its task
 * for the staff). The links' tokens are random: no demo link can be opened.
 */
interface Pair {
  client_id: string;
  customer_id: string;
  client_name: string;
  client_oib: string;
  debtor_name: string;
  email: string;
  agreement_id: string;
  agreement_number: string;
  invoice_id: string;
  financed_at: Date;
  financed_by: string | null;
}

export async function seedDebtorSide(sequelize: Sequelize, transaction: Transaction, clock: Clock, staff: StaffSet, store: ObjectStore): Promise<string[]> {
  const select = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) => sequelize.query<T>(sql, { type: QueryTypes.SELECT, replacements, transaction });
  const template = (await select<{ id: string; subject: string }>(`SELECT id, subject FROM email_templates WHERE trigger = 'debtor_notice' AND is_active LIMIT 1`))[0];
  if (!template) return [];
  const pairs = await select<Pair>(`
    SELECT f.*, c.company_name AS client_name, c.oib AS client_oib,
           d.company_name AS debtor_name,
           d.email, a.number AS agreement_number
      FROM (SELECT DISTINCT ON (i.client_id, i.customer_id) i.client_id, i.customer_id, i.agreement_id, i.id AS invoice_id, i.financed_at, i.financed_by
              FROM invoices i WHERE i.financed_at IS NOT NULL AND i.agreement_id IS NOT NULL
             ORDER BY i.client_id, i.customer_id, i.financed_at, i.invoice_number) f
      JOIN clients c ON c.id = f.client_id JOIN customers d ON d.id = f.customer_id JOIN agreements a ON a.id = f.agreement_id
     WHERE a.disclosed AND d.email IS NOT NULL
     ORDER BY (SELECT count(*) FROM invoices o WHERE o.client_id = f.client_id AND o.customer_id = f.customer_id
                AND o.status IN ('pending', 'verified', 'approved', 'financed')) DESC, c.oib, d.oib
     LIMIT 3`);
  const manager = staff.deciders[0];
  const documents: Record<string, unknown>[] = [];
  const notices: Record<string, unknown>[] = [];
  const logs: Record<string, unknown>[] = [];
  const attachments: Record<string, unknown>[] = [];
  const links: Record<string, unknown>[] = [];
  const activity: Record<string, unknown>[] = [];
  const factor = factorParty();

  const notice = async (pair: Pair, at: number, occasion: 'financing' | 'request', actorId: string | null) => {
    const financed = await select<{ invoice_number: string; issue_date: string; due_date: string; amount: string; currency: string; payment_reference: string | null }>(
      `SELECT invoice_number, to_char(issue_date, 'YYYY-MM-DD') AS issue_date, to_char(due_date, 'YYYY-MM-DD') AS due_date, amount, currency, payment_reference
         FROM invoices WHERE client_id = :client AND customer_id = :customer AND financed_at IS NOT NULL AND financed_at <= :at
        ORDER BY financed_at, invoice_number`,
      { client: pair.client_id, customer: pair.customer_id, at: date(at) },
    );
    const day = clock.day(at);
    // The demo's documents are minimal PDFs (db/seed/demo/pdf.ts): the notice's words, without the embedded font's cost.
    const bytes = minimalPdf('Obavijest o ustupanju potrazivanja', [
      `${pair.client_name}, OIB ${pair.client_oib}, ustupio je potrazivanja prema ${pair.debtor_name} drustvu ${factor.name}`,
      `(Ugovor o faktoringu ${pair.agreement_number}, ${day}). Placajte iskljucivo na IBAN ${factor.iban}.`,
      ...financed.map((row) => `${row.invoice_number}  ${row.issue_date}  ${row.due_date}  ${row.amount} ${row.currency}  ${row.payment_reference ?? ''}`),
    ]);
    const stored = await store.put(bytes, { contentType: 'application/pdf' });
    const documentId = randomUUID();
    documents.push({
      id: documentId,
      name: `Obavijest o ustupanju ${pair.client_name} ${day}.pdf`.slice(0, 255),
      type: 'contract',
      mime_type: 'application/pdf',
      size: stored.size,
      storage_key: stored.key,
      checksum: stored.checksum,
      entity_type: 'customer',
      entity_id: pair.customer_id,
      uploaded_by: actorId,
      signature_required: false,
      created_at: date(at),
      updated_at: date(at),
    });
    const noticeId = randomUUID();
    const logId = randomUUID();
    notices.push({
      id: noticeId,
      client_id: pair.client_id,
      customer_id: pair.customer_id,
      agreement_id: pair.agreement_id,
      document_id: documentId,
      occasion,
      invoice_id: occasion === 'financing' ? pair.invoice_id : null,
      email_log_id: logId,
      created_by: actorId,
      created_at: date(at),
    });
    logs.push({
      id: logId,
      template_id: template.id,
      client_id: pair.client_id,
      customer_id: pair.customer_id,
      invoice_id: occasion === 'financing' ? pair.invoice_id : null,
      recipient: pair.email,
      subject: template.subject.replace('{{company_name}}', pair.client_name),
      status: 'sent',
      message_id: `<${randomUUID()}@finflow.local>`,
      attempts: 1,
      sent_at: date(at + 2 * 60_000),
      created_at: date(at),
      updated_at: date(at + 2 * 60_000),
    });
    attachments.push({ email_log_id: logId, position: 0, document_id: documentId });
    const linkId = randomUUID();
    links.push({
      id: linkId,
      client_id: pair.client_id,
      customer_id: pair.customer_id,
      notice_id: noticeId,
      token_hash: createHash('sha256').update(randomUUID()).digest('hex'),
      expires_at: date(at + 30 * DAY),
      email_log_id: logId,
      created_by: actorId,
      created_at: date(at),
    });
    activity.push({
      id: randomUUID(),
      action: 'debtor_notice_issued',
      entity_type: 'customer',
      entity_id: pair.customer_id,
      user_id: actorId,
      // Names and figures only: the ids differ between runs (db/seed/demo.test.ts compares two books).
      details: JSON.stringify({ clientName: pair.client_name, occasion, agreementNumber: pair.agreement_number, invoices: financed.length, to: pair.email }),
      created_at: date(at),
    });
    return { linkId, link: links[links.length - 1] };
  };

  for (const pair of pairs) await notice(pair, pair.financed_at.getTime() + 60_000, 'financing', pair.financed_by);

  // The first pair: a confirmation request three days ago, answered yesterday.
  const first = pairs[0];
  const answers: Record<string, unknown>[] = [];
  const disputes: Record<string, unknown>[] = [];
  const tasks: Record<string, unknown>[] = [];
  if (first) {
    const open = await select<{ id: string; invoice_number: string; status: string }>(
      `SELECT id, invoice_number, status FROM invoices WHERE client_id = :client AND customer_id = :customer AND status IN ('pending', 'verified', 'approved', 'financed')
        ORDER BY due_date, invoice_number`,
      { client: first.client_id, customer: first.customer_id },
    );
    const requestedAt = clock.office(clock.midnight - 3 * DAY + 9 * HOUR);
    const { linkId, link } = await notice(first, requestedAt, 'request', manager.id);
    const answeredAt = clock.office(clock.midnight - DAY + 10 * HOUR);
    const ip = '192.0.2.45';
    Object.assign(link, { spent_at: date(answeredAt), acknowledged_at: date(answeredAt), submitted_ip: ip });
    const [confirmed, disputed] = open;
    if (confirmed) answers.push({ id: randomUUID(), link_id: linkId, invoice_id: confirmed.id, answer: 'confirmed', answered_at: date(answeredAt), ip });
    if (disputed) {
      const disputeId = randomUUID();
      const reason = 'Dio robe vraćen zbog oštećenja u prijevozu; iznos računa nije točan.';
      disputes.push({ id: disputeId, invoice_id: disputed.id, reason, source: 'debtor', opened_at: date(answeredAt), opened_ip: ip });
      answers.push({ id: randomUUID(), link_id: linkId, invoice_id: disputed.id, answer: 'disputed', dispute_id: disputeId, answered_at: date(answeredAt), ip });
      tasks.push({
        id: randomUUID(),
        title: `Dužnik osporava račun ${disputed.invoice_number}`,
        description: `${first.debtor_name} osporava račun ${disputed.invoice_number} klijenta ${first.client_name}.\nRazlog: ${reason}`,
        type: 'customer_contact',
        priority: 'high',
        status: 'pending',
        entity_type: 'invoice',
        entity_id: disputed.id,
        created_at: date(answeredAt),
        updated_at: date(answeredAt),
      });
      activity.push({
        id: randomUUID(),
        action: 'invoice_disputed',
        entity_type: 'invoice',
        entity_id: disputed.id,
        user_id: null,
        ip_address: ip,
        details: JSON.stringify({ invoiceNumber: disputed.invoice_number, source: 'debtor', reason }),
        created_at: date(answeredAt),
      });
    }
    if (confirmed) {
      activity.push({
        id: randomUUID(),
        action: 'invoice_confirmed_by_debtor',
        entity_type: 'invoice',
        entity_id: confirmed.id,
        user_id: null,
        ip_address: ip,
        details: JSON.stringify({ invoiceNumber: confirmed.invoice_number, source: 'debtor' }),
        created_at: date(answeredAt),
      });
    }
  }

  await insertRows(sequelize, transaction, 'documents', documents);
  await insertRows(sequelize, transaction, 'email_logs', logs);
  await insertRows(sequelize, transaction, 'email_attachments', attachments);
  await insertRows(sequelize, transaction, 'debtor_notices', notices);
  await insertRows(sequelize, transaction, 'debtor_links', links);
  await insertRows(sequelize, transaction, 'invoice_disputes', disputes);
  await insertRows(sequelize, transaction, 'debtor_answers', answers);
  await insertRows(sequelize, transaction, 'tasks', tasks);
  await insertRows(sequelize, transaction, 'activity_logs', activity);
  for (const dispute of disputes) {
    await sequelize.query(`UPDATE invoices SET disputed = true, dispute_reason = :reason WHERE id = :id`, {
      replacements: { id: dispute.invoice_id, reason: dispute.reason },
      transaction,
    });
  }
  return [`${notices.length} debtor_notices`, `${links.length} debtor_links`, `${answers.length} debtor_answers`, `${disputes.length} invoice_disputes`];
}
