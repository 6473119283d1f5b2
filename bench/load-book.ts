import type { Sequelize } from 'sequelize';
import { hashPassword } from '../app/auth/password.server.ts';
import { LEDGER_BACKFILL_STATEMENTS } from '../db/ledger-backfill.ts';
import { SQL_BUSINESS_TODAY } from '../app/utils/business-time.ts';

/**
 * A large, realistic factoring book generated inside PostgreSQL
 * (INSERT … SELECT over generate_series), so a million invoices load in
 * minutes: valid OIBs (ISO 7064 MOD 11,10) and HR IBANs (MOD-97) computed in
 * SQL, every row consistent with the schema's CHECKs (financed and paid
 * invoices carry their advance and fee, paid ones their payments, …).
 * `scale` 1 is the issue's book: 10,000 clients, 50,000 customers,
 * 1,000,000 invoices over three years, 500,000 payments, 100,000 activity
 * rows, 50,000 tasks (plus 50,000 email logs for the logs list), and the
 * clients' ledgers those invoices and payments imply.
 */
export const BENCH_USER = { email: 'bench@finflow.local', password: 'Bench-password-2026' };

export interface BookSize {
  clients: number;
  customers: number;
  invoices: number;
  payments: number;
  activity: number;
  tasks: number;
  emailLogs: number;
}

export function bookSize(scale: number): BookSize {
  const n = (value: number) => Math.max(10, Math.round(value * scale));
  return {
    clients: n(10_000),
    customers: n(50_000),
    invoices: n(1_000_000),
    payments: n(500_000),
    activity: n(100_000),
    tasks: n(50_000),
    emailLogs: n(50_000),
  };
}

const FUNCTIONS = /* sql */ `
  CREATE OR REPLACE FUNCTION pg_temp.oib(n bigint) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
  DECLARE digits text := lpad((n % 10000000000)::text, 10, '0'); a int := 10; d int;
  BEGIN
    FOR i IN 1..10 LOOP
      d := substr(digits, i, 1)::int;
      a := (a + d) % 10; IF a = 0 THEN a := 10; END IF;
      a := (a * 2) % 11;
    END LOOP;
    RETURN digits || ((11 - a) % 10)::text;
  END $$;
  CREATE OR REPLACE FUNCTION pg_temp.hr_iban(n bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    -- bank 2340009 (PBZ); HR = 17 27; check digits = 98 - (BBAN || 'HR00') mod 97
    SELECT 'HR' || lpad((98 - (('2340009' || lpad((n % 10000000000)::text, 10, '0') || '172700')::numeric % 97))::text, 2, '0')
           || '2340009' || lpad((n % 10000000000)::text, 10, '0')
  $$;
`;

const CITIES = `ARRAY['Zagreb','Split','Rijeka','Osijek','Zadar','Pula','Varaždin','Slavonski Brod','Karlovac','Šibenik']`;
const POSTAL = `ARRAY['10000','21000','51000','31000','23000','52100','42000','35000','47000','22000']`;
const WORDS = `ARRAY['Jadran','Sava','Drava','Dalmacija','Istra','Panonija','Velebit','Kvarner','Zagorje','Slavonija','Lika','Neretva']`;
const TRADES = `ARRAY['Logistika','Trgovina','Gradnja','Prehrana','Tekstil','Metal','Drvo','Energija','Informatika','Turizam']`;

/**
 * As the daily overdue reassessment (app/risk/overdue.server.ts) would have left a live book: every
 * financed invoice already past due carries its `invoice_overdue` mark. A generated book has none, and
 * the job, run at its morning hour during a measurement, would reassess every party of the book at once
 * beside the targets. Idempotent: also run on a kept book, which may have aged a day since.
 */
export async function markOverdueHandled(sequelize: Sequelize, log: (line: string) => void) {
  const started = Date.now();
  const [rows] = (await sequelize.query(
    `WITH marked AS (
       INSERT INTO activity_logs (action, entity_type, entity_id, user_id, details)
       SELECT 'invoice_overdue', 'invoice', i.id, NULL, jsonb_build_object('invoiceNumber', i.invoice_number, 'dueDate', i.due_date::text)
         FROM invoices i
        WHERE i.status = 'financed' AND i.due_date < ${SQL_BUSINESS_TODAY}
          AND NOT EXISTS (SELECT 1 FROM activity_logs a WHERE a.action = 'invoice_overdue' AND a.entity_type = 'invoice' AND a.entity_id = i.id)
       RETURNING 1)
     SELECT count(*)::int AS n FROM marked`,
  )) as [Array<{ n: number }>, unknown];
  const marked = rows[0].n;
  log(`overdue invoices marked as handled: ${marked} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

/**
 * A kept book's maintained totals as the hourly housekeeping keeps them
 * (worker/jobs/housekeeping.ts): every run's money writes add delta rows,
 * which a live installation folds each hour but a book kept between bench runs
 * would pile up (4,006 status deltas after a week of runs, read by every list
 * and the dashboard, the baseline's list too). The same SQL functions, then a
 * vacuum of those tables, as autovacuum would leave them: every `compact_…()`
 * fold and every `…_deltas` table the migrations made, read from the catalogue,
 * so a new maintained total is folded here without being listed twice.
 */
export async function foldMaintainedTotals(sequelize: Sequelize, log: (line: string) => void) {
  const started = Date.now();
  const [folds] = (await sequelize.query(
    `SELECT p.proname AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = current_schema() AND p.proname LIKE 'compact\\_%' AND p.pronargs = 0 ORDER BY p.proname`,
  )) as [Array<{ name: string }>, unknown];
  for (const { name } of folds) await sequelize.query(`SELECT ${name}()`);
  const [tables] = (await sequelize.query(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname LIKE '%\\_deltas' ORDER BY c.relname`,
  )) as [Array<{ name: string }>, unknown];
  await sequelize.query(`VACUUM (ANALYZE) ${tables.map(({ name }) => name).join(', ')}`);
  log(`maintained totals folded as the hourly housekeeping does (${folds.length} folds, ${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

export async function loadBook(sequelize: Sequelize, size: BookSize, log: (line: string) => void) {
  const run = async (label: string, sql: string, replacements: Record<string, unknown> = {}) => {
    const started = Date.now();
    await sequelize.query(sql, { replacements });
    log(`  ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  };
  // One session for the temporary functions.
  await sequelize.transaction(async (transaction) => {
    const q = (sql: string, replacements: Record<string, unknown> = {}) => sequelize.query(sql, { transaction, replacements });
    const step = async (label: string, sql: string, replacements: Record<string, unknown> = {}) => {
      const started = Date.now();
      await q(sql, replacements);
      log(`  ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    };
    await q(FUNCTIONS);
    await q(`SET LOCAL synchronous_commit = off`);

    await step(
      `${size.clients} clients`,
      `INSERT INTO clients (company_name, oib, address, city, postal_code, contact_person, email, phone, iban, registration_number,
                            status, risk_category, risk_score, credit_limit, founded_on, created_at)
       SELECT (${WORDS})[1 + g % 12] || ' ' || (${TRADES})[1 + (g / 12) % 10] || ' ' || g || ' d.o.o.',
              pg_temp.oib(1000000000 + g), 'Ulica ' || (g % 200 + 1), (${CITIES})[1 + g % 10], (${POSTAL})[1 + g % 10],
              'Kontakt ' || g, 'klijent' || g || '@primjer.hr', '+385 1 ' || lpad((g % 10000000)::text, 7, '0'),
              pg_temp.hr_iban(g), 'MBS' || g,
              (ARRAY['active','active','active','active','active','active','active','active','pending','inactive'])[1 + g % 10],
              CASE WHEN g % 10 < 6 THEN 'low' WHEN g % 10 < 9 THEN 'medium' ELSE 'high' END,
              CASE WHEN g % 10 < 6 THEN 80 + g % 21 WHEN g % 10 < 9 THEN 60 + g % 20 ELSE 20 + g % 40 END,
              (200000 + (g % 50) * 20000)::numeric(15,2),
              date '1995-01-01' + (g % 9000), now() - make_interval(days => (g % 1095))
         FROM generate_series(1, :n) g`,
      { n: size.clients },
    );
    // Every client but the applicants has its agreement signed: 80 % advance, discount 1.5 % per 30 days (docs/money.md#the-agreement).
    await step(
      'agreements',
      `INSERT INTO agreements (client_id, number, version, effective_from, valid_from, advance_rate, fee_model, fee_rate, recourse, recourse_days,
                               max_tenor_days, signature_status, signed_on)
       SELECT id, 'UF-B-' || lpad(row_number() OVER (ORDER BY id)::text, 7, '0'), 1, date '2020-01-01', date '2020-01-01', 80.00, 'discount_30',
              1.5, true, 60, 180, 'signed', date '2020-01-01'
         FROM clients WHERE status <> 'pending'`,
    );
    await step(
      `${size.customers} customers`,
      `INSERT INTO customers (company_name, oib, address, city, postal_code, email, iban, account_blocked, blockage_reason,
                              risk_category, risk_score, founded_on, created_at)
       SELECT (${WORDS})[1 + g % 12] || ' Kupac ' || g || ' d.d.', pg_temp.oib(2000000000 + g), 'Cesta ' || (g % 300 + 1),
              (${CITIES})[1 + g % 10], (${POSTAL})[1 + g % 10], 'kupac' || g || '@primjer.hr', pg_temp.hr_iban(5000000000 + g),
              g % 97 = 0, CASE WHEN g % 97 = 0 THEN 'Blokada računa (FINA)' END,
              CASE WHEN g % 97 = 0 THEN 'high' WHEN g % 10 < 7 THEN 'low' ELSE 'medium' END,
              CASE WHEN g % 97 = 0 THEN 40 WHEN g % 10 < 7 THEN 85 ELSE 70 END,
              date '1990-01-01' + (g % 10000), now() - make_interval(days => (g % 1095))
         FROM generate_series(1, :n) g`,
      { n: size.customers },
    );
    await q(`CREATE TEMP TABLE bench_clients ON COMMIT DROP AS SELECT row_number() OVER (ORDER BY id) AS k, id FROM clients`);
    await q(`CREATE TEMP TABLE bench_customers ON COMMIT DROP AS SELECT row_number() OVER (ORDER BY id) AS k, id FROM customers WHERE NOT account_blocked`);
    await q(`CREATE INDEX ON bench_clients (k); CREATE INDEX ON bench_customers (k); ANALYZE bench_clients; ANALYZE bench_customers`);

    // Status by position: 10 % pending, 10 % verified, 10 % approved, 5 % rejected, 25 % financed, 40 % paid.
    await step(
      `${size.invoices} invoices`,
      `WITH src AS (
         SELECT g, (SELECT count(*) FROM bench_clients) AS nc, (SELECT count(*) FROM bench_customers) AS nu,
                CASE WHEN g % 20 < 2 THEN 'pending' WHEN g % 20 < 4 THEN 'verified' WHEN g % 20 < 6 THEN 'approved'
                     WHEN g % 20 < 7 THEN 'rejected' WHEN g % 20 < 12 THEN 'financed' ELSE 'paid' END AS status,
                ((g::bigint * 7919) % 9900000 + 10000)::numeric / 100 AS amount,
                date '2023-11-22' + (g % 1095) AS issue_date
           FROM generate_series(1, :n) g)
       INSERT INTO invoices (client_id, customer_id, invoice_number, status, verification_status, amount, issue_date, due_date,
                             description, factor_amount, factor_fee, paid_amount, verified_at, approved_at, financed_at,
                             rejected_at, rejection_reason, paid_at, created_at)
       SELECT c.id, u.id, 'R-' || extract(year FROM issue_date) || '-' || lpad(g::text, 7, '0'), status,
              CASE WHEN status = 'pending' OR status = 'rejected' THEN 'pending' ELSE 'verified' END,
              amount, issue_date, issue_date + 30 + (g % 60),
              (ARRAY['Isporuka robe','Usluge prijevoza','Građevinski radovi','Održavanje','Konzultantske usluge'])[1 + g % 5] || ' ' || g,
              CASE WHEN status IN ('financed','paid') THEN round(amount * 0.8, 2) END,
              CASE WHEN status IN ('financed','paid') THEN round(amount * 0.03, 2) END,
              CASE WHEN status = 'paid' THEN amount ELSE 0 END,
              CASE WHEN status NOT IN ('pending','rejected') THEN issue_date + time '10:00' END,
              CASE WHEN status IN ('approved','financed','paid') THEN issue_date + time '12:00' END,
              CASE WHEN status IN ('financed','paid') THEN issue_date + time '14:00' END,
              CASE WHEN status = 'rejected' THEN issue_date + time '11:00' END,
              CASE WHEN status = 'rejected' THEN 'Nepotpuna dokumentacija' END,
              CASE WHEN status = 'paid' THEN issue_date + 40 + time '09:00' END,
              issue_date + make_interval(secs => g % 36000)
         FROM src
         JOIN bench_clients c ON c.k = 1 + g % nc
         JOIN bench_customers u ON u.k = 1 + (g::bigint * 31) % nu`,
      { n: size.invoices },
    );
    await step(
      `${size.payments} payments`,
      `INSERT INTO payments (invoice_id, amount, status, reference, processed_at, created_at)
       SELECT i.id, CASE WHEN i.status = 'paid' THEN i.amount ELSE round(i.amount / 2, 2) END,
              CASE WHEN i.status = 'paid' THEN 'confirmed' WHEN row_number() OVER () % 10 = 0 THEN 'failed' ELSE 'pending' END,
              'HR00 ' || i.invoice_number,
              CASE WHEN i.status = 'paid' OR row_number() OVER () % 10 = 0 THEN i.issue_date + 41 END,
              i.issue_date + 40
         FROM (SELECT id, status, amount, invoice_number, issue_date FROM invoices WHERE status IN ('financed','paid') LIMIT :n) i`,
      { n: size.payments },
    );
    // The clients' ledgers the book implies, one set-based INSERT … SELECT per kind, then used credit and debtor
    // exposure as their ledger sums (db/ledger-backfill.ts).
    for (const { label, sql } of LEDGER_BACKFILL_STATEMENTS) await step(label, sql);
    const [users] = (await q(
      `INSERT INTO users (email, first_name, last_name, role, password_hash, otp_enabled)
       VALUES (:email, 'Bench', 'Runner', 'manager', :hash, false) RETURNING id`,
      { email: BENCH_USER.email, hash: await hashPassword(BENCH_USER.password) },
    )) as [Array<{ id: string }>, unknown];
    const benchUserId = users[0].id;
    await q(`CREATE TEMP TABLE bench_invoices ON COMMIT DROP AS
               SELECT row_number() OVER (ORDER BY id) AS k, id, invoice_number, created_at FROM invoices`);
    await q(`CREATE INDEX ON bench_invoices (k); ANALYZE bench_invoices`);
    const invoiceActivity = Math.floor(size.activity / 2);
    await step(
      `${size.activity} activity rows`,
      `INSERT INTO activity_logs (action, entity_type, entity_id, user_id, details, created_at)
       SELECT (ARRAY['invoice_created','invoice_verified','invoice_approved','invoice_financed','payment_confirmed'])[1 + g % 5],
              'invoice', i.id, CAST(:user AS uuid), jsonb_build_object('invoiceNumber', i.invoice_number), i.created_at
         FROM generate_series(1, :n) g
         JOIN bench_invoices i ON i.k = 1 + (g::bigint * 13) % (SELECT count(*) FROM bench_invoices)
       UNION ALL
       SELECT (ARRAY['client_updated','customer_updated','task_updated','document_uploaded'])[1 + g % 4],
              'client', c.id, CAST(:user AS uuid), '{}'::jsonb, now() - make_interval(mins => g)
         FROM generate_series(1, :rest) g JOIN bench_clients c ON c.k = 1 + g % (SELECT count(*) FROM bench_clients)`,
      { n: invoiceActivity, rest: size.activity - invoiceActivity, user: benchUserId },
    );
    await step(
      `${size.tasks} tasks`,
      `INSERT INTO tasks (title, type, priority, status, assigned_to, due_date, entity_type, entity_id, completed_at, created_at)
       SELECT 'Provjera ' || g,
              (ARRAY['kyc_verification','risk_assessment','manual_review','document_review','customer_contact','limit_approval'])[1 + g % 6],
              (ARRAY['urgent','high','medium','low'])[1 + g % 4],
              (ARRAY['pending','in_progress','completed','cancelled'])[1 + g % 4],
              CASE WHEN g % 3 = 0 THEN CAST(:user AS uuid) END, now() + make_interval(days => (g % 60) - 30),
              'client', c.id, CASE WHEN g % 4 = 2 THEN now() - make_interval(days => g % 30) END,
              now() - make_interval(hours => g)
         FROM generate_series(1, :n) g JOIN bench_clients c ON c.k = 1 + g % (SELECT count(*) FROM bench_clients)`,
      { n: size.tasks, user: benchUserId },
    );
    await q(
      `INSERT INTO email_templates (name, trigger, subject, body, is_active)
       VALUES ('Bench obavijest', 'manual', 'Obavijest za {{company_name}}', 'Poštovani {{client_name}},\nobavijest.', true)`,
    );
    await step(
      `${size.emailLogs} email logs`,
      `INSERT INTO email_logs (template_id, client_id, recipient, subject, status, sent_at, opened_at, created_at)
       SELECT t.id, c.id, 'klijent' || g || '@primjer.hr', 'Obavijest ' || g,
              (ARRAY['sent','delivered','opened','clicked','failed'])[1 + g % 5],
              now() - make_interval(mins => g), CASE WHEN g % 5 IN (2,3) THEN now() - make_interval(mins => g - 1) END,
              now() - make_interval(mins => g)
         FROM generate_series(1, :n) g
         CROSS JOIN (SELECT id FROM email_templates LIMIT 1) t
         JOIN bench_clients c ON c.k = 1 + g % (SELECT count(*) FROM bench_clients)`,
      { n: size.emailLogs },
    );
  });
  // As the hourly housekeeping would have left a live database: the open book's deltas folded (docs/collections.md#ageing).
  await run('open book folded', 'SELECT compact_open_book_totals()');
  await markOverdueHandled(sequelize, log);
  // As autovacuum would have left a live database: visibility map set (index-only scans), statistics fresh.
  await run('VACUUM ANALYZE', 'VACUUM ANALYZE');
}
