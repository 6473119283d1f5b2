import { randomUUID } from 'node:crypto';
import { execute, selectRows } from '../db.server.ts';
import { hashPassword } from './password.server.ts';
import type { Role } from './schemas.ts';
import { createSessionCookie } from './session.server.ts';
import type { UserRow } from './user-record.server.ts';

/** Test factories for the auth modules (used by *.test.ts only). */
export const TEST_PASSWORD = 'Correct-horse-9';
let cachedHash: Promise<string> | undefined;

export async function createTestUser(
  overrides: { email?: string; role?: Role; password?: string | null; otpEnabled?: boolean | null; isActive?: boolean } = {},
): Promise<UserRow> {
  const email = overrides.email ?? `user-${randomUUID().slice(0, 8)}@finflow.test`;
  const password = overrides.password === undefined ? TEST_PASSWORD : overrides.password;
  const passwordHash =
    password === null ? null : password === TEST_PASSWORD ? await (cachedHash ??= hashPassword(TEST_PASSWORD)) : await hashPassword(password);
  const { rows } = await execute<UserRow>(
    `INSERT INTO users (email, first_name, last_name, role, is_active, password_hash, otp_enabled)
     VALUES (:email, 'Test', 'User', :role, :isActive, :passwordHash, :otpEnabled) RETURNING *`,
    {
      email,
      role: overrides.role ?? 'user',
      isActive: overrides.isActive ?? true,
      passwordHash,
      otpEnabled: overrides.otpEnabled === undefined ? null : overrides.otpEnabled,
    },
  );
  return rows[0];
}

/** The `name=value` part of a Set-Cookie header, for the next request's Cookie header. */
export function cookieOf(setCookie: string | undefined | null): string {
  if (!setCookie) throw new Error('expected a Set-Cookie header');
  return setCookie.split(';')[0];
}

/** A signed-in session without going through the sign-in steps. */
export async function signedInCookie(userId: string): Promise<string> {
  return cookieOf((await createSessionCookie({ userId })).setCookie);
}

export function jsonRequest(path: string, body: unknown, cookie?: string, method = 'POST'): Request {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (cookie) headers.Cookie = cookie;
  return new Request(`http://localhost${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

export function getRequest(path: string, cookie?: string): Request {
  return new Request(`http://localhost${path}`, { headers: cookie ? { Cookie: cookie } : {} });
}

/** The thrown value of `promise`, which must reject. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

/** A thrown API error Response as `{ status, body }`. */
export async function apiFailure(promise: Promise<unknown>): Promise<{ status: number; body: { message: string; errors?: Record<string, string[]> }; headers: Headers }> {
  const error = await rejection(promise);
  if (!(error instanceof Response)) throw error;
  return { status: error.status, body: await error.json(), headers: error.headers };
}

export async function activityRows(action: string, entityId?: string) {
  return selectRows<{ action: string; user_id: string | null; entity_id: string | null; ip_address: string | null; details: Record<string, unknown> }>(
    `SELECT action, user_id, entity_id, ip_address, details FROM activity_logs
      WHERE action = :action ${entityId ? 'AND entity_id = :entityId' : ''} ORDER BY created_at`,
    { action, entityId: entityId ?? null },
  );
}
