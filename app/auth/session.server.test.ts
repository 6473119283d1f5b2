import { describe, expect, it } from 'vitest';
import { execute, selectOne, selectRows } from '../db.server.ts';
import { startLogin } from './login.server.ts';
import { getSignedInUser } from './permissions.server.ts';
import { SESSION_MAX_AGE_SECONDS, commitSession, createSessionCookie, destroySession, endSessionsOfUser, getSession, purgeExpiredSessions } from './session.server.ts';
import { cookieOf, getRequest, jsonRequest, signedInCookie } from './test-helpers.server.ts';
import { setUserActive, setUserRole } from './users.server.ts';
import { createTestUser, TEST_PASSWORD } from '../../tests/factories.ts';

const sessionRow = (id: string) =>
  selectOne<{ id: string; user_id: string | null; data: Record<string, unknown>; expires_at: Date }>(`SELECT * FROM sessions WHERE id = :id`, { id });

describe('database sessions', () => {
  it('sets a signed, httpOnly, lax cookie of 12 hours whose id is a row', async () => {
    const user = await createTestUser({ otpEnabled: false });
    const { headers } = await startLogin(jsonRequest('/api/auth/login', { email: user.email, password: TEST_PASSWORD }));
    const setCookie = headers['Set-Cookie'];
    expect(setCookie).toMatch(/^finflow_session=/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).toMatch(new RegExp(`Max-Age=${SESSION_MAX_AGE_SECONDS}`));
    expect(setCookie).not.toMatch(/Secure/); // only in production

    const session = await getSession(getRequest('/', cookieOf(setCookie)));
    expect(session.id).toHaveLength(43); // 32 bytes base64url
    const row = await sessionRow(session.id);
    expect(row).toMatchObject({ user_id: user.id, data: { userId: user.id } });
    expect(row!.expires_at.getTime() - Date.now()).toBeGreaterThan((SESSION_MAX_AGE_SECONDS - 60) * 1000);
  });

  it('ignores a cookie whose signature is wrong', async () => {
    const user = await createTestUser();
    const cookie = await signedInCookie(user.id);
    const [name, value] = cookie.split('=');
    const tampered = `${name}=${value.slice(0, -3)}abc`;
    expect(await getSignedInUser(getRequest('/', tampered))).toBeNull();
    expect(await getSignedInUser(getRequest('/', cookie))).toMatchObject({ id: user.id });
  });

  it('keeps user_id in step with data.userId and deletes the row on destroy', async () => {
    const user = await createTestUser();
    const session = await getSession(getRequest('/'));
    const cookie = cookieOf(await commitSession(session));
    const loaded = await getSession(getRequest('/', cookie));
    expect((await sessionRow(loaded.id))?.user_id).toBeNull();
    loaded.set('userId', user.id);
    await commitSession(loaded);
    expect((await sessionRow(loaded.id))?.user_id).toBe(user.id);

    expect(await destroySession(loaded)).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect(await sessionRow(loaded.id)).toBeNull();
  });

  it('does not bring back a session ended elsewhere', async () => {
    const user = await createTestUser();
    const cookie = await signedInCookie(user.id);
    const session = await getSession(getRequest('/', cookie));
    await endSessionsOfUser(user.id);
    await commitSession(session);
    expect(await sessionRow(session.id)).toBeNull();
  });

  it('ends every session of a user, optionally but one, including half-finished sign-ins', async () => {
    const user = await createTestUser();
    const keep = await createSessionCookie({ userId: user.id });
    await createSessionCookie({ userId: user.id });
    await createSessionCookie({ pendingUserId: user.id, pendingStartedAt: Date.now() });
    const other = await createTestUser();
    await createSessionCookie({ userId: other.id });

    expect(await endSessionsOfUser(user.id, { except: keep.sessionId })).toBe(2);
    expect(await sessionRow(keep.sessionId)).not.toBeNull();
    expect(await endSessionsOfUser(user.id)).toBe(1);
    expect(await selectRows(`SELECT id FROM sessions WHERE user_id = :id`, { id: other.id })).toHaveLength(1);
  });

  it('reads an expired row as no session and purges expired rows', async () => {
    const user = await createTestUser();
    const { sessionId, setCookie } = await createSessionCookie({ userId: user.id });
    await execute(`UPDATE sessions SET expires_at = now() - interval '1 minute' WHERE id = :id`, { id: sessionId });
    expect(await getSignedInUser(getRequest('/', cookieOf(setCookie)))).toBeNull();
    expect(await purgeExpiredSessions()).toBeGreaterThanOrEqual(1);
    expect(await sessionRow(sessionId)).toBeNull();
  });

  it('applies deactivation and role changes on the next request', async () => {
    const admin = await createTestUser({ role: 'admin' });
    const user = await createTestUser({ role: 'user' });
    const cookie = await signedInCookie(user.id);
    expect(await getSignedInUser(getRequest('/', cookie))).toMatchObject({ role: 'user' });

    await setUserRole(admin, user.id, 'manager');
    expect(await getSignedInUser(getRequest('/', cookie))).toMatchObject({ role: 'manager' });

    await setUserActive(admin, user.id, false);
    expect(await getSignedInUser(getRequest('/', cookie))).toBeNull();
    expect(await selectRows(`SELECT id FROM sessions WHERE user_id = :id`, { id: user.id })).toHaveLength(0);
  });

  it('treats a session of a user deactivated behind its back as signed out, and destroys it', async () => {
    const user = await createTestUser();
    const { sessionId, setCookie } = await createSessionCookie({ userId: user.id });
    await execute(`UPDATE users SET is_active = false WHERE id = :id`, { id: user.id });
    expect(await getSignedInUser(getRequest('/', cookieOf(setCookie)))).toBeNull();
    expect(await sessionRow(sessionId)).toBeNull();
  });
});
