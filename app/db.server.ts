import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { getSequelize } from '../db/connection.ts';
import { readPrepared } from '../db/statements.ts';

/**
 * Thin raw-SQL helpers for the auth modules: named replacements only, never
 * string-built SQL, and an optional transaction so one business operation and
 * its activity-log row commit together.
 */
type Replacements = Record<string, unknown>;
export interface QueryOptions {
  transaction?: Transaction | null;
}

/**
 * A transaction's queries go to the Sequelize that opened it (the demo seed
 * runs on its own, before the shared pool exists); the rest to the shared pool.
 */
function sequelizeFor(transaction: Transaction | null | undefined): Sequelize {
  // Sequelize sets `sequelize` on every transaction; its typings just do not declare it.
  return (transaction as unknown as { sequelize?: Sequelize } | null | undefined)?.sequelize ?? getSequelize();
}

export async function selectRows<T extends object>(sql: string, replacements: Replacements = {}, options: QueryOptions = {}): Promise<T[]> {
  const sequelize = sequelizeFor(options.transaction);
  // A read on its own runs as a prepared statement where it can (db/statements.ts); a transaction's reads stay on its connection.
  const rows = options.transaction ? null : await readPrepared<T>(sequelize, sql, replacements);
  return rows ?? sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction: options.transaction ?? undefined });
}

export async function selectOne<T extends object>(sql: string, replacements: Replacements = {}, options: QueryOptions = {}): Promise<T | null> {
  const rows = await selectRows<T>(sql, replacements, options);
  return rows[0] ?? null;
}

/**
 * One page of a list and the size of the whole list, read at once (docs/api.md lists): `rows` selects the page
 * (its `:limit`/`:offset` among `replacements`), `count` counts the same filter as `total`; a null `count` is not run.
 */
export async function selectPage<T extends object>(rows: string, count: string, replacements?: Replacements, options?: QueryOptions): Promise<{ rows: T[]; total: number }>;
export async function selectPage<T extends object>(
  rows: string,
  count: string | null,
  replacements?: Replacements,
  options?: QueryOptions,
): Promise<{ rows: T[]; total: number | null }>;
export async function selectPage<T extends object>(rows: string, count: string | null, replacements: Replacements = {}, options: QueryOptions = {}) {
  const [page, counted] = await Promise.all([selectRows<T>(rows, replacements, options), count === null ? null : selectOne<{ total: number }>(count, replacements, options)]);
  return { rows: page, total: count === null ? null : (counted?.total ?? 0) };
}

/** For INSERT/UPDATE/DELETE; `RETURNING` rows come back, and the affected count. */
export async function execute<T = Record<string, unknown>>(sql: string, replacements: Replacements = {}, options: QueryOptions = {}): Promise<{ rows: T[]; count: number }> {
  const [rows, meta] = (await sequelizeFor(options.transaction).query(sql, { replacements, transaction: options.transaction ?? undefined })) as [
    T[],
    { rowCount?: number } | number | undefined,
  ];
  const count = typeof meta === 'number' ? meta : (meta?.rowCount ?? rows.length);
  return { rows, count };
}

export function inTransaction<T>(run: (transaction: Transaction) => Promise<T>, existing?: Transaction | null): Promise<T> {
  // Joining the caller's transaction lets one domain call be a step of a larger one (a step job, a page action).
  return existing ? run(existing) : getSequelize().transaction(run);
}

/** PostgreSQL's unique_violation, however Sequelize wraps it. */
export function isUniqueViolation(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { name?: string; parent?: { code?: string }; original?: { code?: string } };
  return e.name === 'SequelizeUniqueConstraintError' || e.parent?.code === '23505' || e.original?.code === '23505';
}

/** PostgreSQL's lock_not_available (a `lock_timeout` ran out), however it is wrapped. */
export function isLockNotAvailable(error: unknown): boolean {
  return errorChain(error).some((link) => link.code === '55P03');
}

/** The error and what it wraps: Sequelize keeps pg's error in `parent`/`original`, others in `cause`. */
function errorChain(error: unknown): Array<{ name?: unknown; code?: unknown; message?: unknown }> {
  const chain: Array<{ name?: unknown; code?: unknown; message?: unknown }> = [];
  let current: unknown = error;
  while (current && typeof current === 'object' && chain.length < 5 && !(chain as readonly object[]).includes(current)) {
    chain.push(current as { name?: unknown });
    const next = current as { parent?: unknown; original?: unknown; cause?: unknown };
    current = next.parent ?? next.original ?? next.cause;
  }
  return chain;
}

/** Sequelize's errors for a connection that could not be made or was lost. */
const CONNECTION_ERROR_NAMES = new Set([
  'SequelizeConnectionError',
  'SequelizeConnectionRefusedError',
  'SequelizeConnectionTimedOutError',
  'SequelizeConnectionAcquireTimeoutError',
  'SequelizeHostNotFoundError',
  'SequelizeHostNotReachableError',
]);
/**
 * Socket errors, and PostgreSQL's own codes for a server that is going away or
 * not there yet: 57P01–57P03 (admin or crash shutdown, cannot connect now),
 * class 08 (connection exceptions), 53300 (too many connections).
 */
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
/** What node-postgres and its pool say when the socket closes under them (these errors carry no code). */
const CONNECTION_ERROR_TEXT =
  /connection terminated|connection (?:is )?closed|client has encountered a connection error|timeout exceeded when trying to connect|the database system is (?:starting up|shutting down|in recovery mode)|terminating connection/i;

/**
 * True when `error` says the database cannot be reached (a restart, a
 * failover, a refused or lost connection) rather than that the request was
 * wrong: the API answers 503 with Retry-After for it and logs one line.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return errorChain(error).some(
    (link) =>
      CONNECTION_ERROR_NAMES.has(String(link.name)) ||
      CONNECTION_ERROR_CODES.has(String(link.code)) ||
      String(link.code).startsWith('08') ||
      CONNECTION_ERROR_TEXT.test(String(link.message ?? '')),
  );
}

/**
 * True when PostgreSQL refused a value (SQLSTATE class 22, data exception:
 * an impossible date, a number out of range, a NUL byte; or 23514, a CHECK
 * constraint): input that a schema should have refused. The API answers it as
 * a 400 rather than a 500.
 */
export function isRefusedValue(error: unknown): boolean {
  return errorChain(error).some((link) => typeof link.code === 'string' && /^(22[0-9A-Z]{3}|23514)$/.test(link.code));
}

/** One line for the log: the error's class, code and message, without a stack. */
export function describeDatabaseError(error: unknown): string {
  const chain = errorChain(error);
  const code = chain.map((link) => link.code).find((value) => typeof value === 'string');
  const message = chain.map((link) => link.message).find((value) => typeof value === 'string' && value !== '') ?? String(error);
  return `${String(chain[0]?.name ?? 'Error')}${code ? ` ${String(code)}` : ''}: ${String(message).split('\n')[0]}`;
}
