import pg from 'pg';
import { QueryTypes, type Sequelize } from 'sequelize';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { validateTemplate } from '../app/email/render.server.ts';
import { parseEnv } from '../app/env.server.ts';
import { HANDLER_NAMES, TASK_TYPES } from '../app/workflows/schemas.ts';
import { createSequelize, getSequelize } from './connection.ts';
import { prepareDatabase } from './prepare.ts';
import { ensureReferenceData, REFERENCE_INTEGRATIONS, REFERENCE_TEMPLATES, REFERENCE_WORKFLOWS } from './reference-data.ts';

const select = <T extends object>(db: Sequelize, sql: string) => db.query<T>(sql, { type: QueryTypes.SELECT });

/** Everything the reference data consists of, as comparable rows. */
async function referenceRows(db: Sequelize) {
  return {
    workflows: await select<{ type: string; name: string; steps: unknown; is_active: boolean }>(
      db,
      `SELECT type, name, steps, is_active FROM workflow_definitions ORDER BY type, name`,
    ),
    templates: await select<{ trigger: string; name: string; is_active: boolean }>(db, `SELECT trigger, name, is_active FROM email_templates ORDER BY trigger, name`),
    integrations: await select<{ type: string; name: string; status: string; is_enabled: boolean }>(db, `SELECT type, name, status, is_enabled FROM integrations ORDER BY type`),
  };
}

const EXPECTED = {
  workflows: REFERENCE_WORKFLOWS.map(({ type, name, steps }) => ({ type, name, steps, is_active: true })).sort((a, b) => a.type.localeCompare(b.type)),
  templates: REFERENCE_TEMPLATES.map(({ trigger, name }) => ({ trigger, name, is_active: true })).sort((a, b) => a.trigger.localeCompare(b.trigger)),
  integrations: REFERENCE_INTEGRATIONS.map(({ type, name }) => ({ type, name, status: 'inactive', is_enabled: true })).sort((a, b) => a.type.localeCompare(b.type)),
};

describe('the reference data itself', () => {
  it('has the four workflow types, one template per event trigger and the five integrations', () => {
    expect(REFERENCE_WORKFLOWS.map((workflow) => workflow.type).sort()).toEqual(['client_onboarding', 'invoice_verification', 'payment_processing', 'risk_assessment']);
    expect(REFERENCE_TEMPLATES.map((template) => template.trigger).sort()).toEqual([
      'client_onboarding',
      'debtor_notice',
      'dunning_1',
      'dunning_2',
      'dunning_3',
      'dunning_4',
      'invoice_verified',
      'payment_due',
      'payment_overdue',
    ]);
    expect(REFERENCE_INTEGRATIONS.map((integration) => integration.type).sort()).toEqual(['docusign', 'einvoicing', 'fina', 'hanfa', 'sendgrid']);
  });

  it('names only handlers and task types the engine knows', () => {
    for (const step of REFERENCE_WORKFLOWS.flatMap((workflow) => workflow.steps)) {
      if (step.type === 'automated') expect(HANDLER_NAMES).toContain(step.handler);
      else expect(TASK_TYPES).toContain(step.taskType);
    }
  });

  it('has templates that pass the checks a staff member’s template passes', () => {
    for (const template of REFERENCE_TEMPLATES) expect(validateTemplate(template), template.name).toEqual([]);
  });
});

describe('ensureReferenceData', () => {
  const db = getSequelize();

  it('installs exactly the reference rows on a migrated, empty database, once', async () => {
    expect(await referenceRows(db)).toEqual({ workflows: [], templates: [], integrations: [] });
    const first = await ensureReferenceData(db);
    expect(first).toMatchObject({
      installed: true,
      inserted: { workflowDefinitions: expect.any(Array), emailTemplates: expect.any(Array), integrations: expect.any(Array) },
    });
    expect(first.inserted.workflowDefinitions).toHaveLength(4);
    expect(first.inserted.emailTemplates).toHaveLength(9);
    expect(first.inserted.integrations).toHaveLength(5);
    expect(await referenceRows(db)).toEqual(EXPECTED);
    const [log] = await select<{ action: string; user_id: string | null; details: Record<string, unknown> }>(
      db,
      `SELECT action, user_id, details FROM activity_logs WHERE action = 'reference_data_installed'`,
    );
    expect(log).toMatchObject({ user_id: null, details: { workflowDefinitions: first.inserted.workflowDefinitions } });

    // A second run (every later start) adds nothing, not even a log row.
    expect(await ensureReferenceData(db)).toMatchObject({ installed: false });
    expect(await referenceRows(db)).toEqual(EXPECTED);
    expect(await select(db, `SELECT 1 FROM activity_logs WHERE action = 'reference_data_installed'`)).toHaveLength(1);
  });

  it('leaves what staff deactivated, edited or deleted as they left it', async () => {
    await db.query(`UPDATE workflow_definitions SET is_active = false WHERE type = 'payment_processing'`);
    await db.query(`DELETE FROM email_templates WHERE trigger = 'payment_overdue'`);
    await db.query(`UPDATE integrations SET name = 'FINA (naš naziv)' WHERE type = 'fina'`);
    const before = await referenceRows(db);
    expect(await ensureReferenceData(db)).toMatchObject({ installed: false });
    expect(await referenceRows(db)).toEqual(before);
    expect(before.templates.map((template) => template.trigger)).not.toContain('payment_overdue');
  });
});

describe('a fresh install with SEED_DEMO=false (npm run migrate)', () => {
  const serverUrl = inject('databaseServerUrl');
  const name = `refdata_${Date.now()}`;
  let admin: pg.Client;
  let fresh: Sequelize;

  beforeAll(async () => {
    admin = new pg.Client(`${serverUrl}/postgres`);
    await admin.connect();
    // Not from the migrated template: an empty database, as a new install has.
    await admin.query(`CREATE DATABASE ${name} TEMPLATE template0`);
    fresh = createSequelize(`${serverUrl}/${name}`, { poolMax: 2 });
  });
  afterAll(async () => {
    await fresh?.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  const env = () =>
    parseEnv({ ...process.env, DATABASE_URL: `${serverUrl}/${name}`, SEED_DEMO: 'false', ADMIN_EMAIL: 'first@finflow.local', ADMIN_PASSWORD: 'first-admin-password' });

  it('migrates into the admin and exactly the reference rows, and a second run duplicates nothing', async () => {
    const lines: string[] = [];
    await prepareDatabase(`${serverUrl}/${name}`, env(), (line) => lines.push(line));
    expect(lines).toContain('installed the reference data: 4 workflow definitions, 9 email templates, 5 integrations');
    expect(lines.some((line) => line.includes('seeded'))).toBe(false);
    expect(await referenceRows(fresh)).toEqual(EXPECTED);
    expect(await select(fresh, `SELECT name FROM install_steps ORDER BY name`)).toEqual([{ name: 'debtor_templates' }, { name: 'reference_data' }]);
    expect(await select(fresh, `SELECT 1 FROM clients`)).toEqual([]);

    const again: string[] = [];
    await prepareDatabase(`${serverUrl}/${name}`, env(), (line) => again.push(line));
    expect(again.some((line) => line.includes('reference data'))).toBe(false);
    expect(await referenceRows(fresh)).toEqual(EXPECTED);
    expect(await select(fresh, `SELECT email FROM users`)).toEqual([{ email: 'first@finflow.local' }]);
  });
});

describe('an install that already had some of it (an upgrade, a restored book)', () => {
  const db = getSequelize();

  it('gets only the kinds it lacked, and two starts at once install it once', async () => {
    // This file's database was installed above; start over as an older install would look.
    await db.query(`DELETE FROM install_steps; DELETE FROM workflow_definitions; DELETE FROM email_templates; DELETE FROM integrations`);
    await db.query(
      `INSERT INTO workflow_definitions (name, type, steps, is_active) VALUES ('Naš onboarding', 'client_onboarding', '[{"name":"KYC","type":"manual","taskType":"kyc_verification"}]', false)`,
    );
    await db.query(`INSERT INTO email_templates (name, trigger, subject, body, is_active) VALUES ('Stari podsjetnik', 'payment_due', 'Podsjetnik', 'Tekst', false)`);

    const results = await Promise.all([ensureReferenceData(db), ensureReferenceData(db)]);
    expect(results.map((result) => result.installed).sort()).toEqual([false, true]);
    const rows = await referenceRows(db);
    expect(rows.workflows.map((workflow) => [workflow.type, workflow.name])).toEqual([
      ['client_onboarding', 'Naš onboarding'],
      ['invoice_verification', 'Verifikacija fakture'],
      ['payment_processing', 'Obrada naplate'],
      ['risk_assessment', 'Periodična procjena rizika'],
    ]);
    expect(rows.templates.map((template) => [template.trigger, template.name, template.is_active])).toEqual([
      ['client_onboarding', 'Dobrodošlica novom klijentu', true],
      ['debtor_notice', 'Obavijest dužniku o ustupanju potraživanja', true],
      ['dunning_1', 'Podsjetnik dužniku: uskoro dospijeva', true],
      ['dunning_2', 'Podsjetnik dužniku: danas dospijeva', true],
      ['dunning_3', 'Opomena dužniku: prva opomena', true],
      ['dunning_4', 'Opomena dužniku: posljednja opomena', true],
      ['invoice_verified', 'Faktura verificirana', true],
      ['payment_due', 'Stari podsjetnik', false],
      ['payment_overdue', 'Obavijest o kašnjenju plaćanja', true],
    ]);
    expect(rows.integrations).toHaveLength(5);
    // The earlier install's row, and one for this one.
    expect(await select(db, `SELECT 1 FROM activity_logs WHERE action = 'reference_data_installed'`)).toHaveLength(2);
  });

  it("an install from before the debtor's templates gets those once, and no other template it deleted", async () => {
    await db.query(`DELETE FROM install_steps WHERE name = 'debtor_templates'`);
    await db.query(`DELETE FROM email_templates WHERE trigger IN ('payment_overdue', 'debtor_notice', 'dunning_1', 'dunning_2', 'dunning_3')`);
    await db.query(`UPDATE email_templates SET is_active = false, name = 'Naša opomena' WHERE trigger = 'dunning_4'`);
    const upgrade = await ensureReferenceData(db);
    expect(upgrade).toEqual({
      installed: true,
      inserted: {
        workflowDefinitions: [],
        integrations: [],
        emailTemplates: [
          'Obavijest dužniku o ustupanju potraživanja',
          'Podsjetnik dužniku: uskoro dospijeva',
          'Podsjetnik dužniku: danas dospijeva',
          'Opomena dužniku: prva opomena',
        ],
      },
    });
    const triggers = (await referenceRows(db)).templates.map((template) => [template.trigger, template.name, template.is_active]);
    expect(triggers).toContainEqual(['dunning_4', 'Naša opomena', false]);
    expect(triggers.map(([trigger]) => trigger)).not.toContain('payment_overdue');
    expect(await ensureReferenceData(db)).toMatchObject({ installed: false });
  });
});
