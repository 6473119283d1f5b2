import { createHash } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import pg from 'pg';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { E_INVOICING_FROM } from '../../app/einvoices/outgoing.server.ts';
import { getObjectStore } from '../../app/storage/object-store.server.ts';
import { isValidCroatianIban, isValidOib } from '../../app/utils/validation.ts';
import { createSequelize, getSequelize } from '../connection.ts';
import { minimalPdf, seedDemo } from './demo.ts';

const sequelize = getSequelize();
const select = <T extends object = Record<string, unknown>>(sql: string) => sequelize.query<T>(sql, { type: QueryTypes.SELECT });

// Tables that start empty by design: migration bookkeeping, sign-in state, worker liveness.
// Any other table a later migration adds fails this test until the demo book fills it.
const NOT_SEEDED = [
  'schema_migrations',
  'sessions',
  'user_tokens',
  'login_throttle',
  'worker_heartbeats',
  // The registration wizard's drafts and its per-IP counter: visitors' state, not business data.
  'registration_drafts',
  'registration_draft_files',
  'registration_rate_limits',
  // Wizard uploads held in quarantine until a submit claims them (purged when unclaimed).
  'upload_objects',
  // Imported bank statements and their entries: filled by staff uploading camt.053 files.
  'bank_statements',
  'bank_statement_entries',
  // Database backups: made from Settings by an admin.
  'backups',
  // E-invoices received from the intermediary: filled by the sync job and 'Zaprimi dokumente'.
  'incoming_einvoices',
  // Requests for more KYC documents: made by a manager deciding an application, each a link only its email holds.
  'kyc_document_requests',
  // The open book's folded sums: the seed's bookings sit in open_book_deltas until the hourly housekeeping folds them in.
  'open_book_totals',
  // The dashboard's month-start figure: kept from the first time a dashboard asks for a month.
  'client_month_starts',
  'client_month_start_deltas',
];

async function tableCounts() {
  const tables = await select<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`);
  const counts: Record<string, number> = {};
  for (const { tablename } of tables) {
    const [{ count }] = await select<{ count: number }>(`SELECT count(*)::int AS count FROM ${tablename}`);
    counts[tablename] = count;
  }
  return counts;
}

let firstRun: { seeded: boolean };
const now = new Date();

beforeAll(async () => {
  firstRun = await seedDemo(sequelize, { now });
});

/** A digest of the book's business content (not its UUIDs), to compare two runs. */
async function fingerprint(db: typeof sequelize) {
  const [[row]] = (await db.query(`
    SELECT md5(string_agg(line, '|' ORDER BY line)) AS digest, count(*)::int AS lines FROM (
      SELECT concat_ws(',', c.oib, c.company_name, c.iban, c.status, c.credit_limit, c.used_credit, c.risk_score, c.created_at) AS line FROM clients c
      UNION ALL SELECT concat_ws(',', cu.oib, cu.company_name, cu.account_blocked, cu.risk_score) FROM customers cu
      UNION ALL SELECT concat_ws(',', c.oib, i.invoice_number, i.status, i.amount, i.factor_amount, i.factor_fee, i.paid_amount,
                                 i.issue_date, i.due_date, i.financed_at, i.paid_at, i.description)
                  FROM invoices i JOIN clients c ON c.id = i.client_id
      UNION ALL SELECT concat_ws(',', i.invoice_number, p.amount, p.status, p.processed_at, p.bank_entry_ref)
                  FROM payments p JOIN invoices i ON i.id = p.invoice_id
      UNION ALL SELECT concat_ws(',', name, checksum, size, signature_status) FROM documents
      UNION ALL SELECT concat_ws(',', action, created_at, details::text) FROM activity_logs
      UNION ALL SELECT concat_ws(',', title, status, priority, due_date) FROM tasks
      UNION ALL SELECT concat_ws(',', c.oib, l.booked_on, l.kind, l.amount, l.description) FROM client_ledger l JOIN clients c ON c.id = l.client_id
    ) lines`)) as [Array<{ digest: string; lines: number }>, unknown];
  return row;
}

describe('seedDemo', () => {
  // How long it takes is the bench's to measure, not a timed test's (it depends on the machine's load).
  it('seeds an empty database', () => {
    expect(firstRun).toEqual({ seeded: true });
  });

  it('fills every table of the schema', async () => {
    const counts = await tableCounts();
    const empty = Object.entries(counts)
      .filter(([table, count]) => !NOT_SEEDED.includes(table) && count === 0)
      .map(([table]) => table);
    expect(empty).toEqual([]);
    expect(counts.clients).toBe(40);
    expect(counts.customers).toBe(120);
    expect(counts.invoices).toBeGreaterThan(500);
    expect(counts.invoices).toBeLessThan(700);
    expect(counts.documents).toBeGreaterThanOrEqual(90);
    // The book's own 300 entries, one einvoice_issued per fee e-invoice (one per invoice financed, or paid, since
    // e-invoices began), and the installation of the reference data the book builds on.
    const [{ financed }] = await select<{ financed: number }>(
      `SELECT count(*)::int AS financed FROM invoices
        WHERE financed_at IS NOT NULL AND (financed_at AT TIME ZONE 'Europe/Zagreb')::date >= DATE '${E_INVOICING_FROM}'`,
    );
    expect(financed).toBeGreaterThan(100);
    expect(counts.outgoing_einvoices).toBe(financed);
    // …and the demo's manual adjustments of clients' accounts (db/seed/demo/ledger.ts): six decisions;
    // its credit notes and the dispute resolved (db/seed/demo/dilution.ts): five; the debtor's side
    // (db/seed/demo/debtors.ts): four notices of assignment, a confirmation and a dispute;
    // the reminders sent to debtors and the hold on one invoice's reminders (db/seed/demo/dunning.ts), one row each;
    // recourse (db/seed/demo/recourse.ts): a chargeback, two write-off requests and a write-off.
    expect(counts.dunning_notices).toBeGreaterThanOrEqual(3);
    expect(counts.dunning_holds).toBe(1);
    expect(counts.activity_logs).toBe(300 + financed + 1 + 6 + 5 + 6 + counts.dunning_notices + counts.dunning_holds + 4);
    expect(counts.credit_notes).toBe(4);
    expect([counts.debtor_notices, counts.debtor_links, counts.debtor_answers]).toEqual([4, 4, 2]);
    expect(counts.ledger_adjustments).toBe(4);
    expect(counts.client_ledger).toBeGreaterThan(financed * 3);
  });

  it('gives every client and customer a valid OIB and Croatian IBAN', async () => {
    const parties = await select<{ oib: string; iban: string; postal_code: string }>(
      'SELECT oib, iban, postal_code FROM clients UNION ALL SELECT oib, iban, postal_code FROM customers',
    );
    expect(parties).toHaveLength(160);
    expect(parties.filter((party) => !isValidOib(party.oib))).toEqual([]);
    expect(parties.filter((party) => !isValidCroatianIban(party.iban))).toEqual([]);
    const payouts = await select<{ iban: string }>('SELECT DISTINCT iban FROM payouts');
    expect(payouts.filter((payout) => !isValidCroatianIban(payout.iban))).toEqual([]);
  });

  it("keeps each client's and customer's used credit equal to its ledger sum, within the client's limit", async () => {
    // docs/money.md#the-clients-account: per invoice, the advance less its collections, never below zero.
    const outstanding = `SELECT i.client_id, i.customer_id, greatest(0, sum(l.amount)) AS open
                           FROM client_ledger l JOIN invoices i ON i.id = l.invoice_id
                          WHERE l.kind IN ('advance', 'collection') GROUP BY i.id`;
    const clientMismatches = await select(`
      SELECT c.company_name, c.used_credit, coalesce(sum(o.open), 0) AS ledger
        FROM clients c LEFT JOIN (${outstanding}) o ON o.client_id = c.id
       GROUP BY c.id HAVING c.used_credit <> coalesce(sum(o.open), 0)`);
    expect(clientMismatches).toEqual([]);
    const customerMismatches = await select(`
      SELECT u.company_name, u.used_credit, coalesce(sum(o.open), 0) AS ledger
        FROM customers u LEFT JOIN (${outstanding}) o ON o.customer_id = u.id
       GROUP BY u.id HAVING u.used_credit <> coalesce(sum(o.open), 0)`);
    expect(customerMismatches).toEqual([]);
    const overLimit = await select(`SELECT company_name FROM clients WHERE used_credit > coalesce(credit_limit, 0)`);
    expect(overLimit).toEqual([]);
    const [{ total }] = await select<{ total: string }>(`SELECT sum(used_credit)::text AS total FROM clients`);
    expect(Number(total)).toBeGreaterThan(0);
  });

  it("balances each settled invoice's ledger to zero, and posts its fee and VAT from its fee e-invoice", async () => {
    const unbalanced = await select(`
      SELECT i.invoice_number, sum(l.amount) AS balance FROM invoices i JOIN client_ledger l ON l.invoice_id = i.id
       WHERE i.status = 'paid' GROUP BY i.id
      -- Zero once the reserve is released; where the fees took the whole reserve, what the client still owes.
      HAVING sum(l.amount) <> greatest(0, i.factor_amount + i.factor_fee + round(i.factor_fee * 0.25, 2) - i.amount)`);
    expect(unbalanced).toEqual([]);
    const [{ settled }] = await select<{ settled: number }>(
      `SELECT count(*)::int AS settled FROM invoices i WHERE i.status = 'paid' AND EXISTS (SELECT 1 FROM client_ledger l WHERE l.invoice_id = i.id AND l.kind = 'reserve_release')`,
    );
    expect(settled).toBeGreaterThan(100);
    const feeMismatches = await select(`
      SELECT e.number FROM outgoing_einvoices e
        LEFT JOIN client_ledger f ON f.einvoice_id = e.id AND f.kind = 'fee'
        LEFT JOIN client_ledger v ON v.einvoice_id = e.id AND v.kind = 'fee_vat'
       WHERE f.amount IS DISTINCT FROM e.net_amount OR v.amount IS DISTINCT FROM e.vat_amount`);
    expect(feeMismatches).toEqual([]);
    const [{ pending }] = await select<{ pending: number }>(
      `SELECT count(*)::int AS pending FROM ledger_adjustments a, book_settings s
        WHERE a.status = 'pending' AND s.key = 'ledger_adjustment_four_eyes_above' AND abs(a.amount) > CAST(s.value AS numeric)`,
    );
    expect(pending).toBe(1);
  });

  it("keeps each debtor's exposure equal to the advances outstanding on its invoices; most debtors have a limit above it, decided by four eyes", async () => {
    // The advances still outstanding on its invoices, per the ledger: advance less collections, never below 0 (docs/money.md).
    const mismatches = await select(`
      SELECT cu.company_name, cu.used_credit, coalesce(sum(o.outstanding), 0) AS open_advances
        FROM customers cu
        LEFT JOIN invoices i ON i.customer_id = cu.id
        LEFT JOIN (SELECT invoice_id, greatest(0, sum(amount)) AS outstanding FROM client_ledger
                    WHERE kind IN ('advance', 'collection') GROUP BY invoice_id) o ON o.invoice_id = i.id
       GROUP BY cu.id
      HAVING cu.used_credit <> coalesce(sum(o.outstanding), 0)`);
    expect(mismatches).toEqual([]);
    expect(await select(`SELECT company_name FROM customers WHERE credit_limit IS NOT NULL AND used_credit > credit_limit`)).toEqual([]);
    const [{ limited, unlimited }] = await select<{ limited: number; unlimited: number }>(
      `SELECT count(*) FILTER (WHERE credit_limit IS NOT NULL)::int AS limited, count(*) FILTER (WHERE credit_limit IS NULL)::int AS unlimited FROM customers`,
    );
    expect(limited).toBeGreaterThan(unlimited * 4);
    expect(unlimited).toBeGreaterThan(0);
    const statuses = await select<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM credit_limit_requests WHERE customer_id IS NOT NULL GROUP BY status ORDER BY status`,
    );
    expect(Object.fromEntries(statuses.map(({ status, n }) => [status, n]))).toEqual({ approved: limited, expired: 1, pending: 8, rejected: 1 });
    // The current limit is the latest approval's; nobody decided their own request.
    const stale = await select(`
      SELECT cu.company_name FROM customers cu
        JOIN credit_limit_requests r ON r.customer_id = cu.id AND r.status = 'approved'
       WHERE r.approved_limit <> cu.credit_limit`);
    expect(stale).toEqual([]);
    expect(await select(`SELECT id FROM credit_limit_requests WHERE customer_id IS NOT NULL AND decided_by = requested_by`)).toEqual([]);
  });

  it('has financed only clients whose KYC is approved', async () => {
    // Financing refuses a client whose onboarding is not completed (app/invoices/financing.server.ts).
    const unapproved = await select(`
      SELECT DISTINCT c.company_name, c.onboarding_status FROM clients c JOIN invoices i ON i.client_id = c.id
       WHERE i.factor_amount IS NOT NULL AND c.onboarding_status <> 'completed'`);
    expect(unapproved).toEqual([]);
    const [{ applicants }] = await select<{ applicants: number }>(`SELECT count(*)::int AS applicants FROM clients WHERE onboarding_status = 'in_progress'`);
    expect(applicants).toBeGreaterThan(0);
  });

  it('gives every KYC-approved client a signed agreement in force, with varied terms, and none to the applicants', async () => {
    const withoutAgreement = await select(`
      SELECT c.company_name FROM clients c
       WHERE (c.onboarding_status = 'completed') <> EXISTS (SELECT 1 FROM agreements a WHERE a.client_id = c.id AND a.signature_status = 'signed'
                                                              AND a.effective_from <= (now() AT TIME ZONE 'Europe/Zagreb')::date)`);
    expect(withoutAgreement).toEqual([]);
    const [variety] = await select<Record<string, number>>(`
      SELECT count(DISTINCT fee_model)::int AS models, count(DISTINCT advance_rate)::int AS rates, count(DISTINCT recourse)::int AS recourse,
             count(DISTINCT disclosed)::int AS disclosed, count(*) FILTER (WHERE minimum_fee > 0)::int AS minimum,
             count(*) FILTER (WHERE admin_fee > 0)::int AS admin, count(*) FILTER (WHERE version = 2)::int AS revised,
             count(*) FILTER (WHERE version = 2 AND effective_from > signed_on)::int AS later
        FROM agreements`);
    expect(variety).toMatchObject({ models: 3, recourse: 2, disclosed: 2 });
    expect(variety.rates).toBeGreaterThan(2);
    expect(Math.min(variety.minimum, variety.admin, variety.revised, variety.later)).toBeGreaterThan(0);
  });

  it('books advances and fees from the agreement version in force on the financing day, and pays the reserve back', async () => {
    // The version a financing used is the signed one in force that day (app/agreements/in-force.server.ts).
    const wrongVersion = await select(`
      SELECT i.invoice_number FROM invoices i
       WHERE i.status IN ('financed', 'paid', 'charged_back', 'written_off')
         AND i.agreement_id IS DISTINCT FROM (
               SELECT a.id FROM agreements a
                WHERE a.client_id = i.client_id AND a.signature_status = 'signed' AND a.effective_from <= (i.financed_at AT TIME ZONE 'UTC')::date
                ORDER BY a.effective_from DESC, a.version DESC LIMIT 1)`);
    expect(wrongVersion).toEqual([]);
    const wrongAdvance = await select(`
      SELECT i.invoice_number FROM invoices i JOIN agreements a ON a.id = i.agreement_id
       WHERE i.factor_amount <> round(i.amount * a.advance_rate / 100, 2)`);
    expect(wrongAdvance).toEqual([]);
    // Discount: amount × rate × started 30-day periods from financing to due date (at least one); interest: the advance × yearly
    // rate × days over 360 or 365. At least the minimum fee, plus the admin fee (app/agreements/fees.ts).
    const wrongFee = await select(`
      SELECT i.invoice_number FROM invoices i JOIN agreements a ON a.id = i.agreement_id
        CROSS JOIN LATERAL (SELECT i.due_date - (i.financed_at AT TIME ZONE 'UTC')::date AS days) d
       WHERE i.factor_fee <> a.admin_fee + greatest(a.minimum_fee, CASE a.fee_model
               WHEN 'discount_30' THEN round(i.amount * a.fee_rate / 100 * greatest(1, ceil(d.days / 30.0)), 2)
               WHEN 'interest_360' THEN round(i.factor_amount * a.fee_rate * greatest(d.days, 0) / 36000, 2)
               ELSE round(i.factor_amount * a.fee_rate * greatest(d.days, 0) / 36500, 2) END)`);
    expect(wrongFee).toEqual([]);
    const models = await select<{ fee_model: string }>(`SELECT DISTINCT a.fee_model FROM invoices i JOIN agreements a ON a.id = i.agreement_id ORDER BY 1`);
    expect(models.map((row) => row.fee_model)).toEqual(['discount_30', 'interest_360', 'interest_365']);
    const missingPayouts = await select(`
      SELECT i.invoice_number FROM invoices i
       WHERE i.status IN ('financed', 'paid', 'charged_back', 'written_off')
         AND NOT EXISTS (SELECT 1 FROM payouts p WHERE p.invoice_id = i.id AND p.kind = 'advance' AND p.amount = i.factor_amount)
          OR i.status = 'paid' AND i.amount - i.factor_amount - i.factor_fee - round(i.factor_fee * 0.25, 2) > 0
         AND NOT EXISTS (SELECT 1 FROM payouts p WHERE p.invoice_id = i.id AND p.kind = 'reserve_release'
                           AND p.amount = i.amount - i.factor_amount - i.factor_fee - round(i.factor_fee * 0.25, 2))`);
    expect(missingPayouts).toEqual([]);
  });

  it('settles paid invoices with confirmed payments that sum to the amount', async () => {
    const unsettled = await select(`
      SELECT i.invoice_number, i.amount, i.paid_amount, sum(p.amount) AS confirmed
        FROM invoices i
        LEFT JOIN payments p ON p.invoice_id = i.id AND p.status = 'confirmed'
       WHERE i.status = 'paid'
       GROUP BY i.id
      HAVING coalesce(sum(p.amount), 0) <> i.amount OR i.paid_amount <> i.amount OR i.paid_at IS NULL`);
    expect(unsettled).toEqual([]);
    const wrongPaidAmount = await select(`
      SELECT i.invoice_number FROM invoices i
       WHERE i.paid_amount <> (SELECT coalesce(sum(p.amount), 0) FROM payments p WHERE p.invoice_id = i.id AND p.status = 'confirmed')`);
    expect(wrongPaidAmount).toEqual([]);
    const openButCovered = await select(`SELECT invoice_number FROM invoices WHERE status = 'financed' AND paid_amount >= amount`);
    expect(openButCovered).toEqual([]);
  });

  it('charges back a recourse invoice and writes off a non-recourse one as the rules book them (docs/money.md#recourse-and-write-off)', async () => {
    const closed = await select<{
      status: string;
      recourse: boolean;
      amount: string;
      paid_amount: string;
      balance: string;
      advance: string;
      chargeback: string;
      write_off: string;
    }>(`
      SELECT i.status, a.recourse, i.amount, i.paid_amount,
             sum(l.amount) AS balance,
             coalesce(sum(l.amount) FILTER (WHERE l.kind IN ('advance', 'collection')), 0) AS advance,
             coalesce(sum(l.amount) FILTER (WHERE l.kind = 'chargeback'), 0) AS chargeback,
             coalesce(sum(l.amount) FILTER (WHERE l.kind = 'write_off'), 0) AS write_off
        FROM invoices i JOIN agreements a ON a.id = i.agreement_id JOIN client_ledger l ON l.invoice_id = i.id
       WHERE i.status IN ('charged_back', 'written_off') GROUP BY i.id, a.recourse ORDER BY i.status`);
    expect(closed.map((row) => [row.status, row.recourse])).toEqual([
      ['charged_back', true],
      ['written_off', false],
    ]);
    const [charged, writtenOff] = closed;
    // Charged back: no advance is left on the debtor, the client owes it (a chargeback entry), and the debtor's later
    // payment was credited to the client: what it owes is the advance, fees and VAT less that collection.
    expect(Number(charged.advance)).toBeLessThanOrEqual(0);
    expect(Number(charged.chargeback)).toBeGreaterThan(0);
    expect(Number(charged.paid_amount)).toBeGreaterThan(0);
    const [fees] = await select<{ fees: string }>(
      `SELECT sum(l.amount) AS fees FROM client_ledger l JOIN invoices i ON i.id = l.invoice_id WHERE i.status = 'charged_back' AND l.kind IN ('fee', 'fee_vat')`,
    );
    expect(Math.round(Number(charged.balance) * 100)).toBe(Math.round((Number(charged.chargeback) + Number(fees.fees) - Number(charged.paid_amount)) * 100));
    // Written off: its entries sum to zero (the loss credited), and the approved request holds that loss.
    expect([Number(writtenOff.balance), Number(writtenOff.advance)]).toEqual([0, 0]);
    const requests = await select<{ status: string; loss_amount: string | null; invoice_status: string; requested_by: string; decided_by: string | null; role: string | null }>(`
      SELECT r.status, r.loss_amount, i.status AS invoice_status, r.requested_by, r.decided_by, u.role
        FROM write_off_requests r JOIN invoices i ON i.id = r.invoice_id LEFT JOIN users u ON u.id = r.decided_by ORDER BY r.status`);
    expect(requests.map((row) => [row.status, row.invoice_status, row.role])).toEqual([
      ['approved', 'written_off', 'admin'],
      ['pending', 'financed', null],
    ]);
    expect(requests[0].decided_by).not.toBe(requests[0].requested_by);
    const [{ loss }] = await select<{ loss: string }>(
      `SELECT -sum(l.amount) AS loss FROM client_ledger l JOIN invoices i ON i.id = l.invoice_id WHERE i.status = 'written_off' AND l.kind IN ('advance', 'write_off') AND l.amount < 0`,
    );
    expect(requests[0].loss_amount).toBe(Number(loss).toFixed(2));
  });

  it('covers every status of invoices, payments, limits, tasks, workflows, campaigns and email logs', async () => {
    const statuses = async (table: string, column = 'status') =>
      (await select<{ value: string }>(`SELECT DISTINCT ${column} AS value FROM ${table} ORDER BY 1`)).map((row) => row.value);
    expect(await statuses('invoices')).toEqual(['approved', 'charged_back', 'financed', 'paid', 'pending', 'rejected', 'verified', 'written_off']);
    expect(await statuses('write_off_requests')).toEqual(['approved', 'pending']);
    expect(await statuses('payments')).toEqual(['confirmed', 'failed', 'pending', 'refunded']);
    expect(await statuses('credit_limit_requests')).toEqual(['approved', 'expired', 'pending', 'rejected']);
    expect(await statuses('tasks')).toEqual(['cancelled', 'completed', 'in_progress', 'pending']);
    expect(await statuses('tasks', 'type')).toHaveLength(6);
    expect(await statuses('tasks', 'priority')).toEqual(['high', 'low', 'medium', 'normal', 'urgent']);
    expect(await statuses('workflow_instances')).toEqual(['completed', 'failed', 'paused', 'running']);
    expect(await statuses('workflow_definitions', 'type')).toHaveLength(4);
    expect(await statuses('email_campaigns')).toEqual(['active', 'completed', 'draft', 'failed', 'sending']);
    expect(await statuses('email_logs')).toEqual(['clicked', 'delivered', 'failed', 'opened', 'sent']);
    expect(await statuses('email_templates', 'trigger')).toHaveLength(10);
    expect(await statuses('integrations', 'type')).toEqual(['docusign', 'einvoicing', 'fina', 'hanfa', 'sendgrid']);
    expect(await statuses('documents', 'type')).toHaveLength(6);
    expect(await statuses('clients')).toEqual(['active', 'inactive', 'pending']);
    expect(await statuses('users', 'role')).toEqual(['admin', 'manager', 'user']);
  });

  it('keeps the details consistent with the rules', async () => {
    // One active template per trigger.
    const triggers = await select<{ trigger: string; active: number }>(`SELECT trigger, count(*) FILTER (WHERE is_active)::int AS active FROM email_templates GROUP BY trigger`);
    expect(triggers.filter((row) => row.trigger !== 'manual').every((row) => row.active === 1)).toBe(true);
    // Risk categories follow the score thresholds (80 and 60), and entities show their latest score.
    const wrongCategory = await select(`
      SELECT id FROM risk_assessments
       WHERE category <> CASE WHEN score >= 80 THEN 'low' WHEN score >= 60 THEN 'medium' ELSE 'high' END`);
    expect(wrongCategory).toEqual([]);
    const staleScores = await select(`
      SELECT c.id FROM clients c
       WHERE c.risk_score IS DISTINCT FROM (SELECT r.score FROM risk_assessments r WHERE r.entity_id = c.id ORDER BY r.created_at DESC LIMIT 1)
          OR c.risk_category IS DISTINCT FROM (SELECT r.category FROM risk_assessments r WHERE r.entity_id = c.id ORDER BY r.created_at DESC LIMIT 1)
      UNION ALL
      SELECT c.id FROM customers c
       WHERE c.risk_score IS DISTINCT FROM (SELECT r.score FROM risk_assessments r WHERE r.entity_id = c.id ORDER BY r.created_at DESC LIMIT 1)`);
    expect(staleScores).toEqual([]);
    // A running instance waits on an open task for its current (manual) step.
    const runningWithoutTask = await select(`
      SELECT w.id FROM workflow_instances w
       WHERE w.status = 'running'
         AND NOT EXISTS (SELECT 1 FROM tasks t WHERE t.workflow_instance_id = w.id AND t.workflow_step = w.current_step
                           AND t.status IN ('pending', 'in_progress'))`);
    expect(runningWithoutTask).toEqual([]);
    const completedNotAtEnd = await select(`
      SELECT id FROM workflow_instances WHERE status = 'completed' AND current_step <> jsonb_array_length(steps)`);
    expect(completedNotAtEnd).toEqual([]);
    // Four eyes: the verifier does not approve the same invoice.
    const sameEyes = await select(`SELECT id FROM invoices WHERE verified_by = approved_by`);
    expect(sameEyes).toEqual([]);
    // Unique invoice numbers per client in the R-YYYY-NNNN form.
    const badNumbers = await select(`SELECT invoice_number FROM invoices WHERE invoice_number !~ '^R-[0-9]{4}-[0-9]{4}$'`);
    expect(badNumbers).toEqual([]);
    // Nothing that happened is in the future.
    const future = await select(`
      SELECT 'invoices' FROM invoices WHERE created_at > now() OR paid_at > now()
      UNION ALL SELECT 'payments' FROM payments WHERE processed_at > now()
      UNION ALL SELECT 'activity' FROM activity_logs WHERE created_at > now()
      UNION ALL SELECT 'workflows' FROM workflow_instances WHERE started_at > now() OR updated_at > now()
      UNION ALL SELECT 'step runs' FROM workflow_step_runs WHERE started_at > now() OR finished_at > now()
      UNION ALL SELECT 'tasks' FROM tasks WHERE created_at > now() OR completed_at > now()
      UNION ALL SELECT 'documents' FROM documents WHERE created_at > now() OR signed_at > now()
      UNION ALL SELECT 'emails' FROM email_logs WHERE sent_at > now() OR opened_at > now() OR clicked_at > now()
      UNION ALL SELECT 'risk' FROM risk_assessments WHERE created_at > now()
      UNION ALL SELECT 'limits' FROM credit_limit_requests WHERE requested_at > now() OR decided_at > now()
      UNION ALL SELECT 'payouts' FROM payouts WHERE created_at > now() OR exported_at > now()`);
    expect(future).toEqual([]);
  });

  it('stores every document file, whose sha256 is its checksum', async () => {
    const documents = await select<{ storage_key: string; checksum: string; size: number; mime_type: string }>('SELECT storage_key, checksum, size, mime_type FROM documents');
    const store = getObjectStore();
    for (const document of documents) {
      expect(await store.exists(document.storage_key)).toBe(true);
      const bytes = await store.get(document.storage_key);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(document.checksum);
      expect(bytes.length).toBe(Number(document.size));
      expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    }
  });

  it('a second call changes nothing', async () => {
    const before = await tableCounts();
    const [{ newest }] = await select<{ newest: Date }>('SELECT max(created_at) AS newest FROM activity_logs');
    expect(await seedDemo(sequelize)).toEqual({ seeded: false });
    expect(await tableCounts()).toEqual(before);
    const [{ newest: after }] = await select<{ newest: Date }>('SELECT max(created_at) AS newest FROM activity_logs');
    expect(after).toEqual(newest);
  });
});

describe('determinism', () => {
  it('produces the same book in another database for the same day', { timeout: 120_000 }, async () => {
    const name = `seed_twin_${Date.now()}`;
    const serverUrl = inject('databaseServerUrl');
    const admin = new pg.Client(`${serverUrl}/postgres`);
    await admin.connect();
    // The template is the freshly migrated database every test file starts from.
    await admin.query(`CREATE DATABASE ${name} TEMPLATE finflow_template`);
    const twin = createSequelize(`${serverUrl}/${name}`, { poolMax: 2 });
    try {
      expect(await seedDemo(twin, { now })).toEqual({ seeded: true });
      const [ours, theirs] = [await fingerprint(sequelize), await fingerprint(twin)];
      expect(ours.lines).toBeGreaterThan(1500);
      expect(theirs).toEqual(ours);
    } finally {
      await twin.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});

describe('minimalPdf', () => {
  it('writes a well-formed PDF whose xref offsets point at its objects', () => {
    const pdf = minimalPdf('Ugovor (test) – Međimurje d.o.o.', ['Šibenik, č ć đ']).toString('latin1');
    expect(pdf.startsWith('%PDF-1.4\n')).toBe(true);
    expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);
    const startxref = Number(/startxref\n(\d+)/.exec(pdf)![1]);
    expect(pdf.slice(startxref, startxref + 4)).toBe('xref');
    const offsets = [...pdf.matchAll(/^(\d{10}) 00000 n $/gm)].map((match) => Number(match[1]));
    expect(offsets).toHaveLength(5);
    offsets.forEach((offset, index) => expect(pdf.slice(offset).startsWith(`${index + 1} 0 obj`)).toBe(true));
    // Parentheses are escaped and Croatian letters transliterated for the standard font.
    expect(pdf).toContain('(Ugovor \\(test\\) - Medjimurje d.o.o.) Tj');
    expect(pdf).toContain('(Sibenik, c c dj) Tj');
  });
});
