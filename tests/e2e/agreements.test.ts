import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { oibCheckDigit } from '../../app/utils/validation.ts';
import { markAgreementSigned, saveAgreementPanel } from '../support/agreement-page.ts';
import type { ApiClient } from '../support/api-client.ts';
import { newStrictPage } from '../support/browser.ts';
import { browserAndAdmin, staffSession } from '../support/sessions.ts';
import { pdfText } from '../support/pdf-text.ts';
import { zagrebDay } from '../support/e2e-steps.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;
let admin: ApiClient;

beforeAll(async () => ({ browser, admin } = await browserAndAdmin()));
afterAll(() => browser?.close());

const hrDate = (day: string) => `${day.slice(8, 10)}. ${day.slice(5, 7)}. ${day.slice(0, 4)}.`;

/** A manager created by the admin, signed in with a password only (OTP off), own password set. */
const managerSession = async () =>
  (await staffSession(admin, 'manager', { label: 'agreements-manager', firstName: 'Ugovorna', lastName: 'Voditeljica', ownPassword: 'Own-password-2' })).client;

function freshOib(): string {
  const first10 = `7${String(Date.now()).slice(-9)}`;
  return `${first10}${oibCheckDigit(first10)}`;
}

describe('the factoring agreement on the client page', () => {
  it('a manager creates it without JavaScript, marks it signed, revises it to a later version and downloads the PDF', { timeout: 120_000 }, async () => {
    const manager = await managerSession();
    const company = `Ugovorni Klijent ${Date.now()} d.o.o.`;
    const created = await admin.post('/api/clients', { companyName: company, oib: freshOib(), email: 'ugovor@klijent.hr', city: 'Split', iban: 'HR1723600001101234565' });
    expect(created.status).toBe(201);
    const clientId = String(created.json.id);
    const number = `UF-E2E-${Date.now()}`;

    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: manager.cookie, javaScriptEnabled: false });
    await page.goto(`${baseUrl}/clients/${clientId}`);
    await page.getByRole('heading', { name: 'Factoring agreement' }).waitFor();
    // Without a signed agreement the page says financing is not possible.
    await page.getByTestId('agreement-none-in-force').waitFor();

    const effectiveFrom = zagrebDay(-10);
    await saveAgreementPanel(page, 'New agreement', {
      number,
      effectiveFrom,
      advanceRate: '85',
      feeModel: 'interest_365',
      feeRate: '9.5',
      minimumFee: '50',
      recourse: true,
      recourseDays: '60',
      maxTenorDays: '60',
      disclosed: true,
    });
    await page.getByTestId('agreement-status-1').getByText('Unsigned').waitFor();
    await page.getByTestId('agreement-none-in-force').waitFor();

    await markAgreementSigned(page, 1, zagrebDay(-9));
    const inForce = page.getByTestId('agreement-in-force');
    await inForce.getByText(`In force today: ${number}, version 1`).waitFor();
    await inForce.getByText('9,5 % a year, actual/365').waitFor();
    await inForce.getByText('60 days').first().waitFor();

    // The signed version stays as it is: the revision is version 2, effective later, unsigned.
    const later = zagrebDay(20);
    await saveAgreementPanel(page, 'Revise agreement', { effectiveFrom: later, advanceRate: '88' });
    const versions = page.getByTestId('agreement-versions');
    await versions.getByTestId('agreement-version-2').getByText(hrDate(later)).waitFor();
    await versions.getByTestId('agreement-status-2').getByText('Unsigned').waitFor();
    await versions.getByTestId('agreement-version-1').getByText(hrDate(effectiveFrom)).waitFor();
    await expect(versions.getByTestId('agreement-status-1').textContent()).resolves.toBe(`Signed ${hrDate(zagrebDay(-9))}`);
    await inForce.getByText(`In force today: ${number}, version 1`).waitFor();

    // The PDF of version 2, as the link downloads it, names every term in Croatian.
    const href = await page.getByTestId('agreement-pdf-2').getAttribute('href');
    const download = await page.request.get(`${baseUrl}${href}`);
    expect(download.status()).toBe(200);
    expect(download.headers()['content-type']).toContain('application/pdf');
    const text = (await pdfText(await download.body())).replace(/\s+/g, ' ');
    expect(text).toContain(`Ugovor o faktoringu ${number}`);
    expect(text).toContain('Verzija 2');
    expect(text).toContain('Stopa predujma: 88 % iznosa računa');
    expect(text).toContain('godina od 365 dana');
    expect(text).toContain('Minimalna naknada po računu: 50,00');
    expect(text).toContain('Najdulje razdoblje od izdavanja do dospijeća računa: 60 dana');
    expect(text).toContain(`Klijent: ${company}`);

    // The API sees the same versions.
    const listed = await admin.get(`/api/clients/${clientId}/agreements`);
    expect(
      (listed.json as unknown as Array<{ version: number; signatureStatus: string; effectiveFrom: string }>).map((row) => [row.version, row.signatureStatus, row.effectiveFrom]),
    ).toEqual([
      [2, 'unsigned', later],
      [1, 'signed', effectiveFrom],
    ]);
    expect(errors).toEqual([]);
    await close();
  });

  it('with JavaScript the same form is a dialog; a refused term comes back to its field', { timeout: 60_000 }, async () => {
    const created = await admin.post('/api/clients', { companyName: `Dijalog Ugovor ${Date.now()} d.o.o.`, oib: freshOib(), email: 'dijalog@klijent.hr' });
    expect(created.status).toBe(201);
    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/clients/${String(created.json.id)}`);
    await page.waitForLoadState('networkidle');
    await page.getByRole('link', { name: 'New agreement' }).click();
    const dialog = page.getByRole('dialog', { name: 'New factoring agreement' });
    await dialog.waitFor();
    await dialog.getByLabel('Agreement number *', { exact: true }).fill(`UF-DLG-${Date.now()}`);
    await dialog.getByLabel('Advance rate (%) *', { exact: true }).fill('80');
    await dialog.getByLabel('Fee rate (%) *', { exact: true }).fill('1.23456');
    await dialog.getByRole('button', { name: 'Save agreement' }).click();
    await dialog.getByText('Fee rate must be from 0 to 100, with at most four decimals').waitFor();
    await dialog.getByLabel('Fee rate (%) *', { exact: true }).fill('1.5');
    await dialog.getByRole('button', { name: 'Save agreement' }).click();
    await page.locator('.toast').getByText('Agreement created').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('agreement-status-1').getByText('Unsigned').waitFor();
    expect(errors).toEqual([]);
    await close();
  });
});
