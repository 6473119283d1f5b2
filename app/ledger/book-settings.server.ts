import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { execute, inTransaction, selectOne } from '../db.server.ts';
import { parseInput } from '../utils/api.server.ts';
import { centsToDecimalString, toCents } from '../utils/money.ts';
import type { BookSetting } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { fourEyesSettingSchema } from './schemas.ts';

/**
 * The book's setting for manual adjustments (book_settings, EUR): an
 * adjustment whose |amount| is above it waits for a second manager
 * (app/ledger/adjustments.server.ts). Until an admin sets it, it is
 * 1000.00 (no row: a fresh database stays empty, so a backup can be restored
 * into it); an unreadable value counts as 0, so every adjustment waits rather
 * than none.
 */
const FOUR_EYES_KEY = 'ledger_adjustment_four_eyes_above';
const FOUR_EYES_DEFAULT = '1000.00';

/** The amount as a decimal string ('1000.00'). */
export async function fourEyesAmount(transaction?: Transaction): Promise<string> {
  const row = await selectOne<RowOf<typeof BookSetting, 'value'>>('SELECT value FROM book_settings WHERE key = :key', { key: FOUR_EYES_KEY }, { transaction });
  try {
    const cents = toCents(row?.value ?? FOUR_EYES_DEFAULT);
    return centsToDecimalString(Math.max(0, cents));
  } catch {
    return '0.00';
  }
}

/** /settings (admin): a new amount, logged with the old one. Throws 400, 403. */
export async function setFourEyesAmount({ actor, amount, ip }: { actor: Actor; amount: string; ip?: string | null }): Promise<string> {
  assertCan(actor, 'manage:book_settings');
  const data = parseInput(fourEyesSettingSchema, { intent: 'ledger-four-eyes', amount });
  return inTransaction(async (transaction) => {
    const before = await fourEyesAmount(transaction);
    await execute(
      `INSERT INTO book_settings (key, value, updated_by) VALUES (:key, :value, :actorId)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_by = EXCLUDED.updated_by`,
      { key: FOUR_EYES_KEY, value: data.amount, actorId: actor.id },
      { transaction },
    );
    await logActivity(
      { action: 'book_setting_changed', userId: actor.id, entityType: 'book_setting', entityId: null, ipAddress: ip, details: { key: FOUR_EYES_KEY, before, after: data.amount } },
      transaction,
    );
    return data.amount;
  });
}
