import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeQuotedPrintable, mailParts, startTestSmtp, type ReceivedMail, type TestSmtp } from '../../tests/support/smtp.ts';
import { stopSender } from '../jobs/boss.server.ts';
import { apiFailure, getRequest, jsonRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { sendWelcomeEmail } from '../workflows/handlers/parties.server.ts';
import { resetEnvCache } from '../env.server.ts';
import { verifyInvoice } from '../invoices/invoice-decisions.server.ts';
import { loader as clickLoader } from '../routes/email.click.$token.$index.ts';
import { loader as openLoader } from '../routes/email.open.$token.ts';
import { action as previewAction } from '../routes/api.email.templates.preview.ts';
import { action as templatesAction, loader as templatesLoader } from '../routes/api.email.templates.ts';
import { action as templateUpdateAction } from '../routes/api.email.templates.$id.ts';
import { loader as campaignsLoader } from '../routes/api.email.campaigns.ts';
import { createCampaign, fanOutCampaign, getCampaign } from './campaigns.server.ts';
import { emailSummary } from './logs.server.ts';
import { resetMailer } from './mailer.server.ts';
import { renderEmail, validateTemplate } from './render.server.ts';
import { processEmailJob, queueEmail, sendDebtorEmail } from './send.server.ts';
import { storeDocument } from '../documents/documents.server.ts';
import { sendPaymentReminders } from './triggers.server.ts';
import { createTemplate } from './templates.server.ts';
import { createTestUser, insertClient, insertCustomer } from '../../tests/factories.ts';
import { REFERENCE_TEMPLATES } from '../../db/reference-data.ts';

let smtp: TestSmtp;
let received: ReceivedMail[];

beforeAll(async () => {
  smtp = await startTestSmtp();
  received = smtp.received;
  process.env.SMTP_URL = smtp.url;
  process.env.APP_URL = 'http://finflow.test';
  resetEnvCache();
  resetMailer();
});

afterAll(async () => {
  resetMailer();
  await stopSender();
  await smtp.close();
  delete process.env.SMTP_URL;
  resetEnvCache();
});

const manager = async () => {
  const user = await createTestUser({ role: 'manager' });
  return { actor: { id: user.id as string, role: 'manager' as const }, cookie: await signedInCookie(user.id) };
};

async function runQueued(campaignId: string) {
  const logs = await selectRows<{ id: string }>(`SELECT id FROM email_logs WHERE campaign_id = :campaignId AND status = 'queued'`, { campaignId });
  return logs;
}

describe('rendering', () => {
  it('escapes HTML in a value and in the template, and keeps line breaks', () => {
    const email = renderEmail(
      { subject: 'Faktura {{invoice_number}}', body: 'Poštovani {{client_name}},\n<b>iznos</b>: {{amount}}' },
      {
        client_name: '<script>alert(1)</script>',
        invoice_number: 'R-1',
        amount: '1234.5',
      },
    );
    expect(email.subject).toBe('Faktura R-1');
    expect(email.html).not.toContain('<script>alert(1)</script>');
    expect(email.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(email.html).toContain('&lt;b&gt;iznos&lt;/b&gt;');
    expect(email.html).toMatch(/Poštovani &lt;script&gt;alert\(1\)&lt;\/script&gt;,<br \/>/);
    expect(email.text).toMatch(/1\.234,50\s€/);
    expect(email.html).toContain('FinFlow');
  });

  it('refuses unknown variables, helpers and syntax errors with the line', () => {
    expect(validateTemplate({ subject: 'ok', body: 'a\nb {{unknown}}' })).toEqual([
      expect.objectContaining({ field: 'body', line: 2, message: expect.stringContaining('unknown variable {{unknown}}') }),
    ]);
    expect(validateTemplate({ subject: 'ok', body: 'a\n\n{{#if amount}}x{{/if}}' })[0]).toMatchObject({ line: 3, message: expect.stringContaining('blocks are not allowed') });
    expect(validateTemplate({ subject: 'ok', body: 'line one\n{{client_name' })[0]).toMatchObject({ field: 'body', line: 2, message: expect.stringContaining('syntax error') });
    expect(validateTemplate({ subject: '{{{amount}}}', body: 'x' })[0]).toMatchObject({ field: 'subject', line: 1 });
    expect(validateTemplate({ subject: 'Hi {{company_name}}', body: '{{client_name}} {{invoice_number}} {{amount}}' })).toEqual([]);
  });
});

describe('templates API', () => {
  it('creates and lists, refuses invalid content on save with the line, and previews', async () => {
    const { cookie } = await manager();
    // Other tests of this file create templates too: count what this one adds, whatever ran before.
    const countTemplates = async () =>
      Number((await templatesLoader({ request: getRequest('/api/email/templates', cookie), params: {}, context: {} })).headers.get('X-Total-Count'));
    const before = await countTemplates();
    const created = await templatesAction({
      request: jsonRequest('/api/email/templates', { name: 'Opći', subject: 'Pozdrav {{client_name}}', body: 'Tekst' }, cookie),
      params: {},
      context: {},
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ name: 'Opći', trigger: 'manual', isActive: true, usageCount: 0 });

    const unknown = await apiFailure(
      templatesAction({ request: jsonRequest('/api/email/templates', { name: 'X', subject: 'S', body: 'Red 1\n{{iban}}' }, cookie), params: {}, context: {} }),
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors?.body?.[0]).toMatch(/^Line 2: unknown variable \{\{iban\}\}/);
    const syntax = await apiFailure(
      templatesAction({ request: jsonRequest('/api/email/templates', { name: 'X', subject: 'S {{amount', body: 'b' }, cookie), params: {}, context: {} }),
    );
    expect(syntax.status).toBe(400);
    expect(syntax.body.errors?.subject?.[0]).toMatch(/^Line 1: template syntax error/);

    // The two refused templates were not stored.
    expect(await countTemplates()).toBe(before + 1);

    const preview = await previewAction({
      request: jsonRequest('/api/email/templates/preview', { subject: 'Za {{company_name}}', body: 'Iznos {{amount}}\n<i>x</i>' }, cookie),
      params: {},
      context: {},
    });
    const body = (await preview.json()) as { subject: string; html: string; text: string };
    expect(body.subject).toBe('Za Primjer d.o.o.');
    expect(body.html).toMatch(/Iznos 12\.500,00\s€<br \/>/);
    expect(body.html).toContain('&lt;i&gt;x&lt;/i&gt;');
    expect(body.text).toMatch(/Iznos 12\.500,00\s€/);
  });

  it('keeps one active template per event trigger (a new active one takes over) and toggles', async () => {
    const { actor, cookie } = await manager();
    const first = await createTemplate({ actor, input: { name: 'Due A', trigger: 'payment_due', subject: 'S', body: 'B' } });
    const second = await createTemplate({ actor, input: { name: 'Due B', trigger: 'payment_due', subject: 'S', body: 'B' } });
    expect(second.deactivatedTemplate).toEqual({ id: first.id, name: 'Due A' });
    const again = await templateUpdateAction({
      request: jsonRequest(`/api/email/templates/${first.id}`, { isActive: true }, cookie, 'PUT'),
      params: { id: first.id },
      context: {},
    });
    expect(await again.json()).toMatchObject({ isActive: true, deactivatedTemplate: { id: second.id, name: 'Due B' } });
    const off = await templateUpdateAction({ request: jsonRequest(`/api/email/templates/${first.id}`, { isActive: false }, cookie, 'PUT'), params: { id: first.id }, context: {} });
    expect(await off.json()).toMatchObject({ isActive: false });
    const user = await createTestUser({ role: 'user' });
    const forbidden = await apiFailure(
      templateUpdateAction({
        request: jsonRequest(`/api/email/templates/${first.id}`, { isActive: true }, await signedInCookie(user.id), 'PUT'),
        params: { id: first.id },
        context: {},
      }),
    );
    expect(forbidden.status).toBe(403);
  });
});

describe('campaign over real SMTP', () => {
  it('reaches N active clients exactly once each, also after a crash and resume, with tracking', async () => {
    const N = 25;
    // The campaign goes to every active client and the summary counts every email: those of the file's
    // other tests, in whatever order they ran, are not this test's.
    await execute(`UPDATE clients SET status = 'inactive' WHERE status = 'active'; DELETE FROM email_logs;`);
    const { actor, cookie } = await manager();
    const emails: string[] = [];
    for (let i = 0; i < N; i++) {
      const email = `Prima${i}@Example.hr`;
      emails.push(email.toLowerCase());
      await insertClient({ email, name: i === 0 ? '<script>x</script> d.o.o.' : `Tvrtka ${i} d.o.o.` });
    }
    await insertClient({ status: 'inactive', email: 'neaktivan@example.hr' });
    await insertClient({ email: null });
    const template = await createTemplate({
      actor,
      input: { name: 'Novosti', subject: 'Novosti za {{company_name}}', body: 'Poštovani {{client_name}},\nviše na https://finflow.hr/novosti.' },
    });
    const campaign = await createCampaign({ actor, input: { name: 'Studeni', templateId: template.id } });
    expect(campaign).toMatchObject({ status: 'draft', recipients: 'active_clients', sentCount: 0 });

    received.length = 0;
    const first = await fanOutCampaign(campaign.id);
    expect(first).toMatchObject({ added: N, queued: N, status: 'sending' });
    const logs = await runQueued(campaign.id);
    // The worker sends half, then "crashes".
    for (const log of logs.slice(0, 10)) await processEmailJob({ logId: log.id });
    expect(received).toHaveLength(10);

    // Resume: the fan-out runs again (adds nobody), and every job is delivered twice, some concurrently.
    const again = await fanOutCampaign(campaign.id);
    expect(again).toMatchObject({ added: 0, queued: N - 10 });
    const all = await selectRows<{ id: string }>('SELECT id FROM email_logs WHERE campaign_id = :id', { id: campaign.id });
    await Promise.all([...all, ...all].map((log) => processEmailJob({ logId: log.id })));
    await Promise.all(all.map((log) => processEmailJob({ logId: log.id })));

    expect(received).toHaveLength(N);
    expect(new Set(received.map((mail) => mail.to)).size).toBe(N);
    expect(received.map((mail) => mail.to).sort()).toEqual([...emails].sort());
    const { text: textPart, html: htmlPart } = mailParts(received.find((mail) => mail.to === 'prima0@example.hr')!.raw);
    expect(textPart).toContain('Poštovani <script>x</script> d.o.o.,');
    expect(htmlPart).toContain('Poštovani &lt;script&gt;x&lt;/script&gt; d.o.o.,<br />');
    expect(htmlPart).not.toContain('<script>x</script>');
    expect(htmlPart).toContain('http://finflow.test/email/open/');
    expect(htmlPart).toMatch(/<a href="http:\/\/finflow\.test\/email\/click\/[0-9a-f]+\/0"/);

    const done = (await getCampaign(campaign.id))!;
    expect(done).toMatchObject({ status: 'completed', sentCount: N, openCount: 0, clickCount: 0 });
    expect((await selectOne<{ usage_count: number }>('SELECT usage_count FROM email_templates WHERE id = :id', { id: template.id }))!.usage_count).toBe(N);

    // Tracking: the pixel and the one link of the body; an unknown index is 404 (no open redirect).
    const log = (await selectOne<{ tracking_token: string }>(`SELECT tracking_token FROM email_logs WHERE campaign_id = :id AND recipient = 'prima1@example.hr'`, {
      id: campaign.id,
    }))!;
    const pixel = await openLoader({ request: getRequest(`/email/open/${log.tracking_token}.gif`), params: { token: `${log.tracking_token}.gif` }, context: {} });
    expect(pixel.headers.get('Content-Type')).toBe('image/gif');
    const click = await clickLoader({ request: getRequest(`/email/click/${log.tracking_token}/0`), params: { token: log.tracking_token, index: '0' }, context: {} });
    expect(click.status).toBe(302);
    expect(click.headers.get('Location')).toBe('https://finflow.hr/novosti');
    const missing = await clickLoader({ request: getRequest(`/email/click/${log.tracking_token}/1`), params: { token: log.tracking_token, index: '1' }, context: {} });
    expect(missing.status).toBe(404);
    const stranger = await clickLoader({ request: getRequest('/email/click/abcdefabcdefabcdef/0'), params: { token: 'abcdefabcdefabcdef', index: '0' }, context: {} });
    expect(stranger.status).toBe(404);

    const row = (await selectOne<{ status: string; opened_at: Date | null; clicked_at: Date | null }>(
      `SELECT status, opened_at, clicked_at FROM email_logs WHERE tracking_token = :t`,
      { t: log.tracking_token },
    ))!;
    expect(row.status).toBe('clicked');
    expect(row.opened_at).not.toBeNull();
    expect(row.clicked_at).not.toBeNull();
    const listed = (await (await campaignsLoader({ request: getRequest('/api/email/campaigns', cookie), params: {}, context: {} })).json()) as {
      id: string;
      openCount: number;
      clickCount: number;
      sentCount: number;
    }[];
    expect(listed.find((item) => item.id === campaign.id)).toMatchObject({ sentCount: N, openCount: 1, clickCount: 1 });
    const summary = await emailSummary();
    expect(summary).toMatchObject({ totalSent: N, opened: 1, clicked: 1, openedPercent: 4, clickedPercent: 4 });
  });

  it('records a failed send and marks it failed on the last attempt', async () => {
    const { actor } = await manager();
    await insertClient({ email: 'neuspjeh@example.hr', name: 'Jedini d.o.o.' });
    const template = await createTemplate({ actor, input: { name: 'Jedan', subject: 'S', body: 'B' } });
    const { id: clientId } = await insertClient({ email: 'ciljani@example.hr' });
    const campaign = await createCampaign({ actor, input: { name: 'Ciljana', templateId: template.id, recipients: 'specific_clients', clientIds: [clientId] } });
    await fanOutCampaign(campaign.id);
    const [log] = await runQueued(campaign.id);
    process.env.SMTP_URL = 'smtp://127.0.0.1:1';
    resetEnvCache();
    resetMailer();
    try {
      await expect(processEmailJob({ logId: log.id }, { retryCount: 0, retryLimit: 1 })).rejects.toThrow();
      expect(await selectOne('SELECT status, attempts FROM email_logs WHERE id = :id', { id: log.id })).toMatchObject({ status: 'queued', attempts: 1 });
      expect(await processEmailJob({ logId: log.id }, { retryCount: 1, retryLimit: 1 })).toBe('failed');
      const failed = (await selectOne<{ status: string; attempts: number; error_message: string }>('SELECT status, attempts, error_message FROM email_logs WHERE id = :id', {
        id: log.id,
      }))!;
      expect(failed).toMatchObject({ status: 'failed', attempts: 2 });
      expect(failed.error_message).toBeTruthy();
      expect((await getCampaign(campaign.id))!.status).toBe('failed');
    } finally {
      process.env.SMTP_URL = smtp.url;
      resetEnvCache();
      resetMailer();
    }
  });
});

describe('mail to a debtor with attachments', () => {
  it('names the debtor and the invoice, sends the stored files in order, and refuses a file that is not the one recorded', async () => {
    const { actor } = await manager();
    const { id: clientId } = await insertClient({ email: 'prodavatelj@example.hr' });
    const { id: customerId } = await insertCustomer({ email: 'duznik@example.hr' });
    const template = await createTemplate({ actor, input: { name: 'Obavijest', subject: 'Obavijest {{company_name}}', body: 'Poštovani,\nu privitku.' } });
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    const first = await storeDocument({ actor, bytes: pdf, fileName: 'obavijest.pdf', name: 'obavijest.pdf', type: 'contract', entityType: 'customer', entityId: customerId });
    const second = await storeDocument({
      actor,
      bytes: Buffer.concat([pdf, Buffer.from('% uplatnica\n')]),
      fileName: 'uplatnica.pdf',
      name: 'uplatnica.pdf',
      type: 'contract',
      entityType: 'customer',
      entityId: customerId,
    });
    const logId = (await inTransaction((transaction) =>
      queueEmail({ template, recipient: 'Duznik@Example.hr', clientId, customerId, attachments: [first.id, second.id], variables: { company_name: 'Dužnik d.o.o.' } }, transaction),
    ))!;
    expect(await selectOne('SELECT customer_id, client_id, recipient FROM email_logs WHERE id = :id', { id: logId })).toEqual({
      customer_id: customerId,
      client_id: clientId,
      recipient: 'duznik@example.hr',
    });
    received.length = 0;
    expect(await processEmailJob({ logId })).toBe('sent');
    expect(received).toHaveLength(1);
    const raw = received[0].raw;
    expect(raw.indexOf('filename=obavijest.pdf')).toBeGreaterThan(0);
    expect(raw.indexOf('filename=uplatnica.pdf')).toBeGreaterThan(raw.indexOf('filename=obavijest.pdf'));
    expect(raw).toContain(pdf.toString('base64').slice(0, 40));

    // The recorded checksum no longer matches the stored bytes: the message is not sent, the error is kept.
    const tampered = (await inTransaction((transaction) =>
      queueEmail({ template, recipient: 'duznik@example.hr', customerId, attachments: [first.id], variables: {} }, transaction),
    ))!;
    await execute(`UPDATE documents SET checksum = repeat('0', 64) WHERE id = :id`, { id: first.id });
    received.length = 0;
    expect(await processEmailJob({ logId: tampered }, { retryCount: 1, retryLimit: 1 })).toBe('failed');
    expect(received).toHaveLength(0);
    expect(await selectOne('SELECT status, error_message FROM email_logs WHERE id = :id', { id: tampered })).toEqual({
      status: 'failed',
      error_message: 'Attachment obavijest.pdf does not match its checksum',
    });
  });
});

describe("the debtor's events", () => {
  it("queue the active template to the debtor with the factor's and the debtor's names, and skip a debtor without an address", async () => {
    const { actor } = await manager();
    const reference = REFERENCE_TEMPLATES.find((template) => template.trigger === 'dunning_2')!;
    await createTemplate({ actor, input: { name: reference.name, trigger: 'dunning_2', subject: reference.subject, body: reference.body, isActive: true } });
    const { id: clientId } = await insertClient({ email: 'prodavatelj2@example.hr' });
    const { id: customerId } = await insertCustomer({ email: 'Kupac.Dva@Example.hr', name: 'Kupac Dva d.d.' });
    const { id: silentId } = await insertCustomer({ email: null });
    const outcome = await inTransaction((transaction) =>
      sendDebtorEmail('dunning_2', { customerId, clientId, variables: { invoice_number: 'R-77', payment_reference: 'HR00 2026-7-000077' } }, transaction),
    );
    expect(outcome).toMatchObject({ queued: true, to: 'kupac.dva@example.hr' });
    const log = (await selectOne<{ subject: string; customer_id: string }>('SELECT subject, customer_id FROM email_logs WHERE id = :id', {
      id: (outcome as { logId: string }).logId,
    }))!;
    expect(log).toEqual({ subject: 'Faktura R-77 dospijeva danas', customer_id: customerId });
    const logId = (outcome as { logId: string }).logId;
    await expect.poll(async () => (await selectRows(`SELECT 1 FROM pgboss.job WHERE name = 'email-send' AND singleton_key = :id`, { id: logId })).length).toBe(1);
    const job = (await selectOne<{ data: { logId: string; variables: Record<string, string> } }>(`SELECT data FROM pgboss.job WHERE name = 'email-send' AND singleton_key = :id`, {
      id: logId,
    }))!;
    received.length = 0;
    expect(await processEmailJob(job.data)).toBe('sent');
    const { text } = mailParts(received[0].raw);
    expect(text).toContain('Poštovani Kupac Dva d.d.,');
    expect(text).toContain('Model i poziv na broj: HR00 2026-7-000077');
    expect(text).toContain('FinFlow Faktoring d.o.o.');
    expect(await inTransaction((transaction) => sendDebtorEmail('dunning_2', { customerId: silentId, variables: {} }, transaction))).toEqual({
      queued: false,
      reason: 'no_recipient',
    });
  });
});

describe('invoice_verified trigger', () => {
  it('verifying an invoice queues the active template to the client and the worker sends it', async () => {
    const { actor } = await manager();
    const { id: clientId } = await insertClient({ email: 'Racuni@Klijent.hr', name: 'Klijent Verif d.o.o.' });
    const customer = await insertCustomer({ name: 'Kupac d.o.o.' });
    const { rows: invoices } = await execute<{ id: string }>(
      `INSERT INTO invoices (client_id, customer_id, invoice_number, amount, issue_date, due_date) VALUES (:clientId, :customerId, 'R-77/1', 1500.5, current_date, current_date + 30) RETURNING id`,
      { clientId, customerId: customer.id },
    );
    await createTemplate({
      actor,
      input: { name: 'Verificirana', trigger: 'invoice_verified', subject: 'Faktura {{invoice_number}} verificirana', body: 'Iznos {{amount}} za {{company_name}}.' },
    });
    await verifyInvoice({ actor, id: invoices[0].id });

    const log = (await selectOne<{ id: string; recipient: string; subject: string; status: string }>(
      'SELECT id, recipient, subject, status FROM email_logs WHERE client_id = :clientId',
      { clientId },
    ))!;
    expect(log).toMatchObject({ recipient: 'racuni@klijent.hr', subject: 'Faktura R-77/1 verificirana', status: 'queued' });
    // The job was sent after the commit.
    await expect.poll(async () => (await selectRows(`SELECT 1 FROM pgboss.job WHERE name = 'email-send' AND singleton_key = :id`, { id: log.id })).length).toBe(1);
    const job = (await selectOne<{ data: { logId: string; variables: Record<string, string> } }>(`SELECT data FROM pgboss.job WHERE name = 'email-send' AND singleton_key = :id`, {
      id: log.id,
    }))!;

    received.length = 0;
    expect(await processEmailJob(job.data)).toBe('sent');
    expect(received).toHaveLength(1);
    expect(received[0].to).toBe('racuni@klijent.hr');
    expect(decodeQuotedPrintable(received[0].raw)).toMatch(/Iznos 1\.500,50\s€ za Klijent Verif d\.o\.o\./);
  });

  it('sends nothing without an active template', async () => {
    const { actor } = await manager();
    await execute(`UPDATE email_templates SET is_active = false WHERE trigger = 'invoice_verified'`);
    const { id: clientId } = await insertClient({ email: 'bez@predloska.hr' });
    const customer = await insertCustomer({ name: 'Kupac 2 d.o.o.' });
    const { rows: invoices } = await execute<{ id: string }>(
      `INSERT INTO invoices (client_id, customer_id, invoice_number, amount, issue_date, due_date) VALUES (:clientId, :customerId, 'R-78/1', 100, current_date, current_date + 30) RETURNING id`,
      { clientId, customerId: customer.id },
    );
    await verifyInvoice({ actor, id: invoices[0].id });
    expect(await selectRows('SELECT 1 FROM email_logs WHERE client_id = :clientId', { clientId })).toHaveLength(0);
  });
});

describe('payment reminders and scheduled campaigns', () => {
  it('queues payment_due 3 days before and payment_overdue the day after, once per invoice', async () => {
    const { actor } = await manager();
    const { id: clientId } = await insertClient({ email: 'podsjetnik@klijent.hr' });
    const customer = await insertCustomer({ name: 'Kupac 3 d.o.o.' });
    const insert = (number: string, dueOffset: number) =>
      execute(
        `INSERT INTO invoices (client_id, customer_id, invoice_number, amount, issue_date, due_date, status, factor_amount, factor_fee, financed_at)
         VALUES (:clientId, :customerId, :number, 200, current_date - 40, (now() AT TIME ZONE 'Europe/Zagreb')::date + CAST(:offset AS int), 'financed', 160, 3, now())`,
        { clientId, customerId: customer.id, number, offset: dueOffset },
      );
    await insert('D-3', 3);
    await insert('O-1', -1);
    await insert('F-20', 20);
    // Without templates nothing is sent and nothing is marked, so a template switched on later still applies.
    expect(await sendPaymentReminders()).toEqual({ due: 0, overdue: 0 });
    await createTemplate({ actor, input: { name: 'Dospijeće', trigger: 'payment_due', subject: 'Dospijeće {{invoice_number}}', body: 'Iznos {{amount}}' } });
    await createTemplate({ actor, input: { name: 'Kašnjenje', trigger: 'payment_overdue', subject: 'Kašnjenje {{invoice_number}}', body: 'Iznos {{amount}}' } });
    expect(await sendPaymentReminders()).toEqual({ due: 1, overdue: 1 });
    expect(await sendPaymentReminders()).toEqual({ due: 0, overdue: 0 });
    const subjects = (await selectRows<{ subject: string }>('SELECT subject FROM email_logs WHERE client_id = :clientId ORDER BY subject', { clientId })).map((row) => row.subject);
    expect(subjects).toEqual(['Dospijeće D-3', 'Kašnjenje O-1']);
  });

  it('a campaign with a future scheduledAt waits as active, its fan-out job starting then', async () => {
    const { actor } = await manager();
    const template = await createTemplate({ actor, input: { name: 'Zakazani', subject: 'S', body: 'B' } });
    const campaign = await createCampaign({ actor, input: { name: 'Kasnije', templateId: template.id, scheduledAt: '2099-01-15T09:30' } });
    expect(campaign).toMatchObject({ status: 'active', scheduledAt: '2099-01-15T08:30:00.000Z' });
    await expect
      .poll(async () =>
        (
          await selectOne<{ start_after: Date }>(`SELECT start_after FROM pgboss.job WHERE name = 'email-campaign' AND singleton_key = :id`, { id: campaign.id })
        )?.start_after.toISOString(),
      )
      .toBe('2099-01-15T08:30:00.000Z');
    const inactive = await createTemplate({ actor, input: { name: 'Ugašeni', subject: 'S', body: 'B', isActive: false } });
    const refused = await apiFailure(createCampaign({ actor, input: { name: 'Ne', templateId: inactive.id } }));
    expect(refused.status).toBe(409);
  });
});

describe('client_onboarding trigger', () => {
  it("the onboarding workflow's welcome step queues the active client_onboarding template instead of the system mail", async () => {
    const { actor } = await manager();
    const { id: clientId } = await insertClient({ email: 'dobrodosli@klijent.hr', name: 'Novi d.o.o.' });
    await createTemplate({ actor, input: { name: 'Dobrodošlica', trigger: 'client_onboarding', subject: 'Dobrodošli, {{company_name}}', body: 'Pozdrav {{client_name}}' } });
    const run = (dryRun: boolean) =>
      inTransaction((transaction) =>
        sendWelcomeEmail({
          instance: { id: '00000000-0000-4000-8000-000000000001', workflowType: 'client_onboarding', entityType: 'client', entityId: clientId, context: {} },
          step: { name: 'E-mail dobrodošlice', type: 'automated', handler: 'sendWelcomeEmail' },
          stepIndex: 0,
          transaction,
          dryRun,
        }),
      );
    expect(await run(true)).toMatchObject({ sent: false, summary: expect.stringContaining('would queue') });
    expect(await selectRows('SELECT 1 FROM email_logs WHERE client_id = :clientId', { clientId })).toHaveLength(0);
    expect(await run(false)).toMatchObject({ sent: true, to: 'dobrodosli@klijent.hr' });
    expect(await selectRows('SELECT subject FROM email_logs WHERE client_id = :clientId', { clientId })).toEqual([{ subject: 'Dobrodošli, Novi d.o.o.' }]);
  });
});
