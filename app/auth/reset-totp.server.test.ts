import { describe, expect, it } from 'vitest';
import { execute, selectOne } from '../db.server.ts';
import { action as resetTotpApi } from '../routes/api.admin.users.$userId.reset-totp.ts';
import { action as settingsAction } from '../routes/_app.settings.tsx';
import { encryptSecret } from './crypto.server.ts';
import { startLogin } from './login.server.ts';
import { getSignedInUser } from './permissions.server.ts';
import { activityRows, apiFailure, getRequest, jsonRequest, rejection, signedInCookie } from './test-helpers.server.ts';
import { generateTotpSecret } from './totp.server.ts';
import type { Role } from './schemas.ts';
import { resetUserTotp } from './users.server.ts';
import { createTestUser, TEST_PASSWORD } from '../../tests/factories.ts';

/** resetUserTotp (app/auth/users.server.ts): an admin makes a user set up their authenticator again. */
const asActor = (row: { id: string; role: Role }) => ({ id: row.id, role: row.role });

/** A user whose authenticator is set up and confirmed, as after a first sign-in. */
async function userWithAuthenticator(role: Role = 'user') {
  const user = await createTestUser({ role });
  await execute(`UPDATE users SET totp_secret_encrypted = :secret, totp_confirmed_at = now(), totp_last_step = 123 WHERE id = :id`, {
    id: user.id,
    secret: encryptSecret(generateTotpSecret()),
  });
  return user;
}

async function totpColumns(userId: string) {
  return selectOne<{
    totp_secret_encrypted: string | null;
    totp_pending_secret_encrypted: string | null;
    totp_confirmed_at: Date | null;
    totp_last_step: string | null;
    otp_enabled: boolean | null;
  }>(`SELECT totp_secret_encrypted, totp_pending_secret_encrypted, totp_confirmed_at, totp_last_step, otp_enabled FROM users WHERE id = :id`, { id: userId });
}

const login = (email: string) => startLogin(jsonRequest('/api/auth/login', { email, password: TEST_PASSWORD }));

describe("resetting a user's authenticator", () => {
  it("clears the secret so the next sign-in sets it up again, ends the user's sessions and logs it", async () => {
    const admin = await createTestUser({ role: 'admin' });
    const user = await userWithAuthenticator();
    await execute(`UPDATE users SET totp_pending_secret_encrypted = :pending WHERE id = :id`, { id: user.id, pending: encryptSecret(generateTotpSecret()) });
    expect((await login(user.email)).data).toEqual({ requiresTotp: true, needsTotpSetup: false });
    const session = await signedInCookie(user.id);
    const adminSession = await signedInCookie(admin.id);

    const result = await resetUserTotp(asActor(admin), user.id, { ip: '10.3.3.3' });
    expect(result).toMatchObject({ id: user.id, totpConfigured: false, otpEnabled: true });
    expect(await totpColumns(user.id)).toEqual({
      totp_secret_encrypted: null,
      totp_pending_secret_encrypted: null,
      totp_confirmed_at: null,
      totp_last_step: null,
      otp_enabled: null,
    });
    expect(await getSignedInUser(getRequest('/', session))).toBeNull();
    expect(await getSignedInUser(getRequest('/', adminSession))).toMatchObject({ id: admin.id });
    expect((await login(user.email)).data).toEqual({ requiresTotp: false, needsTotpSetup: true });

    const [log] = await activityRows('user_totp_reset', user.id);
    // Two sessions ended: the signed-in one and the half-way one the sign-in above left.
    expect(log).toMatchObject({ user_id: admin.id, ip_address: '10.3.3.3', details: { email: user.email, hadAuthenticator: true, sessionsEnded: 2 } });
  });

  it("refuses one's own account with 403 and changes nothing", async () => {
    const admin = await userWithAuthenticator('admin');
    const session = await signedInCookie(admin.id);
    const refused = await apiFailure(resetUserTotp(asActor(admin), admin.id));
    expect(refused).toMatchObject({ status: 403, body: { message: 'You cannot reset your own authenticator' } });
    expect((await totpColumns(admin.id))?.totp_confirmed_at).not.toBeNull();
    expect(await getSignedInUser(getRequest('/', session))).toMatchObject({ id: admin.id });
    expect(await activityRows('user_totp_reset', admin.id)).toEqual([]);
  });

  it('refuses non-admins (403), an admin touching a super_admin (403) and unknown users (404)', async () => {
    const user = await userWithAuthenticator();
    for (const role of ['user', 'manager'] as const) {
      const caller = await createTestUser({ role });
      expect((await apiFailure(resetUserTotp(asActor(caller), user.id))).status).toBe(403);
    }
    const admin = await createTestUser({ role: 'admin' });
    const boss = await userWithAuthenticator('super_admin');
    expect((await apiFailure(resetUserTotp(asActor(admin), boss.id))).status).toBe(403);
    expect((await totpColumns(boss.id))?.totp_confirmed_at).not.toBeNull();
    expect((await apiFailure(resetUserTotp(asActor(admin), '00000000-0000-4000-8000-00000000abcd'))).status).toBe(404);
    expect((await totpColumns(user.id))?.totp_confirmed_at).not.toBeNull();
    // A super_admin may.
    const superAdmin = await createTestUser({ role: 'super_admin' });
    await resetUserTotp(asActor(superAdmin), boss.id);
    expect((await totpColumns(boss.id))?.totp_confirmed_at).toBeNull();
  });

  it('POST /api/admin/users/{userId}/reset-totp: 200 for an admin, 403 for a manager', async () => {
    const user = await userWithAuthenticator();
    const call = (cookie: string) => resetTotpApi({ request: jsonRequest(`/api/admin/users/${user.id}/reset-totp`, undefined, cookie), params: { userId: user.id }, context: {} });
    const manager = await createTestUser({ role: 'manager' });
    expect((await apiFailure(call(await signedInCookie(manager.id)))).status).toBe(403);
    expect((await totpColumns(user.id))?.totp_confirmed_at).not.toBeNull();

    const admin = await createTestUser({ role: 'admin' });
    const response = await call(await signedInCookie(admin.id));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: user.id, totpConfigured: false });
  });

  it('the settings page resets after its confirmation and tells the admin; refusals come back as a toast', async () => {
    const admin = await createTestUser({ role: 'admin' });
    const adminCookie = await signedInCookie(admin.id);
    const user = await userWithAuthenticator();
    const post = (userId: string, cookie = adminCookie) => {
      const form = new FormData();
      form.set('intent', 'reset-totp');
      form.set('userId', userId);
      return settingsAction({
        request: new Request('http://localhost/settings', { method: 'POST', body: form, headers: { Cookie: cookie } }),
        params: {},
        context: { clientIp: '10.4.4.4' },
      });
    };
    const done = await post(user.id);
    expect(done.status).toBe(302);
    expect(done.headers.get('Location')).toBe('/settings');
    expect((await totpColumns(user.id))?.totp_confirmed_at).toBeNull();
    expect(await activityRows('user_totp_reset', user.id)).toHaveLength(1);

    const own = await post(admin.id);
    expect(own.status).toBe(302);
    expect(await activityRows('user_totp_reset', admin.id)).toEqual([]);

    const manager = await createTestUser({ role: 'manager' });
    const refused = (await rejection(post(user.id, await signedInCookie(manager.id)))) as Response;
    expect(refused.status).toBe(403);
  });
});
