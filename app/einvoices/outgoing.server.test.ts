import fs from 'node:fs';
import path from 'node:path';
import type PgBoss from 'pg-boss';
import { describe, expect, it, onTestFinished } from 'vitest';
import { handler as sendHandler } from '../../worker/jobs/einvoice-send.ts';
import { activityRows, apiFailure, getRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { ensureIntegrations } from '../integrations/core.server.ts';
import { documentIdOf, mailboxDir } from '../integrations/einvoicing.server.ts';
import { approveInvoice, verifyInvoice } from '../invoices/invoice-decisions.server.ts';
import { createInvoice } from '../invoices/invoice-create.server.ts';
import { financeInvoice } from '../invoices/financing.server.ts';
import { loader as listLoader } from '../routes/api.einvoices.ts';
import { action as sendAction } from '../routes/api.einvoices.$id.send.ts';
import { loader as ublLoader } from '../routes/api.einvoices.$id.ubl.ts';
import { validateEn16931 } from './en16931-rules.server.ts';
import { DEFAULT_FACTOR_OIB } from './factor-party.server.ts';
import { requeueStalledEInvoices, resendEInvoice, sendOutgoingEInvoice } from './outgoing-send.server.ts';
import { issueFeeEInvoice, issueFeeEInvoices, SEND_QUEUE } from './outgoing.server.ts';
import { parseUblInvoice } from './ubl-document.server.ts';
import { financeableClient, insertCustomer, newInvoiceNumber, newOib, staff, zagrebDay } from '../../tests/factories.ts';

/**
 * The fee e-invoice from financing to the intermediary, against a real
 * database: issued in the financing's transaction (or not at all), numbered
 * without gaps, with figures computed here independently; sent by the job
 * into the sandbox mailbox, failing and sent again; the API routes.
 */

// The client's name and the customer's carry characters XML must escape.
const insertEInvoiceClient = (creditLimit = '1000000.00') =>
  financeableClient({
    name: `Klijent & sinovi ${newOib()} d.o.o.`,
    email: 'racuni@klijent.hr',
    address: { address: 'Ilica 12', city: 'Zagreb', postalCode: '10000' },
    creditLimit,
  });

/** An invoice verified by one manager and approved by another, ready to finance. */
async function approvedInvoice(options: { clientId?: string; amount?: number; dueInDays?: number; creditLimit?: string } = {}) {
  const client = options.clientId ? { id: options.clientId } : await insertEInvoiceClient(options.creditLimit);
  const user = await staff('user');
  const invoice = await createInvoice({
    actor: user,
    input: {
      clientId: client.id,
      customerId: (await insertCustomer({ name: `Kupac <${newOib()}> d.d.` })).id,
      invoiceNumber: newInvoiceNumber(),
      issueDate: zagrebDay(-5),
      dueDate: zagrebDay(options.dueInDays ?? 45),
      // EUR, as the API takes it.
      amount: options.amount ?? 12_345.67,
      currency: 'EUR',
      description: 'Isporuka robe',
    },
  });
  await verifyInvoice({ actor: await staff('manager'), id: invoice.id });
  await approveInvoice({ actor: await staff('manager'), id: invoice.id });
  return { invoice, clientId: client.id };
}

const einvoiceOf = (invoiceId: string) =>
  selectOne<{
    id: string;
    number: string;
    year: number;
    sequence: number;
    net_amount: string;
    vat_amount: string;
    gross_amount: string;
    status: string;
    ubl_xml: string;
    ubl_sha256: string;
    document_id: string | null;
    error: string | null;
    attempts: number;
    issue_date: string;
    due_date: string;
    payment_reference: string;
  }>('SELECT * FROM outgoing_einvoices WHERE invoice_id = :invoiceId', { invoiceId });
const counter = async () =>
  (await selectOne<{ last_number: number }>('SELECT last_number FROM outgoing_einvoice_counters WHERE year = :year', { year: Number(zagrebDay().slice(0, 4)) }))?.last_number ?? 0;

/** Half-up rounding of an exact ratio, computed here without the code under test. */
const roundRatio = (numerator: bigint, denominator: bigint) => Number((numerator * 2n + denominator) / (2n * denominator));

async function queuedJob(einvoiceId: string) {
  return selectOne<{ id: string; state: string; retry_count: number; retry_limit: number }>(
    `SELECT id, state, retry_count, retry_limit FROM pgboss.job WHERE name = :queue AND data ->> 'einvoiceId' = :einvoiceId ORDER BY created_on DESC LIMIT 1`,
    {
      queue: SEND_QUEUE,
      einvoiceId,
    },
  );
}

describe('issuing on financing', () => {
  it('issues the fee e-invoice in the financing transaction: figures, UBL, activity, and its send job after commit', async () => {
    // 45 days to the due date: two started 30-day periods at 1.5 %.
    const { invoice, clientId } = await approvedInvoice({ amount: 12_345.67, dueInDays: 45 });
    const manager = await staff('manager');
    const before = await counter();
    const financed = await financeInvoice({ actor: manager, id: invoice.id });

    const fee = roundRatio(1_234_567n * 1500n * 2n, 100_000n);
    expect(Math.round(financed.factorFee! * 100)).toBe(fee);
    const vat = roundRatio(BigInt(fee) * 25n, 100n);
    const row = (await einvoiceOf(invoice.id))!;
    expect(row).toMatchObject({ sequence: before + 1, status: 'pending', attempts: 0, issue_date: zagrebDay(), due_date: zagrebDay(15) });
    expect(row.number).toBe(`FF-${zagrebDay().slice(0, 4)}-${String(before + 1).padStart(6, '0')}`);
    expect(row.payment_reference).toBe(`HR00 ${zagrebDay().slice(0, 4)}-${String(before + 1).padStart(6, '0')}`);
    expect([row.net_amount, row.vat_amount, row.gross_amount]).toEqual([(fee / 100).toFixed(2), (vat / 100).toFixed(2), ((fee + vat) / 100).toFixed(2)]);

    // The document says the same, conforms, and names the parties by OIB.
    expect(validateEn16931(row.ubl_xml)).toEqual([]);
    const read = parseUblInvoice(row.ubl_xml);
    const client = (await selectOne<{ oib: string; company_name: string }>('SELECT oib, company_name FROM clients WHERE id = :clientId', { clientId }))!;
    expect(read).toMatchObject({ invoiceNumber: row.number, issueDate: zagrebDay(), dueDate: zagrebDay(15), amount: fee + vat, totals: { lineExtension: fee, taxAmount: vat } });
    expect(read.seller.oib).toBe(DEFAULT_FACTOR_OIB);
    expect(read.buyer).toMatchObject({ oib: client.oib, name: client.company_name, vatId: `HR${client.oib}` });
    expect(read.lines).toHaveLength(1);
    expect(read.lines[0]).toMatchObject({ quantity: '1.0000', unitCode: 'C62', netAmount: fee, vatCategory: 'S', vatRate: '25.00', vatName: 'HR:PDV25', kpdCode: '64.92.07' });
    expect(read.lines[0].description).toContain(invoice.invoiceNumber);
    expect(read.paymentMeans[0]).toMatchObject({ code: '30', iban: 'HR7224020061100123456', model: 'HR00' });
    expect(read.sellerContact).toEqual({ oib: DEFAULT_FACTOR_OIB, name: 'Test User' });
    expect(row.ubl_sha256).toMatch(/^[0-9a-f]{64}$/);

    const [issued] = await activityRows('einvoice_issued', row.id);
    expect(issued).toMatchObject({ user_id: manager.id, details: { number: row.number, invoiceNumber: invoice.invoiceNumber, grossAmount: (fee + vat) / 100 } });
    const [financedEntry] = await activityRows('invoice_financed', invoice.id);
    expect(financedEntry.details).toMatchObject({ feeEInvoice: row.number });
    // Queued after the commit, for the worker.
    expect(await queuedJob(row.id)).toMatchObject({ state: 'created' });
  });

  it('issues nothing when the financing is refused, and gives the number back', async () => {
    const { invoice } = await approvedInvoice({ creditLimit: '10.00' });
    const before = await counter();
    expect((await apiFailure(financeInvoice({ actor: await staff('manager'), id: invoice.id }))).status).toBe(409);
    expect(await einvoiceOf(invoice.id)).toBeNull();
    expect(await counter()).toBe(before);

    // The next financing takes the next number: none was lost.
    const next = await approvedInvoice();
    await financeInvoice({ actor: await staff('manager'), id: next.invoice.id });
    expect((await einvoiceOf(next.invoice.id))!.sequence).toBe(before + 1);
  });

  it('does not finance when the e-invoice cannot be issued: one transaction', async () => {
    const { invoice, clientId } = await approvedInvoice();
    const year = Number(zagrebDay().slice(0, 4));
    const taken = (await counter()) + 1;
    // Another row already holds the number the counter will give next (as if written past the counter).
    const other = await approvedInvoice();
    const { rows: blocker } = await execute<{ id: string }>(
      `INSERT INTO outgoing_einvoices (number, year, sequence, invoice_id, client_id, issued_at, issue_date, due_date, net_amount, vat_rate, vat_amount, gross_amount,
                                       payment_reference, ubl_xml, ubl_sha256)
       VALUES (:number, :year, :taken, :otherInvoice, :otherClient, now(), CAST(:today AS date), CAST(:today AS date), 1, 25, 0.25, 1.25, 'HR00 1', '<Invoice/>', :sha)
       RETURNING id`,
      { number: `FF-${year}-${String(taken).padStart(6, '0')}`, year, taken, otherInvoice: other.invoice.id, otherClient: other.clientId, today: zagrebDay(), sha: 'c'.repeat(64) },
    );
    onTestFinished(async () => {
      await execute('DELETE FROM outgoing_einvoices WHERE id = :id', { id: blocker[0].id });
    });
    const usedBefore = (await selectOne<{ used_credit: string }>('SELECT used_credit FROM clients WHERE id = :clientId', { clientId }))!.used_credit;
    await expect(financeInvoice({ actor: await staff('manager'), id: invoice.id })).rejects.toThrow();
    expect(await selectOne<{ status: string }>('SELECT status FROM invoices WHERE id = :id', { id: invoice.id })).toEqual({ status: 'approved' });
    expect(await selectRows('SELECT id FROM payouts WHERE invoice_id = :id', { id: invoice.id })).toEqual([]);
    expect((await selectOne<{ used_credit: string }>('SELECT used_credit FROM clients WHERE id = :clientId', { clientId }))!.used_credit).toBe(usedBefore);
    expect(await einvoiceOf(invoice.id)).toBeNull();
    expect(await counter()).toBe(taken - 1);
    expect(await activityRows('invoice_financed', invoice.id)).toEqual([]);
  });

  it('issues once per invoice: a second call answers the existing one; an invoice not financed has no fee to invoice', async () => {
    const { invoice } = await approvedInvoice();
    await expect(inTransaction((transaction) => issueFeeEInvoice(invoice.id, transaction))).rejects.toMatchObject({ status: 409 });
    await financeInvoice({ actor: await staff('manager'), id: invoice.id });
    const row = (await einvoiceOf(invoice.id))!;
    const before = await counter();
    const again = await inTransaction((transaction) => issueFeeEInvoices([invoice.id], transaction));
    expect(again).toEqual([{ id: row.id, number: row.number, grossAmount: Number(row.gross_amount), created: false }]);
    expect(await counter()).toBe(before);
    expect(await activityRows('einvoice_issued', row.id)).toHaveLength(1);
  });

  it('numbers concurrent financings without gaps or doubles', async () => {
    const invoices = await Promise.all([approvedInvoice(), approvedInvoice(), approvedInvoice(), approvedInvoice()]);
    const before = await counter();
    const manager = await staff('manager');
    await Promise.all(invoices.map(({ invoice }) => financeInvoice({ actor: manager, id: invoice.id })));
    const sequences = (await Promise.all(invoices.map(({ invoice }) => einvoiceOf(invoice.id)))).map((row) => row!.sequence).sort((a, b) => a - b);
    expect(sequences).toEqual([before + 1, before + 2, before + 3, before + 4]);
    expect(await counter()).toBe(before + 4);
  });
});

describe('sending', () => {
  async function financedEInvoice() {
    const { invoice } = await approvedInvoice();
    await financeInvoice({ actor: await staff('manager'), id: invoice.id });
    return (await einvoiceOf(invoice.id))!;
  }
  const setEnabled = async (enabled: boolean) => {
    await ensureIntegrations();
    await execute(`UPDATE integrations SET is_enabled = :enabled WHERE type = 'einvoicing'`, { enabled });
  };
  const runJob = async (einvoiceId: string) => {
    const job = (await queuedJob(einvoiceId))!;
    // As the worker hands it over: the data and the job's metadata (this delivery's retry count and limit).
    return sendHandler([{ id: job.id, name: SEND_QUEUE, data: { einvoiceId }, retryCount: job.retry_count, retryLimit: job.retry_limit } as PgBoss.JobWithMetadata<unknown>]);
  };

  it('the job sends it into the sandbox mailbox once, and a second run does nothing', async () => {
    await setEnabled(true);
    const row = await financedEInvoice();
    await runJob(row.id);
    expect(await selectOne('SELECT status, document_id, attempts, error FROM outgoing_einvoices WHERE id = :id', { id: row.id })).toEqual({
      status: 'delivered',
      document_id: documentIdOf(row.ubl_xml),
      attempts: 1,
      error: null,
    });
    const file = path.join(mailboxDir('sent'), `${documentIdOf(row.ubl_xml)}.xml`);
    expect(fs.readFileSync(file, 'utf8')).toBe(row.ubl_xml);
    const mtime = fs.statSync(file).mtimeMs;

    // Idempotent: a repeated job finds it delivered and sends nothing.
    await runJob(row.id);
    expect(await sendOutgoingEInvoice(row.id)).toBe('skipped');
    expect(fs.statSync(file).mtimeMs).toBe(mtime);
    expect(await activityRows('einvoice_sent', row.id)).toEqual([
      expect.objectContaining({ user_id: null, details: expect.objectContaining({ number: row.number, status: 'delivered', attempt: 1 }) }),
    ]);
  });

  it('a document that breaks a rule is not sent: failed with the rule ids, an activity row, a task on the invoice; a resend checks again', async () => {
    await setEnabled(true);
    const row = await financedEInvoice();
    const invoiceId = (await selectOne<{ invoice_id: string }>('SELECT invoice_id FROM outgoing_einvoices WHERE id = :id', { id: row.id }))!.invoice_id;
    // A total with VAT tampered after issuing: BT-112 no longer adds up (BR-CO-15), nor does the amount due (BR-CO-16).
    const tampered = row.ubl_xml.replace(/(<cbc:TaxInclusiveAmount currencyID="EUR">)[^<]*</, '$11.00<');
    expect(tampered).not.toBe(row.ubl_xml);
    await execute('UPDATE outgoing_einvoices SET ubl_xml = :xml WHERE id = :id', { id: row.id, xml: tampered });
    const sendCalls = async () =>
      (await selectOne<{ n: number }>(
        `SELECT count(*)::int AS n FROM integration_logs l JOIN integrations i ON i.id = l.integration_id WHERE i.type = 'einvoicing' AND l.operation = 'sendDocument'`,
      ))!.n;
    const callsBefore = await sendCalls();

    await runJob(row.id);
    const failed = await selectOne<{ status: string; rule_failures: string[]; error: string; attempts: number; document_id: string | null }>(
      'SELECT status, rule_failures, error, attempts, document_id FROM outgoing_einvoices WHERE id = :id',
      { id: row.id },
    );
    expect(failed).toMatchObject({ status: 'failed', rule_failures: ['BR-CO-15', 'BR-CO-16'], attempts: 0, document_id: null });
    expect(failed!.error).toMatch(/^BR-CO-15: TaxInclusiveAmount \(BT-112\) 1\.00 ≠ /);
    // Not sent: no call of the intermediary, nothing in its mailbox.
    expect(await sendCalls()).toBe(callsBefore);
    expect(fs.existsSync(path.join(mailboxDir('sent'), `${documentIdOf(tampered)}.xml`))).toBe(false);
    expect(await activityRows('einvoice_rules_failed', row.id)).toEqual([
      expect.objectContaining({ user_id: null, details: expect.objectContaining({ number: row.number, rules: ['BR-CO-15', 'BR-CO-16'] }) }),
    ]);
    const tasks = await selectRows<{ type: string; status: string; priority: string; title: string; entity_type: string }>(
      `SELECT type, status, priority, title, entity_type FROM tasks WHERE entity_id = :invoiceId AND type = 'manual_review' AND title LIKE :title`,
      { invoiceId, title: `E-račun ${row.number}%` },
    );
    expect(tasks).toEqual([
      { type: 'manual_review', status: 'pending', priority: 'high', title: `E-račun ${row.number} nije poslan: krši pravila BR-CO-15, BR-CO-16`, entity_type: 'invoice' },
    ]);
    // The list (page and API) carries the ids.
    const listed = await listLoader({ request: getRequest(`/api/einvoices?q=${row.number}`, await signedInCookie((await staff('user')).id)), params: {}, context: {} });
    expect(await listed.json()).toEqual([expect.objectContaining({ number: row.number, status: 'failed', ruleFailures: ['BR-CO-15', 'BR-CO-16'] })]);

    // Sent again by a manager: pending without the ids, and the check refuses it once more.
    const resent = await resendEInvoice({ actor: await staff('manager'), id: row.id });
    expect(resent).toMatchObject({ status: 'pending', error: null, ruleFailures: null });
    await runJob(row.id);
    expect(await selectOne('SELECT status, rule_failures FROM outgoing_einvoices WHERE id = :id', { id: row.id })).toEqual({
      status: 'failed',
      rule_failures: ['BR-CO-15', 'BR-CO-16'],
    });
    expect(await sendCalls()).toBe(callsBefore);
  });

  it('a failure is kept and retried; the last one marks it failed; a manager sends it again', async () => {
    const row = await financedEInvoice();
    await setEnabled(false);
    try {
      // First delivery of the job: recorded and thrown, so pg-boss retries.
      await expect(runJob(row.id)).rejects.toThrow(/disabled/);
      expect(await selectOne('SELECT status, attempts, error FROM outgoing_einvoices WHERE id = :id', { id: row.id })).toEqual({
        status: 'pending',
        attempts: 1,
        error: expect.stringMatching(/disabled/),
      });
      // The last retry: failed for good.
      expect(await sendOutgoingEInvoice(row.id, { retryCount: 5, retryLimit: 5 })).toBe('failed');
      expect(await selectOne('SELECT status, attempts FROM outgoing_einvoices WHERE id = :id', { id: row.id })).toEqual({ status: 'failed', attempts: 2 });
      expect((await activityRows('einvoice_send_failed', row.id)).map((entry) => entry.details.final)).toEqual([false, true]);
    } finally {
      await setEnabled(true);
    }

    // Nobody but a manager sends again; a failed one goes back to pending with a new job.
    expect((await apiFailure(resendEInvoice({ actor: await staff('user'), id: row.id }))).status).toBe(403);
    const manager = await staff('manager');
    const resent = await resendEInvoice({ actor: manager, id: row.id });
    expect(resent).toMatchObject({ number: row.number, status: 'pending', error: null });
    expect((await apiFailure(resendEInvoice({ actor: manager, id: row.id }))).status).toBe(409);
    await runJob(row.id);
    expect(await selectOne('SELECT status, attempts, error FROM outgoing_einvoices WHERE id = :id', { id: row.id })).toEqual({ status: 'delivered', attempts: 3, error: null });
    expect((await apiFailure(resendEInvoice({ actor: manager, id: row.id }))).body.message).toMatch(/already sent/);
    expect(await activityRows('einvoice_resend_requested', row.id)).toEqual([expect.objectContaining({ user_id: manager.id })]);
  });
});

describe("the sync job's sweep", () => {
  it('re-queues a pending e-invoice whose job is gone, and only that one', async () => {
    const { invoice } = await approvedInvoice();
    await financeInvoice({ actor: await staff('manager'), id: invoice.id });
    const row = (await einvoiceOf(invoice.id))!;
    // Its job is waiting: nothing to do (minutes 0: any pending row counts as old enough).
    expect(await requeueStalledEInvoices({ minutes: 0 })).toBe(0);
    await execute(`DELETE FROM pgboss.job WHERE name = :queue AND data ->> 'einvoiceId' = :id`, { queue: SEND_QUEUE, id: row.id });
    expect(await requeueStalledEInvoices({ minutes: 0 })).toBe(1);
    expect(await queuedJob(row.id)).toMatchObject({ state: 'created' });
    expect(await requeueStalledEInvoices({ minutes: 0 })).toBe(0);
  });
});

describe('the API', () => {
  it('lists, filters and counts, downloads the UBL, and resends (manager) with 403/404/409', async () => {
    const { invoice } = await approvedInvoice();
    await financeInvoice({ actor: await staff('manager'), id: invoice.id });
    const row = (await einvoiceOf(invoice.id))!;
    const user = await staff('user');
    const userCookie = await signedInCookie(user.id);

    const byNumber = await listLoader({ request: getRequest(`/api/einvoices?q=${row.number}`, userCookie), params: {}, context: {} });
    expect(byNumber.headers.get('X-Total-Count')).toBe('1');
    expect(await byNumber.json()).toEqual([
      expect.objectContaining({
        id: row.id,
        number: row.number,
        invoiceNumber: invoice.invoiceNumber,
        status: 'pending',
        grossAmount: Number(row.gross_amount),
        netAmount: Number(row.net_amount),
        vatRate: 25,
      }),
    ]);
    const byInvoice = await listLoader({
      request: getRequest(`/api/einvoices?q=${encodeURIComponent(invoice.invoiceNumber)}&status=pending`, userCookie),
      params: {},
      context: {},
    });
    expect((await byInvoice.json()).map((item: { id: string }) => item.id)).toEqual([row.id]);
    const all = await listLoader({ request: getRequest('/api/einvoices?limit=2', userCookie), params: {}, context: {} });
    const total = (await selectOne<{ total: number }>('SELECT count(*)::int AS total FROM outgoing_einvoices'))!.total;
    expect(all.headers.get('X-Total-Count')).toBe(String(total));
    expect(await all.json()).toHaveLength(Math.min(2, total));
    expect((await apiFailure(listLoader({ request: getRequest('/api/einvoices?status=lost', userCookie), params: {}, context: {} }))).status).toBe(400);

    const ubl = await ublLoader({ request: getRequest(`/api/einvoices/${row.id}/ubl`, userCookie), params: { id: row.id }, context: {} });
    expect(ubl.headers.get('Content-Type')).toBe('application/xml; charset=utf-8');
    expect(ubl.headers.get('Content-Disposition')).toBe(`attachment; filename="${row.number}.xml"`);
    expect(await ubl.text()).toBe(row.ubl_xml);
    expect((await apiFailure(ublLoader({ request: getRequest('/api/einvoices/x/ubl', userCookie), params: { id: 'x' }, context: {} }))).status).toBe(404);
    const unknown = '00000000-0000-4000-8000-000000000009';
    expect((await apiFailure(ublLoader({ request: getRequest(`/api/einvoices/${unknown}/ubl`, userCookie), params: { id: unknown }, context: {} }))).status).toBe(404);

    const post = (cookie: string, id: string) =>
      sendAction({ request: new Request(`http://localhost/api/einvoices/${id}/send`, { method: 'POST', headers: { Cookie: cookie } }), params: { id }, context: {} });
    expect((await apiFailure(post(userCookie, row.id))).status).toBe(403);
    const managerCookie = await signedInCookie((await staff('manager')).id);
    expect((await apiFailure(post(managerCookie, row.id))).status).toBe(409);
    await execute(`UPDATE outgoing_einvoices SET status = 'failed', error = 'HTTP 503' WHERE id = :id`, { id: row.id });
    const resent = await post(managerCookie, row.id);
    expect(resent.status).toBe(200);
    expect(await resent.json()).toMatchObject({ id: row.id, status: 'pending', error: null });
    expect((await apiFailure(post(managerCookie, unknown))).status).toBe(404);
  });
});
