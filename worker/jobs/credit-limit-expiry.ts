import { expireCreditLimits, openRenewalTasks } from '../../app/limits/limit-expiry.server.ts';
import type { JobHandler } from './define.ts';

/**
 * Daily, early morning in Croatia: approved credit limits past their
 * validUntil expire and each client's limit falls back; limits lapsing within
 * 30 days get a renewal task. Both steps are idempotent, so a retry or a
 * second run the same day changes nothing.
 */
export const queue = 'credit-limit-expiry';

export const handler: JobHandler<typeof queue> = async (_jobs, { log }) => {
  const { expired } = await expireCreditLimits();
  const { opened } = await openRenewalTasks();
  if (expired > 0 || opened > 0) log.info(`credit-limit-expiry: ${expired} limit(s) expired, ${opened} renewal task(s) opened`);
};
