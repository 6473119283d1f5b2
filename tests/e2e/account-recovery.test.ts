import { createHash, randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ApiClient, SecretStore } from '../support/api-client.ts';
import { newStrictPage } from '../support/browser.ts';
import { freshTotpCode } from '../support/totp.ts';
import { outboxMessages } from '../support/outbox.ts';
import { browserAndAdmin } from '../support/sessions.ts';

/**
 * Account recovery end to end, without JavaScript: a forgotten password through
 * the emailed one-time link (the worker sends it), an expired and a reused
 * link, and an admin resetting a user's authenticator.
 */
const baseUrl = inject('baseUrl');
const secrets = new SecretStore();
let browser: Browser;
let admin: ApiClient;

beforeAll(async () => ({ browser, admin } = await browserAndAdmin()));
afterAll(() => browser?.close());

/** A staff user with a password and a set-up authenticator, signed in over the API (its "other device"). */
async function staffUser(label: string) {
  const email = `${label}-${randomUUID().slice(0, 8)}@finflow.local`;
  const password = 'First-password-1';
  const created = await admin.post('/api/admin/users', { email, firstName: 'Ana', lastName: label, role: 'user', password });
  expect(created.status).toBe(201);
  const otherDevice = new ApiClient();
  await otherDevice.signIn(email, password, secrets);
  expect((await otherDevice.get('/api/auth/user')).status).toBe(200);
  return { email, password, id: String(created.json.id), otherDevice };
}

/** Waits for the worker to mail `email` a reset link other than the ones already seen, and returns it. */
async function nextResetLink(email: string, seen: string[] = []): Promise<string> {
  const pattern = /http:\/\/localhost:\d+\/reset-password\/[A-Za-z0-9_-]+/g;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const links = outboxMessages()
      .filter((message) => message.toLowerCase().includes(`to: ${email}`))
      .flatMap((message) => message.match(pattern) ?? []);
    const fresh = links.filter((link) => !seen.includes(link)).at(-1);
    if (fresh) return fresh;
    if (Date.now() > deadline) throw new Error(`no reset link mailed to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

async function signInWithoutJs(page: Page, email: string, password: string) {
  await page.goto(baseUrl);
  await page.fill('input[name="email"]', email);
  await page.fill('input[name="password"]', password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function setNewPassword(page: Page, link: string, password: string) {
  await page.goto(link);
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm new password').fill(password);
  await page.getByRole('button', { name: 'Set new password' }).click();
}

describe('a forgotten password', () => {
  it('without JavaScript: the link from the login page, the mail, a new password, the other device signed out, sign-in with it', async () => {
    const { email, password, otherDevice } = await staffUser('forgot');
    const { page, errors, close } = await newStrictPage(browser, { javaScriptEnabled: false });

    await page.goto(baseUrl);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { level: 1, name: 'Forgot password' }).waitFor();
    await page.getByLabel('Email').fill(email.toUpperCase());
    await page.getByRole('button', { name: 'Send link' }).click();
    await page.getByRole('heading', { level: 1, name: 'Check your email' }).waitFor();
    await expect(page.getByTestId('reset-requested').textContent()).resolves.toContain('If an account with this email exists');

    // An address nobody has gets the very same page.
    await page.goto(`${baseUrl}/forgot-password`);
    await page.getByLabel('Email').fill(`nobody-${randomUUID().slice(0, 8)}@finflow.local`);
    await page.getByRole('button', { name: 'Send link' }).click();
    await page.getByRole('heading', { level: 1, name: 'Check your email' }).waitFor();
    expect(new URL(page.url()).search).toBe('?sent=1');

    const link = await nextResetLink(email);
    await setNewPassword(page, link, 'Second-password-2');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');

    // Every other session of the user ended; the old password is refused, the new one signs in.
    expect((await otherDevice.get('/api/auth/user')).status).toBe(401);
    expect((await new ApiClient().post('/api/auth/login', { email, password })).status).toBe(401);
    await signInWithoutJs(page, email, 'Second-password-2');
    await page.locator('input[name="otpCode"]').fill(await freshTotpCode(secrets.get(email)!));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByTestId('user-block').waitFor();

    expect(errors).toEqual([]);
    await close();
  });

  it('a reused link and an expired link are refused and change nothing', async () => {
    const { email } = await staffUser('relink');
    const { page, close } = await newStrictPage(browser, { javaScriptEnabled: false });

    // Over the API this time: 202, the same body as for any address.
    const asked = await new ApiClient().post('/api/auth/forgot-password', { email });
    expect(asked.status).toBe(202);
    const first = await nextResetLink(email);
    await setNewPassword(page, first, 'Second-password-2');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();

    // Used once: the page says so instead of showing the form, and the API refuses it on `token`.
    await page.goto(first);
    await page.getByTestId('reset-link-invalid').waitFor();
    expect(await page.getByLabel('New password', { exact: true }).count()).toBe(0);
    const reused = await new ApiClient().post('/api/auth/reset-password', { token: first.split('/').pop(), password: 'Third-password-3' });
    expect(reused.status).toBe(400);
    expect(reused.json).toHaveProperty('errors.token');

    // A link older than an hour (moved back on the database clock, as an hour's wait would).
    expect((await new ApiClient().post('/api/auth/forgot-password', { email })).status).toBe(202);
    const second = await nextResetLink(email, [first]);
    const database = new pg.Client(inject('appDatabaseUrl'));
    await database.connect();
    try {
      const hash = createHash('sha256').update(second.split('/').pop()!).digest('hex');
      const { rowCount } = await database.query(
        `UPDATE user_tokens SET created_at = created_at - interval '61 minutes', expires_at = expires_at - interval '61 minutes' WHERE token_hash = $1`,
        [hash],
      );
      expect(rowCount).toBe(1);
    } finally {
      await database.end();
    }
    await page.goto(second);
    await page.getByTestId('reset-link-invalid').waitFor();
    await page.getByRole('link', { name: 'Ask for a new link' }).waitFor();

    // The password is still the one the first link set.
    const login = await new ApiClient().post('/api/auth/login', { email, password: 'Second-password-2' });
    expect(login.status).toBe(200);
    await close();
  });
});

describe('the set-password link of a new account', () => {
  it('works without JavaScript too (the same one-time link machinery)', async () => {
    const email = `invited-${randomUUID().slice(0, 8)}@finflow.local`;
    expect((await admin.post('/api/admin/users', { email, firstName: 'Iva', lastName: 'Nova', role: 'user' })).status).toBe(201);
    const pattern = /http:\/\/localhost:\d+\/set-password\/[A-Za-z0-9_-]+/;
    const link = outboxMessages()
      .filter((message) => message.toLowerCase().includes(`to: ${email}`))
      .map((message) => message.match(pattern)?.[0])
      .at(-1);
    expect(link).toBeTruthy();
    const { page, errors, close } = await newStrictPage(browser, { javaScriptEnabled: false });
    await page.goto(link!);
    await page.getByLabel('New password', { exact: true }).fill('Invited-password-1');
    await page.getByLabel('Confirm new password').fill('Invited-password-1');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect((await new ApiClient().post('/api/auth/login', { email, password: 'Invited-password-1' })).json).toEqual({ requiresTotp: false, needsTotpSetup: true });
    expect(errors).toEqual([]);
    await close();
  });
});

describe("an admin resets a user's authenticator", () => {
  it('without JavaScript, after a confirmation: the user is signed out and sets the authenticator up again at the next sign-in', async () => {
    const { email, password, otherDevice } = await staffUser('totp');
    const adminPage = await newStrictPage(browser, { javaScriptEnabled: false, sessionCookie: admin.cookie });
    await adminPage.page.goto(`${baseUrl}/settings`);
    const row = adminPage.page.getByTestId(`user-row-${email}`);
    await expect(row.textContent()).resolves.toContain('Set up');
    await row.getByRole('link', { name: `Reset authenticator of ${email}` }).click();
    const panel = adminPage.page.getByTestId('reset-totp-panel');
    await expect(panel.textContent()).resolves.toContain(email);
    // The admin's own row offers no reset.
    await expect(
      adminPage.page
        .getByTestId(`user-row-${inject('adminEmail')}`)
        .getByRole('link', { name: /^Reset authenticator/ })
        .count(),
    ).resolves.toBe(0);
    await panel.getByRole('button', { name: 'Reset' }).click();
    await adminPage.page.getByTestId(`user-row-${email}`).waitFor();
    expect(new URL(adminPage.page.url()).search).toBe('');
    await expect(adminPage.page.getByTestId(`user-row-${email}`).textContent()).resolves.toContain('Not set up');
    await adminPage.close();

    expect((await otherDevice.get('/api/auth/user')).status).toBe(401);
    const { page, errors, close } = await newStrictPage(browser, { javaScriptEnabled: false });
    await signInWithoutJs(page, email, password);
    await page.getByTestId('totp-qr').waitFor();
    expect(await page.getByTestId('totp-manual-key').textContent()).toMatch(/^[A-Z2-7]{16,}$/);
    expect(await page.locator('input[name="otpCode"]').count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });

  it("with JavaScript the confirmation is a dialog; the API refuses one's own account", async () => {
    const { email } = await staffUser('totp-js');
    const { page, errors, close } = await newStrictPage(browser, { sessionCookie: admin.cookie });
    await page.goto(`${baseUrl}/settings`);
    // Before hydration the link is the no-JavaScript panel's; the dialog needs the page's scripts running.
    await page.waitForLoadState('networkidle');
    await page
      .getByTestId(`user-row-${email}`)
      .getByRole('link', { name: `Reset authenticator of ${email}` })
      .click();
    const dialog = page.getByRole('alertdialog', { name: 'Reset the authenticator?' });
    await dialog.getByRole('button', { name: 'Reset' }).click();
    await page.locator('.toast').getByText('Authenticator reset').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect((await new ApiClient().post('/api/auth/login', { email, password: 'First-password-1' })).json).toEqual({ requiresTotp: false, needsTotpSetup: true });

    const me = await admin.get('/api/auth/user');
    const own = await admin.post(`/api/admin/users/${String(me.json.id)}/reset-totp`);
    expect(own.status).toBe(403);
    expect(errors).toEqual([]);
    await close();
  });
});
