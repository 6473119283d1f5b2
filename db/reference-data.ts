import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { DEBTOR_EMAIL_TRIGGERS, type EmailTrigger } from '../app/email/schemas.ts';
import { getEnv } from '../app/env.server.ts';
import { INTEGRATION_DEFAULTS, INTEGRATION_TYPES, type IntegrationMode, type IntegrationType } from '../app/integrations/types.ts';
import { automatedStep, manualStep, type WorkflowStepDef } from '../app/workflows/types.ts';
import type { WorkflowType } from '../app/workflows/schemas.ts';

/**
 * The reference data every install has (docs/reference-data.md): the four
 * workflow definitions, one active email template per event trigger, and the
 * five integrations. `ensureReferenceData` installs them once per database,
 * beside the first admin (db/prepare.ts); the demo seed (db/seed/demo.ts)
 * builds its book on the same rows.
 *
 * After installation they belong to staff: edited, deactivated or deleted,
 * they are never recreated or overwritten, because the install is recorded
 * in `install_steps` and runs only once.
 */

export interface ReferenceWorkflow {
  type: WorkflowType;
  name: string;
  description: string;
  steps: WorkflowStepDef[];
}

/**
 * The step handlers are those app/workflows/handlers/index.server.ts
 * registers. Which event starts each definition, and why its steps do not
 * repeat what the event already did, is in docs/reference-data.md.
 */
export const REFERENCE_WORKFLOWS: readonly ReferenceWorkflow[] = [
  {
    type: 'client_onboarding',
    name: 'Onboarding klijenta',
    description: 'Od registracije do aktivacije klijenta: dokumentacija, FINA, procjena rizika, KYC i kreditni limit.',
    steps: [
      automatedStep('Provjera potpunosti dokumentacije', 'checkDocuments'),
      automatedStep('FINA provjera tvrtke i računa', 'finaCheck'),
      automatedStep('Automatska procjena rizika', 'riskAssessment'),
      manualStep('KYC pregled', 'kyc_verification'),
      manualStep('Prijedlog kreditnog limita', 'limit_approval'),
      automatedStep('E-mail dobrodošlice', 'sendWelcomeEmail'),
    ],
  },
  {
    type: 'invoice_verification',
    name: 'Verifikacija fakture',
    description: 'Provjera podataka, duplikata i kupca prije verifikacije fakture.',
    steps: [
      automatedStep('Provjera podataka fakture', 'validateInvoice'),
      automatedStep('Provjera duplikata', 'checkDuplicateInvoice'),
      automatedStep('FINA provjera kupca', 'finaCheck'),
      manualStep('Ručna verifikacija', 'manual_review'),
      automatedStep('Obavijest klijentu', 'sendInvoiceVerifiedEmail'),
    ],
  },
  {
    type: 'risk_assessment',
    name: 'Periodična procjena rizika',
    description: 'HANFA i FINA provjera, izračun ocjene rizika i pregled analitičara.',
    steps: [
      automatedStep('HANFA provjera', 'hanfaCheck'),
      automatedStep('FINA provjera', 'finaCheck'),
      automatedStep('Izračun ocjene rizika', 'riskAssessment'),
      manualStep('Pregled analitičara', 'risk_assessment'),
    ],
  },
  {
    type: 'payment_processing',
    name: 'Obrada naplate',
    description: 'Uparivanje uplate kupca, potvrda, oslobađanje rezerve i obavijest klijentu.',
    steps: [
      automatedStep('Uparivanje uplate s fakturom', 'matchPayment'),
      manualStep('Potvrda uplate', 'manual_review'),
      automatedStep('Oslobađanje rezerve', 'releaseReserve'),
      automatedStep('Obavijest klijentu', 'sendPaymentConfirmation'),
    ],
  },
];

export interface ReferenceTemplate {
  trigger: Exclude<EmailTrigger, 'manual'>;
  name: string;
  subject: string;
  body: string;
}

const SIGNATURE = ['', 'Srdačan pozdrav,', 'FinFlow tim'];
const lines = (...text: string[]) => [...text, ...SIGNATURE].join('\n');

/**
 * One active template per event trigger. Only the variables app/email/send.server.ts
 * fills for the trigger: the client's names always, the invoice's number and
 * amount (a decimal in EUR) for the invoice triggers.
 */
export const REFERENCE_TEMPLATES: readonly ReferenceTemplate[] = [
  {
    trigger: 'client_onboarding',
    name: 'Dobrodošlica novom klijentu',
    subject: 'Dobrodošli u FinFlow, {{company_name}}',
    body: lines(
      'Poštovani {{client_name}},',
      '',
      'zahvaljujemo na povjerenju. Registracija tvrtke {{company_name}} je odobrena i pristup platformi za faktoring je aktivan.',
      'Fakture za financiranje možete nam slati odmah; o odluci o kreditnom limitu javit ćemo vam se zasebno.',
    ),
  },
  {
    trigger: 'invoice_verified',
    name: 'Faktura verificirana',
    subject: 'Faktura {{invoice_number}} je verificirana',
    body: lines('Poštovani {{client_name}},', '', 'faktura {{invoice_number}} na iznos {{amount}} EUR verificirana je i prosljeđuje se na odobrenje financiranja.'),
  },
  {
    trigger: 'payment_due',
    name: 'Podsjetnik na dospijeće',
    subject: 'Podsjetnik: dospijeće fakture {{invoice_number}}',
    body: lines(
      'Poštovani {{client_name}},',
      '',
      'podsjećamo da faktura {{invoice_number}} na iznos {{amount}} EUR uskoro dospijeva na naplatu.',
      'Molimo da obavijestite kupca da uplatu izvrši na račun naveden u obavijesti o cesiji.',
    ),
  },
  {
    trigger: 'payment_overdue',
    name: 'Obavijest o kašnjenju plaćanja',
    subject: 'Kašnjenje plaćanja – faktura {{invoice_number}}',
    body: lines(
      'Poštovani {{client_name}},',
      '',
      'faktura {{invoice_number}} na iznos {{amount}} EUR dospjela je, a uplata kupca još nije zaprimljena.',
      'Molimo vas da nas kontaktirate radi dogovora o daljnjim koracima.',
    ),
  },
  ...debtorTemplates(),
];

/**
 * The debtor's templates (docs/collections.md): the notice of assignment and
 * the four reminder levels, with the debtor's variables. Installed on every
 * database once, also on one installed before they existed
 * (DEBTOR_TEMPLATES_STEP).
 */
function debtorTemplates(): ReferenceTemplate[] {
  const debtorLines = (...text: string[]) => [...text, '', 'Srdačan pozdrav,', '{{factor_name}}'].join('\n');
  const payment = [
    'Iznos za plaćanje: {{open_amount}}',
    'IBAN primatelja: {{factor_iban}}',
    'Model i poziv na broj: {{payment_reference}}',
    'Dospijeće: {{due_date}}',
    '',
    'U privitku je uplatnica s 2D kodom za plaćanje skeniranjem u mobilnom bankarstvu.',
  ];
  return [
    {
      trigger: 'debtor_notice',
      name: 'Obavijest dužniku o ustupanju potraživanja',
      subject: 'Obavijest o ustupanju potraživanja – {{company_name}}',
      body: debtorLines(
        'Poštovani {{debtor_name}},',
        '',
        'obavještavamo vas da je {{company_name}} ustupio svoja potraživanja prema vama društvu {{factor_name}}.',
        'Od primitka ove obavijesti dospjele iznose plaćajte isključivo na račun {{factor_iban}}, s pozivom na broj naveden uz svaku fakturu.',
        'Obavijest o ustupanju nalazi se u privitku.',
        '',
        'Molimo potvrdite primitak obavijesti i iznose faktura na poveznici: {{debtor_link}}',
      ),
    },
    {
      trigger: 'dunning_1',
      name: 'Podsjetnik dužniku: uskoro dospijeva',
      subject: 'Podsjetnik: faktura {{invoice_number}} dospijeva {{due_date}}',
      body: debtorLines('Poštovani {{debtor_name}},', '', 'podsjećamo da faktura {{invoice_number}} izdavatelja {{company_name}} uskoro dospijeva na plaćanje.', '', ...payment),
    },
    {
      trigger: 'dunning_2',
      name: 'Podsjetnik dužniku: danas dospijeva',
      subject: 'Faktura {{invoice_number}} dospijeva danas',
      body: debtorLines('Poštovani {{debtor_name}},', '', 'faktura {{invoice_number}} izdavatelja {{company_name}} dospijeva danas.', '', ...payment),
    },
    {
      trigger: 'dunning_3',
      name: 'Opomena dužniku: prva opomena',
      subject: 'Opomena: faktura {{invoice_number}} nije plaćena',
      body: debtorLines(
        'Poštovani {{debtor_name}},',
        '',
        'faktura {{invoice_number}} izdavatelja {{company_name}} dospjela je {{due_date}}, a uplatu još nismo zaprimili.',
        'Molimo vas da dug podmirite bez odgode.',
        '',
        ...payment,
      ),
    },
    {
      trigger: 'dunning_4',
      name: 'Opomena dužniku: posljednja opomena',
      subject: 'Posljednja opomena: faktura {{invoice_number}}',
      body: debtorLines(
        'Poštovani {{debtor_name}},',
        '',
        'unatoč ranijim opomenama faktura {{invoice_number}} izdavatelja {{company_name}}, dospjela {{due_date}}, još nije plaćena.',
        'Ako uplata ne bude zaprimljena, bit ćemo prisiljeni pokrenuti postupak naplate.',
        '',
        ...payment,
      ),
    },
  ];
}

/**
 * The five integrations, as app/integrations/core.server.ts would create
 * them: 'inactive' until the health job (or an admin's 'Test') has reached
 * them, enabled, in INTEGRATIONS_MODE.
 */
export const REFERENCE_INTEGRATIONS: ReadonlyArray<{ type: IntegrationType; name: string; description: string }> = INTEGRATION_TYPES.map((type) => ({
  type,
  ...INTEGRATION_DEFAULTS[type],
}));

export interface ReferenceRowIds {
  workflows: Record<WorkflowType, string>;
  templates: Record<ReferenceTemplate['trigger'], string>;
  integrations: Record<IntegrationType, string>;
}

export interface InsertedReferenceRows {
  workflowDefinitions: string[];
  emailTemplates: string[];
  integrations: string[];
}

/** The name of this installation step in `install_steps`. */
export const REFERENCE_DATA_STEP = 'reference_data';
/** The debtor's templates, added later: an install done before them gets them once by this step. */
export const DEBTOR_TEMPLATES_STEP = 'debtor_templates';
// Any fixed number: two processes starting on one database install the reference data one after the other.
const REFERENCE_LOCK = 7_320_114;

async function firstId(sequelize: Sequelize, transaction: Transaction, sql: string, replacements: Record<string, unknown>) {
  const [row] = await sequelize.query<{ id: string }>(sql, { replacements, transaction, type: QueryTypes.SELECT });
  return row?.id;
}

/**
 * Inserts each reference row whose kind has none yet — a definition of the
 * type, a template of the trigger (active or not), an integration of the
 * type — and answers the id of each kind's row (the active or newest one).
 * A kind that exists is left exactly as it is. Runs in `transaction`.
 */
export async function insertMissingReferenceData(
  sequelize: Sequelize,
  transaction: Transaction,
  options: { mode?: IntegrationMode; at?: Date } = {},
): Promise<{ ids: ReferenceRowIds; inserted: InsertedReferenceRows }> {
  const at = options.at ?? null;
  const mode = options.mode ?? getEnv().INTEGRATIONS_MODE;
  const inserted: InsertedReferenceRows = { workflowDefinitions: [], emailTemplates: [], integrations: [] };
  const ids = { workflows: {}, templates: {}, integrations: {} } as ReferenceRowIds;

  /** The id of the kind's row (`existing`), or of the row `insert` adds, whose name is then listed in `names`. */
  const existingOrInserted = async (existing: string, insert: string, replacements: Record<string, unknown>, names: string[], name: string) => {
    const id = await firstId(sequelize, transaction, existing, replacements);
    if (id) return id;
    names.push(name);
    return (await firstId(sequelize, transaction, insert, { ...replacements, at }))!;
  };

  for (const workflow of REFERENCE_WORKFLOWS) {
    ids.workflows[workflow.type] = await existingOrInserted(
      `SELECT id FROM workflow_definitions WHERE type = :type ORDER BY is_active DESC, updated_at DESC, created_at DESC LIMIT 1`,
      `INSERT INTO workflow_definitions (name, description, type, steps, is_active, created_at, updated_at)
       VALUES (:name, :description, :type, CAST(:steps AS jsonb), true, coalesce(CAST(:at AS timestamptz), now()), coalesce(CAST(:at AS timestamptz), now()))
       RETURNING id`,
      { ...workflow, steps: JSON.stringify(workflow.steps) },
      inserted.workflowDefinitions,
      workflow.name,
    );
  }

  for (const template of REFERENCE_TEMPLATES) {
    // Any template of the trigger, even an inactive one, means staff have decided about it.
    ids.templates[template.trigger] = await existingOrInserted(
      `SELECT id FROM email_templates WHERE trigger = :trigger ORDER BY is_active DESC, updated_at DESC, id LIMIT 1`,
      `INSERT INTO email_templates (name, trigger, subject, body, is_active, created_at, updated_at)
       VALUES (:name, :trigger, :subject, :body, true, coalesce(CAST(:at AS timestamptz), now()), coalesce(CAST(:at AS timestamptz), now()))
       RETURNING id`,
      { ...template },
      inserted.emailTemplates,
      template.name,
    );
  }

  for (const integration of REFERENCE_INTEGRATIONS) {
    const created = await firstId(
      sequelize,
      transaction,
      `INSERT INTO integrations (name, description, type, status, mode, created_at, updated_at)
       VALUES (:name, :description, :type, 'inactive', :mode, coalesce(CAST(:at AS timestamptz), now()), coalesce(CAST(:at AS timestamptz), now()))
       ON CONFLICT (type) DO NOTHING RETURNING id`,
      { ...integration, mode, at },
    );
    if (created) inserted.integrations.push(integration.name);
    ids.integrations[integration.type] = created ?? (await firstId(sequelize, transaction, `SELECT id FROM integrations WHERE type = :type`, { type: integration.type }))!;
  }
  return { ids, inserted };
}

/**
 * Installs the reference data once per database: on the first call the
 * missing rows (insertMissingReferenceData), the `install_steps` row and one
 * activity row naming what was added; every later call does nothing. An
 * install that had rows of a kind before (an upgraded one, a restored book)
 * keeps them and only gets the kinds it lacked. Joins `transaction` when given.
 */
export async function ensureReferenceData(
  sequelize: Sequelize,
  options: { transaction?: Transaction; mode?: IntegrationMode; at?: Date } = {},
): Promise<{ installed: boolean; inserted: InsertedReferenceRows }> {
  const at = options.at ?? null;
  const record = async (transaction: Transaction, step: string, inserted: InsertedReferenceRows, via: string) => {
    await sequelize.query(`INSERT INTO install_steps (name, completed_at) VALUES (:name, coalesce(CAST(:at AS timestamptz), now()))`, {
      replacements: { name: step, at },
      transaction,
    });
    await sequelize.query(
      `INSERT INTO activity_logs (action, details, created_at) VALUES ('reference_data_installed', CAST(:details AS jsonb), coalesce(CAST(:at AS timestamptz), now()))`,
      { replacements: { details: JSON.stringify({ ...inserted, via }), at }, transaction },
    );
  };
  const run = async (transaction: Transaction) => {
    await sequelize.query(`SELECT pg_advisory_xact_lock(${REFERENCE_LOCK})`, { transaction });
    const done = async (step: string) => Boolean(await firstId(sequelize, transaction, `SELECT name AS id FROM install_steps WHERE name = :name`, { name: step }));
    const nothing: InsertedReferenceRows = { workflowDefinitions: [], emailTemplates: [], integrations: [] };
    if (!(await done(REFERENCE_DATA_STEP))) {
      // A new install gets everything, the debtor's templates included.
      const { inserted } = await insertMissingReferenceData(sequelize, transaction, options);
      await record(transaction, REFERENCE_DATA_STEP, inserted, 'first start');
      await sequelize.query(`INSERT INTO install_steps (name, completed_at) VALUES (:name, coalesce(CAST(:at AS timestamptz), now()))`, {
        replacements: { name: DEBTOR_TEMPLATES_STEP, at },
        transaction,
      });
      return { installed: true, inserted };
    }
    if (await done(DEBTOR_TEMPLATES_STEP)) return { installed: false, inserted: nothing };
    // An install from before the debtor's templates: only those, and only for a trigger without any template.
    const emailTemplates: string[] = [];
    for (const template of REFERENCE_TEMPLATES.filter((candidate) => (DEBTOR_EMAIL_TRIGGERS as readonly string[]).includes(candidate.trigger))) {
      if (await firstId(sequelize, transaction, `SELECT id FROM email_templates WHERE trigger = :trigger LIMIT 1`, { trigger: template.trigger })) continue;
      await sequelize.query(
        `INSERT INTO email_templates (name, trigger, subject, body, is_active, created_at, updated_at)
         VALUES (:name, :trigger, :subject, :body, true, coalesce(CAST(:at AS timestamptz), now()), coalesce(CAST(:at AS timestamptz), now()))`,
        { replacements: { ...template, at }, transaction },
      );
      emailTemplates.push(template.name);
    }
    const inserted = { ...nothing, emailTemplates };
    await record(transaction, DEBTOR_TEMPLATES_STEP, inserted, 'upgrade');
    return { installed: true, inserted };
  };
  return options.transaction ? run(options.transaction) : sequelize.transaction(run);
}
