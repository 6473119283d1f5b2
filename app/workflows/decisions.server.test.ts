import { describe, expect, it } from 'vitest';
import { execute, selectOne, selectRows } from '../db.server.ts';
import { createInvoice } from '../invoices/invoice-create.server.ts';
import { rejectInvoice, verifyInvoice } from '../invoices/invoice-decisions.server.ts';
import { confirmPayment, failPayment } from '../payments/payment-transitions.server.ts';
import { recordPayment } from '../payments/payment-recording.server.ts';
import { getTask, updateTask } from '../tasks/tasks.server.ts';
import { runWorkflowStep } from './runner.server.ts';
import { financedInvoice, financeableClient, insertCustomer, zagrebDay } from '../../tests/factories.ts';
import { referenceWorkflowBook } from '../../tests/support/workflow-book.ts';

/**
 * The manager's decision on an invoice (verify, reject) or a payment
 * (confirm, fail) is the manual step of the workflow its event started
 * (docs/reference-data.md): the step's task closes with it, and the instance
 * goes on or ends, whether the decision came at that step or before it.
 */

const b = referenceWorkflowBook();

interface Instance {
  id: string;
  status: string;
  current_step: number;
  context: Record<string, unknown>;
}

async function instanceOf(entityId: string): Promise<Instance> {
  const row = await selectOne<Instance>(`SELECT id, status, current_step, context FROM workflow_instances WHERE entity_id = :entityId`, { entityId });
  if (!row) throw new Error(`no instance for ${entityId}`);
  return row;
}

const runsOf = (instanceId: string) =>
  selectRows<{ step_index: number; status: string; outcome: Record<string, unknown> }>(
    `SELECT step_index, status, outcome FROM workflow_step_runs WHERE instance_id = :instanceId ORDER BY step_index, attempt`,
    { instanceId },
  );

const tasksOf = (instanceId: string) =>
  selectRows<{ id: string; status: string; workflow_step: number }>(`SELECT id, status, workflow_step FROM tasks WHERE workflow_instance_id = :instanceId ORDER BY created_at`, {
    instanceId,
  });

async function runSteps(instanceId: string, steps: number[]) {
  for (const stepIndex of steps) expect(await runWorkflowStep({ instanceId, stepIndex, attempt: 1 })).toBe('completed');
}

let serial = 0;
async function submittedInvoice() {
  const client = await financeableClient();
  const customer = await insertCustomer();
  return createInvoice({
    actor: b.user,
    input: {
      clientId: client.id,
      customerId: customer.id,
      invoiceNumber: `R-DEC-${Date.now()}-${serial++}`,
      issueDate: zagrebDay(-2),
      dueDate: zagrebDay(40),
      amount: '980.00',
      currency: 'EUR',
      description: 'Usluga',
    },
  });
}

// The reference invoice verification: data, duplicates, FINA, then 'Ručna verifikacija' (3), then the notice (4).
const INVOICE_REVIEW = 3;

describe('an invoice verification', () => {
  it('at its manual review: verifying the invoice completes the task in the manager’s name and goes on to the notice', async () => {
    const invoice = await submittedInvoice();
    const instance = await instanceOf(invoice.id);
    await runSteps(instance.id, [0, 1, 2]);
    const [task] = await tasksOf(instance.id);
    expect(task).toMatchObject({ status: 'pending', workflow_step: INVOICE_REVIEW });

    await verifyInvoice({ actor: b.manager, id: invoice.id });

    expect(await tasksOf(instance.id)).toEqual([expect.objectContaining({ id: task.id, status: 'completed' })]);
    const after = await instanceOf(invoice.id);
    expect(after).toMatchObject({ status: 'running', current_step: INVOICE_REVIEW + 1 });
    const review = (await runsOf(instance.id)).find((run) => run.step_index === INVOICE_REVIEW);
    expect(review).toMatchObject({ status: 'completed', outcome: { summary: 'invoice verified', decision: 'approve', decidedBy: b.manager.id, taskId: task.id } });
    const log = await selectOne<{ user_id: string; details: Record<string, unknown> }>(
      `SELECT user_id, details FROM activity_logs WHERE action = 'task_completed' AND entity_id = :id`,
      { id: task.id },
    );
    expect(log).toMatchObject({ user_id: b.manager.id, details: { decision: 'invoice verified', workflowInstanceId: instance.id } });
    // The notice step runs and the instance completes.
    await runSteps(instance.id, [INVOICE_REVIEW + 1]);
    expect(await instanceOf(invoice.id)).toMatchObject({ status: 'completed' });
  });

  it('verified before the review was reached: the review completes by itself, no task is opened', async () => {
    const invoice = await submittedInvoice();
    const instance = await instanceOf(invoice.id);
    await verifyInvoice({ actor: b.manager, id: invoice.id });
    expect((await instanceOf(invoice.id)).context).toMatchObject({ decision: 'approved', decidedBy: b.manager.id });

    await runSteps(instance.id, [0, 1, 2]);
    expect(await tasksOf(instance.id)).toEqual([]);
    expect(await instanceOf(invoice.id)).toMatchObject({ status: 'running', current_step: INVOICE_REVIEW + 1 });
    expect((await runsOf(instance.id)).find((run) => run.step_index === INVOICE_REVIEW)).toMatchObject({
      status: 'completed',
      outcome: { summary: 'invoice verified before this step was reached', decision: 'approve', decidedBy: b.manager.id },
    });
  });

  it('rejected at its review: the instance ends there, the notice is skipped, the task is completed with the reason logged', async () => {
    const invoice = await submittedInvoice();
    const instance = await instanceOf(invoice.id);
    await runSteps(instance.id, [0, 1, 2]);
    await rejectInvoice({ actor: b.manager, id: invoice.id, input: { reason: 'Kupac osporava isporuku' } });

    expect(await instanceOf(invoice.id)).toMatchObject({ status: 'completed', context: { decision: 'rejected', outcome: 'rejected' } });
    expect((await tasksOf(instance.id)).map((task) => task.status)).toEqual(['completed']);
    const runs = await runsOf(instance.id);
    expect(runs.find((run) => run.step_index === INVOICE_REVIEW)).toMatchObject({
      status: 'completed',
      outcome: { decision: 'reject', reason: 'Kupac osporava isporuku' },
    });
    expect(runs.find((run) => run.step_index === INVOICE_REVIEW + 1)).toMatchObject({ status: 'skipped' });
    const ended = await selectOne<{ details: Record<string, unknown> }>(`SELECT details FROM activity_logs WHERE action = 'workflow_completed' AND entity_id = :id`, {
      id: instance.id,
    });
    expect(ended!.details).toMatchObject({ outcome: 'rejected', reason: 'Kupac osporava isporuku' });
  });

  it('rejected while an automated step is still to come: the instance ends and the step’s job finds nothing to do', async () => {
    const invoice = await submittedInvoice();
    const instance = await instanceOf(invoice.id);
    await rejectInvoice({ actor: b.manager, id: invoice.id, input: { reason: 'Duplikat' } });
    expect(await instanceOf(invoice.id)).toMatchObject({ status: 'completed' });
    expect(await runWorkflowStep({ instanceId: instance.id, stepIndex: 0, attempt: 1 })).not.toBe('completed');
    expect((await runsOf(instance.id)).every((run) => run.status === 'skipped')).toBe(true);
    expect(await tasksOf(instance.id)).toEqual([]);
  });

  it('its review task cannot be completed or cancelled by hand while the invoice is pending; once decided it is closed', async () => {
    const invoice = await submittedInvoice();
    const instance = await instanceOf(invoice.id);
    await runSteps(instance.id, [0, 1, 2]);
    const [task] = await tasksOf(instance.id);
    const started = await updateTask({ actor: b.manager, id: task.id, input: { status: 'in_progress' } });
    // The card offers the way to the decision instead of 'Complete'.
    expect(started.awaitsDecision).toBe('invoice');
    for (const status of ['completed', 'cancelled'] as const) {
      await expect(updateTask({ actor: b.manager, id: task.id, input: { status } })).rejects.toMatchObject({ status: 409 });
    }
    expect(await instanceOf(invoice.id)).toMatchObject({ status: 'running', current_step: INVOICE_REVIEW });
    await verifyInvoice({ actor: b.manager, id: invoice.id });
    expect((await tasksOf(instance.id)).map((row) => row.status)).toEqual(['completed']);
    expect((await getTask(task.id)).awaitsDecision).toBeNull();
  });

  it('a manual review task of another workflow on an invoice is completed by hand as before', async () => {
    const invoice = await submittedInvoice();
    const instance = await instanceOf(invoice.id);
    await runSteps(instance.id, [0, 1, 2]);
    // The same task, as if its instance ran a definition whose step is not the invoice decision.
    await execute(`UPDATE workflow_instances SET steps = jsonb_set(steps, '{3,taskType}', '"risk_assessment"') WHERE id = :id`, { id: instance.id });
    const [task] = await tasksOf(instance.id);
    await updateTask({ actor: b.manager, id: task.id, input: { status: 'in_progress' } });
    await updateTask({ actor: b.manager, id: task.id, input: { status: 'completed' } });
    expect(await instanceOf(invoice.id)).toMatchObject({ current_step: INVOICE_REVIEW + 1 });
  });
});

// The reference payment processing: matching (0), 'Potvrda uplate' (1), the release report (2), the notice (3).
const PAYMENT_REVIEW = 1;

async function recordedPayment() {
  const client = await financeableClient();
  const customer = await insertCustomer();
  const invoice = await financedInvoice(b, { clientId: client.id, customerId: customer.id, amount: '1500.00' });
  return recordPayment({ actor: b.user, input: { invoiceId: invoice.id, amount: '1500.00', paymentMethod: 'bank_transfer' } });
}

describe('a payment processing', () => {
  it('at its confirmation step: confirming the payment completes the task and goes on to the reserve release', async () => {
    const payment = await recordedPayment();
    const instance = await instanceOf(payment.id);
    await runSteps(instance.id, [0]);
    const [task] = await tasksOf(instance.id);
    expect(task).toMatchObject({ status: 'pending', workflow_step: PAYMENT_REVIEW });
    expect((await getTask(task.id)).awaitsDecision).toBe('payment');

    await confirmPayment({ actor: b.manager, id: payment.id });
    expect((await tasksOf(instance.id)).map((row) => row.status)).toEqual(['completed']);
    expect(await instanceOf(payment.id)).toMatchObject({ status: 'running', current_step: PAYMENT_REVIEW + 1 });
    await runSteps(instance.id, [2, 3]);
    const runs = await runsOf(instance.id);
    expect(runs.find((run) => run.step_index === 2)!.outcome).toMatchObject({ released: true });
    expect(await instanceOf(payment.id)).toMatchObject({ status: 'completed' });
  });

  it('failed: the processing ends with nothing released and no one told', async () => {
    const payment = await recordedPayment();
    const instance = await instanceOf(payment.id);
    await runSteps(instance.id, [0]);
    await failPayment({ actor: b.manager, id: payment.id });
    expect(await instanceOf(payment.id)).toMatchObject({ status: 'completed', context: { decision: 'rejected', outcome: 'rejected' } });
    expect((await tasksOf(instance.id)).map((row) => row.status)).toEqual(['completed']);
    expect((await runsOf(instance.id)).filter((run) => run.step_index > PAYMENT_REVIEW).map((run) => run.status)).toEqual(['skipped', 'skipped']);
  });

  it('a decision that is refused changes nothing in the workflow', async () => {
    const payment = await recordedPayment();
    const instance = await instanceOf(payment.id);
    await runSteps(instance.id, [0]);
    await failPayment({ actor: b.manager, id: payment.id });
    await expect(confirmPayment({ actor: b.manager, id: payment.id })).rejects.toMatchObject({ status: 409 });
    expect(await instanceOf(payment.id)).toMatchObject({ status: 'completed', context: { decision: 'rejected' } });
  });
});
