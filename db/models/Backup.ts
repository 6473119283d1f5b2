import type { NonAttribute } from 'sequelize';
import { withTimestamps } from './base.ts';
import { bigint, char, defaulted, instant, integer, nullable, oneOf, tableModel, text, uuid } from './columns.ts';
import { BACKUP_STATUSES } from './enums.ts';
import type { User } from './User.ts';

const columns = withTimestamps({
  status: defaulted(oneOf(BACKUP_STATUSES)),
  fileName: nullable(text),
  /** Bytes (bigint: a number, as db/connection.ts parses INT8). */
  size: nullable(bigint),
  sha256: nullable(char(64)),
  tableCount: nullable(integer),
  rowCount: nullable(bigint),
  error: nullable(text),
  requestedBy: nullable(uuid),
  startedAt: nullable(instant),
  completedAt: nullable(instant),
});

/** A database backup file in DATA_DIR/backups, written by the worker's backup job. */
export class Backup extends tableModel('backups', columns) {
  declare requester?: NonAttribute<User>;
}
