import type PgBoss from 'pg-boss';
import * as z from 'zod';
import { TEMPLATE_VARIABLES } from '../email/schemas.ts';
import { BUSINESS_TIME_ZONE } from '../utils/business-time.ts';

/**
 * Every pg-boss queue FinFlow uses, with its options and its recurring
 * schedule. This is the only place queue options live: the worker creates and
 * updates queues from this list at start (boss.server.ts `ensureQueues`), the
 * web process only ever sends to names declared here, and each queue gets
 * exactly one job module in worker/jobs/index.ts.
 */

export type QueueOptions = {
  /** Retries after the first attempt; a handler that throws is retried this often, then the job is failed. */
  retryLimit: number;
  /** Seconds before the first retry. */
  retryDelay: number;
  /** Doubles the delay on each retry, so a struggling dependency is not hammered. */
  retryBackoff: boolean;
  /** A running job not finished within this many seconds is treated as failed (and retried). */
  expireInSeconds: number;
  /** How long a job may wait in the queue before pg-boss drops it (default 14 days). */
  retentionMinutes?: number;
  policy?: PgBoss.QueuePolicy;
  deadLetter?: string;
};

export type QueueDefinition<Name extends string = string, Payload extends z.ZodType = z.ZodType> = {
  name: Name;
  options: QueueOptions;
  /** Validates the job's data in sendJob and again before the handler sees it. Omit for jobs without data. */
  payload?: Payload;
  /** Recurring job (pg-boss holds one schedule per queue); created by the worker only. */
  schedule?: { cron: string; tz?: string };
  /**
   * How the worker fetches: pg-boss waits pollingIntervalSeconds (default 2) after every fetch,
   * so a busy queue's throughput is batchSize / interval. Handlers loop over their batch and are
   * idempotent, so a failed batch that is retried whole does no harm.
   */
  work?: { batchSize?: number; pollingIntervalSeconds?: number };
};

// Returns its argument with its exact type (`const`): the name stays a literal, so
// QueueName is a union of names, and a declared payload schema stays known per queue.
function defineQueue<const Definition extends QueueDefinition>(definition: Definition): Definition {
  return definition;
}

/**
 * A daily job on the Croatian clock (app/utils/business-time.ts): a failed run is retried within the morning (three
 * times, from 5 minutes, doubling) and a job left waiting is dropped after 6 hours; tomorrow's run catches up anyway.
 */
function businessDaily(cron: string, expireInSeconds = 900) {
  return {
    options: { retryLimit: 3, retryDelay: 300, retryBackoff: true, expireInSeconds, retentionMinutes: 360 },
    schedule: { cron, tz: BUSINESS_TIME_ZONE },
  } satisfies Pick<QueueDefinition, 'options' | 'schedule'>;
}

/** A job every few minutes: the next run replaces a missed one, so one retry without backoff and a short retention. */
function frequent(cron: string, timing: Pick<QueueOptions, 'retryDelay' | 'expireInSeconds'> & { retentionMinutes: number }) {
  return { options: { retryLimit: 1, retryBackoff: false, ...timing }, schedule: { cron } } satisfies Pick<QueueDefinition, 'options' | 'schedule'>;
}

export const queues = [
  defineQueue({
    name: 'heartbeat',
    // A missed beat is replaced by the next one a minute later: one quick retry, and
    // an unprocessed beat is dropped after 10 minutes instead of piling up.
    ...frequent('* * * * *', { retryDelay: 5, expireInSeconds: 30, retentionMinutes: 10 }),
  }),
  defineQueue({
    name: 'housekeeping',
    // Hourly housekeeping; a missed run is covered by the next one, so no long retries.
    options: { retryLimit: 2, retryDelay: 60, retryBackoff: true, expireInSeconds: 300, retentionMinutes: 60 },
    schedule: { cron: '17 * * * *' },
  }),
  defineQueue({
    name: 'overdue-risk',
    // Daily before staff arrive; a failed run is retried within the morning, and tomorrow's run catches up anyway.
    ...businessDaily('30 5 * * *'),
  }),
  defineQueue({
    name: 'credit-limit-expiry',
    // Daily before staff arrive, so limits lapse on the right Croatian day; reruns are harmless.
    ...businessDaily('15 5 * * *'),
  }),
  defineQueue({
    name: 'recourse-chargeback',
    // Daily before staff arrive: recourse invoices past their recourse period are charged back (app/recourse/recourse.server.ts);
    // each invoice is re-read under its lock, so a retry or a rerun charges nothing twice.
    ...businessDaily('45 5 * * *'),
  }),
  defineQueue({
    name: 'workflow-step',
    // One automated workflow step (app/workflows/engine.server.ts). Three retries with backoff (~10 s, 20 s, 40 s),
    // then the instance is marked failed with the error kept; a step runs in one transaction, so 5 minutes is generous.
    options: { retryLimit: 3, retryDelay: 10, retryBackoff: true, expireInSeconds: 300 },
    // One step at a time (a failing step must not take others down with it), fetched promptly.
    work: { batchSize: 1, pollingIntervalSeconds: 0.5 },
    payload: z.object({
      instanceId: z.uuid(),
      stepIndex: z.number().int().min(0),
      attempt: z.number().int().min(1),
    }),
  }),
  defineQueue({
    name: 'email-send',
    // One email (app/email/send.server.ts): its log row is written before the job is sent. Five retries with
    // backoff (10–20 s, then doubling, ~5–10 min in all) ride out an SMTP hiccup; the last failure marks the log failed. Idempotent.
    options: { retryLimit: 5, retryDelay: 10, retryBackoff: true, expireInSeconds: 120 },
    // A campaign is thousands of these: up to 20 per second per worker instead of one every 2 s.
    work: { batchSize: 10, pollingIntervalSeconds: 0.5 },
    payload: z.object({
      logId: z.uuid(),
      // Every template variable, each optional (app/email/schemas.ts).
      variables: z.partialRecord(z.enum(TEMPLATE_VARIABLES), z.string()).optional(),
    }),
  }),
  defineQueue({
    name: 'password-reset',
    // A forgotten-password request (app/auth/password-reset.server.ts): the web only queues it, so its answer and
    // timing are the same for every address; the worker issues the link and mails it. A link an hour old is useless:
    // a few quick retries, and a request left waiting half an hour is dropped (the user asks again).
    options: { retryLimit: 3, retryDelay: 10, retryBackoff: true, expireInSeconds: 120, retentionMinutes: 30 },
    work: { batchSize: 5, pollingIntervalSeconds: 1 },
    payload: z.object({ email: z.string().min(1).max(255), ip: z.string().max(100).nullable() }),
  }),
  defineQueue({
    name: 'email-campaign',
    // A campaign's fan-out (app/email/campaigns.server.ts), now or at its scheduled time; re-running it resumes
    // without sending anyone twice (one log per recipient, unique per campaign).
    options: { retryLimit: 3, retryDelay: 30, retryBackoff: true, expireInSeconds: 300 },
    payload: z.object({ campaignId: z.uuid() }),
  }),
  defineQueue({
    name: 'email-payment-reminders',
    // Daily, Croatian morning: payment_due (3 days before) and payment_overdue (the day after) mails, once per invoice.
    ...businessDaily('0 7 * * *'),
  }),
  defineQueue({
    name: 'dunning',
    // Daily, Croatian early morning (before the clients' reminders at 7): each reminder level once to the debtor, with
    // its payment slip (app/dunning/dunning.server.ts). Idempotent (one notice row per invoice and level), so a retry
    // or tomorrow's run catches up what a failed run left.
    ...businessDaily('30 6 * * *', 1800),
  }),
  defineQueue({
    name: 'integration-health',
    // Every 15 minutes; the next run replaces a missed one, so one quick retry and a short retention.
    ...frequent('*/15 * * * *', { retryDelay: 30, expireInSeconds: 300, retentionMinutes: 15 }),
  }),
  defineQueue({
    name: 'einvoice-send',
    // One fee e-invoice to the intermediary (app/einvoices/outgoing.server.ts), queued after the financing commits.
    // Five retries with backoff (~30 s … 16 min) ride out an intermediary outage; the last failure marks it failed,
    // and a manager sends it again. Idempotent: only a pending e-invoice is sent, under its row lock.
    options: { retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 120 },
    payload: z.object({ einvoiceId: z.uuid() }),
  }),
  defineQueue({
    name: 'einvoice-sync',
    // Every 5 minutes: receives incoming e-invoices into the invoice intake (when the integration is enabled) and
    // re-queues pending e-invoices whose job was lost. The next run covers a missed one: one retry, short retention.
    ...frequent('*/5 * * * *', { retryDelay: 60, expireInSeconds: 240, retentionMinutes: 15 }),
  }),
  defineQueue({
    name: 'fina-checks',
    // Daily before staff arrive (after overdue-risk); reruns are harmless (no second task for a known blockage).
    ...businessDaily('45 5 * * *', 3600),
  }),
  defineQueue({
    name: 'backup',
    // A database backup for Settings (app/backups/backups.server.ts). An error marks the backup failed and an admin
    // starts another, so the one retry only matters after a worker died mid-way: the job expires and starts over.
    // Generous expiry: a large book takes minutes to copy and compress.
    options: { retryLimit: 1, retryDelay: 60, retryBackoff: false, expireInSeconds: 4 * 3600 },
    payload: z.object({ backupId: z.uuid() }),
  }),
] as const;

export type QueueName = (typeof queues)[number]['name'];

type DefinitionOf<Name extends QueueName> = Extract<(typeof queues)[number], { name: Name }>;

/** The data a job on this queue carries (the payload schema's output; null when it declares none). */
export type QueuePayload<Name extends QueueName> = DefinitionOf<Name> extends { payload: infer Schema extends z.ZodType } ? z.output<Schema> : null;

/** What a sender passes (the payload schema's input, before defaults and transforms). */
export type QueueInput<Name extends QueueName> = DefinitionOf<Name> extends { payload: infer Schema extends z.ZodType } ? z.input<Schema> : null | undefined;

const byName = new Map<string, QueueDefinition>(queues.map((queue) => [queue.name, queue]));

export function getQueueDefinition(name: string): QueueDefinition {
  const definition = byName.get(name);
  if (!definition) throw new Error(`Unknown queue "${name}": declare it in app/jobs/queues.server.ts`);
  return definition;
}

/** Checks a job's data against its queue's payload schema; jobs without a schema carry null. */
export function parsePayload<Name extends QueueName>(name: Name, data: unknown): QueuePayload<Name> {
  const { payload } = getQueueDefinition(name);
  if (!payload) return null as QueuePayload<Name>;
  const result = payload.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(`Invalid payload for queue "${name}": ${issue.path.join('.') || 'data'} ${issue.message}`);
  }
  return result.data as QueuePayload<Name>;
}
