import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { settle } from '../support/accessibility.ts';
import { ApiClient, SecretStore } from '../support/api-client.ts';
import { newStrictPage } from '../support/browser.ts';
import { freshTotpCode, lastUsedTotpCode } from '../support/totp.ts';
import { outboxMessages } from '../support/outbox.ts';
import { browserAndAdmin } from '../support/sessions.ts';

const baseUrl = inject('baseUrl');
const secrets = new SecretStore();
let browser: Browser;
let adminCookie: string;

beforeAll(async () => {
  const opened = await browserAndAdmin();
  browser = opened.browser;
  adminCookie = opened.admin.cookie;
});
afterAll(() => browser?.close());

/** The visible toast (Radix also keeps a screen-reader copy of its text). */
function toast(page: Page, text: string) {
  return page.locator('.toast').getByText(text);
}

async function submitCredentials(page: Page, email: string, password: string) {
  await page.goto(baseUrl);
  await page.fill('input[name="email"]', email);
  await page.fill('input[name="password"]', password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('signing in', () => {
  it('a new admin gets a set-password link, sets up the authenticator by its manual key and lands on the dashboard', async () => {
    const email = `new-admin-${Date.now()}@finflow.local`;

    // The super_admin creates the user in Settings, without a password: the user gets a link by email.
    const admin = await newStrictPage(browser, { sessionCookie: adminCookie });
    await admin.page.goto(`${baseUrl}/settings`);
    await admin.page.getByRole('button', { name: 'Add user' }).click();
    const dialog = admin.page.getByRole('dialog');
    await dialog.getByLabel('First name').fill('Nova');
    await dialog.getByLabel('Last name').fill('Administratorica');
    await dialog.getByLabel('Email').fill(email);
    await dialog.locator('select[name="role"]').selectOption('admin');
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await toast(admin.page, 'User created').waitFor();
    await admin.page.getByTestId(`user-row-${email}`).waitFor();
    expect(admin.errors).toEqual([]);
    await admin.close();

    const { page, errors, close } = await newStrictPage(browser);
    const link = outboxMessages()
      .at(-1)!
      .match(/http:\/\/localhost:\d+\/set-password\/[A-Za-z0-9_-]+/)?.[0];
    expect(link).toBeTruthy();
    await page.goto(link!);
    await page.getByLabel('New password', { exact: true }).fill('Nova-lozinka-2026');
    await page.getByLabel('Confirm new password').fill('Nova-lozinka-2026');
    await page.getByRole('button', { name: 'Set password' }).click();
    await toast(page, 'Password set. You can sign in now.').waitFor();

    // First sign-in: the authenticator setup with QR and manual key.
    await submitCredentials(page, email, 'Nova-lozinka-2026');
    await page.getByTestId('totp-qr').waitFor();
    expect(await page.getByTestId('totp-qr').getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    const secret = (await page.getByTestId('totp-manual-key').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    secrets.set(email, secret);
    await page.fill('input[name="totpCode"]', '123');
    expect(await page.getByRole('button', { name: 'Verify and enable' }).isDisabled()).toBe(true);
    await page.fill('input[name="totpCode"]', await freshTotpCode(secret));
    await page.getByRole('button', { name: 'Verify and enable' }).click();
    await toast(page, 'TOTP Enabled').waitFor();
    await expect(page.getByTestId('user-block').textContent()).resolves.toContain('Nova Administratorica');
    await page.getByRole('navigation').getByRole('link', { name: 'Client Management' }).waitFor();

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();

    // Second sign-in: a code; wrong and replayed codes are refused, Back forgets the step.
    await submitCredentials(page, email, 'Nova-lozinka-2026');
    for (const refused of ['000000', lastUsedTotpCode(secret)]) {
      await page.locator('input[name="otpCode"]').fill(refused);
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/'),
        page.getByRole('button', { name: 'Verify' }).click(),
      ]);
      expect(response.status()).toBe(400);
      await toast(page, 'Invalid authenticator code').waitFor();
    }
    await page.getByRole('button', { name: 'Back' }).click();
    await page.locator('input[name="password"]').waitFor();
    expect(await page.locator('input[name="otpCode"]').count()).toBe(0);

    await submitCredentials(page, email, 'Nova-lozinka-2026');
    await page.locator('input[name="otpCode"]').fill(await freshTotpCode(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await toast(page, 'Login Successful').waitFor();
    await page.getByTestId('user-block').waitFor();

    expect(errors.filter((error) => !/status of 40[01]/.test(error))).toEqual([]);
    await close();
  });

  it('a form sent from a session that ended says Unauthorized and goes to the login page', async () => {
    // A session of its own: this test ends it.
    const session = new ApiClient();
    await session.signIn(inject('adminEmail'), inject('adminPassword'), secrets);
    const { page, close } = await newStrictPage(browser, { sessionCookie: session.cookie });
    await page.goto(`${baseUrl}/profile`);
    await page.getByRole('button', { name: 'Save changes' }).waitFor();
    expect((await session.post('/api/auth/logout')).status).toBe(200);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'Unauthorized').waitFor();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await close();
  });

  it('works without JavaScript: password, code, dashboard', async () => {
    const { page, close } = await newStrictPage(browser, { javaScriptEnabled: false });
    await submitCredentials(page, inject('adminEmail'), inject('adminPassword'));
    await page.locator('input[name="otpCode"]').fill(await freshTotpCode(secrets.get(inject('adminEmail'))!));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByTestId('user-block').waitFor();
    await close();
  });
});

describe('the shell in two languages and two themes', () => {
  it('switches the login page and the shell to Croatian and keeps it across reloads', async () => {
    const { page, close } = await newStrictPage(browser);
    await page.goto(baseUrl);
    await page.getByTestId('language-hr').click();
    await page.getByRole('heading', { name: 'Prijava u FinFlow' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Prijava u FinFlow' }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('hr');

    await page.fill('input[name="email"]', inject('adminEmail'));
    await page.fill('input[name="password"]', inject('adminPassword'));
    await page.getByRole('button', { name: 'Prijava' }).click();
    await page.locator('input[name="otpCode"]').fill(await freshTotpCode(secrets.get(inject('adminEmail'))!));
    await page.getByRole('button', { name: 'Potvrdi' }).click();
    await page.getByRole('navigation').getByRole('link', { name: 'Upravljanje klijentima' }).waitFor();
    await page.getByText('Proces faktoringa').waitFor();

    await page.getByTestId('language-en').click();
    await page.getByRole('navigation').getByRole('link', { name: 'Client Management' }).waitFor();
    await page.reload();
    await page.getByRole('navigation').getByRole('link', { name: 'Client Management' }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    await close();
  });

  it('switches to dark mode with a confirmation toast and keeps it across reloads', async () => {
    const { page, close } = await newStrictPage(browser, { sessionCookie: adminCookie });
    await page.goto(`${baseUrl}/settings`);
    expect(await page.getAttribute('html', 'class')).toContain('light');
    // The switch's handler exists once React has hydrated the page: a click before that reaches no handler.
    await settle(page);
    await page.getByRole('switch', { name: 'Dark mode' }).click();
    await toast(page, 'Dark mode enabled').waitFor();
    await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
    expect(await page.evaluate(() => window.localStorage.getItem('finflow-theme'))).toBe('dark');
    await page.reload();
    expect(await page.getAttribute('html', 'class')).toContain('dark');
    await page.getByRole('switch', { name: 'Dark mode' }).click();
    await page.waitForFunction(() => document.documentElement.classList.contains('light'));
    await close();
  });

  it('shows the settings system card with the real version and a running worker', async () => {
    const { page, close } = await newStrictPage(browser, { sessionCookie: adminCookie });
    await page.goto(`${baseUrl}/settings`);
    await expect(page.getByTestId('app-version').textContent()).resolves.toBe('1.0.0');
    await expect(page.getByTestId('worker-status').textContent()).resolves.toMatch(/^Running/);
    await close();
  });
});
