import { randomUUID } from 'node:crypto';
import { REFERENCE_WORKFLOWS, type ReferenceRowIds } from '../../reference-data.ts';
import type { WorkflowType } from '../../../app/workflows/schemas.ts';
import { HOUR, MINUTE, type Row, date, json } from './plumbing.ts';
import type { ClientInfo, Context, CustomerInfo, InvoiceInfo } from './context.ts';
import type { Ledger } from './invoices.ts';
import type { RiskBook } from './risk.ts';
import { newestActive } from './documents.ts';
import type { TaskBook } from './tasks.ts';

// ---- Workflows and their step history ---------------------------------------------

const TASK_TITLES: Record<string, (label: string) => string> = {
  kyc_verification: (label) => `KYC provjera – ${label}`,
  limit_approval: (label) => `Odobrenje kreditnog limita – ${label}`,
  manual_review: (label) => `Ručna provjera – ${label}`,
  risk_assessment: (label) => `Pregled procjene rizika – ${label}`,
};

interface InstanceSpec {
  type: WorkflowType;
  entity: [string, string];
  label: string;
  status: 'running' | 'completed' | 'failed' | 'paused';
  /** Index of the step the instance is at; ignored for completed ones (they stand at steps.length). */
  current: number;
  startedAt: number;
  startedBy: string | null;
  context: Record<string, unknown>;
  error?: string;
  waitingTask?: 'pending' | 'in_progress';
}

export function buildWorkflows(
  ctx: Context,
  book: { clients: ClientInfo[]; customers: CustomerInfo[]; ledger: Ledger; risk: RiskBook; tasks: TaskBook },
  reference: ReferenceRowIds,
) {
  const { random, clock } = ctx;
  const definitions: Row[] = [];
  const instances: Row[] = [];
  const runs: Row[] = [];
  const admin = ctx.staff.all.find((user) => user.role === 'admin') ?? ctx.staff.deciders[0];
  // The reference definitions, set up by the admin when the company started with FinFlow.
  for (const workflow of REFERENCE_WORKFLOWS) {
    const at = clock.at(780, random);
    definitions.push({ id: reference.workflows[workflow.type], created_by: admin.id, created_at: date(at), updated_at: date(at) });
  }

  /**
   * An instance and its step runs: the steps before `current` completed
   * (manual ones through a completed task), then its state at `current`: a
   * waiting run and an open task (running), three failed attempts (failed),
   * or nothing yet (paused).
   */
  const run = (spec: InstanceSpec) => {
    const workflow = REFERENCE_WORKFLOWS.find((candidate) => candidate.type === spec.type)!;
    const id = randomUUID();
    const done = spec.status === 'completed' ? workflow.steps.length : spec.current;
    const began = clock.past(spec.startedAt);
    let cursor = began;
    const after = (ms: number) => (cursor = clock.past(cursor + ms));
    const stepRun = (index: number, fields: Row) =>
      runs.push({
        id: randomUUID(),
        instance_id: id,
        step_index: index,
        step_name: workflow.steps[index].name,
        step_type: workflow.steps[index].type,
        attempt: 1,
        ...fields,
      });
    for (let index = 0; index < done; index++) {
      const step = workflow.steps[index];
      const startedAt = after(random.int(1, 20) * 1000);
      let outcome: Record<string, unknown> = { ok: true };
      if (step.type === 'manual') {
        const doneAt = (cursor = clock.past(clock.office(cursor + random.int(2, 40) * HOUR)));
        const assignee = ctx.decider();
        const taskId = book.tasks.open({
          title: TASK_TITLES[step.taskType!](spec.label),
          description: `${workflow.name}: korak „${step.name}”.`,
          type: step.taskType!,
          priority: 'high',
          status: 'completed',
          entity: spec.entity,
          createdAt: startedAt,
          dueInDays: 2,
          completedAt: doneAt,
          assignee,
          createdBy: null,
          workflow: [id, index],
        });
        outcome = { taskId, completedBy: assignee.id };
      } else {
        after(random.int(1, 30) * 1000);
      }
      stepRun(index, {
        status: 'completed',
        outcome: json(outcome),
        started_at: date(startedAt),
        finished_at: date(cursor),
      });
    }
    let lastError: string | null = null;
    if (spec.status === 'running') {
      const step = workflow.steps[spec.current];
      const startedAt = after(random.int(1, 20) * 1000);
      const taskId = book.tasks.open({
        title: TASK_TITLES[step.taskType!](spec.label),
        description: `${workflow.name}: korak „${step.name}” čeka obradu.`,
        type: step.taskType!,
        priority: random.pick(['urgent', 'high', 'high', 'medium']),
        status: spec.waitingTask ?? 'pending',
        entity: spec.entity,
        createdAt: startedAt,
        dueInDays: random.int(1, 3),
        createdBy: null,
        workflow: [id, spec.current],
      });
      stepRun(spec.current, { status: 'waiting', outcome: json({ taskId }), started_at: date(startedAt) });
    } else if (spec.status === 'failed') {
      // Retried with backoff, then the instance failed with the error kept.
      lastError = spec.error!;
      for (let attempt = 1; attempt <= 3; attempt++) {
        const startedAt = after(attempt === 1 ? 5000 : 2 ** attempt * MINUTE);
        stepRun(spec.current, {
          status: 'failed',
          attempt,
          error: lastError,
          started_at: date(startedAt),
          finished_at: date(after(random.int(5, 30) * 1000)),
        });
      }
    } else if (spec.status === 'paused') {
      after(random.int(1, 24) * HOUR);
    }
    const context = spec.status === 'paused' ? { ...spec.context, pausedBy: ctx.decider().id, pausedAt: new Date(cursor).toISOString() } : spec.context;
    instances.push({
      id,
      workflow_id: reference.workflows[spec.type],
      status: spec.status,
      entity_type: spec.entity[0],
      entity_id: spec.entity[1],
      current_step: done,
      steps: json(workflow.steps),
      context: json(context),
      last_error: lastError,
      started_by: spec.startedBy,
      started_at: date(began),
      completed_at: spec.status === 'completed' ? date(cursor) : null,
      updated_at: date(cursor),
    });
    ctx.event(began, 'workflow_started', 'workflow_instance', id, spec.startedBy, {
      workflowType: spec.type,
      entityType: spec.entity[0],
      label: spec.label,
    });
  };

  // Client onboarding: the newest active clients went through it; the applicants are on the way.
  for (const client of newestActive(book.clients)) {
    run({
      type: 'client_onboarding',
      entity: ['client', client.id],
      label: client.companyName,
      status: 'completed',
      current: 0,
      startedAt: client.createdAt + 10 * MINUTE,
      startedBy: client.row.created_by as string,
      context: { clientId: client.id },
    });
  }
  const onboardingPlan: Array<Pick<InstanceSpec, 'status' | 'current' | 'waitingTask' | 'error'>> = [
    { status: 'running', current: 3, waitingTask: 'pending' },
    { status: 'running', current: 3, waitingTask: 'in_progress' },
    { status: 'running', current: 4, waitingTask: 'pending' },
    { status: 'failed', current: 1, error: 'FINA: usluga privremeno nedostupna (HTTP 503) nakon 3 pokušaja' },
    { status: 'paused', current: 0 },
  ];
  book.clients
    .filter((client) => client.status === 'pending')
    .forEach((client, index) => {
      const plan = onboardingPlan[index];
      const startedAt = client.createdAt + 5 * MINUTE;
      // Past its third step the workflow has made the automatic assessment.
      if (plan.current > 2) {
        book.risk.assess('client', client, book.risk.target(), clock.past(startedAt + 2 * MINUTE), { withData: true });
      }
      run({
        ...plan,
        type: 'client_onboarding',
        entity: ['client', client.id],
        label: client.companyName,
        startedAt,
        startedBy: null,
        context: { clientId: client.id, source: 'onboarding' },
      });
    });

  // Invoice verification of the newest invoices.
  const newest = [...book.ledger.invoices].sort((a, b) => b.createdAt - a.createdAt);
  const verificationPlan: Array<[string, InstanceSpec['status'], number]> = [
    ['pending', 'running', 3],
    ['pending', 'running', 3],
    ['pending', 'running', 3],
    ['pending', 'running', 3],
    ['pending', 'failed', 2],
    ['pending', 'paused', 3],
    ['verified', 'completed', 0],
    ['verified', 'completed', 0],
    ['approved', 'completed', 0],
    ['approved', 'completed', 0],
    ['financed', 'completed', 0],
    ['financed', 'completed', 0],
  ];
  const taken = new Set<InvoiceInfo>();
  for (const [invoiceStatus, status, current] of verificationPlan) {
    const invoice = newest.find((i) => i.status === invoiceStatus && i.row.verification_status !== 'failed' && !taken.has(i));
    if (!invoice) continue;
    taken.add(invoice);
    run({
      type: 'invoice_verification',
      entity: ['invoice', invoice.id],
      label: `${invoice.number} (${invoice.client.companyName})`,
      status,
      current,
      startedAt: invoice.createdAt + 2 * MINUTE,
      startedBy: invoice.row.created_by as string,
      context: { invoiceId: invoice.id, invoiceNumber: invoice.number },
      error: 'FINA: kupac nije pronađen u registru (OIB ne postoji u sandbox podacima)',
      waitingTask: random.pick(['pending', 'in_progress'] as const),
    });
  }

  // Periodic risk reviews of customers.
  const reviewPlan: Array<[InstanceSpec['status'], number]> = [
    ['completed', 0],
    ['completed', 0],
    ['completed', 0],
    ['running', 3],
    ['paused', 2],
    ['failed', 0],
  ];
  random
    .shuffle(book.customers)
    .slice(0, reviewPlan.length)
    .forEach((customer, index) => {
      const [status, current] = reviewPlan[index];
      run({
        type: 'risk_assessment',
        entity: ['customer', customer.id],
        label: customer.companyName,
        status,
        current,
        startedAt: clock.at(random.int(1, 40), random),
        startedBy: ctx.decider().id,
        context: { customerId: customer.id },
        error: 'HANFA: istek vremena za odgovor (timeout 10 s)',
        waitingTask: 'pending',
      });
    });

  // Collections: pending payments wait for confirmation; recently confirmed ones went through.
  const invoiceNumber = (payment: Row) => book.ledger.invoices.find((i) => i.id === payment.invoice_id)!.number;
  const paymentRun = (payment: Row, status: InstanceSpec['status'], current: number, waitingTask?: 'pending' | 'in_progress') =>
    run({
      type: 'payment_processing',
      entity: ['payment', payment.id as string],
      label: `uplata za ${invoiceNumber(payment)}`,
      status,
      current,
      startedAt: (payment.created_at as Date).getTime() + MINUTE,
      startedBy: null,
      context: { paymentId: payment.id },
      error: 'Uplata se ne može upariti: poziv na broj ne odgovara nijednoj fakturi',
      waitingTask,
    });
  book.ledger.payments
    .filter((payment) => payment.status === 'pending')
    .slice(0, 5)
    .forEach((payment, index) => (index === 4 ? paymentRun(payment, 'failed', 0) : paymentRun(payment, 'running', 1, index === 0 ? 'in_progress' : 'pending')));
  book.ledger.payments
    .filter((payment) => payment.status === 'confirmed')
    .sort((a, b) => (b.processed_at as Date).getTime() - (a.processed_at as Date).getTime())
    .slice(0, 6)
    .forEach((payment, index) => (index === 5 ? paymentRun(payment, 'paused', 2) : paymentRun(payment, 'completed', 0)));

  return { definitions, instances, runs };
}
