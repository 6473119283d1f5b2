import type { Sequelize, Transaction } from 'sequelize';
import { SequelizeStorage, Umzug, type MigrationFn } from 'umzug';
import { migrations } from './migrations/index.ts';

/**
 * What a migration gets: `query` runs inside the migration's own transaction
 * (Sequelize does not pass a transaction on by itself), so a migration that
 * fails halfway leaves nothing behind.
 */
export interface MigrationContext {
  sequelize: Sequelize;
  transaction: Transaction;
  query(sql: string, replacements?: Record<string, unknown>): Promise<unknown>;
}
export type Migration = MigrationFn<MigrationContext>;
export interface MigrationModule {
  up: Migration;
  down: Migration;
}

// Any fixed number; it only has to be the same in every process that migrates.
const MIGRATION_LOCK = 7_320_112;

function inTransaction(sequelize: Sequelize, run: (context: MigrationContext) => Promise<unknown>) {
  return sequelize.transaction((transaction) => run({ sequelize, transaction, query: (sql, replacements) => sequelize.query(sql, { transaction, replacements }) }));
}

function createUmzug(sequelize: Sequelize, log: (message: string) => void) {
  return new Umzug<Sequelize>({
    migrations: migrations.map(({ name, module }) => ({
      name,
      up: ({ context }) => inTransaction(context, (migrationContext) => module.up({ name, context: migrationContext })),
      down: ({ context }) => inTransaction(context, (migrationContext) => module.down({ name, context: migrationContext })),
    })),
    context: sequelize,
    storage: new SequelizeStorage({ sequelize, tableName: 'schema_migrations' }),
    logger: {
      info: (event) => {
        const { event: kind, name } = event as { event?: string; name?: string };
        if (kind === 'migrated' || kind === 'reverted') log(`${kind} ${name}`);
      },
      warn: (event) => log(`warning: ${JSON.stringify(event)}`),
      error: (event) => log(`error: ${JSON.stringify(event)}`),
      debug: () => {},
    },
  });
}

/**
 * umzug has no lock of its own; a session-level advisory lock, held on one
 * dedicated connection, keeps two starting processes from migrating at once.
 */
async function withMigrationLock<T>(sequelize: Sequelize, run: () => Promise<T>): Promise<T> {
  const manager = sequelize.connectionManager as unknown as {
    getConnection(options: { type: 'write' }): Promise<{ query(sql: string): Promise<unknown> }>;
    releaseConnection(connection: unknown): Promise<void>;
  };
  const connection = await manager.getConnection({ type: 'write' });
  try {
    await connection.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
    try {
      return await run();
    } finally {
      await connection.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`);
    }
  } finally {
    await manager.releaseConnection(connection);
  }
}

export async function migrateUp(sequelize: Sequelize, log: (message: string) => void = () => {}) {
  return withMigrationLock(sequelize, () => createUmzug(sequelize, log).up());
}

export async function migrateDown(sequelize: Sequelize, options: { to?: string | 0 } = {}, log: (message: string) => void = () => {}) {
  return withMigrationLock(sequelize, () => createUmzug(sequelize, log).down(options.to === undefined ? {} : { to: options.to }));
}

export async function pendingMigrations(sequelize: Sequelize) {
  return (await createUmzug(sequelize, () => {}).pending()).map((migration) => migration.name);
}
