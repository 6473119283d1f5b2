import type { Migration } from '../migrate.ts';

/**
 * Recourse and write-off (docs/collections.md#recourse-and-write-off,
 * docs/money.md#recourse-and-write-off).
 *
 * `invoices.status` gains `charged_back` (a recourse invoice the client now
 * owes itself: its recourse period passed unpaid, or a manager charged it
 * back earlier with a reason) and `written_off` (a non-recourse invoice whose
 * loss the factor took, approved four-eyes). Both leave the financed book:
 * used credit and the debtor's exposure are released by the ledger. The
 * status totals (invoice_status_deltas) take any status as it comes, so the
 * new ones are counted by the existing triggers.
 * `charged_back_at`/`_by`/`charge_back_reason` and `written_off_at`/`_by`
 * record who moved it and why (the job charges back as no one: NULL by).
 *
 * `client_ledger.kind` gains `write_off`: the factor's loss on a non-recourse
 * invoice, credited to the client's account so its balance is not debited.
 *
 * `write_off_requests`: a manager asks, an admin other than the requester
 * approves or rejects; at most one pending per invoice.
 *
 * The payable list (invoices_payable_idx) now also holds charged-back
 * invoices with an open amount: the debtor may still pay them, and the
 * collection is credited back to the client.
 */
export const up: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    ALTER TABLE invoices DROP CONSTRAINT invoices_status_check;
    ALTER TABLE invoices ADD CONSTRAINT invoices_status_check
      CHECK (status IN ('pending', 'verified', 'approved', 'rejected', 'financed', 'paid', 'charged_back', 'written_off'));
    ALTER TABLE invoices
      ADD COLUMN charged_back_at timestamptz,
      ADD COLUMN charged_back_by uuid REFERENCES users (id) ON DELETE SET NULL,
      ADD COLUMN charge_back_reason text CHECK (length(charge_back_reason) <= 5000),
      ADD COLUMN written_off_at timestamptz,
      ADD COLUMN written_off_by uuid REFERENCES users (id) ON DELETE SET NULL,
      ADD CONSTRAINT invoices_charged_back CHECK ((status = 'charged_back') = (charged_back_at IS NOT NULL)),
      ADD CONSTRAINT invoices_written_off CHECK ((status = 'written_off') = (written_off_at IS NOT NULL)),
      ADD CONSTRAINT invoices_closed_were_financed CHECK (status NOT IN ('charged_back', 'written_off') OR (factor_amount IS NOT NULL AND financed_at IS NOT NULL));

    ALTER TABLE client_ledger DROP CONSTRAINT client_ledger_kind_check;
    ALTER TABLE client_ledger ADD CONSTRAINT client_ledger_kind_check
      CHECK (kind IN ('advance', 'fee', 'fee_vat', 'collection', 'reserve_release', 'chargeback', 'write_off', 'adjustment'));

    CREATE TABLE write_off_requests (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      invoice_id uuid NOT NULL REFERENCES invoices (id) ON DELETE RESTRICT,
      reason text NOT NULL CHECK (length(btrim(reason)) > 0 AND length(reason) <= 5000),
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
      requested_by uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
      requested_at timestamptz NOT NULL DEFAULT now(),
      decided_by uuid REFERENCES users (id) ON DELETE SET NULL,
      decided_at timestamptz,
      rejection_reason text CHECK (length(rejection_reason) <= 5000),
      -- With 'approved': the loss booked (outstanding advance and fees).
      loss_amount numeric(15, 2) CHECK (loss_amount >= 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((status = 'pending') = (decided_at IS NULL)),
      CHECK ((status = 'approved') = (loss_amount IS NOT NULL)),
      CHECK (status <> 'rejected' OR rejection_reason IS NOT NULL)
    );
    CREATE UNIQUE INDEX write_off_requests_one_pending ON write_off_requests (invoice_id) WHERE status = 'pending';
    CREATE INDEX write_off_requests_invoice_idx ON write_off_requests (invoice_id, requested_at DESC);
    CREATE INDEX write_off_requests_status_idx ON write_off_requests (status, requested_at DESC, id DESC);
    CREATE TRIGGER write_off_requests_set_updated_at BEFORE UPDATE ON write_off_requests FOR EACH ROW EXECUTE FUNCTION set_updated_at();

    -- Its predicate is app/payments/open-amount.server.ts payableSql.
    DROP INDEX invoices_payable_idx;
    CREATE INDEX invoices_payable_idx ON invoices (created_at DESC, id DESC)
      WHERE status IN ('financed', 'charged_back') AND amount > paid_amount + pending_amount;
  `);
};

export const down: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    DROP INDEX IF EXISTS invoices_payable_idx;
    CREATE INDEX invoices_payable_idx ON invoices (created_at DESC, id DESC)
      WHERE status = 'financed' AND amount > paid_amount + pending_amount;
    DROP TABLE IF EXISTS write_off_requests;
    ALTER TABLE client_ledger DROP CONSTRAINT client_ledger_kind_check;
    ALTER TABLE client_ledger ADD CONSTRAINT client_ledger_kind_check
      CHECK (kind IN ('advance', 'fee', 'fee_vat', 'collection', 'reserve_release', 'chargeback', 'adjustment'));
    ALTER TABLE invoices DROP CONSTRAINT IF EXISTS invoices_closed_were_financed,
      DROP CONSTRAINT IF EXISTS invoices_written_off, DROP CONSTRAINT IF EXISTS invoices_charged_back,
      DROP COLUMN IF EXISTS written_off_by, DROP COLUMN IF EXISTS written_off_at,
      DROP COLUMN IF EXISTS charge_back_reason, DROP COLUMN IF EXISTS charged_back_by, DROP COLUMN IF EXISTS charged_back_at;
    ALTER TABLE invoices DROP CONSTRAINT invoices_status_check;
    ALTER TABLE invoices ADD CONSTRAINT invoices_status_check
      CHECK (status IN ('pending', 'verified', 'approved', 'rejected', 'financed', 'paid'));
  `);
};
