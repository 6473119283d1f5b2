import type { Migration } from '../migrate.ts';

/**
 * The notice of assignment and the debtor's confirmation (docs/collections.md#the-notice-of-assignment-and-the-debtors-confirmation).
 *
 * `debtor_notices`: every notice of assignment written for a client–debtor
 * pair (the PDF among the debtor's documents, the agreement version it names,
 * and how it went out: the queued mail, or the task to deliver it by hand when
 * the debtor has no address). The first financing of a pair under a disclosed
 * agreement writes one unless the pair already has one, so "first time" is a
 * lookup on (client_id, customer_id).
 *
 * `debtor_links`: the debtor's personal link to its page. Only the SHA-256 of
 * the token is kept (the token itself is only in the mail); a link expires,
 * is spent by the debtor's one submit, and can be revoked (a resend revokes
 * the link it replaces).
 *
 * `debtor_answers`: what the debtor answered per invoice, with the time and
 * the address: the one source of "confirmed by the debtor" (at most one
 * answer per invoice); a dispute points at the invoice_disputes row it opened.
 *
 * `agreements.requires_debtor_confirmation`: verification waits for the
 * debtor's confirmation. Only a disclosed agreement can ask for it (a silent
 * one never contacts the debtor).
 */
export const up: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    ALTER TABLE agreements ADD COLUMN requires_debtor_confirmation boolean NOT NULL DEFAULT false,
      ADD CONSTRAINT agreements_confirmation_disclosed CHECK (NOT requires_debtor_confirmation OR disclosed);

    CREATE TABLE debtor_notices (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      client_id uuid NOT NULL REFERENCES clients (id) ON DELETE RESTRICT,
      customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE RESTRICT,
      agreement_id uuid NOT NULL REFERENCES agreements (id) ON DELETE RESTRICT,
      document_id uuid NOT NULL REFERENCES documents (id) ON DELETE RESTRICT,
      occasion text NOT NULL CHECK (occasion IN ('financing', 'request')),
      -- With 'financing': the invoice whose first financing wrote it.
      invoice_id uuid REFERENCES invoices (id) ON DELETE RESTRICT,
      email_log_id uuid REFERENCES email_logs (id) ON DELETE SET NULL,
      task_id uuid REFERENCES tasks (id) ON DELETE SET NULL,
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((occasion = 'financing') = (invoice_id IS NOT NULL))
    );
    CREATE INDEX debtor_notices_pair_idx ON debtor_notices (client_id, customer_id, created_at DESC);
    CREATE INDEX debtor_notices_customer_idx ON debtor_notices (customer_id, created_at DESC);

    CREATE TABLE debtor_links (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      client_id uuid NOT NULL REFERENCES clients (id) ON DELETE RESTRICT,
      customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE RESTRICT,
      notice_id uuid NOT NULL REFERENCES debtor_notices (id) ON DELETE RESTRICT,
      token_hash text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
      expires_at timestamptz NOT NULL,
      email_log_id uuid REFERENCES email_logs (id) ON DELETE SET NULL,
      replaces_id uuid REFERENCES debtor_links (id) ON DELETE SET NULL,
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz,
      revoked_by uuid REFERENCES users (id) ON DELETE SET NULL,
      spent_at timestamptz,
      submitted_ip text CHECK (length(submitted_ip) <= 64),
      acknowledged_at timestamptz,
      CHECK (revoked_at IS NULL OR spent_at IS NULL),
      CHECK ((spent_at IS NULL) = (acknowledged_at IS NULL))
    );
    CREATE INDEX debtor_links_customer_idx ON debtor_links (customer_id, created_at DESC, id DESC);
    CREATE INDEX debtor_links_pair_idx ON debtor_links (client_id, customer_id) WHERE revoked_at IS NULL AND spent_at IS NULL;

    CREATE TABLE debtor_answers (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      link_id uuid NOT NULL REFERENCES debtor_links (id) ON DELETE RESTRICT,
      invoice_id uuid NOT NULL UNIQUE REFERENCES invoices (id) ON DELETE RESTRICT,
      answer text NOT NULL CHECK (answer IN ('confirmed', 'disputed')),
      dispute_id uuid REFERENCES invoice_disputes (id) ON DELETE RESTRICT,
      answered_at timestamptz NOT NULL DEFAULT now(),
      ip text CHECK (length(ip) <= 64),
      CHECK ((answer = 'disputed') = (dispute_id IS NOT NULL))
    );
    CREATE INDEX debtor_answers_link_idx ON debtor_answers (link_id);
  `);
};

export const down: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    DROP TABLE IF EXISTS debtor_answers;
    DROP TABLE IF EXISTS debtor_links;
    DROP TABLE IF EXISTS debtor_notices;
    ALTER TABLE agreements DROP CONSTRAINT IF EXISTS agreements_confirmation_disclosed, DROP COLUMN IF EXISTS requires_debtor_confirmation;
  `);
};
