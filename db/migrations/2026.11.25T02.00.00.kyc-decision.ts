import type { Migration } from '../migrate.ts';

/**
 * The applicant's KYC decision (app/onboarding/kyc-decision.server.ts).
 *
 * `kyc_document_requests`: staff asked the applicant for more documents. The
 * applicant holds a random token in the emailed link; only its SHA-256 is
 * stored. A link works until it expires or is spent: by the applicant's
 * upload ('submitted'), by a newer request ('superseded') or by the final
 * decision ('decided'). Kept after that as the record of what was asked.
 *
 * The partial index finds a client's open tasks (the KYC task a decision
 * closes) without scanning its closed ones.
 */
export const up: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    CREATE TABLE kyc_document_requests (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      client_id uuid NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
      token_hash char(64) NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
      message text NOT NULL CHECK (length(btrim(message)) > 0 AND length(message) <= 5000),
      requested_by uuid REFERENCES users (id) ON DELETE SET NULL,
      expires_at timestamptz NOT NULL,
      spent_at timestamptz,
      spent_reason text CHECK (spent_reason IN ('submitted', 'superseded', 'decided')),
      documents_received integer NOT NULL DEFAULT 0 CHECK (documents_received >= 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((spent_at IS NULL) = (spent_reason IS NULL)),
      CHECK (spent_reason IS DISTINCT FROM 'submitted' OR documents_received > 0)
    );
    CREATE INDEX kyc_document_requests_client_idx ON kyc_document_requests (client_id, created_at DESC);
    CREATE INDEX tasks_open_entity_idx ON tasks (entity_type, entity_id) WHERE status IN ('pending', 'in_progress');
  `);
};

export const down: Migration = async ({ context: db }) => {
  await db.query(`DROP INDEX IF EXISTS tasks_open_entity_idx; DROP TABLE IF EXISTS kyc_document_requests`);
};
