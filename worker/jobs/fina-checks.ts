import { checkAllCustomers } from '../../app/fina/checks.server.ts';
import type { JobHandler } from './define.ts';

/**
 * Daily, before staff arrive: every customer's account is checked with FINA
 * (app/fina/checks.server.ts), in batches; idempotent, so a retried run opens
 * no second task. Throws when every check failed (FINA unreachable), so the
 * job is retried.
 */
export const queue = 'fina-checks';

export const handler: JobHandler<typeof queue> = async (_jobs, { log }) => {
  const totals = await checkAllCustomers();
  log.info(`fina-checks: ${totals.checked} checked, ${totals.blocked} newly blocked, ${totals.cleared} cleared, ${totals.failed} failed`);
  if (totals.failed > 0 && totals.checked === 0) throw new Error(`fina-checks: all ${totals.failed} check(s) failed`);
};
