import type { Browser } from 'playwright-core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectAccessibleInEachAppearance, gotoWithoutJavaScript } from '../support/accessibility.ts';
import type { ApiClient } from '../support/api-client.ts';
import { newStrictPage } from '../support/browser.ts';
import { ensureFinanceable } from '../support/financing.ts';
import { mailsTo } from '../support/outbox.ts';
import { browserAndAdmin, staffSession } from '../support/sessions.ts';
import { clientAndDebtor, poll, randomOib, zagrebDay } from '../support/e2e-steps.ts';

/**
 * The debtor's side end to end (docs/collections.md#the-notice-of-assignment-and-the-debtors-confirmation):
 * the first financing of a client's invoice on a new debtor mails the notice
 * of assignment with the debtor's link (the outbox); the debtor opens it in a
 * browser without JavaScript, in Croatian, downloads the notice, confirms one
 * invoice and disputes another (a dispute without a reason is refused first,
 * writing nothing); the disputed invoice cannot be financed, the confirmed
 * one can; the used link and an expired one are refused.
 */
const baseUrl = inject('baseUrl');
let browser: Browser;
let admin: ApiClient;
let manager: ApiClient;

async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<T[]> {
  const database = new pg.Client(inject('appDatabaseUrl'));
  await database.connect();
  try {
    return (await database.query<T>(text, values)).rows;
  } finally {
    await database.end();
  }
}

async function invoice(clientId: string, customerId: string, number: string, amount: number): Promise<string> {
  const created = await admin.post('/api/invoices', {
    clientId,
    customerId,
    invoiceNumber: number,
    issueDate: zagrebDay(0),
    dueDate: zagrebDay(40),
    amount,
    currency: 'EUR',
    description: 'E2E potvrda dužnika',
  });
  expect(created.status, created.text).toBe(201);
  return String(created.json.id);
}

const started = Date.now();
/** Where a slow run stands (the accessibility passes take long on a loaded machine). */
const step = (what: string) => console.info(`debtor e2e: ${what} after ${Math.round((Date.now() - started) / 1000)} s`);

const linkIn = (mail: string) => /\/debtor\/([A-Za-z0-9_-]{43})/.exec(mail)?.[1];

beforeAll(async () => {
  ({ browser, admin } = await browserAndAdmin());
  manager = (await staffSession(admin, 'manager', { label: 'debtor-e2e' })).client;
});
afterAll(async () => {
  await browser?.close();
});

describe("the debtor's confirmation", () => {
  it('mails the notice at the first financing; the debtor confirms one invoice and disputes another without JavaScript; the link is then refused', async () => {
    const { client } = await clientAndDebtor(admin);
    const oib = randomOib();
    const email = `duznik-${oib}@e2e.hr`;
    const created = await admin.post('/api/customers', { companyName: `E2E Dužnik ${oib} d.d.`, oib, email });
    expect(created.status).toBe(201);
    const customerId = String(created.json.id);
    await ensureFinanceable(client.id, customerId);
    // The agreement in force must be disclosed (open factoring) for the debtor to be told.
    await sql(`UPDATE agreements SET disclosed = true WHERE client_id = $1`, [client.id]);

    const stamp = Date.now();
    const first = await invoice(client.id, customerId, `E2E-OBV-${stamp}-1`, 1000);
    const toConfirm = await invoice(client.id, customerId, `E2E-OBV-${stamp}-2`, 2000);
    const toDispute = await invoice(client.id, customerId, `E2E-OBV-${stamp}-3`, 3000);
    for (const id of [first, toDispute]) {
      expect((await admin.put(`/api/invoices/${id}/verify`)).status).toBe(200);
      expect((await manager.put(`/api/invoices/${id}/approve`)).status).toBe(200);
    }
    step('invoices ready');
    const financed = await admin.put(`/api/invoices/${first}/finance`);
    step('financed');
    expect(financed.status, financed.text).toBe(200);

    // The notice of assignment in the outbox, with the PDF attached and the link.
    const mail = await poll('the notice of assignment', () => mailsTo(email).find((text) => text.includes('Obavijest o ustupanju')));
    expect(mail).toContain(`je ${client.companyName} ustupio svoja potraživanja`);
    expect(mail).toContain('application/pdf');
    step('notice mailed');
    const token = linkIn(mail);
    expect(token).toBeDefined();
    const links = await admin.get(`/api/customers/${customerId}/debtor-links`);
    expect(links.headers.get('x-total-count')).toBe('1');
    expect(links.json[0]).toMatchObject({ clientId: client.id, status: 'open', confirmed: 0, disputed: 0 });
    expect(JSON.stringify(links.json)).not.toContain(token);

    const { page, errors, close } = await newStrictPage(browser, { javaScriptEnabled: false });
    page.setDefaultTimeout(30_000);
    try {
      const opened = await page.goto(`${baseUrl}/debtor/${token}`);
      expect(opened?.status()).toBe(200);
      await page.getByRole('heading', { level: 1, name: 'Obavijest o ustupanju potraživanja' }).waitFor();
      expect(await page.getByTestId('debtor-notice-text').textContent()).toContain(client.companyName);
      const notice = await page.request.get(`${baseUrl}/debtor/${token}/notice.pdf`);
      expect(notice.status()).toBe(200);
      expect(notice.headers()['content-type']).toBe('application/pdf');
      expect((await notice.body()).subarray(0, 5).toString()).toBe('%PDF-');
      for (const number of [1, 2, 3]) await page.getByTestId(`debtor-invoice-E2E-OBV-${stamp}-${number}`).waitFor();

      step('page checked');
      // axe runs in the page: the audit uses a page with JavaScript that loads the link without running its scripts.
      const audit = await newStrictPage(browser);
      try {
        await expectAccessibleInEachAppearance(audit.page, baseUrl, 'the debtor’s link', () => gotoWithoutJavaScript(audit.page, `${baseUrl}/debtor/${token}`));
      } finally {
        await audit.close();
      }
      // A dispute without its reason is refused; nothing is written and the link still works.
      await page.getByTestId(`debtor-confirm-E2E-OBV-${stamp}-2`).check();
      await page.getByTestId(`debtor-dispute-E2E-OBV-${stamp}-3`).check();
      await page.getByTestId('debtor-acknowledge').check();
      await page.getByTestId('debtor-submit').click();
      await page.getByTestId(`debtor-invoice-E2E-OBV-${stamp}-3`).getByText('Navedite razlog osporavanja').waitFor();
      expect((await admin.get(`/api/invoices/${toDispute}`)).json.disputed).toBe(false);
      expect((await sql(`SELECT 1 FROM debtor_answers a JOIN debtor_links l ON l.id = a.link_id WHERE l.customer_id = $1`, [customerId])).length).toBe(0);

      // The choices were kept; the reason added, the one submit goes through.
      expect(await page.getByTestId(`debtor-confirm-E2E-OBV-${stamp}-2`).isChecked()).toBe(true);
      await page.getByTestId(`debtor-reason-E2E-OBV-${stamp}-3`).fill('Roba nije isporučena u cijelosti.');
      await page.getByTestId('debtor-submit').click();
      await page.getByTestId('debtor-link-done').waitFor();

      // The used link is refused (410) with its explanation, never the form; a repeated post too.
      const again = await page.goto(`${baseUrl}/debtor/${token}`);
      expect(again?.status()).toBe(410);
      await page.getByTestId('debtor-link-spent').waitFor();
      expect(await page.getByTestId('debtor-submit').count()).toBe(0);
      const repost = await page.request.post(`${baseUrl}/debtor/${token}`, { form: { acknowledged: 'on', [`answer_${first}`]: 'confirm' } });
      expect(repost.status()).toBe(410);
      expect(errors.filter((error) => !/status of (400|410)/.test(error))).toEqual([]);
    } finally {
      await close();
    }

    step('link used');
    // What staff see: the dispute (source debtor) and the confirmation.
    const disputed = (await admin.get(`/api/invoices/${toDispute}`)).json;
    expect(disputed).toMatchObject({ disputed: true, disputeReason: 'Roba nije isporučena u cijelosti.' });
    const answers = await sql<{ invoice_id: string; answer: string }>(
      `SELECT a.invoice_id, a.answer FROM debtor_answers a JOIN debtor_links l ON l.id = a.link_id WHERE l.customer_id = $1 ORDER BY a.answer`,
      [customerId],
    );
    expect(answers).toEqual([
      { invoice_id: toConfirm, answer: 'confirmed' },
      { invoice_id: toDispute, answer: 'disputed' },
    ]);
    expect((await admin.get(`/api/customers/${customerId}/debtor-links`)).json[0]).toMatchObject({ status: 'spent', confirmed: 1, disputed: 1 });

    // The disputed invoice cannot be financed; the confirmed one can.
    const refused = await admin.put(`/api/invoices/${toDispute}/finance`);
    expect(refused.status).toBe(409);
    expect(refused.json.message).toBe(`Invoice E2E-OBV-${stamp}-3 is disputed by the debtor: Roba nije isporučena u cijelosti.`);
    expect((await admin.put(`/api/invoices/${toConfirm}/verify`)).status).toBe(200);
    expect((await manager.put(`/api/invoices/${toConfirm}/approve`)).status).toBe(200);
    const ok = await admin.put(`/api/invoices/${toConfirm}/finance`);
    expect(ok.status, ok.text).toBe(200);
    // A later financing of the same pair sends no second notice.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(mailsTo(email).filter((text) => text.includes('Obavijest o ustupanju'))).toHaveLength(1);

    // A resent link works until it expires; an expired one is refused (410).
    const [link] = (await admin.get(`/api/customers/${customerId}/debtor-links`)).json as Array<{ id: string }>;
    const resent = await manager.post(`/api/debtor-links/${link.id}/resend`);
    expect(resent.status, resent.text).toBe(200);
    const second = await poll('the resent link', () =>
      mailsTo(email)
        .map(linkIn)
        .find((found) => found && found !== token),
    );
    await sql(`UPDATE debtor_links SET expires_at = now() - interval '1 minute' WHERE id = $1`, [resent.json.id]);
    const plain = await newStrictPage(browser, { javaScriptEnabled: false });
    try {
      const expired = await plain.page.goto(`${baseUrl}/debtor/${second}`);
      expect(expired?.status()).toBe(410);
      await plain.page.getByTestId('debtor-link-expired').getByText('Ova je poveznica istekla').waitFor();
      expect(plain.errors.filter((error) => !error.includes('status of 410'))).toEqual([]);
    } finally {
      await plain.close();
    }
  }, 600_000);
});
