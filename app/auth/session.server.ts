import { randomBytes } from 'node:crypto';
import { createCookie, createSessionStorage, type Cookie, type Session, type SessionStorage } from '@remix-run/node';
import type { Transaction } from 'sequelize';
import { execute, selectOne } from '../db.server.ts';
import { getSessionSecret } from './secret.server.ts';

/**
 * Sessions live in the `sessions` table; the cookie holds only their signed
 * id (docs/decisions/003-sessions-and-second-factor.md). Logout, deactivation and role changes therefore act on the
 * next request, and any web replica can serve any user.
 */
export interface SessionData {
  /** Set only once every sign-in factor has passed. */
  userId?: string;
  /** Between the password and the authenticator code (login.server.ts). */
  pendingUserId?: string;
  pendingStartedAt?: number;
}
export type FinflowSession = Session<SessionData, SessionData>;

export const SESSION_COOKIE_NAME = 'finflow_session';
export const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

let storage: { cookie: Cookie; storage: SessionStorage<SessionData, SessionData> } | undefined;

function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

function expiryFrom(expires: Date | undefined): Date {
  return expires ?? new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000);
}

/** user_id mirrors data.userId so endSessionsOfUser can find every session of a user. */
function userIdOf(data: Partial<SessionData>): string | null {
  return typeof data.userId === 'string' ? data.userId : null;
}

async function insertSession(data: Partial<SessionData>, expires: Date, meta: { ip?: string | null; userAgent?: string | null; transaction?: Transaction }): Promise<string> {
  const id = newSessionId();
  await execute(
    `INSERT INTO sessions (id, user_id, data, ip_address, user_agent, expires_at)
     VALUES (:id, :userId, CAST(:data AS jsonb), :ip, :userAgent, :expiresAt)`,
    {
      id,
      userId: userIdOf(data),
      data: JSON.stringify(data),
      ip: meta.ip ?? null,
      userAgent: meta.userAgent ? meta.userAgent.slice(0, 500) : null,
      expiresAt: expires,
    },
    { transaction: meta.transaction },
  );
  return id;
}

function getStorage() {
  if (!storage) {
    const cookie = createCookie(SESSION_COOKIE_NAME, {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure: process.env.NODE_ENV === 'production',
      secrets: [getSessionSecret()],
      maxAge: SESSION_MAX_AGE_SECONDS,
    });
    const sessionStorage = createSessionStorage<SessionData, SessionData>({
      cookie,
      createData: (data, expires) => insertSession(data, expiryFrom(expires), {}),
      readData: async (id) => {
        const row = await selectOne<{ data: SessionData }>(`SELECT data FROM sessions WHERE id = :id AND expires_at > now()`, { id });
        return row?.data ?? null;
      },
      updateData: async (id, data, expires) => {
        // A row ended meanwhile (logout elsewhere, deactivation) stays ended: no upsert.
        await execute(`UPDATE sessions SET data = CAST(:data AS jsonb), user_id = :userId, expires_at = :expiresAt WHERE id = :id`, {
          id,
          data: JSON.stringify(data),
          userId: userIdOf(data),
          expiresAt: expiryFrom(expires),
        });
      },
      deleteData: async (id) => {
        await execute(`DELETE FROM sessions WHERE id = :id`, { id });
      },
    });
    storage = { cookie, storage: sessionStorage };
  }
  return storage;
}

/** The session id in the request's cookie when its signature is valid (the row may still be gone or expired). */
export async function sessionIdOf(request: Request): Promise<string | null> {
  const value: unknown = await getStorage().cookie.parse(request.headers.get('Cookie'));
  return typeof value === 'string' && value.length > 0 ? value : null;
}

/** The request's session (a new, empty one without a valid cookie or row). */
export function getSession(request: Request): Promise<FinflowSession> {
  return getStorage().storage.getSession(request.headers.get('Cookie'));
}

/** Saves the session; returns the Set-Cookie header value. */
export function commitSession(session: FinflowSession): Promise<string> {
  return getStorage().storage.commitSession(session);
}

/** Deletes the row; returns a Set-Cookie header value that clears the cookie. */
export function destroySession(session: FinflowSession): Promise<string> {
  return getStorage().storage.destroySession(session);
}

/**
 * Creates a fresh session row (inside the caller's transaction when given) and
 * returns its Set-Cookie value. Sign-in uses it to rotate the id, so an id
 * planted before sign-in (session fixation) never becomes a signed-in one.
 */
export async function createSessionCookie(
  data: SessionData,
  meta: { ip?: string | null; userAgent?: string | null; transaction?: Transaction } = {},
): Promise<{ sessionId: string; setCookie: string }> {
  const expires = expiryFrom(undefined);
  const sessionId = await insertSession(data, expires, meta);
  const setCookie = await getStorage().cookie.serialize(sessionId, { expires });
  return { sessionId, setCookie };
}

/** Deletes one session row by id (within a transaction when given). */
export async function deleteSessionRow(id: string, transaction?: Transaction): Promise<void> {
  if (!id) return;
  await execute(`DELETE FROM sessions WHERE id = :id`, { id }, { transaction });
}

/** A Set-Cookie value that removes the session cookie from the browser. */
export function clearSessionCookie(): Promise<string> {
  return getStorage().cookie.serialize('', { expires: new Date(0), maxAge: undefined });
}

/**
 * Ends every session of a user (also one half-way through sign-in), except
 * `except` (e.g. the session that just changed its own password). Returns the
 * number ended.
 */
export async function endSessionsOfUser(userId: string, options: { except?: string; transaction?: Transaction } = {}): Promise<number> {
  const { count } = await execute(
    `DELETE FROM sessions
      WHERE (user_id = :userId OR data->>'pendingUserId' = :userIdText)
        AND id <> :except`,
    { userId, userIdText: userId, except: options.except ?? '' },
    { transaction: options.transaction },
  );
  return count;
}

/** For the worker's cleanup job: removes expired rows, returns how many. */
export async function purgeExpiredSessions(): Promise<number> {
  const { count } = await execute(`DELETE FROM sessions WHERE expires_at <= now()`);
  return count;
}
