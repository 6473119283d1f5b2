import type { Migration } from '../migrate.ts';

/**
 * The debtor's side of a financed invoice (docs/collections.md).
 *
 * `invoices.payment_reference`: what the debtor quotes when it pays the
 * factor, in the Croatian model HR00 ('HR00 2026-7-000042': the year of
 * financing, 7 for a purchased receivable, a book-wide sequence). The
 * factor's own fee invoices use 'HR00 YYYY-NNNNNN' (two parts), so the two
 * never collide. A trigger gives it when the invoice is first financed,
 * whoever writes the row (financing, the demo seed, the bench loader), and it
 * never changes: it is printed on the notice of assignment, the reminders
 * and the payment slip, and the bank statement import matches collections
 * by it.
 *
 * `invoices.disputed` / `dispute_reason`: the debtor disputes the invoice (a
 * flag with its reason, not a status); a disputed invoice is neither
 * verified nor financed, nor dunned, until the dispute is resolved.
 * `invoice_disputes` keeps every dispute: who opened it (the debtor through
 * its link, with the IP, or a staff member on its behalf) and how a manager
 * resolved it — rejected (the invoice stands), reduced (a credit note for the
 * difference dilutes it) or upheld (diluted in full). At most one is open per
 * invoice, and the invoice's flag is set exactly while one is.
 *
 * `email_logs.customer_id` / `invoice_id`: mail to a debtor (the notice of
 * assignment, reminders) names the debtor and the invoice it is about, so the
 * invoice's history lists it. `email_attachments`: documents sent with a
 * message (the notice PDF, the payment slip), read from the store when the
 * worker sends it. `email_templates.trigger` gains the debtor's events: the
 * notice of assignment and four reminder levels (db/reference-data.ts
 * installs a template of each once, as the 'debtor_templates' step).
 */
export const up: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    CREATE SEQUENCE invoice_payment_reference_seq;
    ALTER TABLE invoices
      ADD COLUMN payment_reference text CHECK (payment_reference ~ '^HR00 [0-9]{4}-7-[0-9]{6,9}$'),
      ADD COLUMN disputed boolean NOT NULL DEFAULT false,
      ADD COLUMN dispute_reason text CHECK (length(dispute_reason) <= 5000),
      ADD CONSTRAINT invoices_dispute_reason CHECK (disputed = (dispute_reason IS NOT NULL));
    CREATE UNIQUE INDEX invoices_payment_reference_key ON invoices (payment_reference);

    CREATE TABLE invoice_disputes (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      invoice_id uuid NOT NULL REFERENCES invoices (id) ON DELETE RESTRICT,
      reason text NOT NULL CHECK (length(btrim(reason)) > 0 AND length(reason) <= 5000),
      source text NOT NULL CHECK (source IN ('debtor', 'staff')),
      opened_at timestamptz NOT NULL DEFAULT now(),
      opened_by uuid REFERENCES users (id) ON DELETE SET NULL,
      opened_ip text CHECK (length(opened_ip) <= 64),
      outcome text CHECK (outcome IN ('rejected', 'reduced', 'upheld')),
      -- With 'reduced': what the debtor still owes; the difference is credited (docs/collections.md).
      agreed_amount numeric(15, 2) CHECK (agreed_amount >= 0),
      resolution_note text CHECK (length(resolution_note) <= 5000),
      resolved_at timestamptz,
      resolved_by uuid REFERENCES users (id) ON DELETE SET NULL,
      CHECK ((outcome IS NULL) = (resolved_at IS NULL)),
      CHECK ((outcome = 'reduced') = (agreed_amount IS NOT NULL)),
      CHECK (source = 'debtor' OR opened_by IS NOT NULL)
    );
    CREATE UNIQUE INDEX invoice_disputes_one_open ON invoice_disputes (invoice_id) WHERE resolved_at IS NULL;
    CREATE INDEX invoice_disputes_invoice_idx ON invoice_disputes (invoice_id, opened_at DESC);

    ALTER TABLE email_logs
      ADD COLUMN customer_id uuid REFERENCES customers (id) ON DELETE SET NULL,
      ADD COLUMN invoice_id uuid REFERENCES invoices (id) ON DELETE SET NULL;
    CREATE INDEX email_logs_invoice_idx ON email_logs (invoice_id, created_at DESC) WHERE invoice_id IS NOT NULL;
    CREATE INDEX email_logs_customer_idx ON email_logs (customer_id, created_at DESC) WHERE customer_id IS NOT NULL;
    CREATE TABLE email_attachments (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      email_log_id uuid NOT NULL REFERENCES email_logs (id) ON DELETE CASCADE,
      position integer NOT NULL CHECK (position >= 0),
      document_id uuid NOT NULL REFERENCES documents (id) ON DELETE RESTRICT,
      UNIQUE (email_log_id, position)
    );
    CREATE INDEX email_attachments_document_idx ON email_attachments (document_id);

    ALTER TABLE email_templates DROP CONSTRAINT email_templates_trigger_check;
    ALTER TABLE email_templates ADD CONSTRAINT email_templates_trigger_check CHECK (trigger IN (
      'client_onboarding', 'invoice_verified', 'payment_due', 'payment_overdue',
      'debtor_notice', 'dunning_1', 'dunning_2', 'dunning_3', 'dunning_4', 'manual'));

    CREATE FUNCTION invoices_give_payment_reference() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.financed_at IS NOT NULL AND NEW.payment_reference IS NULL THEN
        NEW.payment_reference := 'HR00 ' || to_char(NEW.financed_at AT TIME ZONE 'Europe/Zagreb', 'YYYY') || '-7-'
                                 || lpad(nextval('invoice_payment_reference_seq')::text, 6, '0');
      ELSIF TG_OP = 'UPDATE' AND NEW.payment_reference IS DISTINCT FROM OLD.payment_reference AND OLD.payment_reference IS NOT NULL THEN
        RAISE EXCEPTION 'an invoice''s payment reference never changes' USING ERRCODE = 'check_violation';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER invoices_give_payment_reference BEFORE INSERT OR UPDATE OF financed_at, payment_reference ON invoices
      FOR EACH ROW EXECUTE FUNCTION invoices_give_payment_reference();

    -- Every invoice financed before this migration gets its reference, in the order it was financed.
    UPDATE invoices i
       SET payment_reference = 'HR00 ' || to_char(numbered.financed_at AT TIME ZONE 'Europe/Zagreb', 'YYYY') || '-7-'
                               || lpad(numbered.n::text, 6, '0')
      FROM (SELECT id, financed_at, nextval('invoice_payment_reference_seq') AS n
              FROM (SELECT id, financed_at FROM invoices WHERE financed_at IS NOT NULL ORDER BY financed_at, id) ordered) numbered
     WHERE i.id = numbered.id;
  `);
};

export const down: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    DELETE FROM email_templates WHERE trigger IN ('debtor_notice', 'dunning_1', 'dunning_2', 'dunning_3', 'dunning_4');
    DELETE FROM install_steps WHERE name = 'debtor_templates';
    ALTER TABLE email_templates DROP CONSTRAINT email_templates_trigger_check;
    ALTER TABLE email_templates ADD CONSTRAINT email_templates_trigger_check
      CHECK (trigger IN ('client_onboarding', 'invoice_verified', 'payment_due', 'payment_overdue', 'manual'));
    DROP TABLE IF EXISTS email_attachments;
    DROP INDEX IF EXISTS email_logs_customer_idx;
    DROP INDEX IF EXISTS email_logs_invoice_idx;
    ALTER TABLE email_logs DROP COLUMN IF EXISTS invoice_id, DROP COLUMN IF EXISTS customer_id;
    DROP TABLE IF EXISTS invoice_disputes;
    DROP TRIGGER IF EXISTS invoices_give_payment_reference ON invoices;
    DROP FUNCTION IF EXISTS invoices_give_payment_reference();
    ALTER TABLE invoices DROP CONSTRAINT IF EXISTS invoices_dispute_reason,
      DROP COLUMN IF EXISTS dispute_reason, DROP COLUMN IF EXISTS disputed, DROP COLUMN IF EXISTS payment_reference;
    DROP SEQUENCE IF EXISTS invoice_payment_reference_seq;
  `);
};
