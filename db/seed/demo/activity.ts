import { randomUUID } from 'node:crypto';
import { date, json } from './plumbing.ts';
import type { Context } from './context.ts';

// ---- Staff sign-ins and the activity log ------------------------------------------------

export function buildActivity(ctx: Context) {
  const { random, clock, staff } = ctx;
  const lastLogins: Array<[string, number]> = [];
  for (const user of staff.all) {
    let last = 0;
    for (let day = 14; day >= 0; day--) {
      if (!random.chance(0.4)) continue;
      last = clock.at(day, random);
      ctx.event(last, 'user_login', 'user', user.id, user.id, { method: 'password+totp' });
    }
    if (last) lastLogins.push([user.id, last]);
  }
  // The most recent 300 events, as the monitoring and audit views read them; office network addresses for staff.
  const recent = [...ctx.events]
    .sort((a, b) => b.at - a.at)
    .slice(0, 300)
    .reverse();
  const rows = recent.map((entry) => {
    const index = staff.all.findIndex((user) => user.id === entry.userId);
    return {
      id: randomUUID(),
      action: entry.action,
      entity_type: entry.entityType,
      entity_id: entry.entityId,
      user_id: entry.userId,
      ip_address: index >= 0 ? `10.20.1.${11 + index}` : entry.action === 'client_created' ? '93.142.51.7' : null,
      details: json(entry.details),
      created_at: date(entry.at),
    };
  });
  return { rows, lastLogins };
}
