import type { Migration } from '../migrate.ts';

/**
 * The public registration wizard's server-side drafts (docs/lifecycle.md#onboarding-and-kyc: it works
 * without JavaScript, so what a visitor entered lives here between form
 * posts), the KYC files attached to them, and the per-IP request counter that
 * limits abuse of the only public write in the product.
 *
 * The value lists below are written as regular expressions rather than
 * `IN (...)`: they repeat lists the documents table already owns
 * (kyc_type, mime types), so they are not new enum columns.
 */
export const up: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    CREATE TABLE registration_drafts (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      -- SHA-256 of the random token in the visitor's cookie; the token itself is never stored.
      token_hash char(64) NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
      data jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(data) = 'object'),
      current_step integer NOT NULL DEFAULT 1 CHECK (current_step BETWEEN 1 AND 4),
      ip_address text CHECK (length(ip_address) <= 64),
      -- Every byte ever attached, replaced files included: the per-draft upload cap counts this.
      uploaded_bytes bigint NOT NULL DEFAULT 0 CHECK (uploaded_bytes >= 0),
      client_id uuid REFERENCES clients (id) ON DELETE SET NULL,
      submitted_at timestamptz,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (client_id IS NULL OR submitted_at IS NOT NULL)
    );
    CREATE INDEX registration_drafts_expires_at_idx ON registration_drafts (expires_at);
    CREATE TRIGGER registration_drafts_set_updated_at BEFORE UPDATE ON registration_drafts
      FOR EACH ROW EXECUTE FUNCTION set_updated_at();

    CREATE TABLE registration_draft_files (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      draft_id uuid NOT NULL REFERENCES registration_drafts (id) ON DELETE CASCADE,
      kyc_type text NOT NULL
        CHECK (kyc_type ~ '^(company_registration|tax_certificate|bank_statement|financial_statements|director_id)$'),
      storage_key text NOT NULL CHECK (length(storage_key) <= 500),
      checksum char(64) NOT NULL CHECK (checksum ~ '^[0-9a-f]{64}$'),
      size bigint NOT NULL CHECK (size > 0 AND size <= 10485760),
      mime_type text NOT NULL CHECK (mime_type ~ '^(application/pdf|image/jpeg|image/png)$'),
      file_name text NOT NULL CHECK (length(btrim(file_name)) > 0 AND length(file_name) <= 255),
      created_at timestamptz NOT NULL DEFAULT now(),
      -- One file per KYC type (docs/domain-model.md#validation): a new upload replaces the old one.
      UNIQUE (draft_id, kyc_type)
    );

    -- Object-store cleanup must not delete bytes a draft still references.
    CREATE INDEX registration_draft_files_storage_key_idx ON registration_draft_files (storage_key);

    CREATE TABLE registration_rate_limits (
      key text PRIMARY KEY CHECK (length(key) <= 400),
      hits integer NOT NULL DEFAULT 0 CHECK (hits >= 0),
      window_started_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX registration_rate_limits_window_idx ON registration_rate_limits (window_started_at);
  `);
};

export const down: Migration = async ({ context: db }) => {
  await db.query(`DROP TABLE IF EXISTS registration_rate_limits, registration_draft_files, registration_drafts`);
};
