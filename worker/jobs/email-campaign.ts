import type PgBoss from 'pg-boss';
import { fanOutCampaign } from '../../app/email/campaigns.server.ts';
import type { QueuePayload } from '../../app/jobs/queues.server.ts';

/** A campaign's fan-out, now or at its scheduled time (app/email/campaigns.server.ts); safe to run again. */
export const queue = 'email-campaign' as const;

export const handler = async (jobs: PgBoss.Job<unknown>[]): Promise<void> => {
  for (const job of jobs) await fanOutCampaign((job.data as QueuePayload<typeof queue>).campaignId);
};
