import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ApiClient } from '../support/api-client.ts';
import { expectAccessibleInEachAppearance, settle } from '../support/accessibility.ts';
import { newStrictPage } from '../support/browser.ts';
import { discountClientFor, type AgreementTerms, type DemoClient } from '../support/demo-clients.ts';
import { browserAndAdmin, staffSession } from '../support/sessions.ts';
import { approvedInvoice, zagrebDay } from '../support/e2e-steps.ts';

/**
 * Recourse and write-off on the pages (docs/screens.md, docs/collections.md#recourse-and-write-off,
 * docs/money.md#recourse-and-write-off), on invoices financed here for demo clients:
 * a manager charges a recourse invoice back early from the invoice page
 * (without JavaScript, after a reason the server refused), an older tab's
 * second chargeback and a chargeback forced onto a non-recourse invoice are
 * refused in the page; the invoice shows 'Regresirano' in the list and the
 * client's account the chargeback and the balance computed here to the cent.
 * A manager asks for a write-off, cannot approve it, another admin approves
 * it on /limits; the invoice shows 'Otpisano' and the account books the loss
 * without debiting the client. axe on every page visited, the new status
 * badges in light and dark.
 */
const baseUrl = inject('baseUrl');
let browser: Browser;
let admin: ApiClient;

beforeAll(async () => ({ browser, admin } = await browserAndAdmin()));
afterAll(() => browser?.close());

/** a / b rounded half-up, for non-negative integers (docs/money.md: one rounding, half-up). */
const halfUp = (numerator: number, denominator: number) => Math.floor((2 * numerator + denominator) / (2 * denominator));
/** EUR cents of '1.234,56 €' or '−1.234,56 €' as the pages show them. */
const cents = (text: string | null) =>
  Math.round(
    Number(
      (text ?? '')
        .replace(/\u2212/g, '-')
        .replace(/[^\d,-]/g, '')
        .replace(',', '.'),
    ) * 100,
  );

/**
 * The figures of an invoice of `amount` EUR on the discount model, financed today and due in 45 days
 * (docs/money.md#the-factoring-figures): the advance, and the fee for `periods` started 30-day periods
 * (at least the minimum, plus the admin fee) with its 25 % VAT.
 */
function figures(amount: number, agreement: AgreementTerms) {
  const amountCents = Math.round(amount * 100);
  const fee = (periods: number) =>
    Math.max(halfUp(amountCents * Math.round(agreement.feeRate * 10_000) * periods, 100 * 10_000), Math.round(agreement.minimumFee * 100)) + Math.round(agreement.adminFee * 100);
  const vat = (feeCents: number) => halfUp(Math.abs(feeCents) * 25, 100) * Math.sign(feeCents);
  return { advance: halfUp(amountCents * Math.round(agreement.advanceRate * 100), 10_000), fee, vat };
}

/** A customer with nothing open (no exposure, not blocked, a limit): no concentration or cross-ageing on it. */
async function freeCustomer(skip: number): Promise<{ id: string }> {
  const customers = (await admin.get('/api/customers?limit=1000')).json as unknown as Array<{
    id: string;
    accountBlocked: boolean;
    creditLimit: number | null;
    usedCredit: number;
  }>;
  const free = customers.filter((customer) => !customer.accountBlocked && customer.creditLimit !== null && customer.creditLimit > 10_000 && customer.usedCredit === 0);
  if (free.length <= skip) throw new Error('the demo book has too few debtors with nothing open');
  return free[skip];
}

/** Creates, verifies, approves (a second person) and finances an invoice due in 45 days. */
async function financed(client: DemoClient, customerId: string, amount: number, manager: ApiClient, label: string) {
  const invoiceNumber = `E2E-${label}-${Date.now()}`;
  const id = await approvedInvoice(admin, manager, { clientId: client.id, customerId, invoiceNumber, issueDate: zagrebDay(-1), amount, description: `E2E ${label}` });
  const finance = await manager.put(`/api/invoices/${id}/finance`);
  expect(finance.status, finance.text).toBe(200);
  return { id, invoiceNumber };
}

async function accountBalance(page: Page, clientId: string): Promise<number> {
  await page.goto(`${baseUrl}/clients/${clientId}`);
  await page.getByRole('heading', { name: 'Client account' }).waitFor();
  return cents(await page.getByTestId('account-balance').textContent());
}

/** The closing balance of the client's whole statement (the API's CSV: the last record's balance), to the cent. */
async function statementClosing(clientId: string): Promise<number> {
  const statement = await admin.get(`/api/clients/${clientId}/statement?from=2000-01-01&to=${zagrebDay(0)}&format=csv`);
  expect(statement.status).toBe(200);
  return cents(statement.text.trimEnd().split('\r\n').at(-1)!.split(';').at(-1)!);
}

/** The browser's console errors but the refusals' own answer (a refused form post is a 409 the page shows). */
const unexpected = (errors: string[]) => errors.filter((error) => !/responded with a status of 409/.test(error));

/** A post without JavaScript: the browser navigates (the redirect, or the refusal's page). */
async function gotoAfter(page: Page, submit: () => Promise<unknown>) {
  await Promise.all([page.waitForNavigation(), submit()]);
}

describe('recourse and write-off on the pages', () => {
  it('a manager charges a recourse invoice back from its page; the list, the client account and the refusals show it', { timeout: 600_000 }, async () => {
    const manager = await staffSession(admin, 'manager', { label: 'recourse-manager', firstName: 'Rea', lastName: 'Regres', ownPassword: 'Own-password-5' });
    const amount = 2000;
    const { client, agreement } = await discountClientFor(admin, { amount, recourse: true });
    const { advance, fee, vat } = figures(amount, agreement);
    const { page: account, close: closeAccount } = await newStrictPage(browser, { sessionCookie: manager.client.cookie });
    const before = await accountBalance(account, client.id);
    const invoice = await financed(client, (await freeCustomer(0)).id, amount, manager.client, 'REGRES');

    // An older tab holds the form while the chargeback is done elsewhere.
    const stale = await newStrictPage(browser, { sessionCookie: manager.client.cookie });
    await stale.page.goto(`${baseUrl}/invoices/${invoice.id}`);
    await stale.page.getByRole('heading', { name: 'Recourse (Regres)' }).waitFor();
    await settle(stale.page);

    // Without JavaScript: a blank reason is refused beside the field and books nothing; a reason charges it back.
    const plain = await newStrictPage(browser, { sessionCookie: manager.client.cookie, javaScriptEnabled: false });
    await plain.page.goto(`${baseUrl}/invoices/${invoice.id}`);
    await plain.page.getByLabel('Reason for the chargeback *').fill('   ');
    await gotoAfter(plain.page, () => plain.page.getByTestId('charge-back-submit').click());
    await plain.page.getByTestId('charge-back-form').getByText('Reason is required').waitFor();
    expect((await admin.get(`/api/invoices/${invoice.id}`)).json).toMatchObject({ status: 'financed' });
    await plain.page.getByLabel('Reason for the chargeback *').fill('Dužnik je najavio kašnjenje od 90 dana');
    await gotoAfter(plain.page, () => plain.page.getByTestId('charge-back-submit').click());
    expect(plain.page.url()).toBe(`${baseUrl}/invoices/${invoice.id}`);
    await plain.page.getByTestId('invoice-status').getByText('Charged back').waitFor();
    await plain.page.getByText('Dužnik je najavio kašnjenje od 90 dana', { exact: true }).waitFor();
    expect(await plain.page.getByTestId('recourse-actions').count()).toBe(0);
    await plain.close();

    // The older tab's chargeback is refused in the page: the invoice is already charged back, and nothing more is booked.
    await stale.page.getByLabel('Reason for the chargeback *').fill('Drugi pokušaj');
    await stale.page.getByTestId('charge-back-submit').click();
    await stale.page.getByTestId('recourse-refusal').getByText(`Invoice ${invoice.invoiceNumber} is already charged back`).waitFor();
    expect(unexpected(stale.errors)).toEqual([]);
    await stale.close();

    // The figures, independently: financed for 45 days (two started periods) and charged back the same day (one), so a
    // fee credit note for the difference; the client owes the advance and the one-period fee with its VAT.
    const feeDifference = fee(2) - fee(1);
    const owed = advance + fee(2) + vat(fee(2)) - feeDifference - vat(feeDifference);
    const detail = (await admin.get(`/api/invoices/${invoice.id}`)).json as unknown as { status: string; factorAmount: number; factorFee: number };
    expect(detail).toMatchObject({ status: 'charged_back', factorAmount: advance / 100, factorFee: fee(1) / 100 });
    expect(await accountBalance(account, client.id)).toBe(before + owed);
    expect(await statementClosing(client.id)).toBe(before + owed);
    // The newest entries: the advance moves to the client's own debt as the chargeback (Regres).
    const chargeback = account.getByTestId('ledger-row').filter({ hasText: 'Chargeback (Regres)' }).filter({ hasText: invoice.invoiceNumber });
    expect(await chargeback.count()).toBe(1);
    expect(cents(await chargeback.locator('td').nth(3).textContent())).toBe(advance);
    expect(cents(await account.getByTestId('ledger-balance').last().textContent())).toBe(before + owed);
    await expectAccessibleInEachAppearance(account, baseUrl, `/clients/${client.id} after a chargeback`, () => accountBalance(account, client.id));
    await closeAccount();

    // The page and the list filter, with JavaScript, and in Croatian: 'Regresirano'.
    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: manager.client.cookie });
    await expectAccessibleInEachAppearance(page, baseUrl, `/invoices/${invoice.id} charged back`, async () => {
      await page.goto(`${baseUrl}/invoices/${invoice.id}`);
      await page.getByTestId('invoice-status').getByText('Charged back').waitFor();
    });
    const listed = `${baseUrl}/invoices?tab=charged_back&q=${invoice.invoiceNumber}`;
    await expectAccessibleInEachAppearance(page, baseUrl, '/invoices charged back', async () => {
      await page.goto(listed);
      await page.locator(`[data-invoice-number="${invoice.invoiceNumber}"]`).getByTestId('invoice-status').waitFor();
    });
    await page.context().addCookies([{ name: 'finflow-language', value: 'hr', url: baseUrl }]);
    await page.goto(listed);
    await page.locator(`[data-invoice-number="${invoice.invoiceNumber}"]`).getByTestId('invoice-status').getByText('Regresirano').waitFor();
    expect(await page.getByTestId('tab-charged_back').textContent()).toContain('Regresirano');
    expect(errors).toEqual([]);
    await close();
  });

  it('a write-off needs a second person: a manager asks, cannot approve, an admin approves it on /limits; the loss is not the client’s', { timeout: 600_000 }, async () => {
    const manager = await staffSession(admin, 'manager', { label: 'write-off-manager', firstName: 'Mira', lastName: 'Otpis', ownPassword: 'Own-password-6' });
    const approver = await staffSession(admin, 'admin', { label: 'write-off-admin', firstName: 'Ante', lastName: 'Odobrava', ownPassword: 'Own-password-7' });
    const amount = 3000;
    const { client, agreement } = await discountClientFor(admin, { amount, recourse: false });
    const { advance, fee, vat } = figures(amount, agreement);
    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: manager.client.cookie });
    const before = await accountBalance(page, client.id);
    const invoice = await financed(client, (await freeCustomer(1)).id, amount, manager.client, 'OTPIS');

    // A chargeback forced onto the page of a non-recourse invoice (its form's intent changed by hand) is refused there.
    await page.goto(`${baseUrl}/invoices/${invoice.id}`);
    await page.getByRole('heading', { name: 'Write-off', exact: true }).waitFor();
    await settle(page);
    await page.getByLabel('Reason for the write-off *').fill('Dužnik u likvidaciji');
    // Changed and sent in one step: any render in between would put the form's own intent back.
    await page.getByTestId('write-off-form').evaluate((form) => {
      (form.querySelector('input[name="intent"]') as HTMLInputElement).value = 'charge-back';
      (form as HTMLFormElement).requestSubmit(form.querySelector('button[type="submit"]') as HTMLButtonElement);
    });
    await page.getByTestId('recourse-refusal').getByText(`Invoice ${invoice.invoiceNumber} is financed without recourse; it cannot be charged back`).waitFor();
    expect((await admin.get(`/api/invoices/${invoice.id}`)).json).toMatchObject({ status: 'financed' });

    // The request, with JavaScript; the manager sees it waiting and has no decision to make.
    await page.reload();
    await page.getByLabel('Reason for the write-off *').fill('Dužnik u likvidaciji, naplata se ne očekuje');
    await page.getByTestId('write-off-submit').click();
    await page.locator('.toast').getByText('Write-off requested').waitFor();
    const requestRow = page.getByTestId('write-off-row').filter({ hasText: 'Dužnik u likvidaciji, naplata se ne očekuje' });
    await requestRow.getByTestId('write-off-status').getByText('Pending').waitFor();
    expect(await requestRow.getByTestId('write-off-approve').count()).toBe(0);
    // What approving would book: the advance and the fee with its VAT the debtor never paid.
    expect(cents(await requestRow.locator('td').nth(3).textContent())).toBe(advance + fee(2) + vat(fee(2)));
    const pending = (await manager.client.get('/api/write-offs?status=pending&limit=1000')).json as unknown as Array<{ id: string; invoiceId: string }>;
    const request = pending.find((row) => row.invoiceId === invoice.id)!;
    expect((await manager.client.put(`/api/write-offs/${request.id}/approve`)).status).toBe(403);
    await page.goto(`${baseUrl}/limits`);
    const onLimits = page.getByTestId('write-off-requests').getByTestId('write-off-row').filter({ hasText: invoice.invoiceNumber });
    await onLimits.waitFor();
    expect(await onLimits.getByTestId('write-off-approve').count()).toBe(0);
    expect(unexpected(errors)).toEqual([]);
    await close();

    // Another admin approves it on /limits; the same admin's older tab then finds it decided.
    const approveButton = (on: Page) =>
      on.getByTestId('write-off-requests').getByTestId('write-off-row').filter({ hasText: invoice.invoiceNumber }).getByTestId('write-off-approve');
    const older = await newStrictPage(browser, { sessionCookie: approver.client.cookie });
    await older.page.goto(`${baseUrl}/limits`);
    await approveButton(older.page).waitFor();
    await settle(older.page);
    const decider = await newStrictPage(browser, { sessionCookie: approver.client.cookie });
    await expectAccessibleInEachAppearance(decider.page, baseUrl, '/limits with a write-off to decide', async () => {
      await decider.page.goto(`${baseUrl}/limits`);
      await approveButton(decider.page).waitFor();
    });
    await approveButton(decider.page).click();
    await decider.page.locator('.toast').getByText('Write-off approved').waitFor();
    await expect.poll(() => decider.page.getByTestId('write-off-requests').getByTestId('write-off-row').filter({ hasText: invoice.invoiceNumber }).count()).toBe(0);
    await approveButton(older.page).click();
    await older.page.getByTestId('write-off-requests').getByTestId('recourse-refusal').getByText('The write-off request is approved, not pending').waitFor();
    expect(unexpected(older.errors)).toEqual([]);
    await older.close();

    // The invoice is written off; the client's account is where it was before the financing: the loss is credited back.
    await expectAccessibleInEachAppearance(decider.page, baseUrl, `/invoices/${invoice.id} written off`, async () => {
      await decider.page.goto(`${baseUrl}/invoices/${invoice.id}`);
      await decider.page.getByTestId('invoice-status').getByText('Written off').waitFor();
    });
    await decider.page.getByTestId('write-off-row').getByTestId('write-off-status').getByText('Approved').waitFor();
    expect(await accountBalance(decider.page, client.id)).toBe(before);
    expect(await statementClosing(client.id)).toBe(before);
    // The newest entries: the advance leaves the financing and the fees with their VAT are written off, both credits.
    const rows = decider.page.getByTestId('ledger-row').filter({ hasText: invoice.invoiceNumber });
    expect(cents(await rows.filter({ hasText: 'Write-off (Otpis)' }).locator('td').nth(4).textContent())).toBe(fee(2) + vat(fee(2)));
    expect(cents(await rows.filter({ hasText: 'Advance (Predujam)' }).last().locator('td').nth(4).textContent())).toBe(advance);
    expect((await admin.get(`/api/clients/${client.id}`)).json).toMatchObject({ usedCredit: client.usedCredit });

    const listed = `${baseUrl}/invoices?tab=written_off&q=${invoice.invoiceNumber}`;
    await expectAccessibleInEachAppearance(decider.page, baseUrl, '/invoices written off', async () => {
      await decider.page.goto(listed);
      await decider.page.locator(`[data-invoice-number="${invoice.invoiceNumber}"]`).getByTestId('invoice-status').waitFor();
    });
    await decider.page.context().addCookies([{ name: 'finflow-language', value: 'hr', url: baseUrl }]);
    await decider.page.goto(listed);
    await decider.page.locator(`[data-invoice-number="${invoice.invoiceNumber}"]`).getByTestId('invoice-status').getByText('Otpisano').waitFor();
    expect(decider.errors).toEqual([]);
    await decider.close();
  });
});
