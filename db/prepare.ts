import type { Env } from '../app/env.server.ts';
import { ensureFirstAdmin } from './bootstrap-admin.ts';
import { createSequelize } from './connection.ts';
import { migrateUp } from './migrate.ts';
import { ensureReferenceData } from './reference-data.ts';
import { seedDemo } from './seed/demo.ts';

/**
 * Everything that must happen once before web and worker start (README.md):
 * migrate, create the first super_admin, install the reference data (once per
 * database: db/reference-data.ts), seed the demo book on an empty database.
 * `npm start` calls it; docker compose runs it as its `migrate` service.
 */
export async function prepareDatabase(databaseUrl: string, env: Env, log: (line: string) => void) {
  const sequelize = createSequelize(databaseUrl, { poolMax: 2 });
  try {
    await migrateUp(sequelize, (line) => log(`migrations: ${line}`));
    const admin = await ensureFirstAdmin(sequelize, { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD });
    if (admin.created) {
      log(`created super_admin ${admin.email}`);
      if (admin.generatedPassword) {
        log(`  its password (shown once, change it after signing in): ${admin.generatedPassword}`);
      }
    }
    const reference = await ensureReferenceData(sequelize, { mode: env.INTEGRATIONS_MODE });
    if (reference.installed) {
      const { workflowDefinitions, emailTemplates, integrations } = reference.inserted;
      log(`installed the reference data: ${workflowDefinitions.length} workflow definitions, ${emailTemplates.length} email templates, ${integrations.length} integrations`);
    }
    if (env.SEED_DEMO) {
      const { seeded } = await seedDemo(sequelize, { log: (line) => log(`seed: ${line}`) });
      if (seeded) log('seeded the demo book');
    }
  } finally {
    await sequelize.close();
  }
}
