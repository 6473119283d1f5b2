import { chargeBackDueInvoices } from '../../app/recourse/recourse.server.ts';
import type { JobHandler } from './define.ts';

/**
 * Daily, early morning in Croatia: every financed recourse invoice still not
 * fully paid once its due date plus the agreement's recourse days has passed
 * is charged back to the client (docs/collections.md#recourse-and-write-off).
 * Idempotent: an invoice already charged back is skipped under its row lock.
 */
export const queue = 'recourse-chargeback';

export const handler: JobHandler<typeof queue> = async (_jobs, { log }) => {
  const { chargedBack } = await chargeBackDueInvoices();
  if (chargedBack.length > 0) log.info(`recourse-chargeback: ${chargedBack.length} invoice(s) charged back`);
};
