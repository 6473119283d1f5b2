import type { Migration } from '../migrate.ts';

/**
 * The quarantine of the registration wizard's JavaScript uploads (docs/api.md):
 * POST /api/objects/upload hands out a short-lived upload address (only the
 * token's SHA-256 is kept), the browser PUTs the file there, and a wizard
 * submit claims it. Unclaimed slots are purged after they expire.
 */
export const up: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    CREATE TABLE upload_objects (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      token_hash char(64) NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
      status text NOT NULL DEFAULT 'pending',
      storage_key text CHECK (length(storage_key) <= 200),
      checksum char(64) CHECK (checksum ~ '^[0-9a-f]{64}$'),
      size bigint CHECK (size >= 0 AND size <= 10485760),
      mime_type text CHECK (length(mime_type) <= 255),
      file_name text CHECK (length(file_name) <= 255),
      ip text CHECK (length(ip) <= 64),
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      uploaded_at timestamptz,
      claimed_at timestamptz,
      -- Each state carries exactly its data: pending has no file, uploaded has
      -- the stored object, claimed has it and when it was claimed.
      CONSTRAINT upload_objects_state_check CHECK (
        (status = 'pending' AND storage_key IS NULL AND uploaded_at IS NULL AND claimed_at IS NULL)
        OR (status = 'uploaded' AND storage_key IS NOT NULL AND checksum IS NOT NULL AND size IS NOT NULL
            AND mime_type IS NOT NULL AND uploaded_at IS NOT NULL AND claimed_at IS NULL)
        OR (status = 'claimed' AND storage_key IS NOT NULL AND checksum IS NOT NULL AND size IS NOT NULL
            AND mime_type IS NOT NULL AND uploaded_at IS NOT NULL AND claimed_at IS NOT NULL)
      ),
      CHECK (expires_at > created_at)
    );
    -- The per-address rate limit counts recent slots.
    CREATE INDEX upload_objects_ip_created_at_idx ON upload_objects (ip, created_at DESC);
    -- The purge job looks for expired, unclaimed slots.
    CREATE INDEX upload_objects_unclaimed_expiry_idx ON upload_objects (expires_at) WHERE status <> 'claimed';
    -- Before a file is deleted, nothing else may reference its content address.
    CREATE INDEX upload_objects_storage_key_idx ON upload_objects (storage_key) WHERE storage_key IS NOT NULL;
    CREATE INDEX documents_storage_key_idx ON documents (storage_key);
  `);
};

export const down: Migration = async ({ context: db }) => {
  await db.query(`
    DROP INDEX IF EXISTS documents_storage_key_idx;
    DROP TABLE IF EXISTS upload_objects;
  `);
};
