import fs from 'node:fs';
import { createInstance } from 'i18next';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { createBoss } from '../jobs/boss.server.ts';
import { handler as syncHandler } from '../../worker/jobs/einvoice-sync.ts';
import { activityRows, apiFailure, signedInCookie } from '../auth/test-helpers.server.ts';
import { execute, selectOne } from '../db.server.ts';
import { i18nConfig } from '../i18n.ts';
import { decodeRefusal, refusalText } from '../utils/refusals.ts';
import { ensureIntegrations } from '../integrations/core.server.ts';
import { documentIdOf, mailboxDir } from '../integrations/einvoicing.server.ts';
import { action as integrationAction, loader as integrationLoader } from '../routes/_app.integrations.$type.tsx';
import { listIncomingEInvoices, receiveIncomingEInvoices, retryIncomingEInvoice } from './incoming.server.ts';
import { createTestUser, insertClient, newInvoiceNumber, newOib } from '../../tests/factories.ts';
import { einvoiceFixture } from './test-fixtures.ts';

/**
 * E-invoices received through the intermediary (the sandbox mailbox): each
 * goes through the invoice intake and becomes a pending invoice, or is kept
 * with the reason it was refused; the sync job receives while the
 * integration is enabled; the page's receive and retry actions.
 */

const FIXTURE = einvoiceFixture('valid-invoice.xml');
const FIXTURE_SELLER = '47120589305';
const FIXTURE_BUYER = '88204135760';

/** The fixture as issued by `sellerOib` to a buyer nobody knows yet, under a number of its own. */
function document(sellerOib: string, number = newInvoiceNumber()) {
  return FIXTURE.replaceAll(FIXTURE_SELLER, sellerOib).replaceAll(FIXTURE_BUYER, newOib()).replace('R-2026-0142/1/1', number);
}

function drop(name: string, xml: string) {
  fs.mkdirSync(mailboxDir('inbox'), { recursive: true });
  fs.writeFileSync(path.join(mailboxDir('inbox'), name), xml);
}

const incoming = (documentId: string) =>
  selectOne<{
    id: string;
    status: string;
    invoice_id: string | null;
    invoice_number: string | null;
    seller_oib: string | null;
    error: string | null;
    xml: string;
    attempts: number;
  }>('SELECT * FROM incoming_einvoices WHERE document_id = :documentId', { documentId });

const setEnabled = async (enabled: boolean) => {
  await ensureIntegrations();
  await execute(`UPDATE integrations SET is_enabled = :enabled WHERE type = 'einvoicing'`, { enabled });
};

beforeEach(async () => {
  await setEnabled(true);
  fs.rmSync(mailboxDir('inbox'), { recursive: true, force: true });
});

describe('receiving', () => {
  it('imports a client e-invoice as a pending invoice and keeps a refused one with its reason', async () => {
    const admin = { id: (await createTestUser({ role: 'admin' })).id, role: 'admin' as const };
    const client = await insertClient({ name: 'Drvoprerada d.o.o.' });
    const good = document(client.oib);
    const strangerOib = newOib();
    const stranger = document(strangerOib);
    const broken = document(client.oib).replace('>8136.94</cbc:PayableAmount>', '>8136.00</cbc:PayableAmount>');
    drop('a.xml', good);
    drop('b.xml', stranger);
    drop('c.xml', broken);

    expect(await receiveIncomingEInvoices({ actor: admin, ip: '10.0.0.1' })).toEqual({ received: 3, imported: 1, failed: 2, duplicates: 0 });

    const imported = (await incoming(documentIdOf(good)))!;
    expect(imported).toMatchObject({ status: 'imported', seller_oib: client.oib, error: null, xml: good });
    const invoice = await selectOne<{ status: string; source: string; client_id: string; amount: string; created_by: string | null }>(
      'SELECT status, source, client_id, amount, created_by FROM invoices WHERE id = :id',
      { id: imported.invoice_id },
    );
    expect(invoice).toEqual({ status: 'pending', source: 'ubl', client_id: client.id, amount: '8136.94', created_by: admin.id });
    expect(await activityRows('einvoice_received', imported.id)).toEqual([expect.objectContaining({ user_id: admin.id, ip_address: '10.0.0.1' })]);
    // The same intake as an upload: the invoice_created row says where it came from, and the XML is its document.
    const [created] = await activityRows('invoice_created', imported.invoice_id!);
    expect(created.details).toMatchObject({ source: 'einvoicing', receivedDocumentId: documentIdOf(good), customerCreated: true });

    const notClient = (await incoming(documentIdOf(stranger)))!;
    expect(notClient).toMatchObject({ status: 'failed', invoice_id: null, xml: stranger });
    // The reason is kept as its refusal code: English for the API, the reader's language on the page.
    expect(decodeRefusal(notClient.error!)).toMatchObject({ code: 'einvoices.refusals.sellerUnknown', params: { oib: strangerOib } });
    const refused = (await incoming(documentIdOf(broken)))!;
    expect(decodeRefusal(refused.error!)?.code).toBe('einvoices.refusals.rule');
    const listed = (await listIncomingEInvoices({ limit: 100 })).items;
    const listedStranger = listed.find((item) => item.id === notClient.id)!;
    expect(listedStranger.error).toMatch(new RegExp(`^Seller .* \\(OIB ${strangerOib}\\) is not a client$`));
    expect(listed.find((item) => item.id === refused.id)!.error).toMatch(/^BR-CO-16: /);
    const hr = createInstance({ ...i18nConfig, lng: 'hr', initImmediate: false, saveMissing: false });
    await hr.init();
    expect(refusalText(hr.t, (key) => hr.exists(key), listedStranger.errorCode!)).toMatch(new RegExp(`^Prodavatelj .* \\(OIB ${strangerOib}\\) nije klijent$`));
    expect((await activityRows('einvoice_receive_failed', notClient.id))[0].details.error).toBe(listedStranger.error);
    expect(await activityRows('einvoice_receive_failed', refused.id)).toHaveLength(1);
  });

  it('takes a document received twice only once', async () => {
    const client = await insertClient({ name: 'Drvoprerada d.o.o.' });
    const xml = document(client.oib);
    drop('first.xml', xml);
    expect(await receiveIncomingEInvoices({ actor: null })).toMatchObject({ imported: 1 });
    drop('again.xml', xml);
    expect(await receiveIncomingEInvoices({ actor: null })).toEqual({ received: 1, imported: 0, failed: 0, duplicates: 1 });
    expect((await selectOne<{ n: number }>('SELECT count(*)::int AS n FROM invoices WHERE client_id = :id', { id: client.id }))!.n).toBe(1);
  });

  it('imports a refused document once its reason is gone (the seller became a client)', async () => {
    const sellerOib = newOib();
    const xml = document(sellerOib);
    drop('x.xml', xml);
    await receiveIncomingEInvoices({ actor: null });
    const row = (await incoming(documentIdOf(xml)))!;
    const user = { id: (await createTestUser({ role: 'user' })).id, role: 'user' as const };
    expect(await retryIncomingEInvoice({ actor: user, id: row.id })).toBe('failed');
    expect((await incoming(documentIdOf(xml)))!.attempts).toBe(2);

    await insertClient({ name: 'Drvoprerada d.o.o.', oib: sellerOib });
    expect(await retryIncomingEInvoice({ actor: user, id: row.id })).toBe('imported');
    const after = (await incoming(documentIdOf(xml)))!;
    expect(after).toMatchObject({ status: 'imported', error: null, attempts: 3 });
    expect(await selectOne('SELECT status FROM invoices WHERE id = :id', { id: after.invoice_id })).toEqual({ status: 'pending' });
    expect((await apiFailure(retryIncomingEInvoice({ actor: user, id: row.id }))).status).toBe(409);
    expect((await activityRows('einvoice_intake_retried', row.id)).map((entry) => entry.details.status)).toEqual(['failed', 'imported']);
  });

  it('the sync job receives only while the integration is enabled', async () => {
    // The worker runs it with pg-boss started, whose tables the job reads: install them as the worker would.
    const boss = createBoss(process.env.DATABASE_URL!, { role: 'web' });
    await boss.start();
    await boss.stop({ graceful: false });
    const log = { info: () => {}, error: () => {} };
    const context = { log, worker: { workerId: 'test', hostname: 'test', pid: 1, startedAt: new Date() } };
    const client = await insertClient({ name: 'Drvoprerada d.o.o.' });
    const xml = document(client.oib);
    drop('job.xml', xml);
    await setEnabled(false);
    await syncHandler([], context);
    expect(fs.existsSync(path.join(mailboxDir('inbox'), 'job.xml'))).toBe(true);
    expect(await incoming(documentIdOf(xml))).toBeNull();

    await setEnabled(true);
    await syncHandler([], context);
    expect(fs.existsSync(path.join(mailboxDir('inbox'), 'job.xml'))).toBe(false);
    expect(await incoming(documentIdOf(xml))).toMatchObject({ status: 'imported', seller_oib: client.oib });
  });
});

describe('/integrations/einvoicing', () => {
  const post = (cookie: string, body: Record<string, string>) =>
    integrationAction({
      request: new Request('http://localhost/integrations/einvoicing', {
        method: 'POST',
        headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(body),
      }),
      params: { type: 'einvoicing' },
      context: { clientIp: '10.0.0.2' },
    });

  it("'Zaprimi dokumente' receives (admin only) and the page lists what came in; 'Ponovi uvoz' retries", async () => {
    const client = await insertClient({ name: 'Drvoprerada d.o.o.' });
    const stranger = newOib();
    const xml = document(stranger);
    const good = document(client.oib);
    drop('page.xml', good);
    drop('stranger.xml', xml);
    const user = await createTestUser({ role: 'user' });
    const userCookie = await signedInCookie(user.id);
    await expect(post(userCookie, { intent: 'receive' })).rejects.toMatchObject({ status: 403 });

    const admin = await createTestUser({ role: 'admin' });
    const received = await post(await signedInCookie(admin.id), { intent: 'receive' });
    expect(received.status).toBe(302);
    expect(received.headers.get('Location')).toBe('/integrations/einvoicing');

    const response = await integrationLoader({
      request: new Request('http://localhost/integrations/einvoicing', { headers: { Cookie: userCookie } }),
      params: { type: 'einvoicing' },
      context: {},
    });
    const data = await response.json();
    const rows = (data.einvoices!.incoming.items as Array<{ id: string; status: string; invoiceNumber: string; error: string | null; documentId: string }>).filter((row) =>
      [documentIdOf(good), documentIdOf(xml)].includes(row.documentId),
    );
    expect(rows.map((row) => row.status).sort()).toEqual(['failed', 'imported']);
    const failed = rows.find((row) => row.status === 'failed')!;
    expect(failed.documentId).toBe(documentIdOf(xml));
    expect(failed.error).toMatch(new RegExp(stranger));

    // Any staff member may retry the intake (it creates an invoice, the daily queue's work).
    await insertClient({ name: 'Drvoprerada d.o.o.', oib: stranger });
    const retried = await post(userCookie, { intent: 'retryIncoming', id: failed.id, redirectTo: '/integrations/einvoicing?incomingPage=1' });
    expect(retried.status).toBe(302);
    expect(retried.headers.get('Location')).toBe('/integrations/einvoicing?incomingPage=1');
    expect(await incoming(failed.documentId)).toMatchObject({ status: 'imported' });
    const again = await post(userCookie, { intent: 'retryIncoming', id: failed.id });
    expect(again.status).toBe(409);
  });
});
