import type { Migration } from '../migrate.ts';

/**
 * Dilution: credit notes on purchased invoices (docs/collections.md#dilution-and-disputes-resolved).
 *
 * `credit_notes`: a credit note the client issued its debtor on a purchased
 * invoice, entered by hand, read from a UBL CreditNote (the stored XML is its
 * document) or written by a dispute resolved as reduced or upheld. Its amount
 * lowers what the debtor still owes; `invoices.credited_amount` is their sum,
 * kept by a trigger in the inserting transaction, and never exceeds the
 * invoice's amount. `booked_on` is the business day it was entered (the fee
 * base falls from that day, docs/money.md#fees-that-follow-time);
 * `chargeback_amount` the excess advance it charged back to the client.
 * A credit note is a document: it is never changed or deleted (only its
 * chargeback, once, in the transaction that records it).
 *
 * The payable index follows the open amount, which now also subtracts the
 * credit notes (app/payments/open-amount.server.ts).
 */
export const up: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    ALTER TABLE invoices ADD COLUMN credited_amount numeric(15, 2) NOT NULL DEFAULT 0
      CONSTRAINT invoices_credited_amount CHECK (credited_amount >= 0 AND credited_amount <= amount);

    CREATE TABLE credit_notes (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      invoice_id uuid NOT NULL REFERENCES invoices (id) ON DELETE RESTRICT,
      number text NOT NULL CHECK (length(btrim(number)) > 0 AND length(number) <= 100),
      issue_date date NOT NULL,
      amount numeric(15, 2) NOT NULL CHECK (amount > 0),
      reason text NOT NULL CHECK (length(btrim(reason)) > 0 AND length(reason) <= 5000),
      source text NOT NULL CHECK (source IN ('ubl', 'manual', 'dispute')),
      dispute_id uuid REFERENCES invoice_disputes (id) ON DELETE RESTRICT,
      document_id uuid REFERENCES documents (id) ON DELETE RESTRICT,
      booked_on date NOT NULL,
      chargeback_amount numeric(15, 2) NOT NULL DEFAULT 0 CHECK (chargeback_amount >= 0),
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((source = 'dispute') = (dispute_id IS NOT NULL)),
      CHECK (source <> 'ubl' OR document_id IS NOT NULL)
    );
    CREATE UNIQUE INDEX credit_notes_invoice_number_key ON credit_notes (invoice_id, number);
    CREATE INDEX credit_notes_issue_date_idx ON credit_notes (issue_date, invoice_id);

    CREATE FUNCTION credit_notes_credit_invoice() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE invoices SET credited_amount = credited_amount + NEW.amount WHERE id = NEW.invoice_id;
      RETURN NEW;
    END $$;
    CREATE TRIGGER credit_notes_credit_invoice AFTER INSERT ON credit_notes FOR EACH ROW EXECUTE FUNCTION credit_notes_credit_invoice();

    -- The one change allowed: the excess advance charged back, written once in the inserting transaction.
    CREATE FUNCTION credit_notes_unchanged() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' AND OLD.chargeback_amount = 0 AND (to_jsonb(NEW) - 'chargeback_amount') = (to_jsonb(OLD) - 'chargeback_amount') THEN
        RETURN NEW;
      END IF;
      RAISE EXCEPTION 'a credit note is never changed or deleted' USING ERRCODE = 'check_violation';
    END $$;
    CREATE TRIGGER credit_notes_unchanged BEFORE UPDATE OR DELETE ON credit_notes FOR EACH ROW EXECUTE FUNCTION credit_notes_unchanged();

    DROP INDEX invoices_payable_idx;
    CREATE INDEX invoices_payable_idx ON invoices (created_at DESC, id DESC)
      WHERE status IN ('financed', 'charged_back') AND amount > paid_amount + credited_amount + pending_amount;
  `);
};

export const down: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    DROP INDEX IF EXISTS invoices_payable_idx;
    CREATE INDEX invoices_payable_idx ON invoices (created_at DESC, id DESC)
      WHERE status IN ('financed', 'charged_back') AND amount > paid_amount + pending_amount;
    DROP TABLE IF EXISTS credit_notes;
    DROP FUNCTION IF EXISTS credit_notes_credit_invoice();
    DROP FUNCTION IF EXISTS credit_notes_unchanged();
    ALTER TABLE invoices DROP COLUMN IF EXISTS credited_amount;
  `);
};
