import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { croatianIban, oibCheckDigit } from '../../app/utils/validation.ts';
import { type ApiClient, signInAsAdmin } from '../support/api-client.ts';
import { launchBrowser, newStrictPage } from '../support/browser.ts';

/**
 * A new install as docker compose starts it (SEED_DEMO=false): no demo book,
 * only the first admin and the reference data (docs/reference-data.md). What
 * a first day needs must work here without anything the demo book brings.
 */

const baseUrl = inject('baseUrl');
let browser: Browser;
let admin: ApiClient;

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await signInAsAdmin();
});
afterAll(async () => {
  await browser?.close();
});

function freshOib(): string {
  const first10 = String(Math.floor(Math.random() * 9e9) + 1e9);
  return `${first10}${oibCheckDigit(first10)}`;
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n', 'latin1');
const KYC_TYPES = ['company_registration', 'tax_certificate', 'bank_statement', 'financial_statements', 'director_id'] as const;
const fileFor = (kycType: string) => ({ name: `${kycType}.pdf`, mimeType: 'application/pdf', buffer: Buffer.concat([PDF, Buffer.from(`% ${kycType}\n`)]) });

/** Every message in the local outbox (SMTP_URL unset), decoded from quoted-printable. */
function outboxMessages(): string[] {
  const dir = path.join(inject('dataDir'), 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .sort()
    .map((file) =>
      fs
        .readFileSync(path.join(dir, file), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    );
}

async function poll<T>(read: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

interface Instance {
  id: string;
  workflowType: string;
  status: string;
  entityId: string;
  entityName: string | null;
  currentStep: number;
  currentStepName: string | null;
  startEvent: string | null;
}
const instanceOf = async (entityId: string, workflowType: string) =>
  ((await admin.get('/api/workflow-instances?limit=1000')).json as unknown as Instance[]).find(
    (instance) => instance.entityId === entityId && instance.workflowType === workflowType,
  );

describe('a fresh install without the demo book', () => {
  it('has the reference data: four active workflow definitions, an active template per event trigger, five integrations', async () => {
    expect((await admin.get('/api/clients')).json).toEqual([]);
    const definitions = (await admin.get('/api/workflows')).json as unknown as Array<{ type: string; isActive: boolean }>;
    expect(definitions.map((definition) => [definition.type, definition.isActive]).sort()).toEqual([
      ['client_onboarding', true],
      ['invoice_verification', true],
      ['payment_processing', true],
      ['risk_assessment', true],
    ]);
    const templates = (await admin.get('/api/email/templates')).json as unknown as Array<{ trigger: string; isActive: boolean }>;
    expect(templates.filter((template) => template.isActive).map((template) => template.trigger).sort()).toEqual([
      'client_onboarding',
      'invoice_verified',
      'payment_due',
      'payment_overdue',
    ]);

    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/workflows?tab=definitions`);
    await expect.poll(() => page.getByTestId('definition-card').count()).toBe(4);
    for (const name of ['Onboarding klijenta', 'Verifikacija fakture', 'Periodična procjena rizika', 'Obrada naplate']) {
      await page.getByTestId('definition-card').filter({ hasText: name }).waitFor();
    }
    await page.goto(`${baseUrl}/email-automation`);
    await page.getByTestId('template-grid').waitFor();
    expect(await page.getByTestId('summary-activeTemplates').textContent()).toContain('4');
    expect(await page.getByTestId('template-card').count()).toBe(4);
    await page.goto(`${baseUrl}/integrations`);
    await expect.poll(() => page.getByTestId('integration-status').count()).toBe(5);
    for (const name of ['HANFA API', 'FINA API', 'E-računi EN 16931', 'Email automatizacija', 'E-potpis']) await page.getByText(name, { exact: true }).first().waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('an applicant registers without JavaScript and appears as a pending client with documents, an onboarding workflow and a KYC task', async () => {
    const oib = freshOib();
    const companyName = `Prvi Dan ${oib} d.o.o.`;
    const email = `prvi-dan-${oib}@example.hr`;
    const { page, errors, close } = await newStrictPage(browser, { javaScriptEnabled: false });
    await page.goto(`${baseUrl}/onboarding`);
    await page.getByText('Step 1 of 4').waitFor();
    await page.fill('input[name="companyName"]', companyName);
    await page.fill('input[name="oib"]', oib);
    await page.fill('input[name="registrationNumber"]', '080123456');
    await page.fill('input[name="contactPerson"]', 'Ana Prvić');
    await page.fill('input[name="email"]', email);
    await page.fill('input[name="phone"]', '+385 1 555 0101');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Step 2 of 4').waitFor();
    await page.fill('input[name="address"]', 'Ilica 1');
    await page.fill('input[name="city"]', 'Zagreb');
    await page.fill('input[name="postalCode"]', '10000');
    await page.fill('input[name="iban"]', croatianIban('2484008', '1105500001'));
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Step 3 of 4').waitFor();
    for (const kycType of KYC_TYPES) await page.setInputFiles(`input[name="file_${kycType}"]`, fileFor(kycType));
    await page.getByRole('button', { name: 'Submit registration' }).click();
    await submitted(page);
    expect(errors).toEqual([]);
    await close();

    const clients = (await admin.get(`/api/clients?q=${oib}`)).json as unknown as Array<{ id: string; status: string; companyName: string }>;
    expect(clients).toHaveLength(1);
    const client = clients[0];
    expect(client).toMatchObject({ status: 'pending', companyName });
    const detail = await admin.get(`/api/clients/${client.id}`);
    expect((detail.json.documents as Array<{ name: string }>).map((document) => document.name).sort()).toEqual(KYC_TYPES.map((kycType) => `${kycType}.pdf`).sort());

    // The reference onboarding definition runs: its automatic steps in the worker, then it waits for the KYC review.
    const instance = await poll(async () => {
      const found = await instanceOf(client.id, 'client_onboarding');
      return found?.currentStepName === 'KYC pregled' ? found : undefined;
    }, 'the onboarding workflow to reach the KYC review');
    expect(instance).toMatchObject({ status: 'running', currentStep: 3, entityName: companyName, startEvent: null });
    const tasks = (await admin.get(`/api/tasks?q=${encodeURIComponent(companyName)}`)).json as unknown as Array<{
      type: string;
      status: string;
      entityType: string;
      entityId: string;
      workflowInstanceId: string;
    }>;
    expect(tasks).toEqual([
      expect.objectContaining({ type: 'kyc_verification', status: 'pending', entityType: 'client', entityId: client.id, workflowInstanceId: instance.id }),
    ]);

    // The reference flow sends its client_onboarding mail (the welcome) at its end, after the KYC review and
    // the limit: nothing has gone to the applicant yet, and nothing failed for want of a template.
    expect(outboxMessages().filter((message) => message.includes(email))).toEqual([]);
    const failed = await admin.get(`/api/workflow-instances?status=failed&limit=1000`);
    expect((failed.json as unknown as Instance[]).filter((row) => row.entityId === client.id)).toEqual([]);
  });

  it('starts the invoice verification and the risk review on their events, visible on /workflows', async () => {
    const client = await admin.post('/api/clients', { companyName: `Klijent Prvog Dana ${Date.now()} d.o.o.`, oib: freshOib(), email: 'klijent@example.hr' });
    expect(client.status).toBe(201);
    const customer = await admin.post('/api/customers', { companyName: `Kupac Prvog Dana ${Date.now()} d.d.`, oib: freshOib() });
    expect(customer.status).toBe(201);
    const invoiceNumber = `PD-${Date.now()}`;
    const invoice = await admin.post('/api/invoices', {
      clientId: client.json.id,
      customerId: customer.json.id,
      invoiceNumber,
      issueDate: new Date().toISOString().slice(0, 10),
      dueDate: new Date(Date.now() + 45 * 86_400_000).toISOString().slice(0, 10),
      amount: 1000,
      currency: 'EUR',
      description: 'Prva faktura',
    });
    expect(invoice.status).toBe(201);
    const assessment = await admin.post('/api/risk-assessments', { entityType: 'customer', entityId: customer.json.id });
    expect(assessment.status).toBe(201);

    const verification = await poll(() => instanceOf(String(invoice.json.id), 'invoice_verification'), 'the invoice verification');
    expect(verification).toMatchObject({ startEvent: 'invoice_submitted', entityName: invoiceNumber });
    const review = await poll(() => instanceOf(String(customer.json.id), 'risk_assessment'), 'the risk review');
    expect(review).toMatchObject({ startEvent: 'risk_assessment_completed' });

    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/workflows`);
    const card = page.locator(`[data-testid="instance-card"][data-instance-id="${verification.id}"]`);
    await card.getByText(invoiceNumber).waitFor();
    await card.getByText("by the invoice's submission").waitFor();
    await page.locator(`[data-testid="instance-card"][data-instance-id="${review.id}"]`).getByText('by a risk assessment request').waitFor();
    expect(errors).toEqual([]);
    await close();
  });
});

async function submitted(page: Page) {
  await page.getByTestId('wizard-success').waitFor();
  await page.getByText('Step 4 of 4').waitFor();
}
