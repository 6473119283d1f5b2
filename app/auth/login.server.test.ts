import { authenticator } from 'otplib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { execute, selectOne, selectRows } from '../db.server.ts';
import { logout, setupTotp, startLogin, verifyOtp, verifyTotpSetup } from './login.server.ts';
import { getSignedInUser } from './permissions.server.ts';
import { commitSession, getSession } from './session.server.ts';
import { activityRows, apiFailure, cookieOf, getRequest, jsonRequest } from './test-helpers.server.ts';
import { createTestUser, TEST_PASSWORD } from '../../tests/factories.ts';

const login = (email: string, password: string, cookie?: string, ip?: string) => startLogin(jsonRequest('/api/auth/login', { email, password }, cookie), undefined, { ip });

/** A code for the step `offsetSteps` away from now (the server accepts ±1). */
const codeAt = (secret: string, offsetSteps = 0) => authenticator.clone({ epoch: Date.now() + offsetSteps * 30_000 }).generate(secret);

/** A well-formed code that is valid at none of the steps around now. */
const wrongCode = (secret: string) => {
  const valid = new Set([-2, -1, 0, 1, 2].map((offset) => codeAt(secret, offset)));
  return ['000000', '111111', '222222', '333333', '444444', '555555', '666666'].filter((c) => !valid.has(c));
};

afterEach(() => {
  vi.useRealTimers();
});

describe('the sign-in flow', () => {
  it('password → TOTP setup → signed in; logout; password → code once, never twice', async () => {
    const user = await createTestUser({ email: 'ana@finflow.test' });

    const first = await login('ANA@finflow.test ', TEST_PASSWORD);
    expect(first.data).toEqual({ requiresTotp: false, needsTotpSetup: true });
    const pendingCookie = cookieOf(first.headers['Set-Cookie']);
    // Half-signed-in is not signed in.
    expect(await getSignedInUser(getRequest('/api/auth/user', pendingCookie))).toBeNull();

    const setup = await setupTotp(jsonRequest('/api/auth/totp/setup', undefined, pendingCookie));
    expect(setup.data.qrCode).toMatch(/^data:image\/png;base64,/);
    expect(setup.data.manualKey).toMatch(/^[A-Z2-7]{32}$/);
    const stored = await selectOne<{ totp_pending_secret_encrypted: string; totp_secret_encrypted: string | null }>(
      `SELECT totp_pending_secret_encrypted, totp_secret_encrypted FROM users WHERE id = :id`,
      { id: user.id },
    );
    expect(stored?.totp_pending_secret_encrypted).toMatch(/^v1:/);
    expect(stored?.totp_pending_secret_encrypted).not.toContain(setup.data.manualKey);
    expect(stored?.totp_secret_encrypted).toBeNull();

    const wrong = await apiFailure(verifyTotpSetup(jsonRequest('/x', {}, pendingCookie), { totpCode: wrongCode(setup.data.manualKey)[0] }));
    expect(wrong).toMatchObject({ status: 400, body: { message: 'Invalid TOTP code' } });

    const verified = await verifyTotpSetup(jsonRequest('/x', {}, pendingCookie), { totpCode: codeAt(setup.data.manualKey) });
    expect(verified.data).toEqual({ success: true });
    const signedInCookie = cookieOf(verified.headers['Set-Cookie']);
    expect(signedInCookie).not.toBe(pendingCookie);
    // The pending session is gone (rotation), the new one belongs to the user.
    expect(await getSignedInUser(getRequest('/api/auth/user', pendingCookie))).toBeNull();
    const me = await getSignedInUser(getRequest('/api/auth/user', signedInCookie));
    expect(me).toMatchObject({ id: user.id, email: 'ana@finflow.test', totpConfigured: true, otpEnabled: true });
    expect(me?.lastLoginAt).toBeInstanceOf(Date);
    const logins = await activityRows('user_login', user.id);
    expect(logins).toHaveLength(1);
    expect(logins[0]).toMatchObject({ user_id: user.id, details: { method: 'password+totp_setup' } });
    expect(await activityRows('totp_configured', user.id)).toHaveLength(1);

    const out = await logout(jsonRequest('/api/auth/logout', undefined, signedInCookie));
    expect(out.data).toEqual({ success: true });
    expect(out.headers['Set-Cookie']).toMatch(/finflow_session=;.*Expires=Thu, 01 Jan 1970/);
    expect(await getSignedInUser(getRequest('/api/auth/user', signedInCookie))).toBeNull();
    expect(await activityRows('user_logout', user.id)).toHaveLength(1);

    const second = await login('ana@finflow.test', TEST_PASSWORD);
    expect(second.data).toEqual({ requiresTotp: true, needsTotpSetup: false });
    const pending2 = cookieOf(second.headers['Set-Cookie']);
    // With a working authenticator, the password alone cannot enrol another one.
    expect(await apiFailure(setupTotp(jsonRequest('/x', undefined, pending2)))).toMatchObject({ status: 409 });

    expect(await apiFailure(verifyOtp(jsonRequest('/x', {}, pending2), { otpCode: '' }))).toMatchObject({
      status: 400,
      body: { message: 'Authenticator code is required' },
    });
    expect(await apiFailure(verifyOtp(jsonRequest('/x', {}, pending2), { otpCode: '12345' }))).toMatchObject({
      status: 400,
      body: { message: 'Invalid authenticator code' },
    });

    // The next step's code (inside the ±1 window, after the step used at setup).
    const code = codeAt(setup.data.manualKey, 1);
    const ok = await verifyOtp(jsonRequest('/x', {}, pending2), { otpCode: code });
    expect(ok.data).toEqual({ success: true });
    const cookie2 = cookieOf(ok.headers['Set-Cookie']);
    expect(await getSignedInUser(getRequest('/api/auth/user', cookie2))).toMatchObject({ id: user.id });

    // The same code again, in a fresh sign-in: refused (replay), as is an older step.
    const third = cookieOf((await login('ana@finflow.test', TEST_PASSWORD)).headers['Set-Cookie']);
    expect(await apiFailure(verifyOtp(jsonRequest('/x', {}, third), { otpCode: code }))).toMatchObject({
      status: 400,
      body: { message: 'Invalid authenticator code' },
    });
    expect(await apiFailure(verifyOtp(jsonRequest('/x', {}, third), { otpCode: codeAt(setup.data.manualKey, 0) }))).toMatchObject({
      status: 400,
    });
    expect(await getSignedInUser(getRequest('/api/auth/user', third))).toBeNull();
  });

  it('signs in with the password alone when otpEnabled is explicitly false', async () => {
    const user = await createTestUser({ otpEnabled: false });
    const result = await login(user.email, TEST_PASSWORD, undefined, '10.0.0.7');
    expect(result.data).toEqual({ requiresTotp: false, needsTotpSetup: false });
    const cookie = cookieOf(result.headers['Set-Cookie']);
    expect(await getSignedInUser(getRequest('/', cookie))).toMatchObject({ id: user.id, otpEnabled: false });
    const [row] = await activityRows('user_login', user.id);
    expect(row).toMatchObject({ ip_address: '10.0.0.7', details: { method: 'password' } });
    const session = await selectOne<{ ip_address: string; user_id: string }>(`SELECT ip_address, user_id FROM sessions WHERE user_id = :id`, {
      id: user.id,
    });
    expect(session).toEqual({ ip_address: '10.0.0.7', user_id: user.id });
  });

  it('gives a new session id at sign-in (no fixation)', async () => {
    const user = await createTestUser({ otpEnabled: false });
    // An anonymous session that exists before sign-in (e.g. one planted by an attacker).
    const anonymous = await getSession(getRequest('/'));
    const before = cookieOf(await commitSession(anonymous));
    const [{ id: plantedId }] = await selectRows<{ id: string }>(`SELECT id FROM sessions WHERE user_id IS NULL ORDER BY created_at DESC LIMIT 1`);
    const result = await login(user.email, TEST_PASSWORD, before);
    expect(cookieOf(result.headers['Set-Cookie'])).not.toBe(before);
    expect(await selectOne(`SELECT id FROM sessions WHERE id = :id`, { id: plantedId })).toBeNull();
    expect(await getSignedInUser(getRequest('/', before))).toBeNull();
  });

  it('accepts explicit credentials and form posts as well as JSON bodies', async () => {
    const user = await createTestUser({ otpEnabled: false });
    const explicit = await startLogin(new Request('http://localhost/api/auth/login', { method: 'POST' }), { email: user.email, password: TEST_PASSWORD });
    expect(explicit.data.requiresTotp).toBe(false);
    const form = new FormData();
    form.set('email', user.email);
    form.set('password', TEST_PASSWORD);
    const posted = await startLogin(new Request('http://localhost/login', { method: 'POST', body: form }));
    expect(posted.data.needsTotpSetup).toBe(false);
  });

  it('answers every refusal with the same generic 401', async () => {
    const inactive = await createTestUser({ isActive: false, otpEnabled: false });
    const noPassword = await createTestUser({ password: null });
    const active = await createTestUser();
    for (const [email, password] of [
      [inactive.email, TEST_PASSWORD],
      [noPassword.email, TEST_PASSWORD],
      [active.email, 'not-the-password'],
      ['nobody@finflow.test', TEST_PASSWORD],
    ]) {
      expect(await apiFailure(login(email, password))).toMatchObject({ status: 401, body: { message: 'Invalid email or password' } });
    }
  });

  it('requires both fields', async () => {
    expect(await apiFailure(login('', 'x'))).toMatchObject({ status: 400, body: { message: 'Email and password are required' } });
    expect(await apiFailure(login('a@b.hr', ''))).toMatchObject({ status: 400 });
    expect(
      await apiFailure(startLogin(new Request('http://localhost/api/auth/login', { method: 'POST', body: '{oops', headers: { 'Content-Type': 'application/json' } }))),
    ).toMatchObject({
      status: 400,
    });
  });

  it('locks an email after 5 wrong passwords: the 6th attempt is 429, even with the right password', async () => {
    const user = await createTestUser({ otpEnabled: false });
    for (let i = 0; i < 5; i++) expect((await apiFailure(login(user.email, `wrong-${i}`))).status).toBe(401);
    const locked = await apiFailure(login(user.email, 'wrong-again'));
    expect(locked).toMatchObject({ status: 429, body: { message: 'Too many attempts. Try again later.' } });
    expect(Number(locked.headers.get('Retry-After'))).toBeGreaterThan(800);
    expect((await apiFailure(login(user.email, TEST_PASSWORD))).status).toBe(429);
    // Another user is not affected.
    const other = await createTestUser({ otpEnabled: false });
    expect((await login(other.email, TEST_PASSWORD)).data.requiresTotp).toBe(false);
  });

  it('resets the email count after a successful sign-in', async () => {
    const user = await createTestUser({ otpEnabled: false });
    for (let i = 0; i < 4; i++) await apiFailure(login(user.email, 'wrong'));
    await login(user.email, TEST_PASSWORD);
    for (let i = 0; i < 4; i++) expect((await apiFailure(login(user.email, 'wrong'))).status).toBe(401);
  });

  it('locks an IP address spraying many emails', async () => {
    const ip = '198.51.100.9';
    let status = 0;
    for (let i = 0; i < 31 && status !== 429; i++) status = (await apiFailure(login(`spray-${i}@finflow.test`, 'guess', undefined, ip))).status;
    expect(status).toBe(429);
    const user = await createTestUser({ otpEnabled: false });
    expect((await apiFailure(login(user.email, TEST_PASSWORD, undefined, ip))).status).toBe(429);
    expect((await login(user.email, TEST_PASSWORD, undefined, '198.51.100.10')).data.requiresTotp).toBe(false);
  });

  it('throttles wrong authenticator codes with 429', async () => {
    const user = await createTestUser({ email: 'codes@finflow.test' });
    const pending = cookieOf((await login(user.email, TEST_PASSWORD)).headers['Set-Cookie']);
    const { manualKey } = (await setupTotp(jsonRequest('/x', undefined, pending))).data;
    await verifyTotpSetup(jsonRequest('/x', {}, pending), { totpCode: codeAt(manualKey) });

    const next = cookieOf((await login(user.email, TEST_PASSWORD)).headers['Set-Cookie']);
    const wrongCodes = wrongCode(manualKey);
    for (const code of wrongCodes.slice(0, 5)) expect((await apiFailure(verifyOtp(jsonRequest('/x', {}, next), { otpCode: code }))).status).toBe(400);
    expect(await apiFailure(verifyOtp(jsonRequest('/x', {}, next), { otpCode: codeAt(manualKey, 1) }))).toMatchObject({
      status: 429,
      body: { message: 'Too many attempts. Try again later.' },
    });
  });

  it('lets a pending sign-in expire after 10 minutes', async () => {
    const user = await createTestUser();
    const pending = cookieOf((await login(user.email, TEST_PASSWORD)).headers['Set-Cookie']);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 11 * 60 * 1000);
    expect((await apiFailure(setupTotp(jsonRequest('/x', undefined, pending)))).status).toBe(401);
  });

  it('refuses the code steps without a pending sign-in', async () => {
    expect((await apiFailure(setupTotp(jsonRequest('/x', undefined)))).status).toBe(401);
    expect((await apiFailure(verifyOtp(jsonRequest('/x', {}), { otpCode: '123456' }))).status).toBe(401);
    expect((await apiFailure(verifyTotpSetup(jsonRequest('/x', {}), { totpCode: '123456' }))).status).toBe(401);
  });

  it('stops a sign-in whose user is deactivated half-way', async () => {
    const user = await createTestUser();
    const pending = cookieOf((await login(user.email, TEST_PASSWORD)).headers['Set-Cookie']);
    await execute(`UPDATE users SET is_active = false WHERE id = :id`, { id: user.id });
    expect((await apiFailure(setupTotp(jsonRequest('/x', undefined, pending)))).status).toBe(401);
  });

  it('logs out without a session (200, nothing logged)', async () => {
    const result = await logout(jsonRequest('/api/auth/logout', undefined));
    expect(result.data).toEqual({ success: true });
  });

  it('lets a signed-in user re-enrol an authenticator without a new session', async () => {
    const user = await createTestUser({ otpEnabled: false });
    const cookie = cookieOf((await login(user.email, TEST_PASSWORD)).headers['Set-Cookie']);
    const { manualKey } = (await setupTotp(jsonRequest('/x', undefined, cookie))).data;
    const result = await verifyTotpSetup(jsonRequest('/x', {}, cookie), { totpCode: codeAt(manualKey) });
    expect(result.headers).toEqual({});
    expect(await getSignedInUser(getRequest('/', cookie))).toMatchObject({ totpConfigured: true });
  });
});
