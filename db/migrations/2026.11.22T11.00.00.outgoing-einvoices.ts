import type { Migration } from '../migrate.ts';

/**
 * E-invoices (docs/croatian-formats.md).
 *
 * outgoing_einvoices: the factor's own invoice to its client for the fee of a
 * financed invoice, one per financed invoice, written as UBL 2.1 (HR CIUS)
 * when the invoice is financed and sent through the e-invoicing intermediary
 * by a job. Its number FF-YYYY-NNNNNN comes from outgoing_einvoice_counters:
 * a row per year, incremented under its row lock inside the issuing
 * transaction, so a rolled-back financing gives its number back and the
 * numbers of a year have no gaps (a sequence would leave them).
 *
 * incoming_einvoices: every document received from the intermediary, kept
 * with its XML whether the invoice intake took it (imported, linked to the
 * invoice) or refused it (failed, with the reason), so nothing received is
 * lost. The intermediary's document id is unique: a document received twice
 * is recorded once.
 */
export const up: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    CREATE TABLE outgoing_einvoice_counters (
      year integer PRIMARY KEY CHECK (year BETWEEN 2000 AND 9999),
      last_number integer NOT NULL CHECK (last_number BETWEEN 1 AND 999999)
    );

    CREATE TABLE outgoing_einvoices (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      number text NOT NULL UNIQUE,
      year integer NOT NULL CHECK (year BETWEEN 2000 AND 9999),
      sequence integer NOT NULL CHECK (sequence BETWEEN 1 AND 999999),
      invoice_id uuid NOT NULL UNIQUE REFERENCES invoices (id) ON DELETE RESTRICT,
      client_id uuid NOT NULL REFERENCES clients (id) ON DELETE RESTRICT,
      issued_at timestamptz NOT NULL,
      -- The issue day in Croatia (BT-2); the time of day is in the UBL (IssueTime).
      issue_date date NOT NULL,
      due_date date NOT NULL,
      currency char(3) NOT NULL DEFAULT 'EUR' CHECK (currency ~ '^[A-Z]{3}$'),
      net_amount numeric(15, 2) NOT NULL CHECK (net_amount > 0),
      vat_rate numeric(5, 2) NOT NULL CHECK (vat_rate >= 0 AND vat_rate < 100),
      vat_amount numeric(15, 2) NOT NULL CHECK (vat_amount >= 0),
      gross_amount numeric(15, 2) NOT NULL,
      payment_reference text NOT NULL CHECK (payment_reference ~ '^HR[0-9]{2} [0-9A-Za-z-]{1,22}$'),
      ubl_xml text NOT NULL CHECK (length(ubl_xml) > 0),
      ubl_sha256 text NOT NULL CHECK (ubl_sha256 ~ '^[0-9a-f]{64}$'),
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'delivered', 'failed')),
      -- The intermediary's id of the sent document.
      document_id text CHECK (length(document_id) BETWEEN 1 AND 255),
      sent_at timestamptz,
      error text CHECK (length(error) <= 2000),
      attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (year, sequence),
      CHECK (number = 'FF-' || year || '-' || lpad(sequence::text, 6, '0')),
      CHECK (due_date >= issue_date),
      CHECK (gross_amount = net_amount + vat_amount),
      -- Implications, not equalities, so that a wrong status is refused by the status CHECK alone.
      CHECK (status NOT IN ('sent', 'delivered') OR (sent_at IS NOT NULL AND document_id IS NOT NULL))
    );
    CREATE INDEX outgoing_einvoices_created_at_idx ON outgoing_einvoices (created_at DESC, id DESC);
    CREATE INDEX outgoing_einvoices_client_idx ON outgoing_einvoices (client_id);
    CREATE INDEX outgoing_einvoices_unsent_idx ON outgoing_einvoices (updated_at) WHERE status IN ('pending', 'failed');
    CREATE TRIGGER outgoing_einvoices_set_updated_at BEFORE UPDATE ON outgoing_einvoices
      FOR EACH ROW EXECUTE FUNCTION set_updated_at();

    CREATE TABLE incoming_einvoices (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      document_id text NOT NULL UNIQUE CHECK (length(document_id) BETWEEN 1 AND 255),
      received_at timestamptz NOT NULL,
      xml text NOT NULL,
      xml_sha256 text NOT NULL CHECK (xml_sha256 ~ '^[0-9a-f]{64}$'),
      status text NOT NULL CHECK (status IN ('imported', 'failed')),
      -- What could be read of the document, for the list (null when unreadable).
      invoice_number text CHECK (length(invoice_number) <= 255),
      seller_oib text CHECK (seller_oib ~ '^[0-9]{11}$'),
      invoice_id uuid REFERENCES invoices (id) ON DELETE RESTRICT,
      error text CHECK (length(error) <= 2000),
      attempts integer NOT NULL DEFAULT 1 CHECK (attempts >= 1),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (status <> 'imported' OR invoice_id IS NOT NULL),
      CHECK (status <> 'failed' OR error IS NOT NULL)
    );
    CREATE INDEX incoming_einvoices_created_at_idx ON incoming_einvoices (created_at DESC, id DESC);
    CREATE TRIGGER incoming_einvoices_set_updated_at BEFORE UPDATE ON incoming_einvoices
      FOR EACH ROW EXECUTE FUNCTION set_updated_at();
  `);
};

export const down: Migration = async ({ context: db }) => {
  await db.query(`DROP TABLE IF EXISTS incoming_einvoices, outgoing_einvoices, outgoing_einvoice_counters`);
};
