import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { execute, selectRows } from '../../app/db.server.ts';
import { handler } from './housekeeping.ts';

const context = { worker: { workerId: 'w', hostname: 'h', pid: 1, startedAt: new Date() }, log: { info: () => {}, error: () => {} } };

describe('housekeeping', () => {
  it('removes expired sessions and stale throttle windows and keeps live ones; a rerun changes nothing', async () => {
    const expired = randomBytes(32).toString('base64url');
    const live = randomBytes(32).toString('base64url');
    await execute(`INSERT INTO sessions (id, expires_at) VALUES (:expired, now() - interval '1 hour'), (:live, now() + interval '1 hour')`, { expired, live });
    await execute(`INSERT INTO login_throttle (key, failures, window_started_at) VALUES ('email:old@finflow.local', 3, now() - interval '2 days')`);
    await handler([], context as never);
    expect((await selectRows<{ id: string }>(`SELECT id FROM sessions WHERE id IN (:expired, :live)`, { expired, live })).map((row) => row.id)).toEqual([live]);
    expect(await selectRows(`SELECT key FROM login_throttle WHERE key = 'email:old@finflow.local'`)).toEqual([]);
    await handler([], context as never);
    expect(await selectRows(`SELECT id FROM sessions WHERE id = :live`, { live })).toHaveLength(1);
  });
});
