import type { Transaction } from 'sequelize';
import { inTransaction, selectOne } from '../../app/db.server.ts';

/**
 * Runs `run` in one transaction whose business day is `day` ('YYYY-MM-DD'):
 * every SQL 'today' of FinFlow (SQL_BUSINESS_TODAY, app/utils/business-time.ts)
 * reads it, so a test can finance on one day and settle weeks later.
 */
export function atBusinessDay<T>(day: string, run: (transaction: Transaction) => Promise<T>): Promise<T> {
  return inTransaction(async (transaction) => {
    await selectOne(`SELECT set_config('finflow.business_day', :day, true)`, { day }, { transaction });
    return run(transaction);
  });
}
