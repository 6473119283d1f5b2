import type PgBoss from 'pg-boss';
import { sendOutgoingEInvoice } from '../../app/einvoices/outgoing-send.server.ts';
import type { QueuePayload } from '../../app/jobs/queues.server.ts';

/**
 * Sends one fee e-invoice through the intermediary (app/einvoices/outgoing-send.server.ts
 * checks it against the rules and does the work, idempotently under the row's lock). A failure to send is re-thrown so
 * pg-boss retries with backoff; the last delivery (the job's retryCount at its retryLimit)
 * marks the e-invoice failed.
 */
export const queue = 'einvoice-send' as const;

// Typed as unknown data like email-send: the worker has already checked each job against the queue's schema.
export const handler = async (jobs: PgBoss.JobWithMetadata<unknown>[]): Promise<void> => {
  for (const job of jobs) {
    const { einvoiceId } = job.data as QueuePayload<typeof queue>;
    await sendOutgoingEInvoice(einvoiceId, { retryCount: job.retryCount, retryLimit: job.retryLimit });
  }
};
