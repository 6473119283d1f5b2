import { getSequelize } from '../db/connection.ts';
import { migrations } from '../db/migrations/index.ts';

let migrationsApplied = false;

/** README.md: healthy when the database answers and every migration is applied. */
export async function checkHealth(): Promise<{ ok: true } | { ok: false; reason: string }> {
  try {
    const sequelize = getSequelize();
    if (migrationsApplied) {
      await sequelize.query('SELECT 1');
      return { ok: true };
    }
    const [rows] = (await sequelize.query('SELECT name FROM schema_migrations')) as [Array<{ name: string }>, unknown];
    const applied = new Set(rows.map((row) => row.name));
    const missing = migrations.filter((migration) => !applied.has(migration.name));
    if (missing.length) return { ok: false, reason: `${missing.length} migration(s) not applied` };
    migrationsApplied = true;
    return { ok: true };
  } catch {
    return { ok: false, reason: 'database unavailable' };
  }
}
