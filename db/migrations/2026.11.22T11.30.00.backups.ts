import type { Migration } from '../migrate.ts';

/**
 * Database backups made from Settings: one row per backup
 * file the worker writes into DATA_DIR/backups. The row says how far the job
 * got; a completed one carries the file's name, size and SHA-256, which the
 * download checks before it sends the file. At most one backup is pending or
 * running at a time (a second click while one runs is refused).
 */
export const up: Migration = async ({ context: db }) => {
  await db.query(/* sql */ `
    CREATE TABLE backups (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'completed', 'failed')),
      file_name text CHECK (file_name ~ '^[A-Za-z0-9._-]{1,200}$'),
      size bigint CHECK (size > 0),
      sha256 char(64) CHECK (sha256 ~ '^[0-9a-f]{64}$'),
      -- Rows and tables in the file, for the list.
      table_count integer CHECK (table_count >= 0),
      row_count bigint CHECK (row_count >= 0),
      error text CHECK (length(error) <= 5000),
      requested_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      started_at timestamptz,
      completed_at timestamptz,
      -- Touched while the job writes, so a backup whose worker died can be told from a slow one.
      updated_at timestamptz NOT NULL DEFAULT now(),
      -- Implications, not equalities, so that a wrong status is refused by the status CHECK alone.
      CHECK (status <> 'completed' OR (file_name IS NOT NULL AND size IS NOT NULL AND sha256 IS NOT NULL AND completed_at IS NOT NULL)),
      CHECK (status <> 'failed' OR (error IS NOT NULL AND completed_at IS NOT NULL)),
      CHECK (status <> 'running' OR started_at IS NOT NULL)
    );
    CREATE INDEX backups_created_at_idx ON backups (created_at DESC, id DESC);
    CREATE UNIQUE INDEX backups_one_active_key ON backups ((true)) WHERE status IN ('pending', 'running');
    CREATE TRIGGER backups_set_updated_at BEFORE UPDATE ON backups FOR EACH ROW EXECUTE FUNCTION set_updated_at();
  `);
};

export const down: Migration = async ({ context: db }) => {
  await db.query(`DROP TABLE IF EXISTS backups`);
};
