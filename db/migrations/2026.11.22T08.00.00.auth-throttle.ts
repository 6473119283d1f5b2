import type { Migration } from '../migrate.ts';

/**
 * Failed sign-in attempts per key ('email:…', 'ip:…', 'otp:<user id>'), so
 * guessing passwords or authenticator codes is slowed down and then refused
 * (docs/decisions/003-sessions-and-second-factor.md). Keyed by text rather than by user so that unknown emails are
 * throttled exactly like known ones and reveal nothing.
 */
export const up: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    CREATE TABLE login_throttle (
      key text PRIMARY KEY CHECK (length(key) <= 400),
      failures integer NOT NULL DEFAULT 0 CHECK (failures >= 0),
      window_started_at timestamptz NOT NULL DEFAULT now(),
      locked_until timestamptz
    );
    -- The purge job removes rows whose window and lock are both over.
    CREATE INDEX login_throttle_window_idx ON login_throttle (window_started_at);
  `);
};

export const down: Migration = async ({ context: db }) => {
  await db.query(`DROP TABLE IF EXISTS login_throttle`);
};
