import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { croatianIban, oibCheckDigit } from '../../app/utils/validation.ts';
import type { ApiClient } from '../support/api-client.ts';
import { newStrictPage } from '../support/browser.ts';
import { mailsTo } from '../support/outbox.ts';
import { fillWizardDetails } from '../support/onboarding-wizard.ts';
import { browserAndAdmin } from '../support/sessions.ts';

/**
 * The applicant's KYC decision end to end on the demo install: two applicants
 * register through the wizard; staff reject one from its KYC task (with
 * JavaScript) and ask the other for a document from its client page (without);
 * the applicant adds it through the emailed link without JavaScript; staff
 * approve; the client is active and its onboarding workflow goes on.
 */
const baseUrl = inject('baseUrl');
let browser: Browser;
let admin: ApiClient;

beforeAll(async () => ({ browser, admin } = await browserAndAdmin()));
afterAll(() => browser?.close());

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n', 'latin1');
const pdf = (name: string) => ({ name, mimeType: 'application/pdf', buffer: Buffer.concat([PDF, Buffer.from(`% ${name} ${Date.now()}\n`)]) });

function freshOib(): string {
  const first10 = String(Math.floor(Math.random() * 9e9) + 1e9);
  return `${first10}${oibCheckDigit(first10)}`;
}

function toast(page: Page, text: string) {
  return page.locator('.toast').getByText(text);
}

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false> | T | null | undefined | false, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/** Registers a company through the wizard without JavaScript; returns its client id. */
async function register(company: string, email: string): Promise<string> {
  const oib = freshOib();
  const { page, errors, close } = await newStrictPage(browser, { javaScriptEnabled: false });
  await fillWizardDetails(page, `${baseUrl}/onboarding`, {
    companyName: company,
    oib,
    registrationNumber: '080777111',
    contactPerson: 'Marta Horvat',
    email,
    phone: '+385 91 765 4321',
    address: 'Vukovarska 12',
    city: 'Rijeka',
    postalCode: '51000',
    iban: croatianIban('2402006', String(Math.floor(Math.random() * 9e9) + 1e9)),
  });
  await page.setInputFiles('input[name="file_company_registration"]', pdf('izvadak.pdf'));
  await page.getByRole('button', { name: 'Submit registration' }).click();
  await page.getByTestId('wizard-success').waitFor();
  expect(errors).toEqual([]);
  await close();
  const list = await admin.get(`/api/clients?q=${oib}`);
  const [client] = list.json as unknown as Array<{ id: string; status: string; onboardingStatus: string }>;
  expect(client).toMatchObject({ status: 'pending', onboardingStatus: 'in_progress' });
  return client.id;
}

interface TaskJson {
  id: string;
  type: string;
  status: string;
  entityId: string | null;
}

/** The client's open KYC task, once the worker's automated steps have brought the workflow to its review. */
function openKycTask(clientId: string, company: string) {
  return waitFor(`the KYC task of ${company}`, async () => {
    const tasks = (await admin.get(`/api/tasks?q=${encodeURIComponent(company)}&limit=50`)).json as unknown as TaskJson[];
    return tasks.find((task) => task.type === 'kyc_verification' && task.entityId === clientId && (task.status === 'pending' || task.status === 'in_progress'));
  });
}

const clientOf = async (id: string) => (await admin.get(`/api/clients/${id}`)).json as unknown as { status: string; onboardingStatus: string; documents: Array<{ name: string }> };

describe('the KYC decision', () => {
  it('rejects one applicant and, after a document added through the emailed link, approves the other', async () => {
    const stamp = Date.now();
    const rejected = { company: `Odbijena Prijava ${stamp} d.o.o.`, email: `odbijena-${stamp}@primjer.hr` };
    const approved = { company: `Dopuna Prijava ${stamp} d.o.o.`, email: `dopuna-${stamp}@primjer.hr` };
    const rejectedId = await register(rejected.company, rejected.email);
    const approvedId = await register(approved.company, approved.email);

    // Staff with JavaScript: reject the first from its KYC task on /tasks.
    const rejectTask = await openKycTask(rejectedId, rejected.company);
    {
      const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
      await page.goto(`${baseUrl}/tasks?q=${encodeURIComponent(rejected.company)}`);
      await page.waitForLoadState('networkidle');
      const card = page.locator(`[data-task-id="${rejectTask.id}"]`);
      // The KYC task is decided, not completed.
      await expect(card.getByRole('button', { name: 'Complete' }).count()).resolves.toBe(0);
      await card.getByRole('link', { name: 'Decide KYC' }).click();
      const panel = page.getByTestId('task-detail').getByTestId('kyc-panel');
      await panel.getByText('Court register extract').first().waitFor();
      await panel.getByText('Reject…').click();
      await panel.getByLabel('Reason for the rejection (emailed to the applicant)').fill('OIB iz izvatka ne odgovara podacima tvrtke.');
      await panel.getByRole('button', { name: 'Reject application' }).click();
      await toast(page, 'Application rejected').waitFor();
      await panel.getByText(/^Rejected by .* Reason: OIB iz izvatka ne odgovara podacima tvrtke\.$/).waitFor();
      await expect(panel.getByTestId('kyc-actions').count()).resolves.toBe(0);
      expect(errors).toEqual([]);
      await close();
    }
    expect(await clientOf(rejectedId)).toMatchObject({ status: 'inactive', onboardingStatus: 'rejected' });
    const [rejection] = mailsTo(rejected.email);
    expect(rejection).toContain('Razlog: OIB iz izvatka ne odgovara podacima tvrtke.');

    // Staff without JavaScript: ask the second for a tax certificate from its client page.
    await openKycTask(approvedId, approved.company);
    {
      const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie, javaScriptEnabled: false });
      await page.goto(`${baseUrl}/clients/${approvedId}`);
      const panel = page.getByTestId('kyc-panel');
      await expect(panel.getByTestId('kyc-onboarding-status').textContent()).resolves.toBe('Onboarding: In progress');
      await panel.getByText('Request documents…').click();
      await panel.getByLabel('Message to the applicant: which documents are needed').fill('Molimo potvrdu Porezne uprave o nepostojanju duga.');
      await panel.getByRole('button', { name: 'Send request' }).click();
      await page
        .getByTestId('kyc-panel')
        .getByTestId('kyc-open-request')
        .getByText(/Molimo potvrdu Porezne uprave/)
        .waitFor();
      expect(errors).toEqual([]);
      await close();
    }
    const [request] = mailsTo(approved.email);
    expect(request).toContain('Molimo potvrdu Porezne uprave o nepostojanju duga.');
    const link = /http:\/\/localhost:\d+\/onboarding\/documents\/[A-Za-z0-9_-]{43}/.exec(request)?.[0];
    expect(link).toBeTruthy();

    // The applicant: a wrong file is refused (with JavaScript), and the link still works.
    {
      const { page, errors, close } = await newStrictPage(browser);
      await page.goto(link!);
      await page.waitForLoadState('networkidle');
      await page.getByRole('heading', { level: 1, name: 'Additional documents' }).waitFor();
      await page.setInputFiles('input[name="file_tax_certificate"]', { name: 'potvrda.pdf', mimeType: 'application/pdf', buffer: Buffer.from('MZ not a pdf at all') });
      await page.getByRole('button', { name: 'Send documents' }).click();
      await page.getByTestId('kyc-tax_certificate').getByText('Invalid file type. Allowed types: PDF, JPG, JPEG, PNG').waitFor();
      expect(errors.filter((error) => !error.includes('status of 415'))).toEqual([]);
      await close();
    }
    // Without JavaScript: the same refusal, then the certificate goes in.
    {
      const { page, errors, close } = await newStrictPage(browser, { javaScriptEnabled: false });
      await page.goto(link!);
      await page.getByTestId('request-message').getByText('Molimo potvrdu Porezne uprave o nepostojanju duga.').waitFor();
      await page.setInputFiles('input[name="file_tax_certificate"]', { name: 'potvrda.pdf', mimeType: 'application/pdf', buffer: Buffer.from('MZ not a pdf at all') });
      await page.getByRole('button', { name: 'Send documents' }).click();
      await page.getByTestId('kyc-tax_certificate').getByText('Invalid file type. Allowed types: PDF, JPG, JPEG, PNG').waitFor();
      await page.setInputFiles('input[name="file_tax_certificate"]', pdf('potvrda-porezna.pdf'));
      await page.getByRole('button', { name: 'Send documents' }).click();
      await page.getByText('Thank you. We received 1 document; our team continues the review.').waitFor();
      // The link is spent: opened again it says so, and takes no more files.
      await page.goto(link!);
      await page.getByTestId('request-submitted').waitFor();
      await expect(page.locator('input[type="file"]').count()).resolves.toBe(0);
      // The one refused post answered 415, which Chromium reports; nothing else went wrong.
      expect(errors.filter((error) => !error.includes('status of 415'))).toEqual([]);
      await close();
    }
    expect((await clientOf(approvedId)).documents.map((document) => document.name)).toContain('potvrda-porezna.pdf');
    // Staff are told: the review resumes with a new KYC task.
    await openKycTask(approvedId, approved.company);

    // Staff with JavaScript approve from the client page.
    {
      const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
      await page.goto(`${baseUrl}/clients/${approvedId}`);
      await page.waitForLoadState('networkidle');
      const panel = page.getByTestId('kyc-panel');
      await panel.getByText('potvrda-porezna.pdf').waitFor();
      await panel.getByRole('button', { name: 'Approve' }).click();
      await toast(page, 'KYC approved').waitFor();
      await expect(panel.getByTestId('kyc-onboarding-status').textContent()).resolves.toBe('Onboarding: Completed');
      await page.getByTestId('activity-list').getByText('KYC approved').waitFor();
      expect(errors).toEqual([]);
      await close();
    }
    expect(await clientOf(approvedId)).toMatchObject({ status: 'active', onboardingStatus: 'completed' });

    // The workflow went on past the review (the demo definition's limit proposal is next).
    await waitFor('the limit proposal task', async () => {
      const tasks = (await admin.get(`/api/tasks?q=${encodeURIComponent(approved.company)}&limit=50`)).json as unknown as TaskJson[];
      return tasks.find((task) => task.type === 'limit_approval' && task.status === 'pending');
    });
    // Deciding again is refused.
    const again = await admin.post(`/api/clients/${approvedId}/kyc-decision`, { decision: 'reject', reason: 'Kasno' });
    expect(again).toMatchObject({ status: 409, json: { message: 'This KYC application has already been decided' } });
  });

  it('a link that does not exist shows its own page', async () => {
    const { page, errors, close } = await newStrictPage(browser, { javaScriptEnabled: false });
    const response = await page.goto(`${baseUrl}/onboarding/documents/${'A'.repeat(43)}`);
    expect(response?.status()).toBe(404);
    await page.getByTestId('request-unknown').getByText('This link is not valid.', { exact: false }).waitFor();
    expect(errors.filter((error) => !error.includes('status of 404'))).toEqual([]);
    await close();
  });
});
