import type { Migration } from '../migrate.ts';

/**
 * Cash application: imported ISO 20022 camt.053 bank statements and
 * their credit entries. A matched entry points at the pending payment it
 * created; an unmatched one waits for a person to assign it to an invoice.
 * Both the statement's own identification and each entry's bank reference
 * are unique, so importing the same file twice creates nothing twice.
 * Value lists are regular expressions, not `IN (...)`: they are this area's
 * own small state sets, not shared enums.
 */
export const up: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    CREATE TABLE bank_statements (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      -- Stmt/Id of the camt.053 together with the account: a bank numbers statements per account.
      statement_ref text NOT NULL CHECK (length(btrim(statement_ref)) > 0 AND length(statement_ref) <= 35),
      account_iban text NOT NULL CHECK (account_iban ~ '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$'),
      message_id text CHECK (length(message_id) <= 35),
      file_name text CHECK (length(file_name) <= 255),
      from_date date,
      to_date date,
      entry_count integer NOT NULL DEFAULT 0 CHECK (entry_count >= 0),
      matched_count integer NOT NULL DEFAULT 0 CHECK (matched_count >= 0),
      unmatched_count integer NOT NULL DEFAULT 0 CHECK (unmatched_count >= 0),
      imported_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (account_iban, statement_ref)
    );
    CREATE INDEX bank_statements_created_at_idx ON bank_statements (created_at DESC, id DESC);
    CREATE TRIGGER bank_statements_set_updated_at BEFORE UPDATE ON bank_statements
      FOR EACH ROW EXECUTE FUNCTION set_updated_at();

    CREATE TABLE bank_statement_entries (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      statement_id uuid NOT NULL REFERENCES bank_statements (id) ON DELETE RESTRICT,
      -- AcctSvcrRef/NtryRef of the entry (the bank's reference); the same value becomes payments.bank_entry_ref.
      entry_ref text NOT NULL UNIQUE CHECK (length(btrim(entry_ref)) > 0 AND length(entry_ref) <= 255),
      amount numeric(15, 2) NOT NULL CHECK (amount > 0),
      currency char(3) NOT NULL DEFAULT 'EUR' CHECK (currency ~ '^[A-Z]{3}$'),
      booking_date date,
      debtor_name text CHECK (length(debtor_name) <= 255),
      debtor_iban text CHECK (length(debtor_iban) <= 34),
      -- The remittance information as received: Ustrd text and/or the structured creditor reference.
      remittance text CHECK (length(remittance) <= 1000),
      status text NOT NULL CHECK (status ~ '^(matched|unmatched|assigned)$'),
      -- Why an entry was left for a person (no reference found, ambiguous, amount above the open amount).
      unmatched_reason text CHECK (length(unmatched_reason) <= 500),
      payment_id uuid REFERENCES payments (id) ON DELETE RESTRICT,
      assigned_by uuid REFERENCES users (id) ON DELETE SET NULL,
      assigned_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((status = 'unmatched') = (payment_id IS NULL)),
      CHECK ((status = 'assigned') = (assigned_at IS NOT NULL))
    );
    CREATE INDEX bank_statement_entries_statement_idx ON bank_statement_entries (statement_id);
    CREATE INDEX bank_statement_entries_unmatched_idx ON bank_statement_entries (created_at DESC, id DESC) WHERE status = 'unmatched';
    CREATE TRIGGER bank_statement_entries_set_updated_at BEFORE UPDATE ON bank_statement_entries
      FOR EACH ROW EXECUTE FUNCTION set_updated_at();
  `);
};

export const down: Migration = async ({ context: db }) => {
  await db.query(`DROP TABLE IF EXISTS bank_statement_entries, bank_statements`);
};
