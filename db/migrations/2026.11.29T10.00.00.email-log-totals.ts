import type { Migration } from '../migrate.ts';
import { createDeltaTotals, dropDeltaTotals, type DeltaTotals } from '../delta-totals.ts';

/**
 * The delivery log's figures kept by the database (db/delta-totals.ts): the
 * email page's summary (entries, opened, clicked) and the log's total, each
 * read by counting every message ever sent — every financing, reminder and
 * campaign adds rows, and counting the bench book's 52,000 was three
 * quarters of PostgreSQL's time per GET /api/email/logs. Per campaign (NULL for a message
 * sent on its own), so a campaign's log is totalled the same way; a status
 * change or a retry changes no figure and adds no delta row.
 */
const EMAIL_LOG_TOTALS: DeltaTotals = {
  source: 'email_logs',
  deltas: 'email_log_deltas',
  name: 'email_log_totals',
  columns: 'campaign_id uuid, logs bigint NOT NULL, opened bigint NOT NULL, clicked bigint NOT NULL',
  key: 'campaign_id',
  figures: ['logs', 'opened', 'clicked'],
  contribution: (rows, sign) =>
    `SELECT campaign_id, ${sign} AS logs, ${sign} * (opened_at IS NOT NULL)::int AS opened, ${sign} * (clicked_at IS NOT NULL)::int AS clicked FROM ${rows}`,
};

export const up: Migration = async ({ context: db }) => {
  await db.query(createDeltaTotals(EMAIL_LOG_TOTALS));
};

export const down: Migration = async ({ context: db }) => {
  await db.query(dropDeltaTotals(EMAIL_LOG_TOTALS));
};
