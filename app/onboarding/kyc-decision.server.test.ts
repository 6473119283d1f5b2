import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeQuotedPrintable } from '../../tests/support/smtp.ts';
import { stopSender } from '../jobs/boss.server.ts';
import { activityRows, apiFailure, jsonRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { createClient, updateClient } from '../clients/clients.server.ts';
import { execute, selectOne, selectRows } from '../db.server.ts';
import { outboxDir } from '../email/mailer.server.ts';
import { processEmailJob } from '../email/send.server.ts';
import { createTemplate } from '../email/templates.server.ts';
import { approveInvoice, verifyInvoice } from '../invoices/invoice-decisions.server.ts';
import { createInvoice } from '../invoices/invoice-create.server.ts';
import { financeInvoice } from '../invoices/financing.server.ts';
import { action as decisionRoute } from '../routes/api.clients.$clientId.kyc-decision.ts';
import { updateTask } from '../tasks/tasks.server.ts';
import { croatianIban } from '../utils/validation.ts';
import { runWorkflowStep } from '../workflows/runner.server.ts';
import type { StepJob } from '../workflows/types.ts';
import { createDraft } from './drafts.server.ts';
import { decideKyc, documentRequestState, submitRequestedDocuments } from './kyc-decision.server.ts';
import type { KycDocumentType } from './kyc.ts';
import { submitRegistration } from './submit.server.ts';
import { attachKycFiles, TINY_PDF, TINY_PNG } from './test-fixtures.server.ts';
import type { FilePart } from './uploads.server.ts';
import { createAgreement, createTestUser, newOib, wizardValues } from '../../tests/factories.ts';

let manager: Actor;
let otherManager: Actor;
let user: Actor;
let definitionId: string;

/** The demo's onboarding definition, shortened: the review, the limit proposal and the welcome mail. */
const STEPS = [
  { name: 'KYC pregled', type: 'manual', taskType: 'kyc_verification' },
  { name: 'E-mail dobrodošlice', type: 'automated', handler: 'sendWelcomeEmail' },
];

beforeAll(async () => {
  const staff = async (role: 'manager' | 'user') => ({ id: (await createTestUser({ role })).id, role });
  manager = await staff('manager');
  otherManager = await staff('manager');
  user = await staff('user');
  const { rows } = await execute<{ id: string }>(
    `INSERT INTO workflow_definitions (name, type, steps, is_active) VALUES ('Onboarding klijenta', 'client_onboarding', CAST(:steps AS jsonb), true) RETURNING id`,
    { steps: JSON.stringify(STEPS) },
  );
  definitionId = rows[0].id;
  await createTemplate({
    actor: manager,
    input: { name: 'Dobrodošlica', trigger: 'client_onboarding', subject: 'Dobrodošli u FinFlow, {{company_name}}', body: 'Pozdrav {{client_name}}, vaš račun je aktivan.' },
  });
});
afterAll(async () => {
  await stopSender();
});

/** An applicant registered through the wizard (five files), with its onboarding instance waiting at the review. */
async function applicant(values: Record<string, string> = {}) {
  const filled = wizardValues({ email: `prijava-${newOib()}@primjer.hr`, ...values });
  const { token } = await createDraft({ values: filled, step: 3 });
  const draft = (await selectOne<{ id: string }>(`SELECT id FROM registration_drafts ORDER BY created_at DESC LIMIT 1`))!;
  await attachKycFiles(draft.id, ['company_registration', 'director_id']);
  const result = await submitRegistration({ token, ip: '198.51.100.7' });
  if (!result.ok) throw new Error(`registration failed: ${result.message}`);
  const instance = (await selectOne<{ id: string }>(`SELECT id FROM workflow_instances WHERE entity_id = :id`, { id: result.clientId }))!;
  return { clientId: result.clientId, email: filled.email, instanceId: instance.id };
}

const clientState = (id: string) => selectOne<{ status: string; onboarding_status: string }>(`SELECT status, onboarding_status FROM clients WHERE id = :id`, { id });
const instanceState = (id: string) =>
  selectOne<{ status: string; current_step: number; context: Record<string, unknown> }>(`SELECT status, current_step, context FROM workflow_instances WHERE id = :id`, { id });
const stepRuns = (id: string) =>
  selectRows<{ step_index: number; status: string; outcome: Record<string, unknown> }>(
    `SELECT step_index, status, outcome FROM workflow_step_runs WHERE instance_id = :id ORDER BY step_index, started_at`,
    { id },
  );
const kycTasks = (clientId: string) =>
  selectRows<{ id: string; status: string; type: string; workflow_instance_id: string | null }>(
    `SELECT id, status, type, workflow_instance_id FROM tasks WHERE entity_type = 'client' AND entity_id = :clientId ORDER BY created_at`,
    { clientId },
  );

/** Every message in this file's outbox to `to`, decoded. */
function mailsTo(to: string): string[] {
  if (!fs.existsSync(outboxDir())) return [];
  return fs
    .readdirSync(outboxDir())
    .filter((name) => name.endsWith('.eml'))
    .sort()
    .map((name) => decodeQuotedPrintable(fs.readFileSync(path.join(outboxDir(), name), 'utf8')))
    .filter((mail) => mail.includes(`To: ${to}`));
}

/** Runs the instance's queued step jobs as the worker would, until none is left. */
async function runQueuedSteps(instanceId: string) {
  for (;;) {
    const job = await selectOne<{ id: string; data: StepJob }>(
      `SELECT id, data FROM pgboss.job WHERE name = 'workflow-step' AND data->>'instanceId' = :instanceId AND state = 'created' ORDER BY created_on LIMIT 1`,
      { instanceId },
    );
    if (!job) return;
    await execute(`UPDATE pgboss.job SET state = 'completed' WHERE id = :id`, { id: job.id });
    await runWorkflowStep(job.data);
  }
}

const part = (fileName: string, bytes: Buffer, contentType: string): FilePart => ({ fileName, bytes, contentType, size: bytes.length });
const tokenOf = (mail: string) => /\/onboarding\/documents\/([A-Za-z0-9_-]{43})/.exec(mail)?.[1];

describe('approving an application', () => {
  it('activates the client, closes the KYC task and lets the workflow finish with the welcome mail of the template', async () => {
    const { clientId, email, instanceId } = await applicant();
    const [task] = await kycTasks(clientId);
    expect(task).toMatchObject({ status: 'pending', type: 'kyc_verification', workflow_instance_id: instanceId });

    const result = await decideKyc({ actor: manager, clientId, input: { decision: 'approve' }, ip: '10.1.1.1' });
    expect(result).toMatchObject({
      decision: 'approve',
      status: 'active',
      onboardingStatus: 'completed',
      closedTaskIds: [task.id],
      workflow: [{ instanceId, effect: 'advanced' }],
    });
    expect(await clientState(clientId)).toEqual({ status: 'active', onboarding_status: 'completed' });
    expect((await kycTasks(clientId))[0].status).toBe('completed');
    const [log] = await activityRows('client_kyc_approved', clientId);
    expect(log).toMatchObject({ user_id: manager.id, ip_address: '10.1.1.1', details: { onboardingStatus: { old: 'in_progress', new: 'completed' } } });
    expect(await activityRows('task_completed', task.id)).toMatchObject([{ user_id: manager.id, details: { kycDecision: 'approve' } }]);

    // The welcome step was queued with the commit; as the worker runs it, the template's mail goes out.
    expect(await instanceState(instanceId)).toMatchObject({ status: 'running', current_step: 1 });
    await runQueuedSteps(instanceId);
    expect(await instanceState(instanceId)).toMatchObject({ status: 'completed' });
    const log2 = (await selectOne<{ id: string }>(`SELECT id FROM email_logs WHERE client_id = :clientId`, { clientId }))!;
    expect(await processEmailJob({ logId: log2.id })).toBe('sent');
    const [welcome] = mailsTo(email);
    expect(welcome).toContain('Dobrodošli u FinFlow, Primjer d.o.o.');

    // Decided once: a second decision is refused and changes nothing.
    const again = await apiFailure(decideKyc({ actor: otherManager, clientId, input: { decision: 'reject', reason: 'Predomislili smo se' } }));
    expect(again).toMatchObject({ status: 409, body: { message: 'This KYC application has already been decided' } });
    expect(await clientState(clientId)).toEqual({ status: 'active', onboarding_status: 'completed' });
    expect(mailsTo(email)).toHaveLength(1);
  });

  it('before the workflow reaches the review: the review step completes by itself when reached', async () => {
    const clientId = (await selectOne<{ id: string }>(
      `INSERT INTO clients (company_name, oib, email, status, onboarding_status) VALUES ('Rani d.o.o.', :oib, 'rani@primjer.hr', 'pending', 'in_progress') RETURNING id`,
      { oib: newOib() },
    ))!.id;
    const { rows } = await execute<{ id: string }>(
      `INSERT INTO workflow_instances (workflow_id, status, entity_type, entity_id, current_step, steps)
       VALUES (:definitionId, 'running', 'client', :clientId, 0, CAST(:steps AS jsonb)) RETURNING id`,
      { definitionId, clientId, steps: JSON.stringify([{ name: 'Dokumenti', type: 'automated', handler: 'checkDocuments' }, ...STEPS]) },
    );
    const instanceId = rows[0].id;
    const result = await decideKyc({ actor: manager, clientId, input: { decision: 'approve' } });
    expect(result.workflow).toEqual([{ instanceId, effect: 'noted' }]);
    expect(await instanceState(instanceId)).toMatchObject({ current_step: 0, context: { kycDecision: 'approved', kycDecidedBy: manager.id } });

    await runWorkflowStep({ instanceId, stepIndex: 0, attempt: 1 });
    // No review task was opened for an application already approved; the instance went on to the welcome step.
    expect(await kycTasks(clientId)).toEqual([]);
    expect((await stepRuns(instanceId)).map((run) => [run.step_index, run.status])).toEqual([
      [0, 'completed'],
      [1, 'completed'],
    ]);
    expect(await instanceState(instanceId)).toMatchObject({ status: 'running', current_step: 2 });
  });
});

describe('rejecting an application', () => {
  it('needs a reason; then deactivates the client, ends the workflow, closes the task and emails the reason', async () => {
    const { clientId, email, instanceId } = await applicant();
    const missing = await apiFailure(decideKyc({ actor: manager, clientId, input: { decision: 'reject', reason: '  ' } }));
    expect(missing).toMatchObject({ status: 400, body: { errors: { reason: ['A reason is required to reject an application'] } } });
    expect(await clientState(clientId)).toEqual({ status: 'pending', onboarding_status: 'in_progress' });

    const reason = 'Izvadak iz sudskog registra ne odgovara podacima tvrtke.';
    const result = await decideKyc({ actor: manager, clientId, input: { decision: 'reject', reason } });
    expect(result).toMatchObject({ status: 'inactive', onboardingStatus: 'rejected', emailSent: true, workflow: [{ instanceId, effect: 'ended' }] });
    expect(await clientState(clientId)).toEqual({ status: 'inactive', onboarding_status: 'rejected' });
    expect(await instanceState(instanceId)).toMatchObject({ status: 'completed', context: { outcome: 'rejected', kycDecision: 'rejected' } });
    const runs = await stepRuns(instanceId);
    expect(runs.map((run) => [run.step_index, run.status])).toEqual([
      [0, 'completed'],
      [1, 'skipped'],
    ]);
    expect(runs[0].outcome).toMatchObject({ decision: 'reject', reason });
    expect((await kycTasks(clientId)).map((task) => task.status)).toEqual(['completed']);
    expect(await activityRows('client_kyc_rejected', clientId)).toMatchObject([{ user_id: manager.id, details: { reason, to: email } }]);
    expect(await activityRows('workflow_completed', instanceId)).toMatchObject([{ details: { outcome: 'rejected', reason } }]);

    // The limit the applicant asked for in the wizard is rejected with the application, not left pending.
    const limits = await selectRows<{ id: string; status: string; rejection_reason: string; decided_by: string }>(
      `SELECT id, status, rejection_reason, decided_by FROM credit_limit_requests WHERE client_id = :clientId`,
      { clientId },
    );
    expect(limits).toEqual([expect.objectContaining({ status: 'rejected', rejection_reason: `KYC rejected: ${reason}`, decided_by: manager.id })]);
    expect(await activityRows('credit_limit_rejected', limits[0].id)).toMatchObject([{ user_id: manager.id, details: { kycDecision: 'reject' } }]);
    expect(await activityRows('client_kyc_rejected', clientId)).toMatchObject([{ details: { rejectedLimitRequestIds: [limits[0].id] } }]);

    const [mail] = mailsTo(email);
    expect(mail).toContain('zahtjev za registraciju nije odobren');
    expect(mail).toContain(`Razlog: ${reason}`);
    // Nothing of the workflow runs any more.
    await runQueuedSteps(instanceId);
    expect(await selectRows(`SELECT 1 FROM email_logs WHERE client_id = :clientId`, { clientId })).toHaveLength(0);
  });
});

describe('asking for more documents', () => {
  it('emails a link; the applicant adds a file to the same client, the review resumes with a new task, and the link is spent', async () => {
    const { clientId, email, instanceId } = await applicant();
    const missing = await apiFailure(decideKyc({ actor: manager, clientId, input: { decision: 'request_documents' } }));
    expect(missing).toMatchObject({ status: 400, body: { errors: { message: ['A message to the applicant is required'] } } });

    const message = 'Molimo potvrdu porezne uprave o nepostojanju duga, ne stariju od 30 dana.';
    const result = await decideKyc({ actor: manager, clientId, input: { decision: 'request_documents', message } });
    expect(result).toMatchObject({ status: 'pending', onboardingStatus: 'in_progress', emailSent: true, workflow: [{ instanceId, effect: 'waiting' }] });
    const expiresIn = Date.parse(result.documentRequest!.expiresAt) - Date.now();
    expect(Math.round(expiresIn / 86_400_000)).toBe(14);
    expect((await kycTasks(clientId)).map((task) => task.status)).toEqual(['completed']);
    expect(await instanceState(instanceId)).toMatchObject({ status: 'running', current_step: 0 });
    expect((await stepRuns(instanceId))[0]).toMatchObject({ status: 'waiting', outcome: { summary: 'waiting for documents from the applicant' } });
    expect(await activityRows('client_kyc_documents_requested', clientId)).toMatchObject([{ user_id: manager.id, details: { message, to: email } }]);

    const [mail] = mailsTo(email);
    expect(mail).toContain(message);
    const token = tokenOf(mail)!;
    expect(token).toBeTruthy();
    // Only the hash is stored.
    expect(await selectOne(`SELECT 1 FROM kyc_document_requests WHERE token_hash = :token`, { token })).toBeNull();
    expect(await documentRequestState(token)).toMatchObject({ state: 'open', companyName: 'Primjer d.o.o.', message });

    const documentsBefore = (await selectRows(`SELECT id FROM documents WHERE entity_id = :clientId`, { clientId })).length;
    // A refused post (an executable named .pdf) stores nothing and leaves the link usable.
    const refused = await submitRequestedDocuments({ token, files: new Map([['tax_certificate', part('porez.pdf', Buffer.from('MZ\x90\x00 not a pdf'), 'application/pdf')]]) });
    expect(refused).toMatchObject({ ok: false, status: 415, fileErrors: { file_tax_certificate: ['onboarding.upload.invalidType'] } });
    const empty = await submitRequestedDocuments({ token, files: new Map() });
    expect(empty).toMatchObject({ ok: false, status: 400, formErrors: ['kyc.upload.noFiles'] });
    expect(await selectRows(`SELECT id FROM documents WHERE entity_id = :clientId`, { clientId })).toHaveLength(documentsBefore);
    expect(await documentRequestState(token)).toMatchObject({ state: 'open' });

    const files = new Map<KycDocumentType, FilePart>([['tax_certificate', part('potvrda-porezna.pdf', Buffer.concat([TINY_PDF, Buffer.from('porezna')]), 'application/pdf')]]);
    const submitted = await submitRequestedDocuments({ token, files, ip: '203.0.113.9' });
    expect(submitted).toMatchObject({ ok: true, documents: 1 });
    const added = await selectRows<{ name: string; kyc_type: string; type: string; uploaded_by: string | null }>(
      `SELECT name, kyc_type, type, uploaded_by FROM documents WHERE entity_type = 'client' AND entity_id = :clientId AND kyc_type = 'tax_certificate'`,
      { clientId },
    );
    expect(added).toEqual([{ name: 'potvrda-porezna.pdf', kyc_type: 'tax_certificate', type: 'kyc_document', uploaded_by: null }]);
    // The review resumes: a new KYC task of the same instance and step.
    const tasks = await kycTasks(clientId);
    expect(tasks.map((task) => [task.status, task.workflow_instance_id])).toEqual([
      ['completed', instanceId],
      ['pending', instanceId],
    ]);
    expect(tasks[1].id).toBe((submitted as { taskId: string }).taskId);
    expect(await activityRows('client_kyc_documents_received', clientId)).toMatchObject([{ user_id: null, ip_address: '203.0.113.9', details: { taskId: tasks[1].id } }]);

    // Spent: the page says so, and a second post is refused.
    expect(await documentRequestState(token)).toEqual({ state: 'submitted', documents: 1 });
    const reused = await submitRequestedDocuments({ token, files });
    expect(reused).toMatchObject({ ok: false, status: 410 });
    expect(await selectRows(`SELECT id FROM documents WHERE entity_id = :clientId AND kyc_type = 'tax_certificate'`, { clientId })).toHaveLength(1);

    // Staff approve from the new task; the instance goes on.
    await decideKyc({ actor: manager, clientId, input: { decision: 'approve' } });
    expect((await kycTasks(clientId)).map((task) => task.status)).toEqual(['completed', 'completed']);
    expect(await instanceState(instanceId)).toMatchObject({ status: 'running', current_step: 1 });
  });

  it('a link expires after its time; a newer request or the decision spends the older link', async () => {
    const { clientId, email } = await applicant();
    await decideKyc({ actor: manager, clientId, input: { decision: 'request_documents', message: 'Prva poruka' } });
    const first = tokenOf(mailsTo(email)[0])!;
    await decideKyc({ actor: manager, clientId, input: { decision: 'request_documents', message: 'Druga poruka' } });
    const second = tokenOf(mailsTo(email)[1])!;
    expect(await documentRequestState(first)).toEqual({ state: 'spent' });
    expect(await documentRequestState(second)).toMatchObject({ state: 'open', message: 'Druga poruka' });

    await execute(`UPDATE kyc_document_requests SET expires_at = now() - interval '1 second' WHERE client_id = :clientId AND spent_at IS NULL`, { clientId });
    expect(await documentRequestState(second)).toEqual({ state: 'expired' });
    const late = await submitRequestedDocuments({ token: second, files: new Map([['director_id', part('osobna.png', TINY_PNG, 'image/png')]]) });
    expect(late).toMatchObject({ ok: false, status: 410, request: { state: 'expired' } });

    await decideKyc({ actor: manager, clientId, input: { decision: 'request_documents', message: 'Treća poruka' } });
    const third = tokenOf(mailsTo(email)[2])!;
    await decideKyc({ actor: manager, clientId, input: { decision: 'reject', reason: 'Dokumenti nisu dostavljeni' } });
    expect(await documentRequestState(third)).toEqual({ state: 'spent' });
    expect(await documentRequestState('x'.repeat(43))).toEqual({ state: 'unknown' });
  });

  it('is refused when the client has no email address to send the link to', async () => {
    const clientId = (await selectOne<{ id: string }>(
      `INSERT INTO clients (company_name, oib, status, onboarding_status) VALUES ('Bez adrese d.o.o.', :oib, 'pending', 'pending') RETURNING id`,
      { oib: newOib() },
    ))!.id;
    const failure = await apiFailure(decideKyc({ actor: manager, clientId, input: { decision: 'request_documents', message: 'Molimo dokumente' } }));
    expect(failure).toMatchObject({ status: 409, body: { errors: { email: ['The client has no email address to send the request to'] } } });
    expect(await selectRows(`SELECT 1 FROM kyc_document_requests WHERE client_id = :clientId`, { clientId })).toHaveLength(0);
  });
});

describe('who decides, and on what', () => {
  it('refuses a user (403), an unknown client (404) and a bad decision (400); over the API too', async () => {
    const { clientId } = await applicant();
    expect((await apiFailure(decideKyc({ actor: user, clientId, input: { decision: 'approve' } }))).status).toBe(403);
    expect((await apiFailure(decideKyc({ actor: manager, clientId: '00000000-0000-4000-8000-000000000009', input: { decision: 'approve' } }))).status).toBe(404);
    const bad = await apiFailure(decideKyc({ actor: manager, clientId, input: { decision: 'maybe' } }));
    expect(bad).toMatchObject({ status: 400, body: { errors: { decision: ['Decision must be approve, reject or request_documents'] } } });
    const badReason = await apiFailure(decideKyc({ actor: manager, clientId, input: { decision: 'reject', reason: 42 } }));
    expect(badReason).toMatchObject({ status: 400, body: { errors: { reason: ['At most 5000 characters'] } } });
    expect(await clientState(clientId)).toEqual({ status: 'pending', onboarding_status: 'in_progress' });
    expect(await activityRows('client_kyc_approved', clientId)).toEqual([]);

    const call = async (actorId: string, body: unknown) =>
      decisionRoute({ request: jsonRequest(`/api/clients/${clientId}/kyc-decision`, body, await signedInCookie(actorId)), params: { clientId }, context: {} } as never).catch(
        (error: unknown) => error as Response,
      );
    expect((await call(user.id, { decision: 'approve' })).status).toBe(403);
    const ok = await call(manager.id, { decision: 'approve' });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ clientId, status: 'active', onboardingStatus: 'completed' });
    expect((await call(manager.id, { decision: 'approve' })).status).toBe(409);
  });

  it('a KYC task of an undecided application cannot simply be completed or cancelled', async () => {
    const { clientId } = await applicant();
    const [task] = await kycTasks(clientId);
    await updateTask({ actor: manager, id: task.id, input: { status: 'in_progress' } });
    for (const status of ['completed', 'cancelled'] as const) {
      const failure = await apiFailure(updateTask({ actor: manager, id: task.id, input: { status } }));
      expect(failure).toMatchObject({ status: 409, body: { message: 'Decide the KYC application instead: approve, reject or request documents' } });
    }
    expect((await kycTasks(clientId))[0].status).toBe('in_progress');
  });
});

describe('a client entered by staff', () => {
  async function approvedInvoiceOf(clientId: string) {
    const customer = (await selectOne<{ id: string }>(`INSERT INTO customers (company_name, oib, credit_limit) VALUES ('Kupac KYC d.d.', :oib, 100000) RETURNING id`, {
      oib: newOib(),
    }))!;
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const invoice = await createInvoice({
      actor: user,
      input: { clientId, customerId: customer.id, invoiceNumber: `KYC-${newOib()}`, issueDate: day(-1), dueDate: day(40), amount: '1000.00', currency: 'EUR', description: 'Roba' },
    });
    await verifyInvoice({ actor: manager, id: invoice.id });
    await approveInvoice({ actor: otherManager, id: invoice.id });
    return invoice.id;
  }

  it('starts pending with its review (the onboarding workflow) and cannot be financed until approved', async () => {
    const client = await createClient({
      actor: user,
      input: { companyName: 'Osoblje d.o.o.', oib: newOib(), email: 'osoblje@primjer.hr', iban: croatianIban('2340009', '1110098765') },
    });
    expect(client).toMatchObject({ status: 'pending', onboardingStatus: 'pending' });
    const instance = await selectOne<{ id: string; status: string }>(`SELECT id, status FROM workflow_instances WHERE entity_id = :id`, { id: client.id });
    expect(instance).toMatchObject({ status: 'running' });
    expect((await kycTasks(client.id)).map((task) => [task.type, task.status, task.workflow_instance_id])).toEqual([['kyc_verification', 'pending', instance!.id]]);

    await execute(`UPDATE clients SET credit_limit = 100000 WHERE id = :id`, { id: client.id });
    await createAgreement(client.id);
    const invoiceId = await approvedInvoiceOf(client.id);
    const refused = await apiFailure(financeInvoice({ actor: manager, id: invoiceId }));
    expect(refused).toMatchObject({ status: 409, body: { message: 'Client KYC is not approved', errors: { clientId: ['Client KYC is not approved'] } } });
    expect((await selectOne<{ status: string }>(`SELECT status FROM invoices WHERE id = :invoiceId`, { invoiceId }))!.status).toBe('approved');

    // Nor can an edit make it active behind the review's back.
    const edit = await apiFailure(updateClient({ actor: user, id: client.id, input: { status: 'active' } }));
    expect(edit).toMatchObject({ status: 409, body: { errors: { status: ['Client KYC is not approved'] } } });

    await decideKyc({ actor: manager, clientId: client.id, input: { decision: 'approve' } });
    expect(await financeInvoice({ actor: manager, id: invoiceId })).toMatchObject({ status: 'financed' });
  });

  it('gets a KYC task of its own when no onboarding workflow is active', async () => {
    await execute(`UPDATE workflow_definitions SET is_active = false WHERE id = :definitionId`, { definitionId });
    try {
      const client = await createClient({ actor: user, input: { companyName: 'Bez workflowa d.o.o.', oib: newOib() } });
      expect(await selectRows(`SELECT 1 FROM workflow_instances WHERE entity_id = :id`, { id: client.id })).toHaveLength(0);
      const [task] = await kycTasks(client.id);
      expect(task).toMatchObject({ type: 'kyc_verification', status: 'pending', workflow_instance_id: null });
      expect(await activityRows('task_created', task.id)).toMatchObject([{ user_id: user.id }]);

      const result = await decideKyc({ actor: manager, clientId: client.id, input: { decision: 'reject', reason: 'Nije naš klijent' } });
      // No address: nothing to send, and the decision stands.
      expect(result).toMatchObject({ onboardingStatus: 'rejected', emailSent: false, workflow: [], closedTaskIds: [task.id] });
    } finally {
      await execute(`UPDATE workflow_definitions SET is_active = true WHERE id = :definitionId`, { definitionId });
    }
  });
});
