import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectAccessibleInEachAppearance } from '../support/accessibility.ts';
import { ApiClient } from '../support/api-client.ts';
import { newStrictPage } from '../support/browser.ts';
import { browserAndAdmin } from '../support/sessions.ts';
import { ensureFinanceable, setDebtorLimit } from '../support/financing.ts';
import { approvedInvoice, clientAndDebtor, randomOib } from '../support/e2e-steps.ts';

/**
 * The invoice page's 'Financing checks' panel (docs/money.md#eligibility) in
 * Chromium: an approved invoice on a debtor without a limit shows every
 * check, the debtor limit failed with its reason; 'Financiraj' is refused
 * naming that check; once the debtor has a limit the panel shows its figures
 * and the financing goes through, and the financed invoice shows the
 * agreement version used, the fee charged and the fee accrued to date.
 * The client gets its agreement through tests/support/financing.ts, not from the demo.
 */
const baseUrl = inject('baseUrl');
let browser: Browser;
let admin: ApiClient;

const money = (cents: number) => new Intl.NumberFormat('hr-HR', { style: 'currency', currency: 'EUR', minimumFractionDigits: 2 }).format(cents / 100);
const squash = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();
const roundRatio = (numerator: bigint, denominator: bigint) => Number((numerator * 2n + denominator) / (2n * denominator));
const check = (page: Page, name: string) => page.getByTestId(`eligibility-${name}`);

async function manager(): Promise<ApiClient> {
  const email = `elig-manager-${randomUUID().slice(0, 8)}@finflow.local`;
  const password = 'Temp-password-1';
  const created = await admin.post('/api/admin/users', { email, firstName: 'Provjera', lastName: 'Uvjeta', role: 'manager', password });
  expect(created.status).toBe(201);
  expect((await admin.put(`/api/admin/users/${created.json.id}/otp`, { otpEnabled: false })).status).toBe(200);
  const session = new ApiClient();
  expect((await session.post('/api/auth/login', { email, password })).json).toEqual({ requiresTotp: false, needsTotpSetup: false });
  const changed = await session.put('/api/auth/change-password', { currentPassword: password, newPassword: 'Own-password-22', confirmPassword: 'Own-password-22' });
  expect(changed.status).toBe(200);
  return session;
}

beforeAll(async () => ({ browser, admin } = await browserAndAdmin()));
afterAll(() => browser?.close());

describe('the financing checks on the invoice page', () => {
  it('names the failing check before and on Financiraj, then shows the figures, finances, and shows the agreement and fees', async () => {
    const { client } = await clientAndDebtor(admin);
    const oib = randomOib();
    const customerName = `E2E dužnik bez limita ${oib} d.o.o.`;
    const createdCustomer = await admin.post('/api/customers', { companyName: customerName, oib });
    expect(createdCustomer.status).toBe(201);
    const customerId = String(createdCustomer.json.id);
    // The client's agreement in force; the new debtor has no limit approved.
    const terms = await ensureFinanceable(client.id, customerId, { customerLimit: null });

    const invoiceNumber = `E2E-ELIG-${Date.now()}`;
    const b = await manager();
    const id = await approvedInvoice(admin, b, { clientId: client.id, customerId, invoiceNumber, amount: 10000, description: 'E2E uvjeti financiranja' });
    const advance = roundRatio(1_000_000n * BigInt(Math.round(Number(terms.advanceRate) * 100)), 10_000n);

    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: b.cookie });
    await page.goto(`${baseUrl}/invoices/${id}`);
    await page.getByRole('heading', { name: 'Financing checks' }).waitFor();
    for (const name of [
      'kyc',
      'agreement',
      'debtor_blocked',
      'currency',
      'iban',
      'tenor',
      'past_due',
      'client_limit',
      'debtor_limit',
      'concentration',
      'cross_ageing',
      'fee_within_amount',
    ]) {
      expect(await check(page, name).count(), name).toBe(1);
    }
    expect(await check(page, 'debtor_limit').getAttribute('data-passed')).toBe('false');
    expect(squash(await check(page, 'debtor_limit').textContent())).toBe(`Debtor limit: none approved for ${customerName}Failed`);
    expect(squash(await check(page, 'client_limit').textContent())).toMatch(new RegExp(`^Client limit: .* used \\+ ${money(advance).replace(/\s/g, ' ')} advance ≤ .*Passed$`));
    expect(squash(await page.getByTestId('eligibility-summary').textContent())).toBe('Financing would be refused');
    const show = async () => {
      await page.goto(`${baseUrl}/invoices/${id}`);
      await page.getByTestId('eligibility-checks').waitFor();
    };
    await expectAccessibleInEachAppearance(page, baseUrl, 'invoice page with a failing financing check', show);

    // The button stays; the refusal names the check.
    await page.getByText('Financiraj').click();
    await page.getByRole('button', { name: 'Confirm financing' }).click();
    await page.getByTestId('decision-refusal').getByText(`Customer ${customerName} has no approved debtor limit; financing is not possible`).waitFor();
    expect((await admin.get(`/api/invoices/${id}`)).json.status).toBe('approved');

    // Without JavaScript: the same panel, and the same refusal from the plain form post.
    const plain = await newStrictPage(browser, { sessionCookie: b.cookie, javaScriptEnabled: false });
    await plain.page.goto(`${baseUrl}/invoices/${id}`);
    expect(await check(plain.page, 'debtor_limit').getAttribute('data-passed')).toBe('false');
    await plain.page.getByText('Financiraj').click();
    await plain.page.getByRole('button', { name: 'Confirm financing' }).click();
    await plain.page.getByTestId('decision-refusal').getByText(`Customer ${customerName} has no approved debtor limit; financing is not possible`).waitFor();
    await plain.close();

    // With a limit approved: the figures, all passed, and the financing goes through.
    await setDebtorLimit(customerId, '25000.00');
    await page.goto(`${baseUrl}/invoices/${id}`);
    await page.getByRole('heading', { name: 'Financing checks' }).waitFor();
    expect(await check(page, 'debtor_limit').getAttribute('data-passed')).toBe('true');
    expect(squash(await check(page, 'debtor_limit').textContent())).toBe(squash(`Debtor limit: ${money(0)} used + ${money(advance)} advance ≤ ${money(2_500_000)}Passed`));
    expect(squash(await page.getByTestId('eligibility-summary').textContent())).toBe('Every check passes');
    // In Croatian, as the staff read it.
    const croatian = await newStrictPage(browser, { sessionCookie: b.cookie });
    await croatian.page.context().addCookies([{ name: 'finflow-language', value: 'hr', url: baseUrl }]);
    await croatian.page.goto(`${baseUrl}/invoices/${id}`);
    await croatian.page.getByRole('heading', { name: 'Uvjeti financiranja' }).waitFor();
    expect(squash(await check(croatian.page, 'debtor_limit').textContent())).toBe(
      squash(`Limit dužnika: ${money(0)} iskorišteno + ${money(advance)} predujam ≤ ${money(2_500_000)}Ispunjeno`),
    );
    await croatian.close();
    await page.getByText('Financiraj').click();
    await page.getByRole('button', { name: 'Confirm financing' }).click();
    await page.getByTestId('financing-agreement').waitFor();

    const financed = (await admin.get(`/api/invoices/${id}`)).json as unknown as { status: string; factorAmount: number; factorFee: number };
    expect(financed).toMatchObject({ status: 'financed', factorAmount: advance / 100 });
    expect(await page.getByRole('heading', { name: 'Financing checks' }).count()).toBe(0);
    expect(squash(await page.getByTestId('financing-agreement').textContent())).toMatch(/, version \d+$/);
    expect(squash(await page.getByTestId('financing-fee-charged').textContent())).toBe(squash(money(Math.round(financed.factorFee * 100))));
    // Financed today with nothing collected: the fee to date is the fee of day 0 (one discount period, or the minimum).
    expect(squash(await page.getByTestId('financing-fee-accrued').textContent())).toMatch(/€$/);
    await expectAccessibleInEachAppearance(page, baseUrl, 'financed invoice page with its agreement and fees', async () => {
      await page.goto(`${baseUrl}/invoices/${id}`);
      await page.getByTestId('financing-fee-accrued').waitFor();
    });
    // The refused financing answered 409.
    expect(errors.filter((error) => !/status of 409/.test(error))).toEqual([]);
    await close();
  });
});
