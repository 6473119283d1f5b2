import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import { execute, inTransaction, isUniqueViolation, selectOne, selectPage } from '../db.server.ts';
import { openSnapshot, type Snapshot } from '../exports/snapshot.server.ts';
import { apiError } from '../utils/api.server.ts';
import { sendJob } from '../jobs/boss.server.ts';
import type { BackupStatus } from '../../db/models/enums.ts';
import { writeBackup } from './archive.server.ts';
import { iso } from '../utils/api-values.ts';
import type { Backup } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { sqlUserName, type PublicUser } from '../auth/user-record.server.ts';

/**
 * Settings' 'Stvori sigurnosnu kopiju': an admin asks for a
 * backup, the worker's 'backup' job writes it (archive.server.ts) into
 * DATA_DIR/backups, and the admin downloads it from the list once it is
 * complete. `npm run restore -- <file>` loads it into an empty database.
 *
 * One backup at a time (a unique index on the pending/running row). A backup
 * whose job made no progress for STALE_AFTER_MINUTES (its worker died, or no
 * worker runs) is marked failed when the next one is asked for, so a dead job
 * cannot block backups for ever.
 */
export const STALE_AFTER_MINUTES = 15;
/** How often the running job touches its row. */
const PROGRESS_EVERY_MS = 20_000;

/** Refusal codes of the backup calls (docs/decisions/013-error-codes.md). */
const BACKUP_REFUSALS = {
  inProgress: 'backups.refusals.inProgress',
  notFound: 'backups.refusals.notFound',
  notCompleted: 'backups.refusals.notCompleted',
  fileMissing: 'backups.refusals.fileMissing',
  checksumMismatch: 'backups.refusals.checksumMismatch',
} as const;

export function backupsDir(): string {
  return path.resolve(process.env.DATA_DIR || './.data', 'backups');
}

export interface BackupView {
  id: string;
  status: BackupStatus;
  fileName: string | null;
  size: number | null;
  sha256: string | null;
  tableCount: number | null;
  rowCount: number | null;
  error: string | null;
  requestedBy: { id: string; name: string } | null;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
}

type BackupRow = RowOf<
  typeof Backup,
  'id' | 'status' | 'file_name' | 'size' | 'sha256' | 'table_count' | 'row_count' | 'error' | 'requested_by' | 'created_at' | 'started_at' | 'completed_at'
> & { requester_name: string | null };

const SELECT_BACKUP = `
  SELECT b.id, b.status, b.file_name, b.size, b.sha256, b.table_count, b.row_count, b.error, b.requested_by,
         ${sqlUserName('u')} AS requester_name,
         b.created_at, b.started_at, b.completed_at
    FROM backups b LEFT JOIN users u ON u.id = b.requested_by`;

function toView(row: BackupRow): BackupView {
  return {
    id: row.id,
    status: row.status,
    fileName: row.file_name,
    size: row.size,
    sha256: row.sha256,
    tableCount: row.table_count,
    rowCount: row.row_count,
    error: row.error,
    requestedBy: row.requested_by ? { id: row.requested_by, name: row.requester_name ?? '' } : null,
    createdAt: iso(row.created_at),
    startedAt: iso(row.started_at),
    completedAt: iso(row.completed_at),
  };
}

/** Newest first, with the full count. */
export async function listBackups({ actor, limit = 10, offset = 0 }: { actor: PublicUser; limit?: number; offset?: number }) {
  assertCan(actor, 'manage:backups');
  const { rows, total } = await selectPage<BackupRow>(
    `${SELECT_BACKUP} ORDER BY b.created_at DESC, b.id DESC LIMIT :limit OFFSET :offset`,
    'SELECT count(*)::int AS total FROM backups',
    { limit, offset },
  );
  return { backups: rows.map(toView), total };
}

export async function getBackup(id: string): Promise<BackupView | null> {
  const row = await selectOne<BackupRow>(`${SELECT_BACKUP} WHERE b.id = :id`, { id });
  return row ? toView(row) : null;
}

/** Records the request (and its activity-log row) and queues the job; 409 while another backup is pending or running. */
export async function requestBackup({ actor, ip }: { actor: PublicUser; ip?: string | null }): Promise<BackupView> {
  assertCan(actor, 'manage:backups');
  const id = await inTransaction(async (transaction) => {
    await execute(
      `UPDATE backups SET status = 'failed', completed_at = now(),
              error = 'Interrupted: no progress for ${STALE_AFTER_MINUTES} minutes (the worker stopped or is not running)'
        WHERE status IN ('pending', 'running') AND updated_at < now() - interval '${STALE_AFTER_MINUTES} minutes'`,
      {},
      { transaction },
    );
    let inserted: { id: string };
    try {
      ({
        rows: [inserted],
      } = await execute<{ id: string }>(`INSERT INTO backups (requested_by) VALUES (:actor) RETURNING id`, { actor: actor.id }, { transaction }));
    } catch (error) {
      if (isUniqueViolation(error)) throw apiError(409, BACKUP_REFUSALS.inProgress);
      throw error;
    }
    await logActivity({ action: 'backup_requested', userId: actor.id, entityType: 'backup', entityId: inserted.id, ipAddress: ip ?? null }, transaction);
    return inserted.id;
  });
  try {
    await sendJob('backup', { backupId: id }, { singletonKey: id });
  } catch (error) {
    await failBackup(id, `Could not queue the backup job: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  }
  return (await getBackup(id))!;
}

async function failBackup(id: string, message: string) {
  await inTransaction(async (transaction) => {
    const { count } = await execute(
      `UPDATE backups SET status = 'failed', error = :message, completed_at = now() WHERE id = :id AND status IN ('pending', 'running')`,
      { id, message: message.slice(0, 5000) },
      { transaction },
    );
    if (count > 0) await logActivity({ action: 'backup_failed', userId: null, entityType: 'backup', entityId: id, details: { error: message.slice(0, 500) } }, transaction);
  });
}

/**
 * The 'backup' job. Idempotent: a completed or failed backup is left alone; a
 * running one (its worker died and pg-boss retried the job) starts over.
 * Throws after marking the backup failed, so the job is recorded as failed too.
 */
export async function runBackup(id: string, log: (line: string) => void = () => {}): Promise<BackupView | null> {
  const { rows } = await execute<{ id: string; created_at: Date }>(
    `UPDATE backups SET status = 'running', started_at = now() WHERE id = :id AND status IN ('pending', 'running') RETURNING id, created_at`,
    { id },
  );
  if (rows.length === 0) return getBackup(id);
  const dir = backupsDir();
  const stamp = rows[0].created_at
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-');
  const fileName = `finflow-backup-${stamp}-${id.slice(0, 8)}.zip`;
  const target = path.join(dir, fileName);
  const partial = `${target}.partial`;
  let lastTouch = Date.now();
  let snapshot: Snapshot | null = null;
  try {
    await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
    // What a dead attempt left behind.
    await fs.promises.rm(partial, { force: true });
    snapshot = await openSnapshot('finflow-backup');
    const written = await writeBackup(snapshot, partial, {
      onProgress: ({ table, rows: count }) => {
        log(`backup ${id}: ${table} (${count} rows)`);
        if (Date.now() - lastTouch < PROGRESS_EVERY_MS) return;
        lastTouch = Date.now();
        void execute(`UPDATE backups SET updated_at = now() WHERE id = :id AND status = 'running'`, { id }).catch(() => {});
      },
    });
    await snapshot.close();
    await fs.promises.rename(partial, target);
    const rowCount = written.manifest.tables.reduce((sum, table) => sum + table.rows, 0);
    await inTransaction(async (transaction) => {
      await execute(
        `UPDATE backups SET status = 'completed', file_name = :fileName, size = :size, sha256 = :sha256,
                table_count = :tables, row_count = :rows, completed_at = now()
          WHERE id = :id`,
        { id, fileName, size: written.size, sha256: written.sha256, tables: written.manifest.tables.length, rows: rowCount },
        { transaction },
      );
      await logActivity(
        { action: 'backup_completed', userId: null, entityType: 'backup', entityId: id, details: { fileName, size: written.size, sha256: written.sha256, rows: rowCount } },
        transaction,
      );
    });
    log(`backup ${id}: ${fileName}, ${written.size} bytes`);
  } catch (error) {
    await snapshot?.close();
    await fs.promises.rm(partial, { force: true }).catch(() => {});
    await failBackup(id, error instanceof Error ? error.message : String(error));
    throw error;
  }
  return getBackup(id);
}

async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

/**
 * A completed backup's file for download: checked against its SHA-256 first
 * (a damaged file is refused, not sent), logged, then streamed from disk.
 */
export async function openBackupDownload({ actor, id, ip }: { actor: PublicUser; id: string; ip?: string | null }) {
  assertCan(actor, 'manage:backups');
  const backup = await getBackup(id);
  if (!backup) throw apiError(404, BACKUP_REFUSALS.notFound);
  if (backup.status !== 'completed' || !backup.fileName) throw apiError(409, BACKUP_REFUSALS.notCompleted);
  const file = path.join(backupsDir(), path.basename(backup.fileName));
  const stat = await fs.promises.stat(file).catch(() => null);
  if (!stat) throw apiError(404, BACKUP_REFUSALS.fileMissing);
  if (stat.size !== backup.size || (await sha256OfFile(file)) !== backup.sha256) throw apiError(409, BACKUP_REFUSALS.checksumMismatch);
  await inTransaction((transaction) =>
    logActivity({ action: 'backup_downloaded', userId: actor.id, entityType: 'backup', entityId: id, ipAddress: ip ?? null, details: { fileName: backup.fileName } }, transaction),
  );
  return {
    fileName: backup.fileName,
    size: stat.size,
    stream: Readable.toWeb(fs.createReadStream(file)) as ReadableStream<Uint8Array>,
  };
}
