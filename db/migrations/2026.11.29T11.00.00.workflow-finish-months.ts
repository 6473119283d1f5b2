import type { Migration } from '../migrate.ts';
import { createDeltaTotals, dropDeltaTotals, type DeltaTotals } from '../delta-totals.ts';

/**
 * The dashboard compares this month's workflow success rate with last
 * month's (app/dashboard/metrics.server.ts): of the instances that finished
 * in a Croatian calendar month (completed, or failed as last updated), how
 * many completed. It counted every instance ever finished on every view;
 * the database keeps these per month instead (db/delta-totals.ts), so a view
 * reads two months' rows whatever the history. The months are Zagreb's, as
 * the dashboard's (BUSINESS_TIME_ZONE in app/utils/business-time.ts).
 */
const WORKFLOW_FINISH_MONTHS: DeltaTotals = {
  source: 'workflow_instances',
  deltas: 'workflow_finish_month_deltas',
  name: 'workflow_finish_month_totals',
  columns: 'month date NOT NULL, completed bigint NOT NULL, failed bigint NOT NULL',
  key: 'month',
  figures: ['completed', 'failed'],
  contribution: (rows, sign) =>
    `SELECT date_trunc('month', coalesce(completed_at, updated_at) AT TIME ZONE 'Europe/Zagreb')::date AS month,
            ${sign} * (status = 'completed')::int AS completed, ${sign} * (status = 'failed')::int AS failed
       FROM ${rows} WHERE status IN ('completed', 'failed')`,
};

export const up: Migration = async ({ context: db }) => {
  await db.query(createDeltaTotals(WORKFLOW_FINISH_MONTHS));
};

export const down: Migration = async ({ context: db }) => {
  await db.query(dropDeltaTotals(WORKFLOW_FINISH_MONTHS));
};
