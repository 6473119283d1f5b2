import type { Migration } from '../migrate.ts';

/**
 * Dunning to the debtor (docs/collections.md#dunning).
 *
 * `dunning_notices`: one row per reminder level an invoice reached — sent
 * (the queued mail and the payment slip it carries) or skipped with the
 * reason (the debtor has no email address, or the level's template is
 * switched off), so staff see it. UNIQUE (invoice_id, level) is what makes
 * the daily job idempotent: two workers running it at once cannot both
 * write a level, and the row is written in the transaction that queues the
 * mail. `day` is the business day the job handled it.
 *
 * `dunning_holds`: a manager's manual hold on an invoice's reminders, with
 * the reason, who and when, and who lifted it, when and why. At most one is
 * open per invoice; the job sends nothing while it is.
 */
export const up: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    CREATE TABLE dunning_notices (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      invoice_id uuid NOT NULL REFERENCES invoices (id) ON DELETE RESTRICT,
      level integer NOT NULL CHECK (level BETWEEN 1 AND 4),
      day date NOT NULL,
      status text NOT NULL CHECK (status IN ('sent', 'skipped')),
      skip_reason text CHECK (skip_reason IN ('no_email', 'no_template')),
      open_amount numeric(15, 2) NOT NULL CHECK (open_amount >= 0),
      email_log_id uuid REFERENCES email_logs (id) ON DELETE SET NULL,
      document_id uuid REFERENCES documents (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT dunning_notices_skipped_has_reason CHECK ((status = 'skipped') = (skip_reason IS NOT NULL)),
      CONSTRAINT dunning_notices_invoice_level_key UNIQUE (invoice_id, level)
    );

    CREATE TABLE dunning_holds (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      invoice_id uuid NOT NULL REFERENCES invoices (id) ON DELETE RESTRICT,
      reason text NOT NULL CHECK (length(btrim(reason)) > 0 AND length(reason) <= 5000),
      held_at timestamptz NOT NULL DEFAULT now(),
      held_by uuid REFERENCES users (id) ON DELETE SET NULL,
      lifted_at timestamptz,
      lifted_by uuid REFERENCES users (id) ON DELETE SET NULL,
      lift_note text CHECK (length(lift_note) <= 5000),
      CONSTRAINT dunning_holds_lifted_note CHECK (lifted_at IS NOT NULL OR lift_note IS NULL)
    );
    CREATE UNIQUE INDEX dunning_holds_one_open ON dunning_holds (invoice_id) WHERE lifted_at IS NULL;
    CREATE INDEX dunning_holds_invoice_idx ON dunning_holds (invoice_id, held_at DESC);
  `);
};

export const down: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    DROP TABLE IF EXISTS dunning_holds;
    DROP TABLE IF EXISTS dunning_notices;
  `);
};
