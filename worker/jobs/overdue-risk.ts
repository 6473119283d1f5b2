import { reassessOverdue } from '../../app/risk/overdue.server.ts';
import type { JobHandler } from './define.ts';

/**
 * Daily, early morning in Croatia: customers and clients of financed invoices
 * that became overdue since the last run are reassessed (reason 'overdue').
 * Idempotent: each invoice is handled once (app/risk/overdue.server.ts).
 */
export const queue = 'overdue-risk';

export const handler: JobHandler<typeof queue> = async (_jobs, { log }) => {
  const { invoices, assessments } = await reassessOverdue();
  if (invoices > 0) log.info(`overdue-risk: ${invoices} newly overdue invoice(s), ${assessments} reassessment(s)`);
};
