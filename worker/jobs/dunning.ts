import { runDunning } from '../../app/dunning/dunning.server.ts';
import type { JobHandler } from './define.ts';

/** Daily: the reminder levels due today go to the debtors, each with its payment slip (docs/collections.md#dunning). */
export const queue = 'dunning';

export const handler: JobHandler<typeof queue> = async (_jobs, { log }) => {
  const { sent, skipped } = await runDunning();
  if (sent + skipped > 0) log.info(`dunning: ${sent} reminder(s) queued, ${skipped} skipped`);
};
