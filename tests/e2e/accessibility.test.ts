import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { INTEGRATION_TYPES } from '../../app/integrations/types.ts';
import { croatianIban, oibCheckDigit } from '../../app/utils/validation.ts';
import { expectAccessibleInEachAppearance, gotoWithoutJavaScript, pageRouteIds, renderedRouteIds } from '../support/accessibility.ts';
import { type ApiClient, signInAsAdmin } from '../support/api-client.ts';
import { launchBrowser, newStrictPage } from '../support/browser.ts';

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
}

/** A state of a page: where it is, and (optionally) what to open on it with JavaScript. */
interface State {
  path: (ids: Ids) => string;
  /** A control on the page that opens a dialog, menu or list box; the state is the page with it open. */
  open?: { role: 'link' | 'button' | 'combobox'; name: string; shows: 'dialog' | 'menu' | 'listbox' };
  /** What the state is, when the path does not say it. */
  label?: string;
}

const at = (url: string, label?: string): State => ({ path: () => url, label });

const SHELL_STATES: State[] = [
  at('/', 'dashboard'),
  at('/?period=7d'),
  at('/clients'),
  at('/clients?new=1', 'create panel'),
  at(`/clients?q=${NO_MATCH}`, 'empty search'),
  { path: () => '/clients', open: { role: 'link', name: 'Dodaj klijenta', shows: 'dialog' } },
  { path: (ids) => `/clients/${ids.client}` },
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
  { path: () => '/invoices', open: { role: 'link', name: 'Dodaj fakturu', shows: 'dialog' } },
  { path: (ids) => `/invoices/${ids.invoice}` },
  ...['pending', 'confirmed', 'failed', 'refunded', 'all', 'payouts', 'bank'].map((tab) => at(`/payments?tab=${tab}`)),
  at('/payments?new=1', 'record panel'),
  at(`/payments?tab=all&q=${NO_MATCH}`, 'empty search'),
  { path: () => '/payments', open: { role: 'link', name: 'Record payment', shows: 'dialog' } },
  ...['pending', 'approved', 'rejected', 'all'].map((tab) => at(`/limits?tab=${tab}`)),
  at('/limits?new=1', 'request panel'),
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
  ...['overview', 'croatian', 'general'].map((tab) => at(`/integrations?tab=${tab}`)),
  ...INTEGRATION_TYPES.flatMap((type) => ['overview', 'configure', 'logs', 'setup'].map((tab) => at(`/integrations/${type}?tab=${tab}`))),
  at('/monitoring'),
  ...['overview', 'performance', 'risk', 'financial'].map((tab) => at(`/analytics?tab=${tab}`)),
  at('/search', 'no query'),
  at('/search?q=a', 'results'),
  at(`/search?q=${NO_MATCH}`, 'no results'),
  at('/settings'),
  { path: () => '/settings', open: { role: 'button', name: 'Add user', shows: 'dialog' } },
  { path: () => '/settings', open: { role: 'combobox', name: 'Role', shows: 'listbox' } },
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
  setupUser: { email: '', password: '' },
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

/** The outbox message (SMTP_URL unset) that mentions `text`, decoded from quoted-printable. */
function outboxMessageWith(text: string): { name: string; body: string } {
  const dir = path.join(inject('dataDir'), 'outbox');
  for (const name of fs.readdirSync(dir).filter((file) => file.endsWith('.eml')).sort().reverse()) {
    const body = fs
      .readFileSync(path.join(dir, name), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (body.includes(text)) return { name, body };
  }
  throw new Error(`no outbox message mentions ${text}`);
}

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await signInAsAdmin();
  const stamp = Date.now();
  // A user with a set-password link (its page and its email in the outbox) and one with a first password (the authenticator setup step).
  const linkEmail = `a11y-link-${stamp}@finflow.local`;
  const linked = await admin.post('/api/admin/users', { email: linkEmail, firstName: 'Ana', lastName: 'Pristupačna', role: 'user' });
  expect(linked.status).toBe(201);
  const mail = outboxMessageWith(linkEmail);
  const link = mail.body.match(/\/set-password\/[A-Za-z0-9_-]+/)?.[0];
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
  };
});
afterAll(async () => {
  await browser?.close();
});

/** Loaded and hydrated: the Remix router is up and the page's own requests have settled. */
async function settle(page: Page) {
  await page.waitForFunction(() => Boolean((window as unknown as { __remixRouter?: unknown }).__remixRouter));
  // Pages that poll (monitoring, a running backup) never go idle; a short wait is enough for the others.
  await page.waitForLoadState('networkidle', { timeout: 3_000 }).catch(() => undefined);
}

async function visit(page: Page, url: string) {
  await page.goto(`${baseUrl}${url}`);
  await settle(page);
  for (const id of await renderedRouteIds(page)) renderedRoutes.add(id);
}

async function showState(page: Page, state: State) {
  await visit(page, state.path(ids));
  if (!state.open) return;
  await page.getByRole(state.open.role, { name: state.open.name, exact: true, disabled: false }).first().click();
  await page.getByRole(state.open.shows).first().waitFor();
  // Radix animates the content in; axe would read the colours half-way.
  await page.waitForTimeout(300);
}

describe('signed-in pages', () => {
  let page: Page;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ page, close } = await newStrictPage(browser, { sessionCookie: admin.cookie }));
  });
  afterAll(async () => {
    await close?.();
  });

  for (const state of SHELL_STATES) {
    it(describeState(state), async () => {
      await expectAccessibleInEachAppearance(page, baseUrl, describeState(state), () => showState(page, state));
    });
  }

  for (const state of NO_SCRIPT_STATES) {
    it(`${describeState(state)} without JavaScript`, async () => {
      await expectAccessibleInEachAppearance(page, baseUrl, `${describeState(state)} without JavaScript`, () =>
        gotoWithoutJavaScript(page, `${baseUrl}${state.path(ids)}`),
      );
    });
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

    const first10 = String(Math.floor(Math.random() * 9e9) + 1e9);
    await visit(page, '/onboarding?step=1');
    await page.fill('input[name="companyName"]', 'Pristupačnost d.o.o.');
    await page.fill('input[name="oib"]', `${first10}${oibCheckDigit(first10)}`);
    await page.fill('input[name="registrationNumber"]', '080777111');
    await page.fill('input[name="contactPerson"]', 'Iva Ivić');
    await page.fill('input[name="email"]', 'iva@pristupacnost.hr');
    await page.fill('input[name="phone"]', '+385 91 765 4321');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Step 2 of 4').waitFor();
    await page.fill('input[name="address"]', 'Ilica 1');
    await page.fill('input[name="city"]', 'Zagreb');
    await page.fill('input[name="postalCode"]', '10000');
    await page.fill('input[name="iban"]', croatianIban('2484008', '1105598765'));
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Step 3 of 4').waitFor();
    await settle(page);
    await page.setInputFiles('#file-company_registration', {
      name: 'izvadak.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n% a11y\n', 'latin1'),
    });
    await page.getByTestId('kyc-company_registration').getByText(/Attached:/).waitFor();
    await expectAccessibleInEachAppearance(page, baseUrl, 'onboarding step 3 with a file attached', async () => {
      await visit(page, '/onboarding?step=3');
      await page.getByTestId('kyc-company_registration').getByText(/Attached:/).waitFor();
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

  it('not found, signed out', async () => {
    await expectAccessibleInEachAppearance(page, baseUrl, 'not found', () => visit(page, '/no-such-page'));
  });

  it('the login page, the wizard and set-password without JavaScript', async () => {
    for (const url of ['/', '/onboarding?step=1', '/onboarding?step=3', ids.setPasswordPath]) {
      await expectAccessibleInEachAppearance(page, baseUrl, `${url} without JavaScript`, () => gotoWithoutJavaScript(page, `${baseUrl}${url}`));
    }
  });
});

describe('coverage', () => {
  it('every page route in app/routes was shown above', () => {
    const missing = pageRouteIds().filter((id) => !renderedRoutes.has(id));
    expect(missing, `page routes without a state in tests/e2e/accessibility.test.ts: add one for each`).toEqual([]);
  });
});
