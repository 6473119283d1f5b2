import { randomBytes } from 'node:crypto';
import { type Sequelize, type Transaction } from 'sequelize';
import { beforeAll, describe, expect, it } from 'vitest';
import { getSequelize } from './connection.ts';
import { ENUM_COLUMNS } from './models/enums.ts';

/**
 * The schema's own guarantees: each assertion here is the database refusing
 * bad data by itself, with no application code in the way.
 */

interface PgError {
  code: string;
  constraint?: string;
  message: string;
}

/** Runs `run`, expects the database to refuse it, and returns PostgreSQL's error. */
async function refused(run: () => Promise<unknown>): Promise<PgError> {
  try {
    await run();
  } catch (error) {
    // Sequelize wraps the driver's error; the SQLSTATE is on the original.
    const original = (error as { parent?: PgError }).parent;
    if (original?.code) return original;
    throw error;
  }
  throw new Error('expected the database to refuse this, but it was accepted');
}

describe('constraints', () => {
  let sequelize: Sequelize;
  let counter = 0;
  const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;
  /** 11 random digits; the schema checks the shape, the application the check digit. */
  const oib = () => Array.from(randomBytes(11), (byte) => byte % 10).join('');

  async function insert(table: string, values: Record<string, unknown>, transaction?: Transaction) {
    const columns = Object.keys(values);
    const [rows] = await sequelize.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING *`, {
      bind: Object.values(values),
      transaction,
    });
    return (rows as Array<Record<string, unknown>>)[0];
  }

  async function constraintDefinition(name: string) {
    const [rows] = await sequelize.query('SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = $1', {
      bind: [name],
    });
    return (rows as Array<{ def: string }>)[0]?.def ?? '';
  }

  // Rows the other rows refer to, committed once.
  const f = {} as Record<
    'userA' | 'userB' | 'client' | 'otherClient' | 'customer' | 'invoice' | 'template' | 'workflow' | 'instance' | 'agreement' | 'document' | 'notice' | 'link',
    string
  >;

  const clientRow = () => ({ company_name: `Klijent ${unique()} d.o.o.`, oib: oib() });
  const invoiceRow = () => ({
    client_id: f.client,
    customer_id: f.customer,
    invoice_number: `R-${unique()}`,
    amount: '100.00',
    issue_date: '2026-01-10',
    due_date: '2026-02-09',
  });

  /** A valid row of each table with an enum column, built so that only the column under test can fail. */
  const validRow: Record<string, () => Record<string, unknown>> = {
    users: () => ({ email: `u${unique()}@example.hr` }),
    user_tokens: () => ({
      user_id: f.userA,
      purpose: 'set_password',
      token_hash: unique(),
      expires_at: new Date(Date.now() + 86_400_000),
    }),
    clients: clientRow,
    customers: clientRow,
    documents: () => ({
      name: 'ugovor.pdf',
      type: 'contract',
      kyc_type: 'tax_certificate',
      mime_type: 'application/pdf',
      size: 1024,
      storage_key: `sha256/${unique()}`,
      checksum: 'a'.repeat(64),
      entity_type: 'client',
      entity_id: f.client,
      signature_required: true,
      signature_status: 'pending',
    }),
    invoices: invoiceRow,
    invoice_lines: () => ({
      invoice_id: f.invoice,
      line_number: counter++ + 1,
      description: 'Usluga',
      quantity: '1',
      unit_price: '100',
      net_amount: '100.00',
    }),
    risk_assessments: () => ({
      entity_type: 'client',
      entity_id: f.client,
      category: 'high',
      score: 50,
      automatic_score: 50,
    }),
    // decided_at set, so that a bad status breaks only the enum, not "decided rows carry when".
    credit_limit_requests: () => ({ client_id: f.client, requested_limit: '50000.00', reason: 'Novi ugovor', decided_at: new Date() }),
    // Confirmed, so that a bad status breaks only the enum, not "pending iff unprocessed".
    payments: () => ({ invoice_id: f.invoice, amount: '10.00', status: 'confirmed', processed_at: new Date() }),
    payouts: () => ({
      client_id: f.client,
      invoice_id: f.invoice,
      kind: 'advance',
      amount: '80.00',
      iban: 'HR1210010051863000160',
    }),
    workflow_definitions: () => ({
      name: 'Onboarding',
      type: 'client_onboarding',
      steps: JSON.stringify([{ name: 'KYC', type: 'manual' }]),
    }),
    workflow_instances: () => ({
      workflow_id: f.workflow,
      entity_type: 'client',
      entity_id: f.client,
      steps: JSON.stringify([{ name: 'KYC', type: 'manual' }]),
    }),
    workflow_step_runs: () => ({ instance_id: f.instance, step_index: 0, step_name: 'KYC', step_type: 'manual' }),
    tasks: () => ({ title: 'Provjera', type: 'manual_review', entity_type: 'client', entity_id: f.client }),
    email_templates: () => ({ name: 'Dobrodošlica', subject: 'Dobrodošli', body: 'Pozdrav {{client_name}}' }),
    email_campaigns: () => ({ name: 'Kampanja', template_id: f.template }),
    email_logs: () => ({ recipient: `r${unique()}@example.hr`, subject: 'Pozdrav' }),
    integrations: () => ({ name: 'FINA', type: 'fina' }),
    // Completed with its file, so that a bad status breaks only the enum.
    backups: () => ({ status: 'completed', file_name: 'finflow-backup.zip', size: 1024, sha256: 'c'.repeat(64), completed_at: new Date() }),
    // Sent, with its time and document id, so that a bad status breaks only the enum, not "sent iff sent_at and document_id".
    debtor_notices: () => ({ client_id: f.client, customer_id: f.customer, agreement_id: f.agreement, document_id: f.document, occasion: 'request' }),
    debtor_answers: () => ({ link_id: f.link, invoice_id: f.invoice, answer: 'confirmed', ip: '203.0.113.1' }),
    // Sent, so that a bad skip reason breaks only the enum, not "skipped iff it has a reason" (checked after it by name).
    dunning_notices: () => ({ invoice_id: f.invoice, level: (counter++ % 4) + 1, day: '2026-01-10', status: 'sent', open_amount: '100.00' }),
    invoice_disputes: () => ({ invoice_id: f.invoice, reason: 'Roba nije isporučena', source: 'staff', opened_by: f.userB, outcome: 'rejected', resolved_at: new Date() }),
    // Decided, with its reason, so that a bad status breaks only the enum, not "pending iff undecided".
    write_off_requests: () => ({ invoice_id: f.invoice, reason: 'Dužnik likvidiran', status: 'rejected', requested_by: f.userB, decided_at: new Date(), rejection_reason: 'Ne' }),
    outgoing_einvoices: () => {
      const sequence = counter++ + 1;
      return {
        number: `FF-2026-${String(sequence).padStart(6, '0')}`,
        year: 2026,
        sequence,
        invoice_id: f.invoice,
        client_id: f.client,
        issued_at: new Date(),
        issue_date: '2026-01-10',
        due_date: '2026-01-25',
        net_amount: '10.00',
        vat_rate: '25.00',
        vat_amount: '2.50',
        gross_amount: '12.50',
        payment_reference: `HR00 2026-${sequence}`,
        ubl_xml: '<Invoice/>',
        ubl_sha256: 'a'.repeat(64),
        status: 'sent',
        document_id: `EINV-${sequence}`,
        sent_at: new Date(),
      };
    },
    // Failed with its reason, so that a bad status breaks only the enum.
    incoming_einvoices: () => ({
      document_id: `EINV-${unique()}`,
      received_at: new Date(),
      xml: '<Invoice/>',
      xml_sha256: 'b'.repeat(64),
      status: 'failed',
      error: 'Seller is not a client',
    }),
    // Spent, so that a bad reason breaks only the enum, not "spent iff it has a reason".
    kyc_document_requests: () => ({
      client_id: f.client,
      token_hash: randomBytes(32).toString('hex'),
      message: 'Molimo izvadak iz sudskog registra',
      expires_at: new Date(Date.now() + 86_400_000),
      spent_at: new Date(),
      spent_reason: 'superseded',
    }),
    agreements: () => ({
      client_id: f.client,
      number: `UF-${unique()}`,
      version: counter++ + 1,
      effective_from: '2026-01-01',
      valid_from: '2026-01-01',
      advance_rate: '80.00',
      fee_model: 'discount_30',
      fee_rate: '1.5000',
      recourse_days: 60,
      max_tenor_days: 120,
    }),
    credit_notes: () => ({
      invoice_id: f.invoice,
      number: `CN-${unique()}`,
      issue_date: '2026-01-20',
      amount: '1.00',
      reason: 'Povrat robe',
      source: 'manual',
      booked_on: '2026-01-20',
    }),
    client_ledger: () => ({ client_id: f.client, booked_on: '2026-01-10', kind: 'advance', amount: '80.00', invoice_id: f.invoice, description: 'R-1' }),
    // Decided, so that a bad status breaks only the enum.
    ledger_adjustments: () => ({ client_id: f.client, amount: '-5.00', reason: 'Ispravak', decided_at: new Date(), rejection_reason: 'Ne' }),
    open_book_totals: () => ({ scope: 'client', party_id: f.client, period: 'month', period_start: '2026-01-01', open_cents: 100, invoices: 1 }),
    open_book_deltas: () => ({ scope: 'client', party_id: f.client, period: 'month', period_start: '2026-01-01', open_cents: 100, invoices: 1 }),
  };

  /** A plausible wrong value for every enum column. */
  const BAD_ENUM_VALUES: Array<[table: string, column: string, bad: string]> = [
    ['users', 'role', 'root'],
    ['user_tokens', 'purpose', 'login'],
    ['clients', 'status', 'Active'],
    ['clients', 'risk_category', 'critical'],
    ['clients', 'onboarding_status', 'done'],
    ['customers', 'risk_category', 'unknown'],
    ['documents', 'type', 'pdf'],
    ['documents', 'kyc_type', 'passport'],
    ['documents', 'entity_type', 'payment'],
    ['documents', 'signature_status', 'unsigned'],
    ['invoices', 'status', 'cancelled'],
    ['invoices', 'verification_status', 'ok'],
    ['invoices', 'source', 'email'],
    ['invoice_lines', 'vat_category', 'X'],
    ['risk_assessments', 'entity_type', 'invoice'],
    ['risk_assessments', 'category', 'extreme'],
    ['credit_limit_requests', 'status', 'accepted'],
    ['payments', 'payment_method', 'paypal'],
    ['payments', 'status', 'done'],
    ['payments', 'source', 'import'],
    ['payouts', 'kind', 'fee'],
    ['payouts', 'status', 'sent'],
    ['workflow_definitions', 'type', 'custom'],
    ['workflow_instances', 'status', 'stopped'],
    ['workflow_instances', 'entity_type', 'user'],
    ['workflow_instances', 'start_event', 'invoice_paid'],
    ['workflow_step_runs', 'step_type', 'auto'],
    ['workflow_step_runs', 'status', 'pending'],
    ['tasks', 'type', 'call'],
    ['tasks', 'priority', 'critical'],
    ['tasks', 'status', 'done'],
    ['tasks', 'entity_type', 'user'],
    ['email_templates', 'trigger', 'weekly'],
    ['email_campaigns', 'recipients', 'everyone'],
    ['email_campaigns', 'status', 'paused'],
    ['email_logs', 'status', 'bounced'],
    ['integrations', 'type', 'stripe'],
    // Monitoring shows 'online'; it is a display state, never stored.
    ['integrations', 'status', 'online'],
    ['integrations', 'mode', 'production'],
    ['backups', 'status', 'done'],
    ['outgoing_einvoices', 'status', 'queued'],
    ['incoming_einvoices', 'status', 'pending'],
    ['kyc_document_requests', 'spent_reason', 'used'],
    ['agreements', 'fee_model', 'interest_366'],
    ['agreements', 'signature_status', 'pending'],
    ['client_ledger', 'kind', 'payout'],
    ['ledger_adjustments', 'status', 'done'],
    ['outgoing_einvoices', 'purpose', 'penalty'],
    ['outgoing_einvoices', 'type_code', '384'],
    ['invoice_disputes', 'source', 'client'],
    ['invoice_disputes', 'outcome', 'settled'],
    ['dunning_notices', 'status', 'bounced'],
    ['dunning_notices', 'skip_reason', 'lost'],
    ['write_off_requests', 'status', 'done'],
    ['credit_notes', 'source', 'refund'],
    ['debtor_notices', 'occasion', 'reminder'],
    ['debtor_answers', 'answer', 'maybe'],
    ['open_book_totals', 'scope', 'seller'],
    ['open_book_totals', 'period', 'day'],
    ['open_book_deltas', 'scope', 'debtor'],
    ['open_book_deltas', 'period', 'quarter'],
  ];

  beforeAll(async () => {
    sequelize = getSequelize();
    f.userA = (await insert('users', { email: 'ana@example.hr', role: 'user' })).id as string;
    f.userB = (await insert('users', { email: 'marko@example.hr', role: 'manager' })).id as string;
    f.client = (await insert('clients', clientRow())).id as string;
    f.otherClient = (await insert('clients', clientRow())).id as string;
    f.customer = (await insert('customers', clientRow())).id as string;
    f.invoice = (await insert('invoices', invoiceRow())).id as string;
    f.template = (await insert('email_templates', validRow.email_templates())).id as string;
    f.workflow = (await insert('workflow_definitions', validRow.workflow_definitions())).id as string;
    f.instance = (await insert('workflow_instances', validRow.workflow_instances())).id as string;
    // The debtor's side needs a notice (an agreement version and a document) and a link to answer through.
    f.agreement = (await insert('agreements', validRow.agreements())).id as string;
    f.document = (await insert('documents', validRow.documents())).id as string;
    f.notice = (await insert('debtor_notices', validRow.debtor_notices())).id as string;
    f.link = (
      await insert('debtor_links', { client_id: f.client, customer_id: f.customer, notice_id: f.notice, token_hash: 'b'.repeat(64), expires_at: new Date(Date.now() + 86_400_000) })
    ).id as string;
  });

  async function inRolledBackTransaction<T>(run: (transaction: Transaction) => Promise<T>) {
    const transaction = await sequelize.transaction();
    try {
      return await run(transaction);
    } finally {
      await transaction.rollback();
    }
  }

  describe('enum columns', () => {
    it('covers every enum column of the schema, with the same values as the TypeScript lists', async () => {
      // Every CHECK (column IN (...)) in the database, read back from the catalogue.
      const [rows] = await sequelize.query(`
        SELECT c.conrelid::regclass::text AS table, a.attname AS column, pg_get_constraintdef(c.oid) AS def
        FROM pg_constraint c
        JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
        WHERE c.contype = 'c' AND cardinality(c.conkey) = 1 AND pg_get_constraintdef(c.oid) LIKE '%= ANY (ARRAY[%'
        ORDER BY 1, 2`);
      const inDatabase = (rows as Array<{ table: string; column: string; def: string }>).map(({ table, column, def }) => [
        table,
        column,
        [...def.matchAll(/'([^']*)'::text/g)].map((match) => match[1]),
      ]);
      const key = ([table, column]: readonly [string, string, ...unknown[]]) => `${table}.${column}`;
      const byKey = (list: ReadonlyArray<readonly [string, string, readonly string[]]>) => Object.fromEntries(list.map((entry) => [key(entry), [...entry[2]]]));

      expect(byKey(ENUM_COLUMNS)).toEqual(byKey(inDatabase as Array<[string, string, string[]]>));
      expect(BAD_ENUM_VALUES.map(key).sort()).toEqual(ENUM_COLUMNS.map(key).sort());
    });

    it.each(BAD_ENUM_VALUES)('%s.%s refuses %j', async (table, column, bad) => {
      // The same row is accepted with a valid value ...
      await inRolledBackTransaction((transaction) => insert(table, validRow[table](), transaction));
      // ... and refused by that column's own CHECK with the bad one.
      const error = await inRolledBackTransaction((transaction) => refused(() => insert(table, { ...validRow[table](), [column]: bad }, transaction)));
      expect(error).toMatchObject({ code: '23514', constraint: `${table}_${column}_check` });
    });
  });

  describe('identity of companies and invoices', () => {
    it('refuses a second client with the same OIB', async () => {
      const row = clientRow();
      await insert('clients', row);
      expect(await refused(() => insert('clients', { ...clientRow(), oib: row.oib }))).toMatchObject({
        code: '23505',
        constraint: 'clients_oib_key',
      });
    });

    it('refuses a second customer with the same OIB, but a company may be both client and customer', async () => {
      const row = clientRow();
      await insert('customers', row);
      expect(await refused(() => insert('customers', { ...clientRow(), oib: row.oib }))).toMatchObject({
        code: '23505',
        constraint: 'customers_oib_key',
      });
      await insert('clients', { ...clientRow(), oib: row.oib });
    });

    it.each(['12345', '1234567890', '1234567890A', 'ABCDEFGHIJK', '123 4567890'])('refuses the malformed OIB %j', async (bad) => {
      for (const table of ['clients', 'customers']) {
        expect(await refused(() => insert(table, { ...clientRow(), oib: bad }))).toMatchObject({
          code: '23514',
          constraint: `${table}_oib_check`,
        });
      }
    });

    it('refuses an OIB longer than 11 characters', async () => {
      // char(11) refuses it before the CHECK sees it.
      expect(await refused(() => insert('clients', { ...clientRow(), oib: '123456789012' }))).toMatchObject({
        code: '22001',
      });
    });

    it('refuses a duplicate invoice number for the same client, not for another client', async () => {
      const first = await insert('invoices', invoiceRow());
      expect(await refused(() => insert('invoices', { ...invoiceRow(), invoice_number: first.invoice_number }))).toMatchObject({
        code: '23505',
        constraint: 'invoices_client_number_key',
      });
      const other = await insert('invoices', {
        ...invoiceRow(),
        client_id: f.otherClient,
        invoice_number: first.invoice_number,
      });
      expect(other.invoice_number).toBe(first.invoice_number);
    });
  });

  describe('money', () => {
    async function storedAmount(amount: unknown) {
      const row = await insert('invoices', { ...invoiceRow(), amount });
      const [rows] = await sequelize.query('SELECT amount FROM invoices WHERE id = $1', { bind: [row.id] });
      return (rows as Array<{ amount: unknown }>)[0].amount;
    }

    it('stores amounts as exact decimals and returns them as strings', async () => {
      // A float 0.30000000000000004 is stored as the cent amount it means.
      expect(await storedAmount(0.1 + 0.2)).toBe('0.30');
      expect(await storedAmount('1234567890123.45')).toBe('1234567890123.45');
      expect(await storedAmount('9999999999999.99')).toBe('9999999999999.99');
      // 2.675 is 2.67499999... as a float; as a decimal it rounds half up.
      expect(await storedAmount('2.675')).toBe('2.68');
    });

    it('adds exactly in SQL', async () => {
      const [rows] = await sequelize.query(
        `SELECT 0.1::numeric(15, 2) + 0.2::numeric(15, 2) AS three,
                (SELECT sum(x) FROM (SELECT 0.10::numeric(15, 2) AS x FROM generate_series(1, 10)) t) AS ten`,
      );
      expect(rows).toEqual([{ three: '0.30', ten: '1.00' }]);
    });

    it('refuses amounts beyond NUMERIC(15,2)', async () => {
      expect(await refused(() => storedAmount('10000000000000.00'))).toMatchObject({ code: '22003' });
    });

    it('refuses a zero or negative invoice amount', async () => {
      for (const amount of ['0.00', '-5.00']) {
        expect(await refused(() => storedAmount(amount))).toMatchObject({
          code: '23514',
          constraint: 'invoices_amount_check',
        });
      }
    });
  });

  describe('row rules', () => {
    it('refuses a due date before the issue date', async () => {
      const error = await refused(() => insert('invoices', { ...invoiceRow(), issue_date: '2026-03-01', due_date: '2026-02-28' }));
      expect(error.code).toBe('23514');
      expect(await constraintDefinition(error.constraint!)).toContain('due_date >= issue_date');
      // The same day is fine (payable on issue).
      await insert('invoices', { ...invoiceRow(), issue_date: '2026-03-01', due_date: '2026-03-01' });
    });

    it('refuses a credit-limit request decided by its requester (four eyes)', async () => {
      const request = await insert('credit_limit_requests', {
        client_id: f.client,
        requested_limit: '75000.00',
        reason: 'Povećanje prometa',
        requested_by: f.userA,
      });
      const decide = (by: string) =>
        sequelize.query(
          `UPDATE credit_limit_requests
           SET status = 'approved', approved_limit = requested_limit, decided_by = $2, decided_at = now()
           WHERE id = $1`,
          { bind: [request.id, by] },
        );
      const error = await refused(() => decide(f.userA));
      expect(error.code).toBe('23514');
      expect(await constraintDefinition(error.constraint!)).toContain('decided_by <> requested_by');
      await decide(f.userB);
    });
  });

  describe('activity log', () => {
    it('is append-only: UPDATE and DELETE are refused', async () => {
      const row = await insert('activity_logs', {
        action: 'client_created',
        entity_type: 'client',
        entity_id: f.client,
        user_id: f.userA,
        details: JSON.stringify({ companyName: 'Klijent d.o.o.' }),
      });
      for (const sql of [`UPDATE activity_logs SET action = 'client_deleted' WHERE id = $1`, 'DELETE FROM activity_logs WHERE id = $1']) {
        const error = await refused(() => sequelize.query(sql, { bind: [row.id] }));
        expect(error.code).toBe('42501');
        expect(error.message).toContain('append-only');
      }
      const [rows] = await sequelize.query('SELECT action FROM activity_logs WHERE id = $1', { bind: [row.id] });
      expect(rows).toEqual([{ action: 'client_created' }]);
    });
  });

  describe('updated_at', () => {
    it('is set by the database on every update, whatever the statement says', async () => {
      const longAgo = new Date('2001-01-01T00:00:00Z');
      const row = await insert('clients', { ...clientRow(), updated_at: longAgo });
      expect(row.updated_at).toEqual(longAgo);

      await sequelize.query(`UPDATE clients SET city = 'Split' WHERE id = $1`, { bind: [row.id] });
      const [[afterCity]] = (await sequelize.query('SELECT updated_at FROM clients WHERE id = $1', {
        bind: [row.id],
      })) as [Array<{ updated_at: Date }>, unknown];
      expect(afterCity.updated_at.getTime()).toBeGreaterThan(Date.now() - 60_000);

      // Even an explicit old value is overwritten.
      await sequelize.query('UPDATE clients SET updated_at = $2 WHERE id = $1', { bind: [row.id, longAgo] });
      const [[afterExplicit]] = (await sequelize.query('SELECT updated_at FROM clients WHERE id = $1', {
        bind: [row.id],
      })) as [Array<{ updated_at: Date }>, unknown];
      expect(afterExplicit.updated_at.getTime()).toBeGreaterThan(longAgo.getTime());
    });

    it('has its trigger on every table with an updated_at column', async () => {
      const [rows] = await sequelize.query(`
        SELECT c.table_name AS table, t.tgname AS trigger
        FROM information_schema.columns c
        LEFT JOIN pg_trigger t ON t.tgrelid = c.table_name::regclass AND t.tgfoid = 'set_updated_at'::regproc
        WHERE c.table_schema = 'public' AND c.column_name = 'updated_at'
        ORDER BY 1`);
      const missing = (rows as Array<{ table: string; trigger: string | null }>).filter((row) => !row.trigger);
      expect(missing).toEqual([]);
      expect(rows.length).toBeGreaterThanOrEqual(17);
    });
  });

  describe('search indexes', () => {
    it('files every GIN entry at once (fastupdate off), so a search never scans a pending list', async () => {
      const [rows] = await sequelize.query(`
        SELECT c.relname AS index, coalesce(c.reloptions, '{}') AS options
        FROM pg_class c JOIN pg_am a ON a.oid = c.relam JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind = 'i' AND a.amname = 'gin' AND n.nspname = 'public'
        ORDER BY 1`);
      const indexes = rows as Array<{ index: string; options: string[] }>;
      expect(indexes.filter((row) => !row.options.includes('fastupdate=off'))).toEqual([]);
      expect(indexes.map((row) => row.index)).toEqual(expect.arrayContaining(['invoices_description_trgm_idx', 'invoices_number_grams_idx', 'clients_company_name_trgm_idx']));
    });

    it('asks the number index for the pieces that cover a long term, and for a prefix of a short one', async () => {
      const [rows] = await sequelize.query(`
        SELECT term, invoice_number_fragment(term)::text AS query
        FROM unnest(ARRAY['0042', 'R-2025', 'R-2025-', 'R-2025-000', 'R-2025-0004213', 'a''b\\c-d''e', 'abcdefghijklm']) AS term`);
      expect(Object.fromEntries((rows as Array<{ term: string; query: string }>).map((row) => [row.term, row.query]))).toEqual({
        '0042': "'0042':*",
        'R-2025': "'r-2025':*",
        'R-2025-': "'r-2025' & '-2025-'",
        'R-2025-000': "'r-2025' & '25-000'",
        'R-2025-0004213': "'r-2025' & '-00042' & '004213'",
        "a'b\\c-d'e": "'a''b\\\\c-' & '\\\\c-d''e'",
        abcdefghijklm: "'abcdef' & 'ghijkl' & 'hijklm'",
      });
    });
  });
});
