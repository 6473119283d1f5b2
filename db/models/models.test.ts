import { QueryTypes, type ModelStatic, type Model } from 'sequelize';
import { beforeAll, describe, expect, it } from 'vitest';
import { getSequelize } from '../connection.ts';
import type { Columns } from './columns.ts';
import { ENUM_COLUMNS } from './enums.ts';
import { getModels, initModels, type Models } from './index.ts';

let models: Models;

beforeAll(() => {
  models = getModels();
});

interface Column {
  table: string;
  column: string;
  dataType: string;
  udtName: string;
  length: number | null;
  precision: number | null;
  scale: number | null;
}

/** The information_schema data_type of each Sequelize type that has no options. */
const PLAIN_TYPES: Record<string, string> = {
  TEXT: 'text',
  UUID: 'uuid',
  BOOLEAN: 'boolean',
  INTEGER: 'integer',
  BIGINT: 'bigint',
  JSONB: 'jsonb',
  DATE: 'timestamp with time zone',
  DATEONLY: 'date',
};

/** The information_schema description a model attribute's Sequelize type must have. */
function expectedColumnType(type: { key: string; options?: Record<string, unknown>; type?: { key: string } }) {
  switch (type.key) {
    case 'CHAR':
      return { dataType: 'character', length: type.options?.length };
    case 'DECIMAL':
      return { dataType: 'numeric', precision: type.options?.precision, scale: type.options?.scale };
    case 'ARRAY':
      return { dataType: 'ARRAY', udtName: `_${type.type!.key.toLowerCase()}` };
    default:
      if (type.key in PLAIN_TYPES) return { dataType: PLAIN_TYPES[type.key] };
      throw new Error(`no mapping for Sequelize type ${type.key}`);
  }
}

describe('model definitions', () => {
  it('map exactly the columns of their tables, with matching types', async () => {
    const columns = await getSequelize().query<Column>(
      `SELECT table_name::text AS "table", column_name::text AS "column", data_type::text AS "dataType",
              udt_name::text AS "udtName", character_maximum_length::int AS length,
              numeric_precision::int AS precision, numeric_scale::int AS scale
       FROM information_schema.columns WHERE table_schema = 'public'`,
      { type: QueryTypes.SELECT },
    );
    for (const model of Object.values(models) as Array<ModelStatic<Model>>) {
      const table = model.getTableName() as string;
      const inTable = columns.filter((column) => column.table === table);
      const attributes = Object.values(model.getAttributes());

      expect(attributes.map((attribute) => attribute.field).sort(), table).toEqual(inTable.map((column) => column.column).sort());
      for (const attribute of attributes) {
        const column = inTable.find((candidate) => candidate.column === attribute.field)!;
        expect(column, `${table}.${attribute.field}`).toMatchObject(expectedColumnType(attribute.type as unknown as Parameters<typeof expectedColumnType>[0]));
      }
    }
  });

  it('say of each column what the schema says: NULL allowed, filled in when left out, enum values, primary key', async () => {
    const columns = await getSequelize().query<{ table: string; column: string; nullable: boolean; hasDefault: boolean; primaryKey: boolean }>(
      `SELECT c.table_name::text AS "table", c.column_name::text AS "column", c.is_nullable = 'YES' AS nullable,
              c.column_default IS NOT NULL OR c.is_identity = 'YES' AS "hasDefault",
              EXISTS (SELECT 1 FROM information_schema.table_constraints t
                      JOIN information_schema.key_column_usage k USING (constraint_schema, constraint_name, table_name)
                      WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = 'public' AND t.table_name = c.table_name
                        AND k.column_name = c.column_name) AS "primaryKey"
       FROM information_schema.columns c WHERE c.table_schema = 'public'`,
      { type: QueryTypes.SELECT },
    );
    const checked: string[] = [];
    for (const model of Object.values(models) as Array<ModelStatic<Model> & { columns: Columns }>) {
      const table = model.getTableName() as string;
      for (const [name, spec] of Object.entries(model.columns)) {
        const field = model.getAttributes()[name].field!;
        const column = columns.find((candidate) => candidate.table === table && candidate.column === field)!;
        const label = `${table}.${field}`;
        expect(spec.nullable, `${label} nullable`).toBe(column.nullable);
        expect(Boolean(spec.primaryKey), `${label} primary key`).toBe(column.primaryKey);
        // A NOT NULL column with a default in the database may be left out of an insert: its type must say so.
        if (column.hasDefault && !column.nullable) expect(spec.defaulted, `${label} defaulted`).toBe(true);
        const enumValues = ENUM_COLUMNS.find(([enumTable, enumColumn]) => enumTable === table && enumColumn === field)?.[2];
        expect(spec.values, `${label} enum values`).toEqual(enumValues);
        checked.push(label);
      }
    }
    expect(checked.length).toBe(new Set(checked).size);
  });

  it('declares the associations under their aliases', () => {
    const { Invoice, Task, EmailCampaign, WorkflowInstance, ActivityLog, Client } = models;
    expect(Object.keys(Invoice.associations)).toEqual(expect.arrayContaining(['client', 'customer', 'lines', 'payments', 'payouts', 'documents', 'ublDocument']));
    expect(Task.associations.assignee.target).toBe(models.User);
    expect(EmailCampaign.associations.template.target).toBe(models.EmailTemplate);
    expect(WorkflowInstance.associations.workflow.target).toBe(models.WorkflowDefinition);
    expect(ActivityLog.associations.user.target).toBe(models.User);
    expect(Client.associations.invoices.target).toBe(Invoice);
  });

  it('initialises once per Sequelize instance', () => {
    expect(getModels()).toBe(models);
    // A second call must not redeclare associations (Sequelize would throw on a duplicate alias).
    expect(initModels(getSequelize())).toBe(models);
  });
});

describe('round trip through the models', () => {
  it('writes and reads back a client, customer, invoice with lines, payment and payout', async () => {
    const { User, Client, Customer, Invoice, InvoiceLine, Payment, Payout, Document } = models;

    const user = await User.create({ email: 'ivana.horvat@example.hr', firstName: 'Ivana', lastName: 'Horvat' });
    // Defaults come from the database and are returned by the insert.
    expect(user.get({ plain: true })).toMatchObject({
      role: 'user',
      isActive: true,
      mustChangePassword: false,
      otpEnabled: null,
    });
    expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(user.createdAt).toBeInstanceOf(Date);

    const client = await Client.create({
      companyName: 'Jadranska trgovina d.o.o.',
      oib: '69435151530',
      city: 'Split',
      postalCode: '21000',
      iban: 'HR1210010051863000160',
      creditLimit: '50000.00',
      foundedOn: '2012-04-17',
      createdBy: user.id,
    });
    expect(client.get({ plain: true })).toMatchObject({
      status: 'pending',
      onboardingStatus: 'pending',
      country: 'Croatia',
      usedCredit: '0.00',
    });

    const customer = await Customer.create({ companyName: 'Dalmacija hoteli d.d.', oib: '94577403194' });
    expect(customer.accountBlocked).toBe(false);

    const invoice = await Invoice.create({
      clientId: client.id,
      customerId: customer.id,
      invoiceNumber: '2026-0042',
      amount: '12500.50',
      issueDate: '2026-01-15',
      dueDate: '2026-03-16',
      description: 'Isporuka opreme',
      createdBy: user.id,
    });
    await InvoiceLine.bulkCreate([
      {
        invoiceId: invoice.id,
        lineNumber: 2,
        description: 'Montaža',
        quantity: '10',
        unitPrice: '50.05',
        netAmount: '500.50',
      },
      {
        invoiceId: invoice.id,
        lineNumber: 1,
        description: 'Oprema',
        quantity: '1.5',
        unitPrice: '8000',
        netAmount: '12000.00',
        kpdCode: '28.29.22',
      },
    ]);
    await Payment.create({
      invoiceId: invoice.id,
      amount: '2500.25',
      reference: 'HR00 2026-0042',
      recordedBy: user.id,
    });
    await Payout.create({
      clientId: client.id,
      invoiceId: invoice.id,
      kind: 'advance',
      amount: '10000.40',
      iban: client.iban!,
    });
    await Document.create({
      name: 'faktura-2026-0042.pdf',
      type: 'invoice',
      mimeType: 'application/pdf',
      size: 48_213,
      storageKey: 'sha256/ab',
      checksum: 'ab'.repeat(32),
      entityType: 'invoice',
      entityId: invoice.id,
      uploadedBy: user.id,
    });

    const read = await Invoice.findByPk(invoice.id, {
      include: [
        { association: 'client' },
        { association: 'customer' },
        { association: 'lines' },
        { association: 'payments', include: [{ association: 'recorder' }] },
        { association: 'payouts' },
        { association: 'documents' },
      ],
      order: [[{ model: InvoiceLine, as: 'lines' }, 'lineNumber', 'ASC']],
      rejectOnEmpty: true,
    });

    const plain = read.get({ plain: true }) as Record<string, unknown>;
    expect(Object.keys(plain).filter((key) => key.includes('_'))).toEqual([]);
    expect(plain).toMatchObject({
      invoiceNumber: '2026-0042',
      status: 'pending',
      verificationStatus: 'pending',
      source: 'manual',
      currency: 'EUR',
      amount: '12500.50',
      paidAmount: '0.00',
      factorAmount: null,
      issueDate: '2026-01-15',
      dueDate: '2026-03-16',
    });
    expect(read.createdAt).toBeInstanceOf(Date);

    expect(read.client!.companyName).toBe('Jadranska trgovina d.o.o.');
    expect(read.client!.creditLimit).toBe('50000.00');
    expect(read.client!.foundedOn).toBe('2012-04-17');
    expect(read.customer!.oib).toBe('94577403194');
    expect(read.lines!.map((line) => [line.lineNumber, line.quantity, line.unitPrice, line.netAmount])).toEqual([
      [1, '1.5000', '8000.0000', '12000.00'],
      [2, '10.0000', '50.0500', '500.50'],
    ]);
    expect(read.lines![0]).toMatchObject({ unitCode: 'H87', vatCategory: 'S', vatRate: '25.00', kpdCode: '28.29.22' });
    expect(read.payments!.map((payment) => [payment.amount, payment.status, payment.paymentMethod])).toEqual([['2500.25', 'pending', 'bank_transfer']]);
    expect(read.payments![0].recorder!.email).toBe('ivana.horvat@example.hr');
    expect(read.payouts!.map((payout) => [payout.kind, payout.amount, payout.status])).toEqual([['advance', '10000.40', 'pending']]);
    expect(read.documents!.map((document) => [document.name, document.size])).toEqual([['faktura-2026-0042.pdf', 48_213]]);

    const withInvoices = await Client.findByPk(client.id, { include: ['invoices', 'creator'], rejectOnEmpty: true });
    expect(withInvoices.invoices!.map((each) => each.id)).toEqual([invoice.id]);
    expect(withInvoices.creator!.id).toBe(user.id);
  });

  it('keeps money exact as strings', async () => {
    const { Client, Customer, Invoice } = models;
    const client = await Client.create({ companyName: 'Novac d.o.o.', oib: '11111111111' });
    const customer = await Customer.create({ companyName: 'Kupac d.o.o.', oib: '22222222222' });
    const invoice = (amount: string | number, invoiceNumber: string) =>
      Invoice.create({
        clientId: client.id,
        customerId: customer.id,
        invoiceNumber,
        amount: amount as string,
        issueDate: '2026-02-01',
        dueDate: '2026-03-03',
      });

    const float = await invoice(0.1 + 0.2, 'M-1');
    await float.reload();
    expect(float.amount).toBe('0.30');

    const large = await invoice('1234567890123.45', 'M-2');
    expect((await Invoice.findByPk(large.id, { rejectOnEmpty: true })).amount).toBe('1234567890123.45');

    // Sums in SQL stay exact too (Model.sum would parseFloat them).
    const [{ total }] = (await Invoice.findAll({
      attributes: [[getSequelize().fn('sum', getSequelize().col('amount')), 'total']],
      where: { clientId: client.id },
      raw: true,
    })) as unknown as Array<{ total: string }>;
    expect(total).toBe('1234567890123.75');
  });

  it('maps workflows, tasks, email, integrations, risk, limits, sessions and heartbeats', async () => {
    const {
      User,
      Client,
      WorkflowDefinition,
      WorkflowInstance,
      WorkflowStepRun,
      Task,
      EmailTemplate,
      EmailCampaign,
      EmailLog,
      Integration,
      IntegrationLog,
      RiskAssessment,
      CreditLimitRequest,
      Session,
      UserToken,
      WorkerHeartbeat,
    } = models;
    const requester = await User.create({ email: 'petra@example.hr' });
    const manager = await User.create({ email: 'luka@example.hr', role: 'manager' });
    const client = await Client.create({ companyName: 'Tok d.o.o.', oib: '33333333333' });

    const definition = await WorkflowDefinition.create({
      name: 'Onboarding klijenta',
      type: 'client_onboarding',
      steps: [
        { name: 'Provjera FINA', type: 'automated', handler: 'finaCheck' },
        { name: 'KYC', type: 'manual', taskType: 'kyc_verification' },
      ],
    });
    const instance = await WorkflowInstance.create({
      workflowId: definition.id,
      entityType: 'client',
      entityId: client.id,
      steps: definition.steps,
      startedBy: requester.id,
    });
    expect(instance.startedAt).toBeInstanceOf(Date);
    expect(instance.get({ plain: true })).not.toHaveProperty('createdAt');
    await WorkflowStepRun.create({
      instanceId: instance.id,
      stepIndex: 0,
      stepName: 'Provjera FINA',
      stepType: 'automated',
    });
    await Task.create({
      title: 'KYC za Tok d.o.o.',
      type: 'kyc_verification',
      priority: 'high',
      assignedTo: manager.id,
      dueDate: new Date('2026-02-01T12:00:00Z'),
      entityType: 'client',
      entityId: client.id,
      workflowInstanceId: instance.id,
      workflowStep: 1,
    });

    const readInstance = await WorkflowInstance.findByPk(instance.id, {
      include: ['workflow', 'stepRuns', { association: 'tasks', include: ['assignee'] }],
      rejectOnEmpty: true,
    });
    expect(readInstance.workflow!.steps[1]).toEqual({ name: 'KYC', type: 'manual', taskType: 'kyc_verification' });
    expect(readInstance).toMatchObject({ status: 'running', currentStep: 0, context: {} });
    expect(readInstance.stepRuns!.map((run) => [run.status, run.attempt, run.startedAt instanceof Date])).toEqual([['running', 1, true]]);
    expect(readInstance.tasks![0].assignee!.email).toBe('luka@example.hr');
    expect(readInstance.tasks![0].dueDate).toEqual(new Date('2026-02-01T12:00:00Z'));

    const template = await EmailTemplate.create({
      name: 'Dobrodošlica',
      trigger: 'client_onboarding',
      subject: 'Dobrodošli u FinFlow',
      body: 'Poštovani {{client_name}},',
    });
    const campaign = await EmailCampaign.create({
      name: 'Siječanj',
      templateId: template.id,
      recipients: 'specific_clients',
      specificClientIds: [client.id],
    });
    await EmailLog.create({
      templateId: template.id,
      campaignId: campaign.id,
      clientId: client.id,
      recipient: 'info@tok.hr',
      subject: template.subject,
    });
    const log = await EmailLog.findOne({
      where: { campaignId: campaign.id },
      include: [{ association: 'campaign', include: ['template'] }, 'client'],
      rejectOnEmpty: true,
    });
    expect(log).toMatchObject({ status: 'queued', attempts: 0, links: [] });
    expect(log.trackingToken).toMatch(/^[0-9a-f]{64}$/);
    expect(log.campaign!.specificClientIds).toEqual([client.id]);
    expect(log.campaign!.template!.name).toBe('Dobrodošlica');
    expect(log.client!.companyName).toBe('Tok d.o.o.');

    const integration = await Integration.create({ name: 'FINA', type: 'fina' });
    await IntegrationLog.create({ integrationId: integration.id, operation: 'test', success: true, durationMs: 42 });
    const readIntegration = await Integration.findByPk(integration.id, { include: ['logs'], rejectOnEmpty: true });
    expect(readIntegration).toMatchObject({ status: 'inactive', mode: 'sandbox', isEnabled: true, errorCount: 0 });
    expect(readIntegration.logs!.map((each) => [each.operation, each.success, each.durationMs])).toEqual([['test', true, 42]]);

    await RiskAssessment.create({
      entityType: 'client',
      entityId: client.id,
      category: 'medium',
      score: 65,
      automaticScore: 60,
      manualAdjustment: 5,
      adjustedBy: manager.id,
      factors: { paymentHistory: 70, companyAge: { score: 50, years: 3 } },
    });
    const request = await CreditLimitRequest.create({
      clientId: client.id,
      requestedLimit: '75000.00',
      reason: 'Novi kupci',
      requestedBy: requester.id,
      validUntil: '2026-12-31',
    });
    await request.update({
      status: 'approved',
      approvedLimit: '75000.00',
      decidedBy: manager.id,
      decidedAt: new Date(),
    });
    const readClient = await Client.findByPk(client.id, {
      include: ['riskAssessments', { association: 'creditLimitRequests', include: ['requester', 'decider'] }],
      rejectOnEmpty: true,
    });
    expect(readClient.riskAssessments!.map((each) => [each.score, each.factors])).toEqual([[65, { paymentHistory: 70, companyAge: { score: 50, years: 3 } }]]);
    const [readRequest] = readClient.creditLimitRequests!;
    expect(readRequest).toMatchObject({ status: 'approved', approvedLimit: '75000.00', validUntil: '2026-12-31' });
    expect(readRequest.requestedAt).toBeInstanceOf(Date);
    expect([readRequest.requester!.email, readRequest.decider!.email]).toEqual(['petra@example.hr', 'luka@example.hr']);

    const session = await Session.create({
      id: 'a'.repeat(43),
      userId: requester.id,
      data: { totpPassed: true },
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    expect((await Session.findByPk(session.id, { include: ['user'], rejectOnEmpty: true })).user!.id).toBe(requester.id);
    const token = await UserToken.create({
      userId: requester.id,
      purpose: 'set_password',
      tokenHash: 'f'.repeat(64),
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    expect(token.get({ plain: true })).not.toHaveProperty('updatedAt');

    // Two beats of the same worker upsert one row.
    const startedAt = new Date('2026-01-01T08:00:00Z');
    for (const lastBeatAt of [new Date(), new Date()]) await WorkerHeartbeat.upsert({ workerId: 'worker-1', hostname: 'host', pid: 123, startedAt, lastBeatAt });
    const beats = await WorkerHeartbeat.findAll();
    expect(beats.map((beat) => [beat.workerId, beat.pid, beat.startedAt])).toEqual([['worker-1', 123, startedAt]]);
  });

  it('writes activity logs, which then cannot be changed or removed', async () => {
    const { ActivityLog, User } = models;
    const user = await User.create({ email: 'revizor@example.hr' });
    const log = await ActivityLog.create({
      action: 'client_created',
      entityType: 'client',
      entityId: user.id,
      userId: user.id,
      ipAddress: '192.0.2.10',
      details: { companyName: 'Tok d.o.o.' },
    });
    expect(log.createdAt).toBeInstanceOf(Date);
    expect(log.get({ plain: true })).not.toHaveProperty('updatedAt');

    const read = await ActivityLog.findByPk(log.id, { include: ['user'], rejectOnEmpty: true });
    expect(read.user!.email).toBe('revizor@example.hr');
    await expect(read.update({ action: 'client_deleted' })).rejects.toMatchObject({ parent: { code: '42501' } });
    await expect(read.destroy()).rejects.toMatchObject({ parent: { code: '42501' } });
  });
});
