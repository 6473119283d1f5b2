import type PgBoss from 'pg-boss';
import { selectOne } from '../../app/db.server.ts';
import { sendOutgoingEInvoice } from '../../app/einvoices/outgoing-send.server.ts';
import { getQueueDefinition, type QueuePayload } from '../queues.ts';

/**
 * Sends one fee e-invoice through the intermediary (app/einvoices/outgoing-send.server.ts
 * checks it against the rules and does the work, idempotently under the row's lock). A failure to send is re-thrown so
 * pg-boss retries with backoff; the last delivery (retry_count at retry_limit)
 * marks the e-invoice failed.
 */
export const queue = 'einvoice-send' as const;

// Typed as unknown data like email-send: the worker has already checked each job against the queue's schema.
export const handler = async (jobs: PgBoss.Job<unknown>[]): Promise<void> => {
  const { retryLimit } = getQueueDefinition(queue).options;
  for (const job of jobs) {
    const row = await selectOne<{ retry_count: number; retry_limit: number }>(
      `SELECT retry_count, retry_limit FROM pgboss.job WHERE name = :queue AND id = :id`,
      { queue, id: job.id },
    );
    const { einvoiceId } = job.data as QueuePayload<typeof queue>;
    await sendOutgoingEInvoice(einvoiceId, { retryCount: row?.retry_count ?? 0, retryLimit: row?.retry_limit ?? retryLimit });
  }
};
