import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { QueryTypes, type Sequelize } from 'sequelize';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createSequelize } from './connection.ts';
import { migrateDown, migrateUp, pendingMigrations } from './migrate.ts';

/** The migrations run on an empty database of their own: up, all the way down and up again. */

/** The initial schema's tables. */
const TABLES = [
  'activity_logs',
  'clients',
  'credit_limit_requests',
  'customers',
  'documents',
  'email_campaigns',
  'email_logs',
  'email_templates',
  'integration_logs',
  'integrations',
  'invoice_lines',
  'invoices',
  'payments',
  'payouts',
  'risk_assessments',
  'sessions',
  'tasks',
  'user_tokens',
  'users',
  'worker_heartbeats',
  'workflow_definitions',
  'workflow_instances',
  'workflow_step_runs',
];

async function publicTables(sequelize: Sequelize) {
  const rows = await sequelize.query<{ name: string }>(
    `SELECT table_name::text AS name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
    { type: QueryTypes.SELECT },
  );
  return rows.map((row) => row.name);
}

describe('migrations', () => {
  const serverUrl = inject('databaseServerUrl');
  const name = `schema_${randomUUID().replace(/-/g, '')}`;
  let sequelize: Sequelize;

  async function admin(sql: string) {
    const client = new pg.Client(`${serverUrl}/postgres`);
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    // An empty database, not the migrated template the other tests copy.
    await admin(`CREATE DATABASE ${name}`);
    sequelize = createSequelize(`${serverUrl}/${name}`, { poolMax: 3 });
  });

  afterAll(async () => {
    await sequelize?.close();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  it('migrates an empty database up, all the way down, and up again', async () => {
    expect(await publicTables(sequelize)).toEqual([]);

    await migrateUp(sequelize);
    const afterUp = await publicTables(sequelize);
    // Later migrations may add tables of their own; the initial schema's must all be there.
    expect(afterUp).toEqual(expect.arrayContaining([...TABLES, 'schema_migrations']));
    expect(await pendingMigrations(sequelize)).toEqual([]);

    await migrateDown(sequelize, { to: 0 });
    expect(await publicTables(sequelize)).toEqual(['schema_migrations']);
    const functions = await sequelize.query(
      `SELECT proname FROM pg_proc WHERE pronamespace = 'public'::regnamespace
       AND proname IN ('set_updated_at', 'activity_logs_append_only')`,
      { type: QueryTypes.SELECT },
    );
    expect(functions).toEqual([]);
    expect(await sequelize.query('SELECT name FROM schema_migrations', { type: QueryTypes.SELECT })).toEqual([]);

    await migrateUp(sequelize);
    expect(await publicTables(sequelize)).toEqual(afterUp);
    expect(await pendingMigrations(sequelize)).toEqual([]);
  });
});
