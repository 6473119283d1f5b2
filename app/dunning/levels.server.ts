import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { execute, inTransaction, selectOne } from '../db.server.ts';
import { parseInput } from '../utils/api.server.ts';
import type { BookSetting } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { DEFAULT_DUNNING_LEVELS, DUNNING_LEVEL_NUMBERS, dunningLevelsSettingSchema, MAX_LEVEL_DAYS, type DunningLevel } from './schemas.ts';

/**
 * The reminder levels (docs/collections.md#dunning) as a book setting
 * (book_settings, key dunning_levels, JSON): no row until an admin changes
 * them, so a fresh install runs on DEFAULT_DUNNING_LEVELS. A stored value that
 * does not read as four levels with strictly rising days (written by hand)
 * counts as the defaults rather than stopping every reminder.
 */
const LEVELS_KEY = 'dunning_levels';

function readStored(value: string | undefined): DunningLevel[] | null {
  if (!value) return null;
  try {
    const parsed: unknown = JSON.parse(value);
    if (!Array.isArray(parsed) || parsed.length !== DUNNING_LEVEL_NUMBERS.length) return null;
    const levels = DUNNING_LEVEL_NUMBERS.map((level, index) => {
      const entry = parsed[index] as { days?: unknown; enabled?: unknown } | null;
      const days = entry?.days;
      if (typeof days !== 'number' || !Number.isInteger(days) || Math.abs(days) > MAX_LEVEL_DAYS || typeof entry?.enabled !== 'boolean') throw new Error('unreadable');
      return { level, days, enabled: entry.enabled };
    });
    return levels.every((level, index) => index === 0 || level.days > levels[index - 1].days) ? levels : null;
  } catch {
    return null;
  }
}

/** The four levels in force, in order. */
export async function dunningLevels(transaction?: Transaction | null): Promise<DunningLevel[]> {
  const row = await selectOne<RowOf<typeof BookSetting, 'value'>>('SELECT value FROM book_settings WHERE key = :key', { key: LEVELS_KEY }, { transaction });
  return readStored(row?.value) ?? DEFAULT_DUNNING_LEVELS.map((level) => ({ ...level }));
}

/** /settings (admin): new levels, logged with the old ones. Throws 400 (days not strictly rising), 403. */
export async function setDunningLevels({ actor, input, ip }: { actor: Actor; input: unknown; ip?: string | null }): Promise<DunningLevel[]> {
  assertCan(actor, 'manage:book_settings');
  const levels = parseInput(dunningLevelsSettingSchema, input);
  return inTransaction(async (transaction) => {
    const before = await dunningLevels(transaction);
    const value = JSON.stringify(levels.map(({ days, enabled }) => ({ days, enabled })));
    await execute(
      `INSERT INTO book_settings (key, value, updated_by) VALUES (:key, :value, :actorId)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_by = EXCLUDED.updated_by`,
      { key: LEVELS_KEY, value, actorId: actor.id },
      { transaction },
    );
    await logActivity(
      { action: 'book_setting_changed', userId: actor.id, entityType: 'book_setting', entityId: null, ipAddress: ip, details: { key: LEVELS_KEY, before, after: levels } },
      transaction,
    );
    return levels;
  });
}
