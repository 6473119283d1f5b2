import type { Migration } from '../migrate.ts';
import { LEDGER_BACKFILL_STATEMENTS } from '../ledger-backfill.ts';

/**
 * The factoring contract (docs/money.md, docs/domain-model.md).
 *
 * `agreements`: one row per version of a client's factoring agreement. The
 * agreement keeps its number across versions; an edit is a new version with
 * its own `effective_from`. A version is in force once signed (by the
 * e-signature adapter or marked signed by a manager), from its
 * `effective_from` until the next signed version's, within valid_from ..
 * valid_until. Rows are never deleted; a financing stores the version it used
 * (`invoices.agreement_id`). Rates are percentages as NUMERIC gives them: the
 * fee rate per 30 days for the discount, per year for daily interest.
 *
 * `customers.credit_limit` / `used_credit`: the debtor's limit across all
 * clients and the advances outstanding on its invoices; the same four-eyes
 * request flow as the clients' limits (`credit_limit_requests.customer_id`).
 *
 * `client_ledger`: the client's account, append-only. `amount` is signed, from
 * the factor's side: positive is what the client owes (advance paid out, fee,
 * VAT on the fee, reserve paid out, chargeback), negative what it is owed
 * (collection received on its invoice); an adjustment may be either. The
 * balance of an invoice's entries after its reserve release is zero. Updates
 * and deletes are refused by a trigger: a correction is a new entry.
 *
 * `ledger_adjustments`: a manual adjustment asked by a manager; above the
 * book's four-eyes amount (`book_settings`) another manager approves it.
 *
 * `outgoing_einvoices`: an invoice may now carry up to three fee documents,
 * the fee invoice at financing, and at settlement either a completing fee
 * invoice (the fee grew with the days) or a credit note (type 381, the fee
 * issued was more than earned), which refers to the first by number.
 */
export const up: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    CREATE TABLE agreements (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      client_id uuid NOT NULL REFERENCES clients (id) ON DELETE RESTRICT,
      number text NOT NULL CHECK (length(btrim(number)) > 0 AND length(number) <= 50),
      version integer NOT NULL CHECK (version >= 1),
      effective_from date NOT NULL,
      valid_from date NOT NULL,
      valid_until date,
      advance_rate numeric(5, 2) NOT NULL CHECK (advance_rate > 0 AND advance_rate <= 100),
      fee_model text NOT NULL CHECK (fee_model IN ('discount_30', 'interest_360', 'interest_365')),
      fee_rate numeric(7, 4) NOT NULL CHECK (fee_rate >= 0 AND fee_rate <= 100),
      minimum_fee numeric(15, 2) NOT NULL DEFAULT 0 CHECK (minimum_fee >= 0),
      admin_fee numeric(15, 2) NOT NULL DEFAULT 0 CHECK (admin_fee >= 0),
      documentation_fee numeric(15, 2) NOT NULL DEFAULT 0 CHECK (documentation_fee >= 0),
      recourse boolean NOT NULL DEFAULT true,
      -- Days past due after which an unpaid recourse invoice is charged back.
      recourse_days integer CHECK (recourse_days BETWEEN 0 AND 3650),
      -- Days from issue to due an invoice may have.
      max_tenor_days integer NOT NULL CHECK (max_tenor_days BETWEEN 1 AND 3650),
      disclosed boolean NOT NULL DEFAULT true,
      -- Percent of the client's open funded amount one debtor may take…
      concentration_limit numeric(5, 2) NOT NULL DEFAULT 30.00 CHECK (concentration_limit > 0 AND concentration_limit <= 100),
      -- …applied once the client's open funded amount exceeds this.
      concentration_threshold numeric(15, 2) NOT NULL DEFAULT 0 CHECK (concentration_threshold >= 0),
      signature_status text NOT NULL DEFAULT 'unsigned' CHECK (signature_status IN ('unsigned', 'sent', 'signed')),
      signed_on date,
      signed_by uuid REFERENCES users (id) ON DELETE SET NULL,
      -- The generated agreement PDF among the client's documents.
      document_id uuid REFERENCES documents (id) ON DELETE SET NULL,
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (client_id, version),
      CHECK (valid_until IS NULL OR valid_until >= valid_from),
      CHECK (effective_from >= valid_from),
      CHECK ((signature_status = 'signed') = (signed_on IS NOT NULL)),
      CHECK (recourse = (recourse_days IS NOT NULL))
    );
    -- A number names one client's agreement: every client has a version 1, so no two clients share a number.
    CREATE UNIQUE INDEX agreements_number_version_key ON agreements (lower(number), version);
    CREATE INDEX agreements_client_signed_idx ON agreements (client_id, effective_from DESC, version DESC) WHERE signature_status = 'signed';
    CREATE TRIGGER agreements_set_updated_at BEFORE UPDATE ON agreements FOR EACH ROW EXECUTE FUNCTION set_updated_at();

    -- The agreement used to be five columns of clients: every client that had signed one gets it as a signed
    -- version 1 (the discount model with its rate, its advance rate and recourse, 60 days to chargeback, a
    -- 180-day maximum tenor, disclosed; a number two clients shared gets the client's id as suffix), and the
    -- columns go, so that no reader can skip the versions.
    INSERT INTO agreements (client_id, number, version, effective_from, valid_from, advance_rate, fee_model, fee_rate, recourse,
                            recourse_days, max_tenor_days, disclosed, signature_status, signed_on)
    SELECT id, CASE WHEN count(*) OVER (PARTITION BY lower(number)) > 1 THEN left(number, 41) || '-' || upper(left(replace(id::text, '-', ''), 8)) ELSE number END,
           1, agreement_signed_on, agreement_signed_on, advance_rate, 'discount_30', fee_rate, recourse,
           CASE WHEN recourse THEN 60 END, 180, true, 'signed', agreement_signed_on
      FROM (SELECT *, coalesce(nullif(btrim(agreement_number), ''), 'UF-' || to_char(agreement_signed_on, 'YYYY') || '-' || upper(left(replace(id::text, '-', ''), 8))) AS number
              FROM clients WHERE agreement_signed_on IS NOT NULL) c;
    ALTER TABLE clients DROP COLUMN advance_rate, DROP COLUMN fee_rate, DROP COLUMN recourse, DROP COLUMN agreement_number, DROP COLUMN agreement_signed_on;

    ALTER TABLE invoices ADD COLUMN agreement_id uuid REFERENCES agreements (id) ON DELETE RESTRICT;
    -- The VAT on factor_fee (the fee documents' VAT), and the agreement's one-off documentation fee when this
    -- financing was the agreement's first (part of factor_fee). At settlement factor_fee becomes the fee earned
    -- on the actual days, which may exceed the advance's headroom: the amount check moves to financing.
    ALTER TABLE invoices ADD COLUMN factor_fee_vat numeric(15, 2) CHECK (factor_fee_vat >= 0),
      ADD COLUMN documentation_fee numeric(15, 2) NOT NULL DEFAULT 0 CHECK (documentation_fee >= 0);
    DO $drop$ DECLARE name text; BEGIN
      SELECT conname INTO STRICT name FROM pg_constraint
       WHERE conrelid = 'invoices'::regclass AND contype = 'c'
         AND pg_get_constraintdef(oid) LIKE '%factor_amount + COALESCE(factor_fee%<= amount%';
      EXECUTE format('ALTER TABLE invoices DROP CONSTRAINT %I', name);
    END $drop$;
    CREATE INDEX invoices_agreement_idx ON invoices (agreement_id) WHERE agreement_id IS NOT NULL;
    -- Debtor exposure and cross-ageing read a debtor's financed invoices.
    CREATE INDEX invoices_customer_financed_idx ON invoices (customer_id, due_date) WHERE status = 'financed';
    CREATE INDEX invoices_client_customer_financed_idx ON invoices (client_id, customer_id) WHERE status = 'financed';

    ALTER TABLE customers
      ADD COLUMN credit_limit numeric(15, 2) CHECK (credit_limit >= 0),
      ADD COLUMN used_credit numeric(15, 2) NOT NULL DEFAULT 0 CHECK (used_credit >= 0);

    ALTER TABLE credit_limit_requests
      ALTER COLUMN client_id DROP NOT NULL,
      ADD COLUMN customer_id uuid REFERENCES customers (id) ON DELETE RESTRICT,
      ADD CONSTRAINT credit_limit_requests_one_party CHECK ((client_id IS NULL) <> (customer_id IS NULL));
    CREATE INDEX credit_limit_requests_customer_idx ON credit_limit_requests (customer_id, requested_at DESC) WHERE customer_id IS NOT NULL;

    CREATE TABLE book_settings (
      key text PRIMARY KEY CHECK (key ~ '^[a-z_]{1,64}$'),
      value text NOT NULL CHECK (length(value) <= 1000),
      updated_by uuid REFERENCES users (id) ON DELETE SET NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TRIGGER book_settings_set_updated_at BEFORE UPDATE ON book_settings FOR EACH ROW EXECUTE FUNCTION set_updated_at();

    CREATE TABLE ledger_adjustments (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      client_id uuid NOT NULL REFERENCES clients (id) ON DELETE RESTRICT,
      invoice_id uuid REFERENCES invoices (id) ON DELETE RESTRICT,
      amount numeric(15, 2) NOT NULL CHECK (amount <> 0),
      reason text NOT NULL CHECK (length(btrim(reason)) > 0 AND length(reason) <= 5000),
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
      requested_by uuid REFERENCES users (id) ON DELETE SET NULL,
      requested_at timestamptz NOT NULL DEFAULT now(),
      decided_by uuid REFERENCES users (id) ON DELETE SET NULL,
      decided_at timestamptz,
      rejection_reason text CHECK (length(rejection_reason) <= 5000),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (status = 'pending' OR decided_at IS NOT NULL),
      CHECK (status <> 'rejected' OR rejection_reason IS NOT NULL)
    );
    CREATE INDEX ledger_adjustments_client_idx ON ledger_adjustments (client_id, requested_at DESC);
    CREATE INDEX ledger_adjustments_pending_idx ON ledger_adjustments (requested_at) WHERE status = 'pending';
    CREATE TRIGGER ledger_adjustments_set_updated_at BEFORE UPDATE ON ledger_adjustments FOR EACH ROW EXECUTE FUNCTION set_updated_at();

    CREATE TABLE client_ledger (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      -- The order of writing, across the book; a statement lists by it.
      entry_number bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
      client_id uuid NOT NULL REFERENCES clients (id) ON DELETE RESTRICT,
      -- The business day (Europe/Zagreb) the movement belongs to.
      booked_on date NOT NULL,
      kind text NOT NULL CHECK (kind IN ('advance', 'fee', 'fee_vat', 'collection', 'reserve_release', 'chargeback', 'adjustment')),
      amount numeric(15, 2) NOT NULL CHECK (amount <> 0),
      currency char(3) NOT NULL DEFAULT 'EUR' CHECK (currency ~ '^[A-Z]{3}$'),
      invoice_id uuid REFERENCES invoices (id) ON DELETE RESTRICT,
      payment_id uuid REFERENCES payments (id) ON DELETE RESTRICT,
      payout_id uuid REFERENCES payouts (id) ON DELETE RESTRICT,
      einvoice_id uuid REFERENCES outgoing_einvoices (id) ON DELETE RESTRICT,
      adjustment_id uuid REFERENCES ledger_adjustments (id) ON DELETE RESTRICT,
      description text NOT NULL CHECK (length(description) <= 500),
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      CHECK (kind <> 'adjustment' OR adjustment_id IS NOT NULL),
      CHECK (kind = 'adjustment' OR invoice_id IS NOT NULL)
    );
    CREATE INDEX client_ledger_client_idx ON client_ledger (client_id, booked_on, entry_number);
    CREATE INDEX client_ledger_invoice_idx ON client_ledger (invoice_id) WHERE invoice_id IS NOT NULL;
    -- The dashboard reads the advances and collections booked this month.
    CREATE INDEX client_ledger_funding_day_idx ON client_ledger (booked_on, invoice_id) WHERE kind IN ('advance', 'collection');
    CREATE FUNCTION client_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'client_ledger is append-only: a correction is a new entry' USING ERRCODE = 'restrict_violation';
    END $$;
    CREATE TRIGGER client_ledger_append_only BEFORE UPDATE OR DELETE ON client_ledger
      FOR EACH ROW EXECUTE FUNCTION client_ledger_append_only();

    ALTER TABLE outgoing_einvoices
      ADD COLUMN purpose text NOT NULL DEFAULT 'financing_fee' CHECK (purpose IN ('financing_fee', 'fee_completion', 'fee_credit')),
      ADD COLUMN type_code text NOT NULL DEFAULT '380' CHECK (type_code IN ('380', '381')),
      -- The fee invoice a completion or credit note refers to (BT-25).
      ADD COLUMN preceding_id uuid REFERENCES outgoing_einvoices (id) ON DELETE RESTRICT,
      ADD CONSTRAINT outgoing_einvoices_type_purpose CHECK ((type_code = '381') = (purpose = 'fee_credit')),
      ADD CONSTRAINT outgoing_einvoices_preceding CHECK ((preceding_id IS NULL OR purpose <> 'financing_fee') AND (preceding_id IS NOT NULL OR purpose NOT IN ('fee_completion', 'fee_credit')));
    ALTER TABLE outgoing_einvoices DROP CONSTRAINT outgoing_einvoices_invoice_id_key;
    -- One fee invoice per financing; a settlement undone by a refund and done again may add another completion or credit note.
    CREATE UNIQUE INDEX outgoing_einvoices_financing_fee_key ON outgoing_einvoices (invoice_id) WHERE purpose = 'financing_fee';
    CREATE INDEX outgoing_einvoices_invoice_idx ON outgoing_einvoices (invoice_id);
  `);
  // An install upgraded with a book gets the ledger its invoices, payments and payouts imply (nothing on an empty one).
  for (const { sql } of LEDGER_BACKFILL_STATEMENTS) await db.query(sql);
};

export const down: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    DROP INDEX IF EXISTS outgoing_einvoices_invoice_idx;
    DROP INDEX IF EXISTS outgoing_einvoices_financing_fee_key;
    DELETE FROM outgoing_einvoices WHERE purpose <> 'financing_fee';
    ALTER TABLE outgoing_einvoices ADD CONSTRAINT outgoing_einvoices_invoice_id_key UNIQUE (invoice_id);
    ALTER TABLE outgoing_einvoices DROP CONSTRAINT outgoing_einvoices_preceding, DROP CONSTRAINT outgoing_einvoices_type_purpose,
      DROP COLUMN preceding_id, DROP COLUMN type_code, DROP COLUMN purpose;
    DROP TABLE IF EXISTS client_ledger;
    DROP FUNCTION IF EXISTS client_ledger_append_only();
    DROP TABLE IF EXISTS ledger_adjustments;
    DROP TABLE IF EXISTS book_settings;
    DROP INDEX IF EXISTS credit_limit_requests_customer_idx;
    DELETE FROM credit_limit_requests WHERE customer_id IS NOT NULL;
    ALTER TABLE credit_limit_requests DROP CONSTRAINT credit_limit_requests_one_party, DROP COLUMN customer_id, ALTER COLUMN client_id SET NOT NULL;
    ALTER TABLE customers DROP COLUMN used_credit, DROP COLUMN credit_limit;
    DROP INDEX IF EXISTS invoices_client_customer_financed_idx;
    DROP INDEX IF EXISTS invoices_customer_financed_idx;
    DROP INDEX IF EXISTS invoices_agreement_idx;
    ALTER TABLE invoices ADD CHECK (factor_amount IS NULL OR factor_amount + coalesce(factor_fee, 0) <= amount);
    ALTER TABLE invoices DROP COLUMN documentation_fee, DROP COLUMN factor_fee_vat, DROP COLUMN agreement_id;
    ALTER TABLE clients
      ADD COLUMN advance_rate numeric(5, 2) NOT NULL DEFAULT 80.00 CHECK (advance_rate > 0 AND advance_rate <= 100),
      ADD COLUMN fee_rate numeric(6, 3) NOT NULL DEFAULT 1.500 CHECK (fee_rate >= 0 AND fee_rate <= 100),
      ADD COLUMN recourse boolean NOT NULL DEFAULT true,
      ADD COLUMN agreement_number text CHECK (length(agreement_number) <= 50),
      ADD COLUMN agreement_signed_on date;
    UPDATE clients c SET advance_rate = a.advance_rate, fee_rate = round(a.fee_rate, 3), recourse = a.recourse, agreement_number = a.number,
                         agreement_signed_on = a.signed_on
      FROM (SELECT DISTINCT ON (client_id) * FROM agreements WHERE signature_status = 'signed' ORDER BY client_id, version DESC) a
     WHERE a.client_id = c.id;
    DROP TABLE IF EXISTS agreements;
  `);
};
