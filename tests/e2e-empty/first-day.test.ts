import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { croatianIban } from '../../app/utils/validation.ts';
import { expectAccessibleInEachAppearance, settle } from '../support/accessibility.ts';
import { markAgreementSigned, saveAgreementPanel } from '../support/agreement-page.ts';
import { ApiClient } from '../support/api-client.ts';
import { newStrictPage } from '../support/browser.ts';
import { browserAndAdmin } from '../support/sessions.ts';
import { mailsTo, outboxMessages } from '../support/outbox.ts';
import { ensureFinanceable } from '../support/financing.ts';
import { approvedInvoice, poll, randomOib, zagrebDay } from '../support/e2e-steps.ts';
import { attachWithJavaScript, fillWizardDetails } from '../support/onboarding-wizard.ts';

/**
 * A new install as docker compose starts it (SEED_DEMO=false): no demo book,
 * only the first admin and the reference data (docs/reference-data.md). What
 * a first day needs must work here without anything the demo book brings.
 */

const baseUrl = inject('baseUrl');
let browser: Browser;
let admin: ApiClient;

beforeAll(async () => ({ browser, admin } = await browserAndAdmin()));
afterAll(() => browser?.close());

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n', 'latin1');
const KYC_TYPES = ['company_registration', 'tax_certificate', 'bank_statement', 'financial_statements', 'director_id'] as const;
const fileFor = (kycType: string) => ({ name: `${kycType}.pdf`, mimeType: 'application/pdf', buffer: Buffer.concat([PDF, Buffer.from(`% ${kycType}\n`)]) });

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

// First, while the book is still empty: the pages' empty states, which the demo book never shows.
describe('the pages of an empty book', () => {
  const EMPTY_PAGES = [
    '/',
    '/clients',
    '/customers',
    '/invoices',
    '/payments?tab=all',
    '/payments?tab=payouts',
    '/payments?tab=bank',
    '/limits?tab=all',
    '/risk',
    '/documents',
    '/tasks',
    '/workflows',
    '/email-automation?tab=campaigns',
    '/email-automation?tab=logs',
    '/email-automation/outbox',
    '/monitoring',
    '/analytics',
    '/search?q=a',
  ];
  for (const url of EMPTY_PAGES) {
    it(`${url} passes the accessibility check in light and dark`, async () => {
      const { page, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
      try {
        await expectAccessibleInEachAppearance(page, baseUrl, `${url} on an empty install`, async () => {
          await page.goto(`${baseUrl}${url}`);
          await settle(page);
        });
      } finally {
        await close();
      }
    });
  }
});

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
    expect(
      templates
        .filter((template) => template.isActive)
        .map((template) => template.trigger)
        .sort(),
    ).toEqual(['client_onboarding', 'debtor_notice', 'dunning_1', 'dunning_2', 'dunning_3', 'dunning_4', 'invoice_verified', 'payment_due', 'payment_overdue']);

    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/workflows?tab=definitions`);
    await expect.poll(() => page.getByTestId('definition-card').count()).toBe(4);
    for (const name of ['Onboarding klijenta', 'Verifikacija fakture', 'Periodična procjena rizika', 'Obrada naplate']) {
      await page.getByTestId('definition-card').filter({ hasText: name }).waitFor();
    }
    await page.goto(`${baseUrl}/email-automation`);
    await page.getByTestId('template-grid').waitFor();
    // Every reference template is active: one per event trigger, the debtor's notice and dunning letters included.
    expect(await page.getByTestId('summary-activeTemplates').textContent()).toMatch(new RegExp(`\\D${templates.length}$`));
    expect(await page.getByTestId('template-card').count()).toBe(templates.length);
    await page.goto(`${baseUrl}/integrations`);
    await expect.poll(() => page.getByTestId('integration-status').count()).toBe(5);
    for (const name of ['HANFA API', 'FINA API', 'E-računi EN 16931', 'Email automatizacija', 'E-potpis']) await page.getByText(name, { exact: true }).first().waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('an applicant registers without JavaScript and appears as a pending client with documents, an onboarding workflow and a KYC task', async () => {
    const oib = randomOib();
    const companyName = `Prvi Dan ${oib} d.o.o.`;
    const email = `prvi-dan-${oib}@example.hr`;
    const { page, errors, close } = await newStrictPage(browser, { javaScriptEnabled: false });
    await fillWizardDetails(page, `${baseUrl}/onboarding`, {
      companyName,
      oib,
      registrationNumber: '080123456',
      contactPerson: 'Ana Prvić',
      email,
      phone: '+385 1 555 0101',
      address: 'Ilica 1',
      city: 'Zagreb',
      postalCode: '10000',
      iban: croatianIban('2484008', '1105500001'),
    });
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
    const instance = await poll(
      'the onboarding workflow to reach the KYC review',
      async () => {
        const found = await instanceOf(client.id, 'client_onboarding');
        return found?.currentStepName === 'KYC pregled' ? found : undefined;
      },
      30_000,
    );
    expect(instance).toMatchObject({ status: 'running', currentStep: 3, entityName: companyName, startEvent: null });
    const tasks = (await admin.get(`/api/tasks?q=${encodeURIComponent(companyName)}`)).json as unknown as Array<{
      type: string;
      status: string;
      entityType: string;
      entityId: string;
      workflowInstanceId: string;
    }>;
    expect(tasks).toEqual([expect.objectContaining({ type: 'kyc_verification', status: 'pending', entityType: 'client', entityId: client.id, workflowInstanceId: instance.id })]);

    // The reference flow sends its client_onboarding mail (the welcome) at its end, after the KYC review and
    // the limit: nothing has gone to the applicant yet, and nothing failed for want of a template.
    expect(outboxMessages().filter((message) => message.includes(email))).toEqual([]);
    const failed = await admin.get(`/api/workflow-instances?status=failed&limit=1000`);
    expect((failed.json as unknown as Instance[]).filter((row) => row.entityId === client.id)).toEqual([]);
  });

  it('starts the invoice verification and the risk review on their events, visible on /workflows', async () => {
    const client = await admin.post('/api/clients', { companyName: `Klijent Prvog Dana ${Date.now()} d.o.o.`, oib: randomOib(), email: 'klijent@example.hr' });
    expect(client.status).toBe(201);
    // A client entered by staff is financed only once its KYC is approved; the verification's first check asks the same.
    expect((await admin.post(`/api/clients/${client.json.id}/kyc-decision`, { decision: 'approve' })).status).toBe(200);
    const customer = await admin.post('/api/customers', { companyName: `Kupac Prvog Dana ${Date.now()} d.d.`, oib: randomOib() });
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

    const verification = await poll('the invoice verification', () => instanceOf(String(invoice.json.id), 'invoice_verification'), 30_000);
    expect(verification).toMatchObject({ startEvent: 'invoice_submitted', entityName: invoiceNumber });
    const review = await poll('the risk review', () => instanceOf(String(customer.json.id), 'risk_assessment'), 30_000);
    expect(review).toMatchObject({ startEvent: 'risk_assessment_completed' });

    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/workflows`);
    const card = page.locator(`[data-testid="instance-card"][data-instance-id="${verification.id}"]`);
    await card.getByText(`· ${invoiceNumber}`).waitFor();
    expect(await card.getByText('Last error').count()).toBe(0);
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

// ---------------------------------------------------------------------------
// The applicant's KYC decision on a first day: two companies register, one
// without JavaScript and one with it; staff reject the first and ask the
// second for a document, which its applicant adds through the emailed link;
// staff approve it; it is active, the reference onboarding workflow ends with
// the default welcome template, and its first invoice is financed.

const namedPdf = (name: string) => ({ name, mimeType: 'application/pdf', buffer: Buffer.concat([PDF, Buffer.from(`% ${name} ${randomUUID()}\n`)]) });

function toast(page: Page, text: string) {
  return page.locator('.toast').getByText(text);
}

async function waitUntil<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 400));
  }
}

/** A second manager (four eyes on invoices), signing in with a password only. */
async function manager(): Promise<ApiClient> {
  const email = `voditelj-${randomUUID().slice(0, 8)}@finflow.local`;
  const password = 'Voditelj-lozinka-1';
  const created = await admin.post('/api/admin/users', { email, firstName: 'Vesna', lastName: 'Voditelj', role: 'manager', password });
  expect(created.status).toBe(201);
  expect((await admin.put(`/api/admin/users/${String(created.json.id)}/otp`, { otpEnabled: false })).status).toBe(200);
  const client = new ApiClient();
  expect((await client.post('/api/auth/login', { email, password })).status).toBe(200);
  return client;
}

interface Applicant {
  company: string;
  email: string;
  oib: string;
}

async function fillDetails(page: Page, applicant: Applicant) {
  await fillWizardDetails(page, `${baseUrl}/onboarding`, {
    companyName: applicant.company,
    oib: applicant.oib,
    registrationNumber: '080555222',
    contactPerson: 'Lucija Kovač',
    email: applicant.email,
    phone: '+385 98 111 2222',
    address: 'Trg bana Jelačića 3',
    city: 'Zagreb',
    postalCode: '10000',
    iban: croatianIban('2360000', String(Math.floor(Math.random() * 9e9) + 1e9)),
    creditLimit: '80000',
  });
}

async function registerWithoutJavaScript(applicant: Applicant) {
  const { page, errors, close } = await newStrictPage(browser, { javaScriptEnabled: false });
  await fillDetails(page, applicant);
  await page.setInputFiles('input[name="file_company_registration"]', namedPdf('izvadak.pdf'));
  await page.setInputFiles('input[name="file_director_id"]', namedPdf('osobna.pdf'));
  await page.getByRole('button', { name: 'Submit registration' }).click();
  await page.getByTestId('wizard-success').waitFor();
  expect(errors).toEqual([]);
  await close();
}

async function registerWithJavaScript(applicant: Applicant) {
  const { page, errors, close } = await newStrictPage(browser);
  await fillDetails(page, applicant);
  await page.waitForLoadState('networkidle');
  for (const [kycType, name] of [
    ['company_registration', 'izvadak.pdf'],
    ['director_id', 'osobna.pdf'],
  ] as const) {
    await attachWithJavaScript(page, kycType, namedPdf(name));
  }
  await page.getByRole('button', { name: 'Submit registration' }).click();
  await page.getByTestId('wizard-success').waitFor();
  expect(errors).toEqual([]);
  await close();
}

interface ClientJson {
  id: string;
  status: string;
  onboardingStatus: string;
  documents: Array<{ name: string }>;
}
interface TaskJson {
  id: string;
  type: string;
  status: string;
  entityId: string | null;
}

/** The pending client of an applicant with its documents, and its KYC task once the workflow reaches the review. */
async function pendingApplication(applicant: Applicant) {
  const [listed] = (await admin.get(`/api/clients?q=${applicant.oib}`)).json as unknown as ClientJson[];
  const client = (await admin.get(`/api/clients/${listed.id}`)).json as unknown as ClientJson;
  expect(client).toMatchObject({ status: 'pending', onboardingStatus: 'in_progress' });
  expect(client.documents.map((document) => document.name).sort()).toEqual(['izvadak.pdf', 'osobna.pdf']);
  const task = await openTask(client.id, applicant.company, 'kyc_verification');
  return { clientId: client.id, taskId: task.id };
}

function openTask(clientId: string, company: string, type: string) {
  return waitUntil(`the ${type} task of ${company}`, async () => {
    const tasks = (await admin.get(`/api/tasks?q=${encodeURIComponent(company)}&limit=50`)).json as unknown as TaskJson[];
    return tasks.find((task) => task.type === type && task.entityId === clientId && (task.status === 'pending' || task.status === 'in_progress'));
  });
}

describe('the first applicants of a new install', () => {
  it('one is rejected; the other adds a requested document, is approved, welcomed and financed', { timeout: 240_000 }, async () => {
    const stamp = Date.now();
    const rejected: Applicant = { company: `Odbijeni Prvi ${stamp} d.o.o.`, email: `odbijeni-${stamp}@primjer.hr`, oib: randomOib() };
    const accepted: Applicant = { company: `Primljeni Prvi ${stamp} d.o.o.`, email: `primljeni-${stamp}@primjer.hr`, oib: randomOib() };
    await registerWithoutJavaScript(rejected);
    await registerWithJavaScript(accepted);
    const first = await pendingApplication(rejected);
    const second = await pendingApplication(accepted);

    // Rejected from its KYC task, with JavaScript: the applicant is emailed the reason.
    {
      const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
      await page.goto(`${baseUrl}/tasks?task=${first.taskId}`);
      await page.waitForLoadState('networkidle');
      const panel = page.getByTestId('task-detail').getByTestId('kyc-panel');
      await panel.getByText('Reject…').click();
      await panel.getByLabel('Reason for the rejection (emailed to the applicant)').fill('Tvrtka ne ispunjava uvjete za faktoring.');
      await panel.getByRole('button', { name: 'Reject application' }).click();
      await toast(page, 'Application rejected').waitFor();
      expect(errors).toEqual([]);
      await close();
    }
    expect((await admin.get(`/api/clients/${first.clientId}`)).json).toMatchObject({ status: 'inactive', onboardingStatus: 'rejected' });
    expect(mailsTo(rejected.email).join('\n')).toContain('Razlog: Tvrtka ne ispunjava uvjete za faktoring.');

    // Asked for a document from its client page, without JavaScript.
    {
      const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie, javaScriptEnabled: false });
      await page.goto(`${baseUrl}/clients/${second.clientId}`);
      const panel = page.getByTestId('kyc-panel');
      await panel.getByText('Request documents…').click();
      await panel.getByLabel('Message to the applicant: which documents are needed').fill('Molimo izvode banke za zadnja tri mjeseca.');
      await panel.getByRole('button', { name: 'Send request' }).click();
      await page.getByTestId('kyc-open-request').waitFor();
      expect(errors).toEqual([]);
      await close();
    }
    const link = /http:\/\/localhost:\d+\/onboarding\/documents\/[A-Za-z0-9_-]{43}/.exec(mailsTo(accepted.email).join('\n'))?.[0];
    expect(link).toBeTruthy();

    // The applicant adds it through the link, without JavaScript.
    {
      const { page, errors, close } = await newStrictPage(browser, { javaScriptEnabled: false });
      await page.goto(link!);
      await page.getByTestId('request-message').getByText('Molimo izvode banke za zadnja tri mjeseca.').waitFor();
      await page.setInputFiles('input[name="file_bank_statement"]', namedPdf('izvodi-banke.pdf'));
      await page.getByRole('button', { name: 'Send documents' }).click();
      await page.getByTestId('request-submitted').waitFor();
      expect(errors).toEqual([]);
      await close();
    }
    expect(((await admin.get(`/api/clients/${second.clientId}`)).json as unknown as ClientJson).documents.map((document) => document.name)).toContain('izvodi-banke.pdf');

    // The review resumes with a new KYC task; approved from it.
    const resumed = await openTask(second.clientId, accepted.company, 'kyc_verification');
    {
      const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
      await page.goto(`${baseUrl}/tasks?task=${resumed.id}`);
      await page.waitForLoadState('networkidle');
      const panel = page.getByTestId('task-detail').getByTestId('kyc-panel');
      await panel.getByText('izvodi-banke.pdf').waitFor();
      await panel.getByRole('button', { name: 'Approve' }).click();
      await toast(page, 'KYC approved').waitFor();
      expect(errors).toEqual([]);
      await close();
    }
    expect((await admin.get(`/api/clients/${second.clientId}`)).json).toMatchObject({ status: 'active', onboardingStatus: 'completed' });

    // The desired limit from the wizard is approved, the workflow's limit step done: the welcome template goes out.
    const b = await manager();
    const [limitRequest] = (await admin.get(`/api/credit-limits?q=${accepted.oib}&status=pending`)).json as unknown as Array<{ id: string }>;
    expect((await b.put(`/api/credit-limits/${limitRequest.id}/approve`, { approvedLimit: 80000 })).status).toBe(200);
    const limitTask = await openTask(second.clientId, accepted.company, 'limit_approval');
    expect((await admin.put(`/api/tasks/${limitTask.id}`, { status: 'in_progress' })).status).toBe(200);
    expect((await admin.put(`/api/tasks/${limitTask.id}`, { status: 'completed' })).status).toBe(200);
    // The default client_onboarding template (db/reference-data.ts), rendered for this client.
    const welcome = await waitUntil('the welcome mail', async () => mailsTo(accepted.email).find((mail) => mail.includes(`Registracija tvrtke ${accepted.company} je odobrena`)));
    expect(welcome).toContain('Poštovani Lucija Kovač');

    // No financing without a signed agreement in force: staff write the client's agreement on its page and mark it signed.
    {
      const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie, javaScriptEnabled: false });
      await page.goto(`${baseUrl}/clients/${second.clientId}`);
      await page.getByTestId('agreement-none-in-force').waitFor();
      await saveAgreementPanel(page, 'New agreement', {
        number: `UF-PD-${stamp}`,
        effectiveFrom: zagrebDay(0),
        advanceRate: '80',
        feeModel: 'discount_30',
        feeRate: '1.5',
        recourse: true,
        recourseDays: '60',
        maxTenorDays: '90',
        disclosed: true,
        // A new client's first invoices are all on one or two debtors: the 30 % concentration limit applies from 100,000 EUR funded.
        concentrationThreshold: '100000',
      });
      await markAgreementSigned(page, 1, zagrebDay(0));
      await page.getByTestId('agreement-in-force').getByText(`UF-PD-${stamp}, version 1`, { exact: false }).waitFor();
      expect(errors).toEqual([]);
      await close();
    }

    // Its first invoice: verified, approved by another manager, financed.
    const customer = await admin.post('/api/customers', { companyName: `Prvi Kupac ${stamp} d.d.`, oib: randomOib() });
    expect(customer.status).toBe(201);
    // The debtor's limit (docs/lifecycle.md#credit-limits), before its first financing: staff ask for it on /limits without JavaScript, another manager approves it there.
    {
      const debtorId = String(customer.json.id);
      const asked = await newStrictPage(browser, { sessionCookie: admin.cookie, javaScriptEnabled: false });
      await asked.page.goto(`${baseUrl}/limits?new=1&for=customer&customer=${debtorId}`);
      const panel = asked.page.getByTestId('create-panel');
      await expect(panel.getByLabel('Debtor *').inputValue()).resolves.toBe(debtorId);
      await panel.getByLabel('Requested limit (EUR) *').fill('50000');
      await panel.getByLabel('Reason *').fill('Prvi dužnik nove knjige.');
      await panel.getByRole('button', { name: 'Submit request' }).click();
      await asked.page.getByTestId('tab-pending').waitFor();
      expect(asked.errors).toEqual([]);
      await asked.close();
      const [debtorRequest] = (await admin.get(`/api/credit-limits?partyType=customer&status=pending&q=${encodeURIComponent(String(customer.json.companyName))}`))
        .json as unknown as Array<{
        id: string;
        customerId: string;
      }>;
      expect(debtorRequest.customerId).toBe(debtorId);
      const approver = await manager();
      // A password set by an admin is replaced before the pages open.
      expect(
        (await approver.put('/api/auth/change-password', { currentPassword: 'Voditelj-lozinka-1', newPassword: 'Vlastita-lozinka-2', confirmPassword: 'Vlastita-lozinka-2' }))
          .status,
      ).toBe(200);
      const decided = await newStrictPage(browser, { sessionCookie: approver.cookie });
      await decided.page.goto(`${baseUrl}/limits?kind=customer`);
      await decided.page.waitForLoadState('networkidle');
      await decided.page.locator(`[data-id="${debtorRequest.id}"]`).getByRole('button', { name: 'Approve' }).click();
      await toast(decided.page, 'Credit limit approved successfully').waitFor();
      expect(decided.errors).toEqual([]);
      await decided.close();
      expect((await admin.get(`/api/customers/${debtorId}`)).json).toMatchObject({ creditLimit: 50000, availableCredit: 50000 });
    }
    const id = await approvedInvoice(admin, b, {
      clientId: second.clientId,
      customerId: String(customer.json.id),
      invoiceNumber: `PRVA-${stamp}`,
      amount: 10000,
      description: 'Prva faktura za financiranje',
    });
    // Its agreement and the debtor's limit (until the agreement and the debtor limit are set up through the API here).
    await ensureFinanceable(second.clientId, String(customer.json.id));
    const financed = await b.put(`/api/invoices/${id}/finance`);
    expect(financed).toMatchObject({ status: 200, json: { status: 'financed', factorAmount: 8000 } });
  });
});
