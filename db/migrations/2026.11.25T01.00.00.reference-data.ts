import type { Migration } from '../migrate.ts';

/**
 * What the reference data and the event-started workflows need
 * (docs/reference-data.md):
 *
 * - `install_steps`: one row per one-time installation step that has run on
 *   this database. The reference data (db/reference-data.ts) is installed
 *   once, and its row here keeps a later start from recreating what staff
 *   have since deactivated, edited or deleted. It is part of a backup, so a
 *   restored book is not given the reference data a second time.
 * - `workflow_instances.start_event`: the business event that started an
 *   instance (null: started by hand or by the registration wizard), and a
 *   unique index that lets one event start at most one open instance per
 *   entity, also when two requests race (the second insert waits for the
 *   first and then does nothing).
 */
export const up: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    CREATE TABLE install_steps (
      name text PRIMARY KEY CHECK (name ~ '^[a-z][a-z0-9_]{0,99}$'),
      completed_at timestamptz NOT NULL DEFAULT now()
    );

    ALTER TABLE workflow_instances
      ADD COLUMN start_event text CHECK (start_event IN ('invoice_submitted', 'risk_assessment_completed', 'payment_recorded'));
    CREATE UNIQUE INDEX workflow_instances_open_event_key ON workflow_instances (start_event, entity_type, entity_id)
      WHERE start_event IS NOT NULL AND status <> 'completed';
  `);
};

export const down: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    DROP INDEX IF EXISTS workflow_instances_open_event_key;
    ALTER TABLE workflow_instances DROP COLUMN IF EXISTS start_event;
    DROP TABLE IF EXISTS install_steps;
  `);
};
