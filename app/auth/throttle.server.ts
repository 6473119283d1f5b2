import { apiError } from '../utils/api.server.ts';
import { execute, selectRows } from '../db.server.ts';

/**
 * Slows down guessing (docs/decisions/003-sessions-and-second-factor.md): each key counts failures in a window;
 * reaching the limit locks the key, and a locked key is answered 429 before
 * any password or code is checked. Keys: 'email:<address>' and 'otp:<user id>'
 * (5 per 15 minutes) and 'ip:<address>' (more generous, because an office
 * shares one public address). Account recovery counts every reset request
 * (not only failures) per address and per client address, in keys of its own
 * so that asking for links never locks the sign-in.
 */
export interface ThrottleRule {
  maxFailures: number;
  windowSeconds: number;
  lockSeconds: number;
}

const MINUTE = 60;
export const THROTTLE_RULES = {
  email: { maxFailures: 5, windowSeconds: 15 * MINUTE, lockSeconds: 15 * MINUTE },
  otp: { maxFailures: 5, windowSeconds: 15 * MINUTE, lockSeconds: 15 * MINUTE },
  ip: { maxFailures: 30, windowSeconds: 15 * MINUTE, lockSeconds: 15 * MINUTE },
  resetEmail: { maxFailures: 5, windowSeconds: 60 * MINUTE, lockSeconds: 60 * MINUTE },
  resetIp: { maxFailures: 20, windowSeconds: 60 * MINUTE, lockSeconds: 60 * MINUTE },
} as const satisfies Record<string, ThrottleRule>;
export type ThrottleKind = keyof typeof THROTTLE_RULES;

export const TOO_MANY_ATTEMPTS = 'errors.auth.tooManyAttempts';

export interface ThrottleKey {
  kind: ThrottleKind;
  value: string;
}

const keyText = ({ kind, value }: ThrottleKey) => `${kind}:${value}`.slice(0, 400);

/** Throws 429 (`message`) with Retry-After when any of the keys is locked now. */
export async function assertNotThrottled(keys: ThrottleKey[], message: string = TOO_MANY_ATTEMPTS): Promise<void> {
  if (keys.length === 0) return;
  const rows = await selectRows<{ retry_after: number }>(
    `SELECT ceil(extract(epoch FROM max(locked_until) - now()))::int AS retry_after
       FROM login_throttle WHERE key IN (:keys) AND locked_until > now()`,
    { keys: keys.map(keyText) },
  );
  const retryAfter = rows[0]?.retry_after;
  if (retryAfter && retryAfter > 0) {
    throw apiError(429, message, { headers: { 'Retry-After': String(retryAfter) } });
  }
}

/**
 * Counts one failure on each key, atomically (concurrent failures all count).
 * A window that has run out starts again at 1.
 */
export async function recordFailure(keys: ThrottleKey[]): Promise<void> {
  for (const key of keys) {
    const rule: ThrottleRule = THROTTLE_RULES[key.kind];
    await execute(
      `INSERT INTO login_throttle AS t (key, failures, window_started_at, locked_until)
       VALUES (:key, 1, now(), CASE WHEN :max <= 1 THEN now() + make_interval(secs => :lock) END)
       ON CONFLICT (key) DO UPDATE SET
         failures = CASE WHEN t.window_started_at <= now() - make_interval(secs => :window) THEN 1 ELSE t.failures + 1 END,
         window_started_at = CASE WHEN t.window_started_at <= now() - make_interval(secs => :window) THEN now() ELSE t.window_started_at END,
         locked_until = CASE
           WHEN (CASE WHEN t.window_started_at <= now() - make_interval(secs => :window) THEN 1 ELSE t.failures + 1 END) >= :max
             THEN now() + make_interval(secs => :lock)
           ELSE t.locked_until END`,
      { key: keyText(key), max: rule.maxFailures, window: rule.windowSeconds, lock: rule.lockSeconds },
    );
  }
}

/** After a success: the key starts from zero. */
export async function resetThrottle(keys: ThrottleKey[]): Promise<void> {
  if (keys.length === 0) return;
  await execute(`DELETE FROM login_throttle WHERE key IN (:keys)`, { keys: keys.map(keyText) });
}

/** For the worker's cleanup job: rows whose window and lock are both over. */
export async function purgeStaleThrottles(): Promise<number> {
  const longestWindow = Math.max(...Object.values(THROTTLE_RULES).map((rule) => rule.windowSeconds));
  const { count } = await execute(
    `DELETE FROM login_throttle
      WHERE window_started_at <= now() - make_interval(secs => :window)
        AND (locked_until IS NULL OR locked_until <= now())`,
    { window: longestWindow },
  );
  return count;
}
