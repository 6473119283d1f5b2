import { beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE_TEMPLATES } from '../../db/reference-data.ts';
import { activityRows, apiFailure } from '../auth/test-helpers.server.ts';
import { execute, selectOne, selectRows } from '../db.server.ts';
import { getObjectStore } from '../storage/object-store.server.ts';
import { financeInvoice } from '../invoices/financing.server.ts';
import { approveInvoice, verifyInvoice } from '../invoices/invoice-decisions.server.ts';
import { invoiceEligibility } from '../invoices/eligibility.server.ts';
import { book, createAgreement, financeableClient, financedInvoice, insertCustomer, newInvoice, staff } from '../../tests/factories.ts';
import { pdfText } from '../../tests/support/pdf-text.ts';
import { openDispute } from './disputes.server.ts';
import { linkState, listDebtorLinks, noticeFileByToken, resendDebtorLink, revokeDebtorLink, submitDebtorAnswers } from './links.server.ts';
import { requestDebtorConfirmation } from './notices.server.ts';
import { answerField, reasonField } from './schemas.ts';

/** The token a debtor got: the link is only in the queued mail's job, so the tests read it from the notice's outcome via the mail job. */
async function tokenOfLog(logId: string): Promise<string> {
  const job = await selectOne<{ data: { variables: { debtor_link: string } } }>(`SELECT data FROM pgboss.job WHERE name = 'email-send' AND data->>'logId' = :logId`, { logId });
  return job!.data.variables.debtor_link.split('/debtor/')[1];
}

// The debtor_notice template every install has (db/reference-data.ts); a test database starts without reference data.
beforeAll(async () => {
  const template = REFERENCE_TEMPLATES.find((candidate) => candidate.trigger === 'debtor_notice')!;
  await execute(`INSERT INTO email_templates (name, trigger, subject, body, is_active) VALUES (:name, :trigger, :subject, :body, true)`, { ...template });
});

async function noticesOf(customerId: string) {
  return selectRows<{ id: string; occasion: string; invoice_id: string | null; email_log_id: string | null; task_id: string | null; document_id: string; agreement_id: string }>(
    `SELECT id, occasion, invoice_id, email_log_id, task_id, document_id, agreement_id FROM debtor_notices WHERE customer_id = :customerId ORDER BY created_at`,
    { customerId },
  );
}

async function tableCounts() {
  const row = await selectOne<Record<string, number>>(
    `SELECT (SELECT count(*)::int FROM debtor_answers) AS answers, (SELECT count(*)::int FROM invoice_disputes) AS disputes,
            (SELECT count(*)::int FROM tasks) AS tasks, (SELECT count(*)::int FROM debtor_links WHERE spent_at IS NOT NULL) AS spent,
            (SELECT count(*)::int FROM invoices WHERE disputed) AS disputed`,
  );
  return row!;
}

describe('the notice of assignment at financing', () => {
  it('is written, stored on the debtor and mailed with its link at the pair’s first financing only', async () => {
    const b = await book();
    const client = await financeableClient({ name: 'Ustupitelj d.o.o.' });
    const debtor = await insertCustomer({ name: 'Dužnik d.d.', email: 'racunovodstvo@duznik.hr' });
    const first = await financedInvoice(b, { clientId: client.id, customerId: debtor.id, amount: '1234.56', invoiceNumber: 'R-1/1/1' });

    const [notice] = await noticesOf(debtor.id);
    expect(notice).toMatchObject({ occasion: 'financing', invoice_id: first.id, task_id: null });
    const mail = await selectOne<{ recipient: string; subject: string; customer_id: string; client_id: string; invoice_id: string; attachment: string }>(
      `SELECT l.recipient, l.subject, l.customer_id, l.client_id, l.invoice_id, a.document_id AS attachment
         FROM email_logs l JOIN email_attachments a ON a.email_log_id = l.id WHERE l.id = :id`,
      { id: notice.email_log_id },
    );
    expect(mail).toEqual({
      recipient: 'racunovodstvo@duznik.hr',
      subject: 'Obavijest o ustupanju potraživanja – Ustupitelj d.o.o.',
      customer_id: debtor.id,
      client_id: client.id,
      invoice_id: first.id,
      attachment: notice.document_id,
    });
    const document = await selectOne<{ type: string; entity_type: string; entity_id: string; storage_key: string }>(
      `SELECT type, entity_type, entity_id, storage_key FROM documents WHERE id = :id`,
      { id: notice.document_id },
    );
    expect(document).toMatchObject({ type: 'contract', entity_type: 'customer', entity_id: debtor.id });

    // The PDF names the parties, the agreement, the factor's IBAN and the invoice with its reference.
    const reference = (await selectOne<{ payment_reference: string }>(`SELECT payment_reference FROM invoices WHERE id = :id`, { id: first.id }))!.payment_reference;
    const agreement = (await selectOne<{ number: string }>(`SELECT number FROM agreements WHERE id = :id`, { id: notice.agreement_id }))!;
    const text = (await pdfText(await getObjectStore().get(document!.storage_key))).replace(/\s+/g, ' ');
    expect(text).toContain('Obavijest o ustupanju potraživanja');
    expect(text).toContain(`Ustupitelj d.o.o., OIB ${client.oib}`);
    expect(text).toContain(`Ugovora o faktoringu broj ${agreement.number}`);
    expect(text).toMatch(/isključivo faktoru, na IBAN HR\d{19}/);
    expect(text).toContain('R-1/1/1');
    expect(text).toContain('1.234,56 EUR');
    expect(text).toContain(reference);

    const [logged] = await activityRows('debtor_notice_issued', debtor.id);
    expect(logged.details).toMatchObject({ noticeId: notice.id, occasion: 'financing', invoiceId: first.id, clientId: client.id, invoices: 1 });
    const [financed] = await activityRows('invoice_financed', first.id);
    expect(financed.details).toMatchObject({ debtorNotice: { noticeId: notice.id, documentId: notice.document_id } });

    // A second financing of the same pair writes no new notice.
    await financedInvoice(b, { clientId: client.id, customerId: debtor.id, amount: '500.00' });
    expect(await noticesOf(debtor.id)).toHaveLength(1);
  });

  it('writes none under an undisclosed agreement', async () => {
    const b = await book();
    const client = await financeableClient({ agreement: { disclosed: false } });
    const debtor = await insertCustomer({ email: 'a@dužnik.hr' });
    await financedInvoice(b, { clientId: client.id, customerId: debtor.id, amount: '800.00' });
    expect(await noticesOf(debtor.id)).toEqual([]);
    expect(await selectRows(`SELECT 1 FROM email_logs WHERE customer_id = :id`, { id: debtor.id })).toEqual([]);
  });

  it('opens a task to deliver it by hand for a debtor without an email address', async () => {
    const b = await book();
    const client = await financeableClient();
    const debtor = await insertCustomer({ name: 'Bez Pošte d.o.o.', email: null });
    await financedInvoice(b, { clientId: client.id, customerId: debtor.id, amount: '800.00' });
    const [notice] = await noticesOf(debtor.id);
    expect(notice).toMatchObject({ email_log_id: null, task_id: expect.any(String) });
    const task = await selectOne(`SELECT type, priority, entity_type, entity_id, status FROM tasks WHERE id = :id`, { id: notice.task_id });
    expect(task).toEqual({ type: 'customer_contact', priority: 'high', entity_type: 'customer', entity_id: debtor.id, status: 'pending' });
    expect(await selectRows(`SELECT 1 FROM debtor_links WHERE customer_id = :id`, { id: debtor.id })).toEqual([]);
  });

  it('is not written when the financing is refused, and the financing is not done without it', async () => {
    const b = await book();
    const client = await financeableClient({ creditLimit: '100.00' });
    const debtor = await insertCustomer({ email: 'x@duznik.hr' });
    const invoice = await newInvoice(b.user, client.id, debtor.id, { amount: 1000 });
    await verifyInvoice({ actor: b.manager, id: invoice.id });
    await approveInvoice({ actor: b.manager2, id: invoice.id });
    expect((await apiFailure(financeInvoice({ actor: b.manager, id: invoice.id }))).status).toBe(409);
    expect(await noticesOf(debtor.id)).toEqual([]);
    expect(await selectRows(`SELECT 1 FROM documents WHERE entity_id = :id`, { id: debtor.id })).toEqual([]);
  });
});

/** A pair with a notice mailed at its first financing and a second invoice waiting: the link's token and the two invoices. */
async function pairWithLink(options: { requiresConfirmation?: boolean } = {}) {
  const b = await book();
  const client = await financeableClient({ name: 'Klijent Link d.o.o.', agreement: { requiresDebtorConfirmation: options.requiresConfirmation ?? false } });
  const debtor = await insertCustomer({ name: 'Dužnik Link d.d.', email: 'link@duznik.hr' });
  const financed = options.requiresConfirmation ? null : await financedInvoice(b, { clientId: client.id, customerId: debtor.id, amount: '2000.00', invoiceNumber: 'F-1' });
  const pending = await newInvoice(b.user, client.id, debtor.id, { amount: 750, invoiceNumber: 'P-2' });
  if (options.requiresConfirmation) await requestDebtorConfirmation({ actor: b.manager, input: { clientId: client.id, customerId: debtor.id } });
  const link = (await selectOne<{ id: string; email_log_id: string }>(`SELECT id, email_log_id FROM debtor_links WHERE customer_id = :id ORDER BY created_at DESC LIMIT 1`, {
    id: debtor.id,
  }))!;
  return { b, client, debtor, financed, pending, link, token: await tokenOfLog(link.email_log_id) };
}

describe("the debtor's link", () => {
  it('shows the pair’s open invoices and records a confirmation and a dispute in one submit, then is spent', async () => {
    const { debtor, financed, pending, token, link } = await pairWithLink();
    const state = await linkState(token);
    expect(state).toMatchObject({ state: 'open', clientName: 'Klijent Link d.o.o.', debtorName: 'Dužnik Link d.d.', waiting: 2 });
    expect(state.state === 'open' && state.invoices.map((invoice) => invoice.number)).toEqual(expect.arrayContaining(['F-1', 'P-2']));
    const file = await noticeFileByToken(token, '203.0.113.9');
    expect(file.ok && (await pdfText(file.bytes))).toContain('Obavijest o ustupanju potraživanja');

    const result = await submitDebtorAnswers({
      token,
      ip: '203.0.113.9',
      fields: { acknowledged: 'on', [answerField(financed!.id)]: 'confirm', [answerField(pending.id)]: 'dispute', [reasonField(pending.id)]: 'Roba nije isporučena.' },
    });
    expect(result).toEqual({ ok: true });
    const answers = await selectRows<{ invoice_id: string; answer: string; ip: string; dispute_id: string | null }>(
      `SELECT invoice_id, answer, ip, dispute_id FROM debtor_answers WHERE link_id = :id ORDER BY answer`,
      { id: link.id },
    );
    expect(answers).toEqual([
      { invoice_id: financed!.id, answer: 'confirmed', ip: '203.0.113.9', dispute_id: null },
      { invoice_id: pending.id, answer: 'disputed', ip: '203.0.113.9', dispute_id: expect.any(String) },
    ]);
    const dispute = await selectOne(`SELECT invoice_id, reason, source, opened_ip, opened_by, resolved_at FROM invoice_disputes WHERE id = :id`, { id: answers[1].dispute_id });
    expect(dispute).toEqual({ invoice_id: pending.id, reason: 'Roba nije isporučena.', source: 'debtor', opened_ip: '203.0.113.9', opened_by: null, resolved_at: null });
    expect(await selectOne(`SELECT disputed, dispute_reason FROM invoices WHERE id = :id`, { id: pending.id })).toEqual({
      disputed: true,
      dispute_reason: 'Roba nije isporučena.',
    });
    const task = await selectOne(`SELECT type, priority, entity_type FROM tasks WHERE entity_id = :id`, { id: pending.id });
    expect(task).toEqual({ type: 'customer_contact', priority: 'high', entity_type: 'invoice' });
    expect(
      await selectOne(`SELECT submitted_ip, spent_at IS NOT NULL AS spent, acknowledged_at IS NOT NULL AS acknowledged FROM debtor_links WHERE id = :id`, { id: link.id }),
    ).toEqual({
      submitted_ip: '203.0.113.9',
      spent: true,
      acknowledged: true,
    });
    expect((await activityRows('invoice_disputed', pending.id))[0]).toMatchObject({ user_id: null, ip_address: '203.0.113.9' });
    expect(await activityRows('debtor_link_submitted', debtor.id)).toHaveLength(1);

    // The link is spent: a second submit is refused and writes nothing.
    const before = await tableCounts();
    const again = await submitDebtorAnswers({ token, ip: '203.0.113.9', fields: { acknowledged: 'on' } });
    expect(again).toMatchObject({ ok: false, status: 410, link: { state: 'spent' } });
    expect(await tableCounts()).toEqual(before);

    // The disputed invoice cannot be verified; its eligibility names the dispute.
    const refusal = await apiFailure(verifyInvoice({ actor: await staff('manager'), id: pending.id }));
    expect(refusal).toMatchObject({ status: 409, body: { message: 'Invoice P-2 is disputed by the debtor: Roba nije isporučena.' } });
    const eligibility = await invoiceEligibility(pending.id);
    expect(eligibility.checks.find((check) => check.name === 'dispute')).toMatchObject({ passed: false, params: { number: 'P-2', reason: 'Roba nije isporučena.' } });
  });

  it('refuses a submit with a dispute without reason, or without the acknowledgement, and writes nothing', async () => {
    const { pending, financed, token } = await pairWithLink();
    const before = await tableCounts();
    const missing = await submitDebtorAnswers({ token, fields: { acknowledged: 'on', [answerField(pending.id)]: 'dispute', [reasonField(pending.id)]: '   ' } });
    expect(missing).toMatchObject({ ok: false, status: 400, errors: { [reasonField(pending.id)]: ['debtors.errors.reasonRequired'] } });
    const tooLong = await submitDebtorAnswers({ token, fields: { acknowledged: 'on', [answerField(pending.id)]: 'dispute', [reasonField(pending.id)]: 'x'.repeat(5001) } });
    expect(tooLong).toMatchObject({ ok: false, status: 400, errors: { [reasonField(pending.id)]: ['debtors.errors.reasonTooLong'] } });
    const noAck = await submitDebtorAnswers({ token, fields: { [answerField(financed!.id)]: 'confirm' } });
    expect(noAck).toMatchObject({ ok: false, status: 400, errors: { acknowledged: ['debtors.errors.acknowledgementRequired'] } });
    const foreign = await submitDebtorAnswers({ token, fields: { acknowledged: 'on', 'answer_00000000-0000-4000-8000-000000000000': 'confirm' } });
    expect(foreign).toMatchObject({ ok: false, status: 400, errors: { form: ['debtors.errors.notOffered'] } });
    // Staff disputed an invoice while the page was open: the whole submit is refused.
    await openDispute({ actor: await staff('manager'), invoiceId: pending.id, input: { reason: 'Telefonom: reklamacija.' } });
    const after = await tableCounts();
    const stale = await submitDebtorAnswers({ token, fields: { acknowledged: 'on', [answerField(pending.id)]: 'confirm' } });
    expect(stale).toMatchObject({ ok: false, status: 400 });
    expect(await tableCounts()).toEqual(after);
    expect(after).toMatchObject({ answers: before.answers, spent: before.spent, disputes: before.disputes + 1 });
    expect((await linkState(token)).state).toBe('open');
  });

  it('answers two submits at once with one success and one refusal', async () => {
    const { financed, token } = await pairWithLink();
    const fields = { acknowledged: 'on', [answerField(financed!.id)]: 'confirm' };
    const results = await Promise.all([submitDebtorAnswers({ token, fields, ip: '198.51.100.1' }), submitDebtorAnswers({ token, fields, ip: '198.51.100.2' })]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.find((result) => !result.ok)).toMatchObject({ ok: false, status: 410 });
    expect(await selectRows(`SELECT 1 FROM debtor_answers WHERE invoice_id = :id`, { id: financed!.id })).toHaveLength(1);
  });

  it('expires, can be revoked, and a resend gives a new link and revokes the old one', async () => {
    const { b, debtor, token, link } = await pairWithLink();
    const resent = await resendDebtorLink({ actor: b.manager, id: link.id, ip: '10.0.0.5' });
    expect(resent).toMatchObject({ status: 'open', replacesId: link.id, clientName: 'Klijent Link d.o.o.' });
    expect((await linkState(token)).state).toBe('revoked');
    const fresh = await tokenOfLog(resent.emailLogId!);
    expect((await linkState(fresh)).state).toBe('open');
    expect(await noticeFileByToken(token)).toEqual({ ok: false, status: 410 });

    await execute(`UPDATE debtor_links SET expires_at = now() - interval '1 second' WHERE id = :id`, { id: resent.id });
    expect(await linkState(fresh)).toEqual({ state: 'expired' });
    expect((await apiFailure(revokeDebtorLink({ actor: b.manager, id: resent.id }))).status).toBe(409);
    const before = await tableCounts();
    expect(await submitDebtorAnswers({ token: fresh, fields: { acknowledged: 'on' } })).toMatchObject({ ok: false, status: 410 });
    expect(await tableCounts()).toEqual(before);

    const third = await resendDebtorLink({ actor: b.manager, id: resent.id });
    const revoked = await revokeDebtorLink({ actor: b.manager, id: third.id, ip: '10.0.0.6' });
    expect(revoked).toMatchObject({ status: 'revoked', revokedBy: expect.any(String) });
    expect((await linkState(await tokenOfLog(third.emailLogId!))).state).toBe('revoked');
    expect(await linkState('not-a-token')).toEqual({ state: 'unknown' });

    const { links, total } = await listDebtorLinks(debtor.id, { limit: 2, offset: 0 });
    expect(total).toBe(3);
    expect(links.map((row) => row.status)).toEqual(['revoked', 'expired']);
    expect((await apiFailure(resendDebtorLink({ actor: b.user, id: third.id }))).status).toBe(403);
  });
});

describe('confirmation requests and the agreement that requires them', () => {
  it('refuses verification until the debtor confirms, then verifies', async () => {
    const { b, pending, token } = await pairWithLink({ requiresConfirmation: true });
    const refusal = await apiFailure(verifyInvoice({ actor: b.manager, id: pending.id }));
    expect(refusal.status).toBe(409);
    expect(refusal.body.message).toMatch(/^Invoice P-2 cannot be verified until the debtor confirms it/);
    expect(await submitDebtorAnswers({ token, fields: { acknowledged: 'on', [answerField(pending.id)]: 'confirm' } })).toEqual({ ok: true });
    expect(await verifyInvoice({ actor: b.manager, id: pending.id })).toMatchObject({ status: 'verified' });
  });

  it('is refused for an undisclosed agreement, a debtor without email or without open invoices, and writes nothing', async () => {
    const manager = await staff('manager');
    const silent = await financeableClient({ agreement: { disclosed: false } });
    const debtor = await insertCustomer({ email: 'q@duznik.hr' });
    await newInvoice(await staff('user'), silent.id, debtor.id);
    expect(await apiFailure(requestDebtorConfirmation({ actor: manager, input: { clientId: silent.id, customerId: debtor.id } }))).toMatchObject({ status: 409 });
    const open = await financeableClient();
    const noMail = await insertCustomer({ email: null });
    await newInvoice(await staff('user'), open.id, noMail.id);
    expect((await apiFailure(requestDebtorConfirmation({ actor: manager, input: { clientId: open.id, customerId: noMail.id } }))).body.message).toMatch(/has no email address$/);
    const idle = await insertCustomer({ email: 'idle@duznik.hr' });
    expect((await apiFailure(requestDebtorConfirmation({ actor: manager, input: { clientId: open.id, customerId: idle.id } }))).status).toBe(409);
    for (const customer of [debtor, noMail, idle]) {
      expect(await noticesOf(customer.id)).toEqual([]);
      expect(await selectRows(`SELECT 1 FROM documents WHERE entity_id = :id`, { id: customer.id })).toEqual([]);
    }
    await expect(createAgreement(open.id, { disclosed: false, requiresDebtorConfirmation: true })).rejects.toThrow(/agreements_confirmation_disclosed/);
  });

  it('staff open a dispute on the debtor’s behalf once: a second is 409, and the invoice cannot be financed', async () => {
    const b = await book();
    const client = await financeableClient();
    const debtor = await insertCustomer();
    const invoice = await newInvoice(b.user, client.id, debtor.id);
    await verifyInvoice({ actor: b.manager, id: invoice.id });
    await approveInvoice({ actor: b.manager2, id: invoice.id });
    const dispute = await openDispute({ actor: b.manager, invoiceId: invoice.id, input: { reason: 'Kupac javlja manjak robe.' }, ip: '10.0.0.7' });
    expect(dispute).toMatchObject({ source: 'staff', reason: 'Kupac javlja manjak robe.', openedBy: expect.any(String), openedIp: '10.0.0.7' });
    const [first, second] = await Promise.all([
      apiFailure(openDispute({ actor: b.manager, invoiceId: invoice.id, input: { reason: 'Opet.' } })),
      apiFailure(openDispute({ actor: b.manager2, invoiceId: invoice.id, input: { reason: 'Opet.' } })),
    ]);
    expect([first.status, second.status]).toEqual([409, 409]);
    expect(await selectRows(`SELECT 1 FROM invoice_disputes WHERE invoice_id = :id`, { id: invoice.id })).toHaveLength(1);
    const refusal = await apiFailure(financeInvoice({ actor: b.manager, id: invoice.id }));
    expect(refusal).toMatchObject({ status: 409, body: { message: 'Invoice ' + invoice.invoiceNumber + ' is disputed by the debtor: Kupac javlja manjak robe.' } });
    expect((await apiFailure(openDispute({ actor: b.user, invoiceId: invoice.id, input: { reason: 'x' } }))).status).toBe(403);
    expect((await apiFailure(openDispute({ actor: b.manager, invoiceId: invoice.id, input: { reason: '' } }))).status).toBe(400);
  });
});
