import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { getSequelize } from '../db/connection.ts';

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
  return sequelizeFor(options.transaction).query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction: options.transaction ?? undefined });
}

export async function selectOne<T extends object>(sql: string, replacements: Replacements = {}, options: QueryOptions = {}): Promise<T | null> {
  const rows = await selectRows<T>(sql, replacements, options);
  return rows[0] ?? null;
}

/** For INSERT/UPDATE/DELETE; `RETURNING` rows come back, and the affected count. */
export async function execute<T = Record<string, unknown>>(
  sql: string,
  replacements: Replacements = {},
  options: QueryOptions = {},
): Promise<{ rows: T[]; count: number }> {
  const [rows, meta] = (await sequelizeFor(options.transaction).query(sql, { replacements, transaction: options.transaction ?? undefined })) as [
    T[],
    { rowCount?: number } | number | undefined,
  ];
  const count = typeof meta === 'number' ? meta : (meta?.rowCount ?? rows.length);
  return { rows, count };
}

export function inTransaction<T>(run: (transaction: Transaction) => Promise<T>): Promise<T> {
  return getSequelize().transaction(run);
}

/** PostgreSQL's unique_violation, however Sequelize wraps it. */
export function isUniqueViolation(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { name?: string; parent?: { code?: string }; original?: { code?: string } };
  return e.name === 'SequelizeUniqueConstraintError' || e.parent?.code === '23505' || e.original?.code === '23505';
}
