import { purgeExpiredSessions } from '../../app/auth/session.server.ts';
import { purgeStaleThrottles } from '../../app/auth/throttle.server.ts';
import { purgeExpiredUserTokens } from '../../app/auth/users.server.ts';
import { purgeUnclaimedUploads } from '../../app/documents/uploads.server.ts';
import { compactOpenBook } from '../../app/analytics/ageing.server.ts';
import { compactClientBookTotals } from '../../app/dashboard/metrics.server.ts';
import { compactEmailLogTotals } from '../../app/email/logs.server.ts';
import { compactInvoiceSummaries } from '../../app/invoices/summaries.server.ts';
import { purgeExpiredDrafts } from '../../app/onboarding/drafts.server.ts';
import { purgeRegistrationRateLimits } from '../../app/onboarding/rate-limit.server.ts';
import { compactOpenTaskCounts } from '../../app/tasks/open-count.server.ts';
import { compactWorkflowTotals } from '../../app/workflows/metrics.server.ts';
import type { JobHandler } from './define.ts';

/**
 * Hourly housekeeping, so tables that only grow do not: expired sessions,
 * sign-in throttle windows and one-time links; expired registration drafts
 * and their rate-limit counters; the wizard's uploads nobody claimed before
 * their hold ran out (with their files unless other rows share the bytes).
 * Each purge is idempotent: a rerun finds nothing. It also folds the
 * invoice count deltas (app/invoices/summaries.server.ts), the open book's
 * (app/analytics/ageing.server.ts), the dashboard's client totals
 * (app/dashboard/metrics.server.ts), the workflow totals
 * (app/workflows/metrics.server.ts), each user's open-task count
 * (app/tasks/open-count.server.ts) and the delivery log's figures
 * (app/email/logs.server.ts) so they stay short.
 */
export const queue = 'housekeeping';

export const handler: JobHandler<typeof queue> = async (_jobs, { log }) => {
  const removed = {
    sessions: await purgeExpiredSessions(),
    throttles: await purgeStaleThrottles(),
    userTokens: await purgeExpiredUserTokens(),
    drafts: await purgeExpiredDrafts(),
    rateLimits: await purgeRegistrationRateLimits(),
    uploads: (await purgeUnclaimedUploads()).slots,
  };
  await compactInvoiceSummaries();
  await compactOpenBook();
  await compactClientBookTotals();
  await compactWorkflowTotals();
  await compactOpenTaskCounts();
  await compactEmailLogTotals();
  const total = Object.values(removed).reduce((sum, count) => sum + count, 0);
  if (total > 0) log.info(`housekeeping: removed ${JSON.stringify(removed)}`);
};
