import { createInstance } from 'i18next';
import { selectRows } from '../db.server.ts';
import { i18nConfig } from '../i18n.ts';
import { refusalText } from '../utils/refusals.ts';
import { createSessionCookie } from './session.server.ts';

/** Request and assertion helpers for the tests (used by *.test.ts only); test data is in tests/factories.ts. */

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

/**
 * Deliberately invalid input where a domain function's type wants a valid
 * one: what a caller that skipped the types (a form post, a JSON body) can
 * send. The value is `unknown` until it is handed over, typed as the
 * parameter, so no other mistake hides behind a cast.
 */
export function invalidInput<T>(value: unknown): T {
  return value as T;
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

/** A refusal as a page action encodes it (`readApiError`), in the words its reader sees in `language`. */
export async function refusalIn(language: 'en' | 'hr', message: string): Promise<string> {
  const i18n = createInstance({ ...i18nConfig, lng: language, initImmediate: false, saveMissing: false });
  await i18n.init();
  return refusalText(i18n.t, (key) => i18n.exists(key), message);
}
