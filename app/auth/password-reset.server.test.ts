import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { execute, selectOne, selectRows } from '../db.server.ts';
import { outboxDir } from '../email/mailer.server.ts';
import { action as forgotApi } from '../routes/api.auth.forgot-password.ts';
import { action as resetApi } from '../routes/api.auth.reset-password.ts';
import { action as forgotPageAction } from '../routes/forgot-password.tsx';
import { action as resetPageAction, loader as resetPageLoader } from '../routes/reset-password.$token.tsx';
import { startLogin } from './login.server.ts';
import {
  RESET_QUEUE,
  RESET_REQUESTED,
  TOO_MANY_RESET_ATTEMPTS,
  completePasswordReset,
  findPasswordResetLink,
  requestPasswordReset,
  resetPasswordWithToken,
  sendPasswordReset,
} from './password-reset.server.ts';
import { verifyPassword } from './password.server.ts';
import { getSignedInUser } from './permissions.server.ts';
import { createSessionCookie } from './session.server.ts';
import { THROTTLE_RULES } from './throttle.server.ts';
import { activityRows, apiFailure, getRequest, jsonRequest, signedInCookie } from './test-helpers.server.ts';
import { createStaffUser } from './users.server.ts';
import { createTestUser, TEST_PASSWORD } from '../../tests/factories.ts';

const NEW_PASSWORD = 'Nova-lozinka-2026';
const passwords = (password: string) => ({ newPassword: password, confirmPassword: password });

/** Each test asks from its own address, so the per-address and per-client counters start at zero. */
let ipCounter = 0;
let ip: string;
beforeEach(() => {
  ip = `10.20.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
});

/** The reset link in the newest message to `email` in the local outbox (quoted-printable decoded). */
function resetLinkSentTo(email: string): string | null {
  const dir = outboxDir();
  if (!fs.existsSync(dir)) return null;
  const messages = fs
    .readdirSync(dir)
    .filter((file) => file.endsWith('.eml'))
    .sort()
    .map((file) =>
      fs
        .readFileSync(path.join(dir, file), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    )
    .filter((text) => new RegExp(`^To: ${email.replace(/[.+]/g, '\\$&')}$`, 'mi').test(text));
  return messages.at(-1)?.match(/https?:\/\/[^\s]+\/reset-password\/[A-Za-z0-9_-]+/)?.[0] ?? null;
}
const tokenOf = (link: string) => link.split('/').pop()!;

async function queuedRequests(email: string) {
  return selectRows<{ data: { email: string; ip: string | null } }>(`SELECT data FROM pgboss.job WHERE name = :queue AND data ->> 'email' = :email`, {
    queue: RESET_QUEUE,
    email,
  });
}

/** Asks as a visitor would, then runs the worker's half of the queued job. */
async function askForLink(email: string): Promise<string> {
  await requestPasswordReset({ email }, { ip });
  const [job] = (await queuedRequests(email)).slice(-1);
  expect(await sendPasswordReset(job.data)).toBe(true);
  const link = resetLinkSentTo(email);
  expect(link).toBeTruthy();
  return tokenOf(link!);
}

async function passwordHashOf(userId: string) {
  return (await selectOne<{ password_hash: string }>(`SELECT password_hash FROM users WHERE id = :id`, { id: userId }))!.password_hash;
}

describe('asking for a reset link', () => {
  it('answers the same for a known and an unknown address, and only the known one gets a mail', async () => {
    const user = await createTestUser({ email: 'known@finflow.test' });
    const known = await requestPasswordReset({ email: ' Known@FinFlow.test ' }, { ip });
    const unknown = await requestPasswordReset({ email: 'nobody@finflow.test' }, { ip });
    expect(known).toEqual({ message: RESET_REQUESTED });
    expect(unknown).toEqual(known);

    // The web only queued both; nothing about either address was looked up yet.
    expect(await queuedRequests('known@finflow.test')).toEqual([{ data: { email: 'known@finflow.test', ip } }]);
    expect(await queuedRequests('nobody@finflow.test')).toEqual([{ data: { email: 'nobody@finflow.test', ip } }]);

    expect(await sendPasswordReset({ email: 'nobody@finflow.test', ip })).toBe(false);
    expect(resetLinkSentTo('nobody@finflow.test')).toBeNull();
    expect(await sendPasswordReset({ email: 'known@finflow.test', ip })).toBe(true);
    const link = resetLinkSentTo('known@finflow.test');
    expect(link).toMatch(/\/reset-password\/[\w-]{43}$/);

    const tokens = await selectRows<{ purpose: string; token_hash: string; created_at: Date; expires_at: Date }>(
      `SELECT purpose, token_hash, created_at, expires_at FROM user_tokens WHERE user_id = :id`,
      { id: user.id },
    );
    expect(tokens).toHaveLength(1);
    expect(tokens[0].purpose).toBe('reset_password');
    expect(tokens[0].token_hash).not.toContain(tokenOf(link!));
    expect(tokens[0].expires_at.getTime() - tokens[0].created_at.getTime()).toBe(3600_000);

    const [log] = await activityRows('password_reset_requested', user.id);
    expect(log).toMatchObject({ user_id: user.id, ip_address: ip, details: { supersededLinks: 0 } });
    expect(JSON.stringify(log.details)).not.toContain(tokenOf(link!));
  });

  it('sends nothing to a deactivated user', async () => {
    await createTestUser({ email: 'gone@finflow.test', isActive: false });
    await requestPasswordReset({ email: 'gone@finflow.test' }, { ip });
    expect(await sendPasswordReset({ email: 'gone@finflow.test', ip })).toBe(false);
    expect(resetLinkSentTo('gone@finflow.test')).toBeNull();
  });

  it('answers the API with 202 and the same body for known and unknown addresses', async () => {
    await createTestUser({ email: 'api-known@finflow.test' });
    const call = (email: string) => forgotApi({ request: jsonRequest('/api/auth/forgot-password', { email }), params: {}, context: { clientIp: ip } });
    const known = await call('api-known@finflow.test');
    const unknown = await call('api-unknown@finflow.test');
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(await known.text()).toBe(await unknown.text());
  });

  it('refuses an invalid address with 400 on email and queues nothing', async () => {
    const failure = await apiFailure(requestPasswordReset({ email: 'not-an-email' }, { ip }));
    expect(failure.status).toBe(400);
    expect(failure.body.errors).toEqual({ email: ['Invalid email address'] });
    expect(await queuedRequests('not-an-email')).toEqual([]);
    const api = await apiFailure(forgotApi({ request: jsonRequest('/api/auth/forgot-password', {}), params: {}, context: {} }));
    expect(api.status).toBe(400);
    expect(Object.keys(api.body.errors!)).toEqual(['email']);
  });

  it('throttles per address: 429 with Retry-After past the limit, and nothing more is queued', async () => {
    const { maxFailures } = THROTTLE_RULES.resetEmail;
    for (let i = 0; i < maxFailures; i++) {
      // Each from another client address, so only the per-address counter can be the one that stops it.
      await requestPasswordReset({ email: 'target@finflow.test' }, { ip: `10.99.0.${i + 1}` });
    }
    const refused = await apiFailure(requestPasswordReset({ email: 'target@finflow.test' }, { ip: '10.99.1.1' }));
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: 'Too many password reset attempts. Try again later.', code: TOO_MANY_RESET_ATTEMPTS, params: {} });
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(3000);
    expect(await queuedRequests('target@finflow.test')).toHaveLength(maxFailures);
    // Another address from a fresh client is not affected.
    await expect(requestPasswordReset({ email: 'other@finflow.test' }, { ip: '10.99.1.2' })).resolves.toEqual({ message: RESET_REQUESTED });
  });

  it('throttles per client address across addresses, and the page shows the 429', async () => {
    const { maxFailures } = THROTTLE_RULES.resetIp;
    for (let i = 0; i < maxFailures; i++) await requestPasswordReset({ email: `spray-${i}@finflow.test` }, { ip });
    const refused = await apiFailure(requestPasswordReset({ email: 'spray-last@finflow.test' }, { ip }));
    expect(refused.status).toBe(429);
    expect(await queuedRequests('spray-last@finflow.test')).toEqual([]);

    const form = new FormData();
    form.set('email', 'spray-page@finflow.test');
    const page = await forgotPageAction({ request: new Request('http://localhost/forgot-password', { method: 'POST', body: form }), params: {}, context: { clientIp: ip } });
    expect(page.status).toBe(429);
    expect(JSON.stringify(await page.json())).toContain(TOO_MANY_RESET_ATTEMPTS);
    // The sign-in of the same client is not locked by asking for links.
    const user = await createTestUser();
    await expect(startLogin(jsonRequest('/api/auth/login', { email: user.email, password: TEST_PASSWORD }), undefined, { ip })).resolves.toBeTruthy();
  });

  it('the page redirects to the same confirmation for any address', async () => {
    const post = (email: string) => {
      const form = new FormData();
      form.set('email', email);
      return forgotPageAction({ request: new Request('http://localhost/forgot-password', { method: 'POST', body: form }), params: {}, context: { clientIp: ip } });
    };
    await createTestUser({ email: 'page-known@finflow.test' });
    for (const email of ['page-known@finflow.test', 'page-unknown@finflow.test']) {
      const response = await post(email);
      expect(response.status).toBe(302);
      expect(response.headers.get('Location')).toBe('/forgot-password?sent=1');
    }
  });
});

describe('using a reset link', () => {
  it('sets the new password, spends the link, ends every session of the user and logs it', async () => {
    const user = await createTestUser({ email: 'reset-me@finflow.test' });
    const otherDevice = await signedInCookie(user.id);
    const thisDevice = await signedInCookie(user.id);
    // One more device half-way through signing in (password given, code not yet).
    await createSessionCookie({ pendingUserId: user.id, pendingStartedAt: Date.now() });
    const bystander = await createTestUser();
    const bystanderCookie = await signedInCookie(bystander.id);
    const token = await askForLink(user.email);

    const loaded = await (await resetPageLoader({ request: getRequest(`/reset-password/${token}`), params: { token }, context: {} })).json();
    expect(loaded).toEqual({ email: 'reset-me@finflow.test' });

    const form = new FormData();
    form.set('newPassword', NEW_PASSWORD);
    form.set('confirmPassword', NEW_PASSWORD);
    const response = await resetPageAction({
      request: new Request(`http://localhost/reset-password/${token}`, { method: 'POST', body: form }),
      params: { token },
      context: { clientIp: ip },
    });
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/');

    expect(await verifyPassword(NEW_PASSWORD, await passwordHashOf(user.id))).toBe(true);
    for (const cookie of [otherDevice, thisDevice]) expect(await getSignedInUser(getRequest('/', cookie))).toBeNull();
    expect(await selectOne(`SELECT 1 FROM sessions WHERE data ->> 'pendingUserId' = :id`, { id: user.id })).toBeNull();
    // Nobody else is signed out.
    expect(await getSignedInUser(getRequest('/', bystanderCookie))).toMatchObject({ id: bystander.id });

    const [log] = await activityRows('password_reset', user.id);
    expect(log).toMatchObject({ user_id: user.id, ip_address: ip, details: { sessionsEnded: 3 } });

    // The old password no longer works; the new one does.
    expect((await apiFailure(startLogin(jsonRequest('/api/auth/login', { email: user.email, password: TEST_PASSWORD })))).status).toBe(401);
    expect((await startLogin(jsonRequest('/api/auth/login', { email: user.email, password: NEW_PASSWORD }))).data.needsTotpSetup).toBe(true);
  });

  it('refuses a reused link and changes nothing', async () => {
    const user = await createTestUser();
    const token = await askForLink(user.email);
    await completePasswordReset(token, passwords(NEW_PASSWORD), { ip });
    const hash = await passwordHashOf(user.id);
    const session = await signedInCookie(user.id);

    const again = await apiFailure(completePasswordReset(token, passwords('Third-password-3'), { ip }));
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({
      message: 'This link is invalid or has expired',
      code: 'errors.auth.invalidLink',
      errors: { token: ['This link is invalid or has expired'] },
    });
    expect(await passwordHashOf(user.id)).toBe(hash);
    expect(await getSignedInUser(getRequest('/', session))).toMatchObject({ id: user.id });
    expect(await findPasswordResetLink(token)).toBeNull();
    expect(await activityRows('password_reset', user.id)).toHaveLength(1);
  });

  it('works for an hour and not after (a link backdated on the database clock)', async () => {
    const user = await createTestUser();
    const backdate = (token: string, minutes: number) =>
      execute(
        `UPDATE user_tokens SET created_at = created_at - make_interval(mins => :minutes), expires_at = expires_at - make_interval(mins => :minutes)
          WHERE user_id = :id AND used_at IS NULL AND expires_at > now()`,
        { id: user.id, minutes },
      ).then(() => token);

    const stale = await backdate(await askForLink(user.email), 61);
    expect(await findPasswordResetLink(stale)).toBeNull();
    const refused = await apiFailure(completePasswordReset(stale, passwords(NEW_PASSWORD), { ip }));
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toHaveProperty('token');
    expect(await verifyPassword(TEST_PASSWORD, await passwordHashOf(user.id))).toBe(true);
    // The page shows the invalid link instead of the form.
    const page = await (await resetPageLoader({ request: getRequest(`/reset-password/${stale}`), params: { token: stale }, context: {} })).json();
    expect(page).toEqual({ email: null });

    const fresh = await backdate(await askForLink(user.email), 59);
    expect(await findPasswordResetLink(fresh)).toMatchObject({ email: user.email });
    await completePasswordReset(fresh, passwords(NEW_PASSWORD), { ip });
    expect(await verifyPassword(NEW_PASSWORD, await passwordHashOf(user.id))).toBe(true);
  });

  it('a new link makes the older unspent one stop working', async () => {
    const user = await createTestUser();
    const first = await askForLink(user.email);
    const second = await askForLink(user.email);
    expect(first).not.toBe(second);
    expect(await findPasswordResetLink(first)).toBeNull();
    expect((await apiFailure(completePasswordReset(first, passwords(NEW_PASSWORD), { ip }))).status).toBe(400);
    expect((await activityRows('password_reset_requested', user.id)).map((row) => row.details.supersededLinks)).toEqual([0, 1]);
    await completePasswordReset(second, passwords(NEW_PASSWORD), { ip });
    expect(await verifyPassword(NEW_PASSWORD, await passwordHashOf(user.id))).toBe(true);
  });

  it('an unknown link, and a set-password link, are not reset links', async () => {
    const admin = await createTestUser({ role: 'admin' });
    const { setPasswordLink } = await createStaffUser({ id: admin.id, role: 'admin' }, { email: 'invited@finflow.test', firstName: 'I', lastName: 'N', role: 'user' });
    const invitation = setPasswordLink!.split('/').pop()!;
    expect(await findPasswordResetLink(invitation)).toBeNull();
    expect((await apiFailure(completePasswordReset(invitation, passwords(NEW_PASSWORD), { ip }))).status).toBe(400);
    expect((await apiFailure(completePasswordReset('no-such-token', passwords(NEW_PASSWORD), { ip }))).status).toBe(400);
    // The invitation itself still works where it belongs (a reset link request also does not supersede it).
    await requestPasswordReset({ email: 'invited@finflow.test' }, { ip });
    await sendPasswordReset({ email: 'invited@finflow.test', ip });
    expect(await selectOne(`SELECT 1 FROM user_tokens WHERE purpose = 'set_password' AND used_at IS NULL AND expires_at > now()`)).not.toBeNull();
  });

  it('checks the password rules first, on their fields, without spending the link', async () => {
    const user = await createTestUser();
    const token = await askForLink(user.email);
    const short = await apiFailure(completePasswordReset(token, passwords('short'), { ip }));
    expect(short.status).toBe(400);
    expect(short.body.errors).toEqual({ newPassword: ['Nova lozinka mora imati najmanje 8 znakova'] });
    const mismatch = await apiFailure(completePasswordReset(token, { newPassword: NEW_PASSWORD, confirmPassword: 'Something-else-1' }, { ip }));
    expect(mismatch.body.errors).toEqual({ confirmPassword: ['Lozinke se ne podudaraju'] });
    expect(await findPasswordResetLink(token)).toMatchObject({ email: user.email });
  });

  it('counts failed links per client address: 429 past the limit, even for a good link', async () => {
    const user = await createTestUser();
    const token = await askForLink(user.email);
    const { maxFailures } = THROTTLE_RULES.resetIp;
    // askForLink counted once for this client already.
    for (let i = 1; i < maxFailures; i++) expect((await apiFailure(completePasswordReset(`guess-${i}`, passwords(NEW_PASSWORD), { ip }))).status).toBe(400);
    const locked = await apiFailure(completePasswordReset(token, passwords(NEW_PASSWORD), { ip }));
    expect(locked.status).toBe(429);
    expect(await findPasswordResetLink(token)).toMatchObject({ email: user.email });
    // From another client the link still works.
    await completePasswordReset(token, passwords(NEW_PASSWORD), { ip: '10.98.0.1' });
  });

  it('frees the sign-in of an address locked by wrong passwords', async () => {
    const user = await createTestUser();
    for (let i = 0; i < THROTTLE_RULES.email.maxFailures; i++) {
      await apiFailure(startLogin(jsonRequest('/api/auth/login', { email: user.email, password: 'wrong-password' })));
    }
    expect((await apiFailure(startLogin(jsonRequest('/api/auth/login', { email: user.email, password: TEST_PASSWORD })))).status).toBe(429);
    await completePasswordReset(await askForLink(user.email), passwords(NEW_PASSWORD), { ip });
    expect((await startLogin(jsonRequest('/api/auth/login', { email: user.email, password: NEW_PASSWORD }))).data).toEqual({ requiresTotp: false, needsTotpSetup: true });
  });

  it('POST /api/auth/reset-password {token, password}', async () => {
    const user = await createTestUser();
    const token = await askForLink(user.email);
    const call = (body: unknown) => resetApi({ request: jsonRequest('/api/auth/reset-password', body), params: {}, context: { clientIp: ip } });
    const missing = await apiFailure(call({ password: 'x' }));
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.errors!).sort()).toEqual(['password', 'token']);
    const ok = await call({ token, password: NEW_PASSWORD });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ success: true });
    expect((await apiFailure(call({ token, password: 'Again-password-2' }))).status).toBe(400);
    expect(await verifyPassword(NEW_PASSWORD, await passwordHashOf(user.id))).toBe(true);
    await expect(resetPasswordWithToken({ token: 'x', password: NEW_PASSWORD }, { ip })).rejects.toBeInstanceOf(Response);
  });
});
