import { randomUUID } from 'node:crypto';
import { createAgreement } from '../../app/agreements/agreements.server.ts';
import { camt053Fixture } from '../../app/banking/camt053-fixture.ts';
import { factorAccount } from '../../app/banking/factor-account.server.ts';
import { issueUserToken } from '../../app/auth/users.server.ts';
import { execute, inTransaction, selectOne } from '../../app/db.server.ts';
import { createUploadSlot, receiveUpload } from '../../app/documents/uploads.server.ts';
import { createTemplate } from '../../app/email/templates.server.ts';
import { createInvoice } from '../../app/invoices/invoice-create.server.ts';
import { requestCreditLimit } from '../../app/limits/credit-limits.server.ts';
import { requestAdjustment } from '../../app/ledger/adjustments.server.ts';
import { assessEntity } from '../../app/risk/assessments.server.ts';
import { createTask } from '../../app/tasks/tasks.server.ts';
import { importBankStatement } from '../../app/banking/camt053.server.ts';
import { createTestUser, financeableClient, insertClient, insertCustomer } from '../factories.ts';

/** The rows the bodies of the bad-input table (bad-input-table.ts) name, built once for app/routes/bad-input.test.ts. */

export const DAY = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
export const STEPS = [{ name: 'KYC pregled', type: 'manual', taskType: 'kyc_verification' }];
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');

export const AGREEMENT_TERMS = {
  number: 'UF-2026-0099',
  effectiveFrom: DAY(0),
  advanceRate: 80,
  feeModel: 'interest_365',
  feeRate: 9.5,
  minimumFee: 50,
  recourse: true,
  recourseDays: 60,
  maxTenorDays: 60,
  disclosed: true,
};

export type Fixtures = Awaited<ReturnType<typeof buildFixtures>>;

export async function buildFixtures() {
  const admin = await createTestUser({ role: 'super_admin' });
  const actor = { id: admin.id, role: 'super_admin' as const };
  const other = await createTestUser({ role: 'user' });
  const requester = await createTestUser({ role: 'manager' });
  const clientRow = await financeableClient({ creditLimit: '500000.00' });
  const customerRow = await insertCustomer();
  // An application awaiting its KYC decision, for the decision route alone.
  const applicant = await insertClient({ name: 'Podnositelj d.o.o.', email: 'kyc@podnositelj.hr', status: 'pending', iban: null });
  const resetToken = await inTransaction(async (transaction) => (await issueUserToken(other.id, 'reset_password', 60, transaction)).token);
  const client = { id: clientRow.id, oib: clientRow.oib };
  const customer = { id: customerRow.id, oib: customerRow.oib };
  const invoice = await createInvoice({
    actor,
    input: {
      clientId: client.id,
      customerId: customer.id,
      invoiceNumber: `R-${randomUUID().slice(0, 8)}`,
      issueDate: DAY(-3),
      dueDate: DAY(30),
      amount: '1250.00',
      currency: 'EUR',
      description: 'Roba',
    },
  });
  const task = await createTask({ actor, input: { title: 'Provjera', type: 'manual_review' } });
  const template = await createTemplate({
    actor,
    input: { name: `Kampanja ${randomUUID().slice(0, 4)}`, trigger: 'manual', subject: 'Novosti', body: 'Poštovani,\nnovosti.', isActive: true },
  });
  const limitRequest = await requestCreditLimit({ actor: { id: requester.id, role: 'manager' }, input: { clientId: client.id, creditLimit: '20000', reason: 'Rast' } });
  const assessment = await assessEntity({ entityType: 'client', entityId: client.id, actor: null, reason: 'created' });
  // Above the book's four-eyes amount, so it waits for a decision.
  const ledgerAdjustment = await requestAdjustment({ actor: { id: requester.id, role: 'manager' }, clientId: client.id, input: { amount: '5000.00', reason: 'Otpis' } });
  const { rows } = await execute<{ id: string }>(
    `INSERT INTO workflow_definitions (name, type, steps, is_active) VALUES ('Uključivanje', 'client_onboarding', CAST(:steps AS jsonb), true) RETURNING id`,
    { steps: JSON.stringify(STEPS) },
  );
  await execute(`INSERT INTO integrations (name, type) VALUES ('HANFA API', 'hanfa') ON CONFLICT (type) DO NOTHING`);
  await importBankStatement({
    actor,
    xml: camt053Fixture({ iban: factorAccount().iban, statementId: `F-${randomUUID().slice(0, 8)}`, entries: [{ ref: `U-${randomUUID()}`, amount: '7.00', ustrd: 'nepoznato' }] }),
  });
  const entry = await selectOne<{ id: string }>(`SELECT id FROM bank_statement_entries WHERE status = 'unmatched' LIMIT 1`);
  // An uploaded object for POST /api/documents.
  const upload = await createUploadSlot({ ip: '10.8.0.1' });
  await receiveUpload(
    upload.uploadURL.split('/').at(-1)!,
    new Request(`http://localhost${upload.uploadURL}`, { method: 'PUT', body: PDF, headers: { 'Content-Type': 'application/pdf' } }),
  );
  // An unsigned agreement (version 1) of a client of its own, for the agreement routes.
  const agreement = await createAgreement({
    actor,
    clientId: (await insertClient({ agreement: false, email: 'ugovor@klijent.hr' })).id,
    input: { ...AGREEMENT_TERMS, number: 'UF-2026-0098' },
  });
  return {
    admin,
    other,
    applicant,
    agreement,
    resetToken,
    client,
    customer,
    invoice,
    task,
    template,
    limitRequest,
    ledgerAdjustment,
    assessment,
    workflowId: rows[0].id,
    unmatchedEntryId: entry!.id,
    upload,
    /** An OIB no client or customer has yet (the creation bodies). */
    freeOib: '69435151530',
  };
}
