import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { INTEGRATION_TYPES } from '../../app/integrations/types.ts';
import { croatianIban } from '../../app/utils/validation.ts';
import { auditPage, expectAccessibleInEachAppearance, gotoWithoutJavaScript, pageRouteIds, renderedRouteIds, settle } from '../support/accessibility.ts';
import type { ApiClient } from '../support/api-client.ts';
import { newStrictPage } from '../support/browser.ts';
import { fillWizardDetails } from '../support/onboarding-wizard.ts';
import { outboxFiles } from '../support/outbox.ts';
import { browserAndAdmin } from '../support/sessions.ts';
import { poll, randomOib } from '../support/e2e-steps.ts';

/**
 * Every page, in light and dark, with JavaScript and without: axe finds no
 * serious or critical violation, and there is exactly one main landmark and
 * one h1 (tests/support/accessibility.ts). The states below cover every page
 * route in app/routes; the last test fails when a page route has none.
 */

const baseUrl = inject('baseUrl');
const NO_MATCH = 'zz-no-such-record-qq';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

interface Ids {
  client: string;
  customer: string;
  invoice: string;
  task: string;
  assessment: string;
  definition: string;
  instance: string;
  template: string;
  outboxMessage: string;
  setPasswordPath: string;
  setupUser: { email: string; password: string };
  /** An applicant registered through the wizard, in KYC review, asked for documents. */
  applicant: string;
  kycTask: string;
  documentRequestPath: string;
}

/** A state of a page: where it is, and (optionally) what to open on it with JavaScript. */
interface State {
  path: (ids: Ids) => string;
  /** A control on the page that opens a dialog, menu or list box; the state is the page with it open. */
  open?: { role: 'link' | 'button' | 'combobox'; name: string | RegExp; shows: 'dialog' | 'alertdialog' | 'menu' | 'listbox' };
  /** What the state is, when the path does not say it. */
  label?: string;
  /** What to do on the loaded page to reach the state (e.g. open a disclosure). */
  then?: (page: Page) => Promise<void>;
}

const at = (url: string, label?: string): State => ({ path: () => url, label });

/** Opens every `<details>` whose summary reads `text` (the first one when `first`). */
const expand =
  (text: string, { first = false } = {}) =>
  async (page: Page) => {
    const summaries = page.locator('summary', { hasText: text });
    for (const summary of first ? [summaries.first()] : await summaries.all()) await summary.click();
  };

const SHELL_STATES: State[] = [
  at('/', 'dashboard'),
  at('/?period=7d'),
  at('/clients'),
  at('/clients?new=1', 'create panel'),
  at(`/clients?q=${NO_MATCH}`, 'empty search'),
  { path: () => '/clients', open: { role: 'link', name: 'Dodaj klijenta', shows: 'dialog' } },
  { path: (ids) => `/clients/${ids.client}` },
  { path: (ids) => `/clients/${ids.client}?agreement=edit`, label: 'agreement panel' },
  { path: (ids) => `/clients/${ids.client}`, label: 'agreement dialog', open: { role: 'link', name: /^(New|Revise) agreement$/, shows: 'dialog' } },
  { path: (ids) => `/clients/${ids.applicant}`, label: 'applicant in KYC review' },
  { path: (ids) => `/clients/${ids.applicant}?agreement=edit`, label: 'applicant agreement panel' },
  {
    path: (ids) => `/clients/${ids.applicant}`,
    label: 'KYC reject and request forms open',
    then: async (page) => {
      await expand('Reject…')(page);
      await expand('Request documents…')(page);
    },
  },
  at(`/clients/${UNKNOWN_ID}`, 'unknown client'),
  at('/customers'),
  at('/customers?new=1', 'create panel'),
  at(`/customers?q=${NO_MATCH}`, 'empty search'),
  { path: () => '/customers', open: { role: 'link', name: 'Dodaj kupca', shows: 'dialog' } },
  { path: (ids) => `/customers/${ids.customer}` },
  at('/invoices'),
  at('/invoices?new=1', 'add panel'),
  at(`/invoices?q=${NO_MATCH}`, 'empty search'),
  at('/invoices?tab=approved'),
  { ...at('/invoices?tab=pending', 'reject form open'), then: expand('Reject', { first: true }) },
  { ...at('/invoices?tab=approved', 'finance confirmation open'), then: expand('Financiraj', { first: true }) },
  { path: () => '/invoices', open: { role: 'link', name: 'Dodaj fakturu', shows: 'dialog' } },
  { path: (ids) => `/invoices/${ids.invoice}` },
  ...['pending', 'confirmed', 'failed', 'refunded', 'all', 'payouts', 'bank'].map((tab) => at(`/payments?tab=${tab}`)),
  at('/payments?new=1', 'record panel'),
  at(`/payments?tab=all&q=${NO_MATCH}`, 'empty search'),
  { path: () => '/payments', open: { role: 'link', name: 'Record payment', shows: 'dialog' } },
  ...['pending', 'approved', 'rejected', 'all'].map((tab) => at(`/limits?tab=${tab}`)),
  at('/limits?new=1', 'request panel'),
  at('/limits?kind=customer', 'debtor limits'),
  at('/limits?new=1&for=customer', "request panel for a debtor's limit"),
  { path: () => '/limits', open: { role: 'link', name: 'New limit request', shows: 'dialog' } },
  at('/risk'),
  at('/risk?new=1', 'new assessment panel'),
  { path: (ids) => `/risk?details=${ids.assessment}`, label: 'details panel' },
  { path: (ids) => `/risk?edit=${ids.assessment}`, label: 'edit panel' },
  at(`/risk?q=${NO_MATCH}`, 'empty search'),
  ...['all', 'signatures', 'recent', 'invoice', 'contract'].map((tab) => at(`/documents?tab=${tab}`)),
  at('/documents?upload=1', 'upload panel'),
  at(`/documents?q=${NO_MATCH}`, 'empty search'),
  { path: () => '/documents', open: { role: 'button', name: 'Upload document', shows: 'dialog' } },
  at('/tasks'),
  at('/tasks?new=1', 'new task panel'),
  { path: (ids) => `/tasks?task=${ids.task}`, label: 'details panel' },
  { path: (ids) => `/tasks?edit=${ids.task}`, label: 'edit panel' },
  { path: (ids) => `/tasks?task=${ids.kycTask}`, label: 'KYC task details' },
  at('/tasks?tab=completed'),
  at(`/tasks?q=${NO_MATCH}`, 'empty search'),
  { path: () => '/tasks', open: { role: 'link', name: 'New task', shows: 'dialog' } },
  at('/workflows'),
  at('/workflows?tab=definitions'),
  { path: (ids) => `/workflows?details=${ids.instance}`, label: 'instance details' },
  at('/workflows?tab=definitions&edit=new', 'new definition'),
  { path: (ids) => `/workflows?tab=definitions&edit=${ids.definition}`, label: 'edit definition' },
  { path: (ids) => `/workflows?tab=definitions&test=${ids.definition}`, label: 'test definition' },
  at('/email-automation'),
  at('/email-automation?new=template', 'new template panel'),
  { path: (ids) => `/email-automation?edit=${ids.template}`, label: 'edit template' },
  { path: (ids) => `/email-automation?preview=${ids.template}`, label: 'template preview' },
  at('/email-automation?tab=campaigns'),
  at('/email-automation?tab=campaigns&new=campaign', 'new campaign panel'),
  at('/email-automation?tab=logs'),
  { path: () => '/email-automation', open: { role: 'link', name: 'Novi predložak', shows: 'dialog' } },
  { path: () => '/email-automation?tab=campaigns', open: { role: 'link', name: 'Nova kampanja', shows: 'dialog' } },
  at('/email-automation/outbox'),
  { path: (ids) => `/email-automation/outbox?message=${ids.outboxMessage}`, label: 'one message' },
  { path: (ids) => `/email-automation/outbox?message=${ids.outboxMessage}`, label: 'message source open', then: expand('', { first: true }) },
  ...['overview', 'croatian', 'general'].map((tab) => at(`/integrations?tab=${tab}`)),
  ...INTEGRATION_TYPES.flatMap((type) => ['overview', 'configure', 'logs', 'setup'].map((tab) => at(`/integrations/${type}?tab=${tab}`))),
  at('/monitoring'),
  ...['overview', 'performance', 'risk', 'financial', 'ageing'].map((tab) => at(`/analytics?tab=${tab}`)),
  { path: (ids) => `/analytics?tab=ageing&by=client&party=${ids.client}`, label: 'ageing drill-down' },
  at('/search', 'no query'),
  at('/search?q=a', 'results'),
  at(`/search?q=${NO_MATCH}`, 'no results'),
  at('/settings'),
  { path: () => '/settings', open: { role: 'button', name: 'Add user', shows: 'dialog' } },
  { path: () => '/settings', open: { role: 'combobox', name: 'Role', shows: 'listbox' } },
  { path: () => '/settings', open: { role: 'link', name: /^Reset authenticator of /, shows: 'alertdialog' } },
  { path: () => '/', open: { role: 'button', name: 'User menu', shows: 'menu' } },
  at('/profile'),
  at('/no-such-page', 'not found, signed in'),
];

/** The states whose markup differs without JavaScript: the shell's no-JS language switcher, the create panels' plain posts, the no-JS twins of Radix controls (settings, documents). */
const NO_SCRIPT_STATES: State[] = [
  '/',
  '/clients?new=1',
  '/invoices?new=1',
  '/payments?new=1',
  '/tasks?new=1',
  '/documents',
  '/documents?upload=1',
  '/email-automation?new=template',
  '/settings',
  '/profile',
].map((url) => at(url));

const describeState = (state: State) =>
  `${state.path(PLACEHOLDER_IDS)}${state.label ? ` (${state.label})` : ''}${state.open ? ` with the ${state.open.shows} of '${state.open.name}' open` : ''}`;

// Test names are built before the ids are known; the real ids replace these at run time.
const PLACEHOLDER_IDS: Ids = {
  client: ':clientId',
  customer: ':customerId',
  invoice: ':invoiceId',
  task: ':taskId',
  assessment: ':assessmentId',
  definition: ':definitionId',
  instance: ':instanceId',
  template: ':templateId',
  outboxMessage: ':message',
  setPasswordPath: '/set-password/:token',
  setupUser: { email: ':email', password: '' },
  applicant: ':applicantId',
  kycTask: ':kycTaskId',
  documentRequestPath: '/onboarding/documents/:token',
};

let browser: Browser;
let admin: ApiClient;
let ids: Ids;
/** Route ids (Remix) that a state above rendered: the coverage test compares them with app/routes. */
const renderedRoutes = new Set<string>();

async function firstId(listPath: string): Promise<string> {
  const response = await admin.get(listPath);
  const id = Array.isArray(response.json) ? (response.json[0] as { id?: string } | undefined)?.id : undefined;
  if (response.status !== 200 || !id) throw new Error(`no record to show from GET ${listPath} (${response.status})`);
  return id;
}

const mailWith = (what: string, text: string) => poll(what, () => outboxFiles().findLast((file) => file.text.includes(text)));

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n', 'latin1');
const pdf = (name: string) => ({ name, mimeType: 'application/pdf', buffer: Buffer.concat([PDF, Buffer.from(`% ${name} ${Date.now()}\n`)]) });

/** Steps 1 and 2 of the wizard, filled in for `company`; the page is left on step 3. */
async function fillApplicantDetails(page: Page, company: string, email: string) {
  await fillWizardDetails(page, `${baseUrl}/onboarding?step=1`, {
    companyName: company,
    oib: randomOib(),
    registrationNumber: '080777111',
    contactPerson: 'Iva Ivić',
    email,
    phone: '+385 91 765 4321',
    address: 'Ilica 1',
    city: 'Zagreb',
    postalCode: '10000',
    iban: croatianIban('2484008', String(Math.floor(Math.random() * 9e9) + 1e9)),
  });
}

/** An applicant registered without JavaScript, whose KYC review staff asked for another document. */
async function applicantAskedForDocuments(stamp: number) {
  const company = `Pristupačni podnositelj ${stamp} d.o.o.`;
  const email = `podnositelj-${stamp}@primjer.hr`;
  const { page, close } = await newStrictPage(browser, { javaScriptEnabled: false });
  await fillApplicantDetails(page, company, email);
  await page.setInputFiles('input[name="file_company_registration"]', pdf('izvadak.pdf'));
  await page.getByRole('button', { name: 'Submit registration' }).click();
  await page.getByTestId('wizard-success').waitFor();
  await close();
  const [client] = (await admin.get(`/api/clients?q=${encodeURIComponent(company)}`)).json as unknown as Array<{ id: string }>;
  // The review task comes once the worker has run the onboarding's automated steps.
  const task = await poll(`the KYC task of ${company}`, async () =>
    ((await admin.get(`/api/tasks?q=${encodeURIComponent(company)}&limit=50`)).json as unknown as Array<{ id: string; type: string; entityId: string | null }>).find(
      (candidate) => candidate.type === 'kyc_verification' && candidate.entityId === client.id,
    ),
  );
  const asked = await admin.post(`/api/clients/${client.id}/kyc-decision`, { decision: 'request_documents', message: 'Molimo potvrdu Porezne uprave.' });
  expect(asked.status).toBe(200);
  const mail = await mailWith(`the document request to ${email}`, `To: ${email}`);
  const link = /\/onboarding\/documents\/[A-Za-z0-9_-]{43}/.exec(mail.text)?.[0];
  if (!link) throw new Error('the document request email carries no link');
  return { applicant: client.id, kycTask: task.id, documentRequestPath: link };
}

beforeAll(async () => {
  ({ browser, admin } = await browserAndAdmin());
  const stamp = Date.now();
  // A user with a set-password link (its page and its email in the outbox) and one with a first password (the authenticator setup step).
  const linkEmail = `a11y-link-${stamp}@finflow.local`;
  const linked = await admin.post('/api/admin/users', { email: linkEmail, firstName: 'Ana', lastName: 'Pristupačna', role: 'user' });
  expect(linked.status).toBe(201);
  const mail = await mailWith(`the set-password email to ${linkEmail}`, `To: ${linkEmail}`);
  const link = mail.text.match(/\/set-password\/[A-Za-z0-9_-]+/)?.[0];
  if (!link) throw new Error('the set-password email carries no link');
  const setupUser = { email: `a11y-setup-${stamp}@finflow.local`, password: 'A11y-first-password-1' };
  const created = await admin.post('/api/admin/users', { ...setupUser, firstName: 'Iva', lastName: 'Čitljiva', role: 'user' });
  expect(created.status).toBe(201);
  ids = {
    client: await firstId('/api/clients?limit=1'),
    customer: await firstId('/api/customers?limit=1'),
    invoice: await firstId('/api/invoices?limit=1'),
    task: await firstId('/api/tasks?limit=1'),
    assessment: await firstId('/api/risk-assessments?limit=1'),
    definition: await firstId('/api/workflows?limit=1'),
    instance: await firstId('/api/workflow-instances?limit=1'),
    template: await firstId('/api/email/templates?limit=1'),
    outboxMessage: mail.name,
    setPasswordPath: link,
    setupUser,
    ...(await applicantAskedForDocuments(stamp)),
  };
});
afterAll(() => browser?.close());

async function visit(page: Page, url: string) {
  await page.goto(`${baseUrl}${url}`);
  await settle(page);
  for (const id of await renderedRouteIds(page)) renderedRoutes.add(id);
}

async function showState(page: Page, state: State) {
  await visit(page, state.path(ids));
  await state.then?.(page);
  if (!state.open) return;
  await page.getByRole(state.open.role, { name: state.open.name, exact: true, disabled: false }).first().click();
  await page.getByRole(state.open.shows).first().waitFor();
  // Radix animates the content in; axe would read the colours half-way.
  await page.waitForTimeout(300);
}

/**
 * Two signed-in pages (each its own browser context, so its own appearance
 * cookie) audit states side by side: axe is CPU work in the browser, and the
 * machine has two cores.
 */
const PAGES_AT_ONCE = 2;

describe('signed-in pages', () => {
  const idle: Page[] = [];
  const waiting: Array<(page: Page) => void> = [];
  const closers: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    for (let index = 0; index < PAGES_AT_ONCE; index++) {
      const { page, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
      idle.push(page);
      closers.push(close);
    }
  });
  afterAll(async () => {
    await Promise.all(closers.map((close) => close()));
  });

  async function withPage(check: (page: Page) => Promise<void>) {
    const page = idle.pop() ?? (await new Promise<Page>((resolve) => waiting.push(resolve)));
    try {
      await check(page);
    } finally {
      const next = waiting.shift();
      if (next) next(page);
      else idle.push(page);
    }
  }

  for (const state of SHELL_STATES) {
    it.concurrent(describeState(state), () => withPage((page) => expectAccessibleInEachAppearance(page, baseUrl, describeState(state), () => showState(page, state))));
  }

  for (const state of NO_SCRIPT_STATES) {
    it.concurrent(`${describeState(state)} without JavaScript`, () =>
      withPage((page) =>
        expectAccessibleInEachAppearance(page, baseUrl, `${describeState(state)} without JavaScript`, () => gotoWithoutJavaScript(page, `${baseUrl}${state.path(ids)}`)),
      ),
    );
  }
});

describe('signed-out pages', () => {
  let page: Page;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ page, close } = await newStrictPage(browser));
  });
  afterAll(async () => {
    await close?.();
  });

  async function submitCredentials(email: string, password: string) {
    await visit(page, '/');
    await page.fill('input[name="email"]', email);
    await page.fill('input[name="password"]', password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  it('the login page: credentials, a refusal, the authenticator code, the authenticator setup', async () => {
    await expectAccessibleInEachAppearance(page, baseUrl, 'login', () => visit(page, '/'));
    // An unknown address: the refusal (toast) without counting against a real account.
    await expectAccessibleInEachAppearance(page, baseUrl, 'login refused', async () => {
      await submitCredentials(`nobody-${Date.now()}@finflow.local`, 'not-the-password');
      await page.locator('.toast').getByText('Error', { exact: true }).waitFor();
      await page.waitForTimeout(300);
    });
    await expectAccessibleInEachAppearance(page, baseUrl, 'login, authenticator code', async () => {
      await submitCredentials(inject('adminEmail'), inject('adminPassword'));
      await page.locator('input[name="otpCode"]').waitFor();
    });
    await page.context().clearCookies();
    await expectAccessibleInEachAppearance(page, baseUrl, 'login, authenticator setup', async () => {
      await submitCredentials(ids.setupUser.email, ids.setupUser.password);
      await page.getByTestId('totp-qr').waitFor();
    });
    await page.context().clearCookies();
  });

  it('the registration wizard: each step, a refused step, attached files and the submitted registration', async () => {
    for (const step of [1, 2, 3]) {
      await expectAccessibleInEachAppearance(page, baseUrl, `onboarding step ${step}`, () => visit(page, `/onboarding?step=${step}`));
    }
    await expectAccessibleInEachAppearance(page, baseUrl, 'onboarding step 1 refused', async () => {
      await visit(page, '/onboarding?step=1');
      await page.fill('input[name="oib"]', '12345');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByText('OIB must have exactly 11 digits').waitFor();
    });

    await fillApplicantDetails(page, `Pristupačnost ${Date.now()} d.o.o.`, 'iva@pristupacnost.hr');
    await settle(page);
    await page.setInputFiles('#file-company_registration', pdf('izvadak.pdf'));
    await page
      .getByTestId('kyc-company_registration')
      .getByText(/Attached:/)
      .waitFor();
    await expectAccessibleInEachAppearance(page, baseUrl, 'onboarding step 3 with a file attached', async () => {
      await visit(page, '/onboarding?step=3');
      await page
        .getByTestId('kyc-company_registration')
        .getByText(/Attached:/)
        .waitFor();
    });
    await page.getByRole('button', { name: 'Submit registration' }).click();
    await page.getByTestId('wizard-success').waitFor();
    await expectAccessibleInEachAppearance(page, baseUrl, 'onboarding step 4', async () => {
      await visit(page, '/onboarding');
      await page.getByTestId('wizard-success').waitFor();
    });
    await page.context().clearCookies();
  });

  it('set-password: a valid link, a refused form and an invalid link', async () => {
    await expectAccessibleInEachAppearance(page, baseUrl, 'set-password', () => visit(page, ids.setPasswordPath));
    await expectAccessibleInEachAppearance(page, baseUrl, 'set-password refused', async () => {
      await visit(page, ids.setPasswordPath);
      await page.getByLabel('New password', { exact: true }).fill('Kratka-1');
      await page.getByLabel('Confirm new password').fill('Druga-lozinka-2');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.locator('[aria-invalid="true"]').first().waitFor();
    });
    await expectAccessibleInEachAppearance(page, baseUrl, 'set-password, invalid link', () => visit(page, '/set-password/not-a-valid-token'));
  });

  it('forgot-password and the emailed reset link: the form, the answer, a refused form and an invalid link', async () => {
    await expectAccessibleInEachAppearance(page, baseUrl, 'forgot-password', () => visit(page, '/forgot-password'));
    await expectAccessibleInEachAppearance(page, baseUrl, 'forgot-password refused', async () => {
      await visit(page, '/forgot-password');
      await page.getByLabel('Email').fill('not an address');
      await page.getByRole('button', { name: 'Send link' }).click();
      await page.locator('[aria-invalid="true"]').first().waitFor();
    });
    const seen = outboxFiles().length;
    await expectAccessibleInEachAppearance(page, baseUrl, 'forgot-password sent', async () => {
      await visit(page, '/forgot-password');
      await page.getByLabel('Email').fill(ids.setupUser.email);
      await page.getByRole('button', { name: 'Send link' }).click();
      await page.getByTestId('reset-requested').waitFor();
    });
    // One link per request, each making the one before stop working: the last of the two.
    const mail = await poll(
      'the second reset link',
      () =>
        outboxFiles()
          .slice(seen)
          .filter((file) => file.text.includes(`To: ${ids.setupUser.email}`))[1],
    );
    const link = /\/reset-password\/[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
    if (!link) throw new Error('the reset email carries no link');
    await expectAccessibleInEachAppearance(page, baseUrl, 'reset-password', () => visit(page, link));
    await expectAccessibleInEachAppearance(page, baseUrl, 'reset-password refused', async () => {
      await visit(page, link);
      await page.getByLabel('New password', { exact: true }).fill('Kratka-1');
      await page.getByLabel('Confirm new password').fill('Druga-lozinka-2');
      await page.getByRole('button', { name: 'Set new password' }).click();
      await page.locator('[aria-invalid="true"]').first().waitFor();
    });
    await expectAccessibleInEachAppearance(page, baseUrl, 'reset-password, invalid link', () => visit(page, '/reset-password/not-a-valid-token'));
  });

  it('the additional-documents link: the request, a refused file, the answer and the spent link', async () => {
    const path = ids.documentRequestPath;
    await expectAccessibleInEachAppearance(page, baseUrl, 'document request', () => visit(page, path));
    await expectAccessibleInEachAppearance(page, baseUrl, 'document request, file refused', async () => {
      await visit(page, path);
      await page.setInputFiles('input[name="file_tax_certificate"]', { name: 'potvrda.pdf', mimeType: 'application/pdf', buffer: Buffer.from('MZ not a pdf at all') });
      await page.getByRole('button', { name: 'Send documents' }).click();
      await page.getByTestId('kyc-tax_certificate').getByText('Invalid file type. Allowed types: PDF, JPG, JPEG, PNG').waitFor();
    });
    await visit(page, path);
    await page.setInputFiles('input[name="file_tax_certificate"]', pdf('potvrda-porezna.pdf'));
    await page.getByRole('button', { name: 'Send documents' }).click();
    await page.getByTestId('request-submitted').waitFor();
    await expectAccessibleInEachAppearance(page, baseUrl, 'document request answered', () => visit(page, path));
    await expectAccessibleInEachAppearance(page, baseUrl, 'document request, unknown link', () => visit(page, `/onboarding/documents/${'A'.repeat(43)}`));
    // The debtor's link (its open form and answered states: tests/e2e/debtor-confirmation.test.ts).
    await expectAccessibleInEachAppearance(page, baseUrl, 'debtor link, unknown', () => visit(page, `/debtor/${'A'.repeat(43)}`));
  });

  it('not found, signed out', async () => {
    await expectAccessibleInEachAppearance(page, baseUrl, 'not found', () => visit(page, '/no-such-page'));
  });

  it('the login page, the wizard and set-password without JavaScript', async () => {
    for (const url of ['/', '/onboarding?step=1', '/onboarding?step=3', ids.setPasswordPath, '/forgot-password']) {
      await expectAccessibleInEachAppearance(page, baseUrl, `${url} without JavaScript`, () => gotoWithoutJavaScript(page, `${baseUrl}${url}`));
    }
  });
});

describe('the check itself', () => {
  it('finds a nameless control, low contrast, a second h1 and a missing main', async () => {
    const { page, close } = await newStrictPage(browser);
    try {
      await page.setContent(
        '<html lang="en"><head><title>Check</title></head><body><div><h1>One</h1><h1>Two</h1>' +
          '<button></button><p style="color:#bbb;background:#fff">Faint text</p></div></body></html>',
      );
      const report = await auditPage(page);
      const found = report.problems.join('\n');
      expect(found).toContain('0 main landmarks');
      expect(found).toContain('2 h1 headings');
      expect(report.violations.map((violation) => violation.id)).toEqual(expect.arrayContaining(['button-name', 'color-contrast']));
      const colours = await auditPage(page, { coloursOnly: true });
      expect(colours.violations.map((violation) => violation.id)).toEqual(['color-contrast']);
    } finally {
      await close();
    }
  });
});

describe('coverage', () => {
  it('every page route in app/routes was shown above', () => {
    const missing = pageRouteIds().filter((id) => !renderedRoutes.has(id));
    expect(missing, `page routes without a state in tests/e2e/accessibility.test.ts: add one for each`).toEqual([]);
  });
});
