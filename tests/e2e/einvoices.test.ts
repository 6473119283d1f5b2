import fs from 'node:fs';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ApiClient } from '../support/api-client.ts';
import { newStrictPage } from '../support/browser.ts';
import { browserAndAdmin, staffSession } from '../support/sessions.ts';
import { ensureFinanceable } from '../support/financing.ts';
import { plainDiscountClient } from '../support/demo-clients.ts';
import { approvedInvoice, clientAndDebtor, zagrebDay } from '../support/e2e-steps.ts';

/**
 * The fee e-invoice end to end, in the app as `npm start` runs it: an invoice
 * financed over the API gets its UBL e-invoice, which the worker sends
 * through the (sandbox) intermediary; /integrations/einvoicing lists it with
 * its status, downloads its UBL (HR CIUS identifier, totals to the cent),
 * sends a failed one again without JavaScript, and shows the rule ids of one
 * the rules kept from being sent.
 */
const baseUrl = inject('baseUrl');
const HR_CIUS = 'urn:cen.eu:en16931:2017#compliant#urn:mfin.gov.hr:cius-2025:1.0#conformant#urn:mfin.gov.hr:ext-2025:1.0';
let browser: Browser;
let admin: ApiClient;

interface EInvoice {
  id: string;
  number: string;
  invoiceNumber: string;
  clientName: string;
  status: string;
  grossAmount: number;
  netAmount: number;
  vatAmount: number;
}

const money = (value: number) => new Intl.NumberFormat('hr-HR', { style: 'currency', currency: 'EUR', minimumFractionDigits: 2 }).format(value);
const squash = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();
/** Half-up rounding of an exact ratio, computed here without the app's code. */
const roundRatio = (numerator: bigint, denominator: bigint) => Number((numerator * 2n + denominator) / (2n * denominator));

const manager = async () => (await staffSession(admin, 'manager', { label: 'einv-manager', firstName: 'Ana', lastName: 'Financira' })).client;

const row = (page: Page, number: string) => page.locator(`[data-testid="outgoing-einvoice"][data-number="${number}"]`);

async function einvoiceOf(invoiceNumber: string): Promise<EInvoice | undefined> {
  const list = await admin.get(`/api/einvoices?q=${encodeURIComponent(invoiceNumber)}`);
  expect(list.status).toBe(200);
  return (list.json as unknown as EInvoice[])[0];
}

beforeAll(async () => ({ browser, admin } = await browserAndAdmin()));
afterAll(() => browser?.close());

describe('outgoing e-invoices', () => {
  it('financing issues the fee e-invoice; the worker sends it; the page lists it and downloads its UBL', async () => {
    // Its fee is amount × rate × periods, computed below on its own.
    const { client, agreement } = await plainDiscountClient(admin, 50_000);
    const detail = { agreement };
    const customers = (await admin.get('/api/customers?limit=1000')).json as Array<{ id: string; accountBlocked: boolean }>;
    const customer = customers.find((c) => !c.accountBlocked)!;

    // 12,345.67 EUR due in 45 days: two started 30-day fee periods.
    const invoiceNumber = `E2E-EINV-${Date.now()}`;
    const b = await manager();
    const id = await approvedInvoice(admin, b, { clientId: client.id, customerId: customer.id, invoiceNumber, amount: 12345.67, description: 'E2E e-račun' });
    await ensureFinanceable(client.id, customer.id);
    const financed = await b.put(`/api/invoices/${id}/finance`);
    expect(financed.status).toBe(200);

    const feeMilli = BigInt(Math.round(detail.agreement.feeRate * 1000));
    const fee = roundRatio(1_234_567n * feeMilli * 2n, 100_000n);
    const vat = roundRatio(BigInt(fee) * 25n, 100n);
    expect(Math.round(Number(financed.json.factorFee) * 100)).toBe(fee);

    // Issued with the financing; the worker's job delivers it to the sandbox intermediary.
    const issued = (await einvoiceOf(invoiceNumber))!;
    expect(issued).toMatchObject({ invoiceNumber, clientName: client.companyName, netAmount: fee / 100, vatAmount: vat / 100, grossAmount: (fee + vat) / 100 });
    expect(issued.number).toMatch(new RegExp(`^FF-${zagrebDay(0).slice(0, 4)}-\\d{6}$`));
    await expect.poll(async () => (await einvoiceOf(invoiceNumber))?.status, { timeout: 30_000, interval: 500 }).toBe('delivered');

    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/integrations/einvoicing`);
    await page.getByTestId('outgoing-einvoices').waitFor();
    await page.waitForLoadState('networkidle');
    const mine = row(page, issued.number);
    await mine.waitFor();
    expect(squash(await mine.getByTestId('einvoice-status').textContent())).toBe('Delivered');
    expect(squash(await mine.textContent())).toContain(squash(money((fee + vat) / 100)));
    expect(await mine.getByRole('link', { name: invoiceNumber }).count()).toBe(1);
    expect(await mine.getByRole('link', { name: client.companyName }).count()).toBe(1);

    const [download] = await Promise.all([page.waitForEvent('download'), mine.getByRole('link', { name: `Download the UBL of ${issued.number}` }).click()]);
    expect(download.suggestedFilename()).toBe(`${issued.number}.xml`);
    const xml = fs.readFileSync((await download.path())!, 'utf8');
    expect(xml).toContain(`<cbc:CustomizationID>${HR_CIUS}</cbc:CustomizationID>`);
    expect(xml).toContain(`<cbc:ID>${issued.number}</cbc:ID>`);
    const amount = (tag: string) => new RegExp(`<cbc:${tag} currencyID="EUR">([0-9.]+)</cbc:${tag}>`).exec(xml)?.[1];
    expect(amount('LineExtensionAmount')).toBe((fee / 100).toFixed(2));
    expect(amount('TaxExclusiveAmount')).toBe((fee / 100).toFixed(2));
    expect(amount('TaxAmount')).toBe((vat / 100).toFixed(2));
    expect(amount('TaxInclusiveAmount')).toBe(((fee + vat) / 100).toFixed(2));
    expect(amount('PayableAmount')).toBe(((fee + vat) / 100).toFixed(2));
    expect(xml).toContain('<cbc:Name>HR:PDV25</cbc:Name>');
    expect(errors).toEqual([]);
    await close();
  });

  it("'Send again' (without JavaScript) queues a failed e-invoice, which the worker then delivers", async () => {
    // The demo book's newest fee e-invoice failed to send (the intermediary answered 503).
    const failed = (await admin.get('/api/einvoices?status=failed&limit=1')).json as unknown as EInvoice[];
    expect(failed).toHaveLength(1);
    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie, javaScriptEnabled: false });
    await page.goto(`${baseUrl}/integrations/einvoicing`);
    const mine = row(page, failed[0].number);
    await mine.waitFor();
    expect(squash(await mine.getByTestId('einvoice-status').textContent())).toBe('Failed');
    expect(squash(await mine.getByTestId('einvoice-error').textContent())).toMatch(/HTTP 503/);
    await mine.getByRole('button', { name: 'Send again' }).click();
    await page.waitForURL(`${baseUrl}/integrations/einvoicing`);
    await expect
      .poll(async () => ((await admin.get(`/api/einvoices?q=${failed[0].number}`)).json as unknown as EInvoice[])[0].status, { timeout: 30_000, interval: 500 })
      .toBe('delivered');
    await page.reload();
    expect(squash(await row(page, failed[0].number).getByTestId('einvoice-status').textContent())).toBe('Delivered');
    expect(await row(page, failed[0].number).getByRole('button', { name: 'Send again' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });

  it('a fee e-invoice that breaks a rule is not sent again: the worker marks it failed and the page names the rules', async () => {
    const { client, customer } = await clientAndDebtor(admin);
    const invoiceNumber = `E2E-EINV-RULES-${Date.now()}`;
    const b = await manager();
    const id = await approvedInvoice(admin, b, { clientId: client.id, customerId: customer.id, invoiceNumber, amount: 2345.67, description: 'E2E e-račun s neispravnim zbrojem' });
    await ensureFinanceable(client.id, customer.id);
    expect((await b.put(`/api/invoices/${id}/finance`)).status).toBe(200);
    await expect.poll(async () => (await einvoiceOf(invoiceNumber))?.status, { timeout: 30_000, interval: 500 }).toBe('delivered');
    const issued = (await einvoiceOf(invoiceNumber))!;

    // Its stored UBL tampered (a total with VAT that does not add up) and its sending marked failed, as after an outage.
    const database = new pg.Client(inject('appDatabaseUrl'));
    await database.connect();
    try {
      const { rowCount } = await database.query(
        `UPDATE outgoing_einvoices SET status = 'failed', sent_at = NULL, document_id = NULL, error = 'HTTP 503',
                ubl_xml = regexp_replace(ubl_xml, '(<cbc:TaxInclusiveAmount currencyID="EUR">)[^<]*<', '\\11.00<')
          WHERE id = $1`,
        [issued.id],
      );
      expect(rowCount).toBe(1);
    } finally {
      await database.end();
    }

    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie, javaScriptEnabled: false });
    await page.goto(`${baseUrl}/integrations/einvoicing`);
    await row(page, issued.number).getByRole('button', { name: 'Send again' }).click();
    await page.waitForURL(`${baseUrl}/integrations/einvoicing`);
    await expect
      .poll(async () => ((await admin.get(`/api/einvoices?q=${issued.number}`)).json as unknown as Array<EInvoice & { ruleFailures: string[] | null }>)[0], {
        timeout: 30_000,
        interval: 500,
      })
      .toMatchObject({ status: 'failed', ruleFailures: ['BR-CO-15', 'BR-CO-16'] });
    await page.reload();
    const mine = row(page, issued.number);
    expect(squash(await mine.getByTestId('einvoice-status').textContent())).toBe('Failed');
    expect(squash(await mine.getByTestId('einvoice-rule-failures').textContent())).toBe('Not sent, rules broken: BR-CO-15, BR-CO-16');
    expect(squash(await mine.getByTestId('einvoice-error').textContent())).toMatch(/^BR-CO-15: TaxInclusiveAmount \(BT-112\) 1\.00 ≠ /);
    // Staff have a task on the invoice.
    const tasks = (await admin.get(`/api/tasks?q=${encodeURIComponent(issued.number)}&limit=10`)).json as unknown as Array<{ type: string; title: string }>;
    expect(tasks).toEqual([expect.objectContaining({ type: 'manual_review', title: `E-račun ${issued.number} nije poslan: krši pravila BR-CO-15, BR-CO-16` })]);
    expect(errors).toEqual([]);
    await close();
  });
});
