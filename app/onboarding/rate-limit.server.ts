import { execute } from '../db.server.ts';
import { apiError } from '../utils/api.server.ts';

/**
 * The wizard and its upload URL are the product's only public writes
 * (docs/api.md#routes), so each client address gets a budget of requests per window;
 * past it the answer is 429 with Retry-After. Counted in PostgreSQL so every
 * web replica shares one count. Generous enough for an office behind one
 * address filling in a few registrations.
 */
export interface RateRule {
  max: number;
  windowSeconds: number;
}

export const REGISTRATION_RATE: RateRule = { max: 120, windowSeconds: 15 * 60 };
export const TOO_MANY_REQUESTS = 'onboarding.errors.tooManyRequests';

/**
 * Counts one request for `ip` (atomically: concurrent requests all count) and
 * throws 429 once the window's budget is spent. A window that has run out
 * starts again at 1. `scope` keeps another public page's budget apart (the debtor's link: 'debtor').
 */
export async function assertRegistrationRate(ip: string | null | undefined, rule: RateRule = REGISTRATION_RATE, scope: 'registration' | 'debtor' = 'registration'): Promise<void> {
  const key = `${scope}:${ip || 'unknown'}`.slice(0, 400);
  const { rows } = await execute<{ hits: number; retry_after: number }>(
    `INSERT INTO registration_rate_limits AS r (key, hits, window_started_at) VALUES (:key, 1, now())
     ON CONFLICT (key) DO UPDATE SET
       hits = CASE WHEN r.window_started_at <= now() - make_interval(secs => :window) THEN 1 ELSE r.hits + 1 END,
       window_started_at = CASE WHEN r.window_started_at <= now() - make_interval(secs => :window) THEN now() ELSE r.window_started_at END
     RETURNING hits, ceil(extract(epoch FROM window_started_at + make_interval(secs => :window) - now()))::int AS retry_after`,
    { key, window: rule.windowSeconds },
  );
  const row = rows[0];
  if (row && row.hits > rule.max) {
    throw apiError(429, TOO_MANY_REQUESTS, { headers: { 'Retry-After': String(Math.max(1, row.retry_after)) } });
  }
}

/** For a cleanup job: counters whose window is over. */
export async function purgeRegistrationRateLimits(rule: RateRule = REGISTRATION_RATE): Promise<number> {
  const { count } = await execute(`DELETE FROM registration_rate_limits WHERE window_started_at <= now() - make_interval(secs => :window)`, { window: rule.windowSeconds });
  return count;
}
