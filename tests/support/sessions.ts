import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { ApiClient, signInAsAdmin } from './api-client.ts';
import { launchBrowser } from './browser.ts';

/**
 * A browser test file's start: its own Chromium and the run's admin session.
 * `beforeAll(async () => ({ browser, admin } = await browserAndAdmin()))`,
 * and `afterAll(() => browser?.close())`.
 */
export async function browserAndAdmin(): Promise<{ browser: Browser; admin: ApiClient }> {
  return { browser: await launchBrowser(), admin: await signInAsAdmin() };
}

function expectStatus(response: { status: number; text: string }, status: number, what: string) {
  if (response.status !== status) throw new Error(`${what}: ${response.status} ${response.text}`);
}

/**
 * A new staff user of `role`, created by the admin and signed in with a
 * password only (their OTP switched off by the admin). With `ownPassword`
 * the admin's password is replaced first, as the pages demand before they
 * open (they lead to /profile until then); the API needs no such step.
 */
export async function staffSession(
  admin: ApiClient,
  role: 'user' | 'manager' | 'admin',
  options: { label?: string; firstName?: string; lastName?: string; ownPassword?: string } = {},
): Promise<{ client: ApiClient; id: string; email: string }> {
  const email = `${options.label ?? role}-${randomUUID().slice(0, 8)}@finflow.local`;
  const password = 'Temp-password-1';
  const created = await admin.post('/api/admin/users', { email, firstName: options.firstName ?? 'Test', lastName: options.lastName ?? role, role, password });
  expectStatus(created, 201, `creating ${email}`);
  const id = String(created.json.id);
  expectStatus(await admin.put(`/api/admin/users/${id}/otp`, { otpEnabled: false }), 200, `switching off the OTP of ${email}`);
  const client = new ApiClient();
  const login = await client.post('/api/auth/login', { email, password });
  if (login.status !== 200 || login.json.requiresTotp !== false || login.json.needsTotpSetup !== false)
    throw new Error(`password-only login of ${email}: ${login.status} ${login.text}`);
  if (options.ownPassword) {
    const changed = await client.put('/api/auth/change-password', { currentPassword: password, newPassword: options.ownPassword, confirmPassword: options.ownPassword });
    expectStatus(changed, 200, `changing the password of ${email}`);
  }
  return { client, id, email };
}
