import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { createInvoice } from '../invoices/invoice-create.server.ts';
import { verifyInvoice } from '../invoices/invoice-decisions.server.ts';
import { importUblInvoice } from '../invoices/ubl-import.server.ts';
import { recordPayment } from '../payments/payment-recording.server.ts';
import { requestAssessment } from '../risk/assessments.server.ts';
import { runWorkflowStep } from './runner.server.ts';
import { sendInvoiceVerifiedEmail } from './handlers/invoices.server.ts';
import { startWorkflowOnEvent } from './instances.server.ts';
import { financedInvoice, financeableClient, insertCustomer, staff, zagrebDay } from '../../tests/factories.ts';
import { referenceWorkflowBook } from '../../tests/support/workflow-book.ts';

/**
 * Each reference definition starts on its own event (docs/reference-data.md):
 * inside the event's transaction, once per entity while one is open, and not
 * at all while staff have switched the definition off.
 */

const FIXTURE = fs.readFileSync(new URL('../einvoices/fixtures/valid-invoice.xml', import.meta.url), 'utf8');
const FIXTURE_SELLER_OIB = '47120589305';

const b = referenceWorkflowBook();

interface InstanceRow {
  id: string;
  status: string;
  type: string;
  start_event: string | null;
  started_by: string | null;
  context: Record<string, unknown>;
  current_step: number;
}

const instancesOf = (entityId: string) =>
  selectRows<InstanceRow>(
    `SELECT i.id, i.status, d.type, i.start_event, i.started_by, i.context, i.current_step
       FROM workflow_instances i JOIN workflow_definitions d ON d.id = i.workflow_id
      WHERE i.entity_id = :entityId ORDER BY i.started_at`,
    { entityId },
  );

let serial = 0;
const invoiceInput = (clientId: string, customerId: string) => ({
  clientId,
  customerId,
  invoiceNumber: `R-EV-${Date.now()}-${serial++}`,
  issueDate: zagrebDay(-3),
  dueDate: zagrebDay(45),
  amount: '1250.00',
  currency: 'EUR',
  description: 'Isporuka',
});

async function setActive(type: string, isActive: boolean) {
  await execute(`UPDATE workflow_definitions SET is_active = :isActive WHERE type = :type`, { type, isActive });
}

describe('an invoice submitted', () => {
  it('through createInvoice starts its verification, started by whoever submitted it', async () => {
    const client = await financeableClient();
    const customer = await insertCustomer();
    const invoice = await createInvoice({ actor: b.user, input: invoiceInput(client.id, customer.id) });
    const instances = await instancesOf(invoice.id);
    expect(instances).toEqual([expect.objectContaining({ type: 'invoice_verification', status: 'running', start_event: 'invoice_submitted', started_by: b.user.id })]);
    const [log] = await selectRows<{ details: Record<string, unknown> }>(`SELECT details FROM activity_logs WHERE action = 'workflow_started' AND entity_id = :id`, {
      id: instances[0].id,
    });
    expect(log.details).toMatchObject({ workflowType: 'invoice_verification', entityType: 'invoice', entityId: invoice.id, startEvent: 'invoice_submitted' });
  });

  it('as a UBL e-invoice starts it too', async () => {
    const { rows } = await execute<{ id: string }>(`INSERT INTO clients (company_name, oib, status) VALUES ('Prodavatelj UBL d.o.o.', :oib, 'active') RETURNING id`, {
      oib: FIXTURE_SELLER_OIB,
    });
    const imported = await importUblInvoice({ actor: b.user, clientId: rows[0].id, xml: FIXTURE, createCustomer: true });
    expect(await instancesOf(imported.id)).toEqual([expect.objectContaining({ type: 'invoice_verification', start_event: 'invoice_submitted' })]);
  });

  it('starts nothing when its transaction rolls back', async () => {
    const client = await financeableClient();
    const customer = await insertCustomer();
    const input = invoiceInput(client.id, customer.id);
    await expect(
      inTransaction(async (transaction) => {
        await createInvoice({ actor: b.user, input }, { transaction });
        throw new Error('a later part of the request failed');
      }),
    ).rejects.toThrow('a later part');
    expect(await selectRows(`SELECT 1 FROM invoices WHERE invoice_number = :number`, { number: input.invoiceNumber })).toEqual([]);
    expect(await selectRows(`SELECT 1 FROM workflow_instances WHERE start_event = 'invoice_submitted' AND entity_id NOT IN (SELECT id FROM invoices)`)).toEqual([]);
  });

  it('proceeds without a workflow while staff have the definition switched off', async () => {
    await setActive('invoice_verification', false);
    try {
      const client = await financeableClient();
      const customer = await insertCustomer();
      const invoice = await createInvoice({ actor: b.user, input: invoiceInput(client.id, customer.id) });
      expect(invoice.status).toBe('pending');
      expect(await instancesOf(invoice.id)).toEqual([]);
    } finally {
      await setActive('invoice_verification', true);
    }
  });
});

describe('a payment recorded', () => {
  it('starts its processing, by hand or as the bank statement would (both through recordPayment)', async () => {
    const client = await financeableClient();
    const customer = await insertCustomer();
    const invoice = await financedInvoice(b, { clientId: client.id, customerId: customer.id, amount: '2000.00' });
    const payment = await recordPayment({ actor: b.user, input: { invoiceId: invoice.id, amount: '500.00', paymentMethod: 'bank_transfer' } });
    expect(await instancesOf(payment.id)).toEqual([
      expect.objectContaining({ type: 'payment_processing', status: 'running', start_event: 'payment_recorded', started_by: b.user.id }),
    ]);
    // The invoice's own verification was started when it was submitted, not by the payment.
    expect((await instancesOf(invoice.id)).map((row) => row.type)).toEqual(['invoice_verification']);
  });
});

describe('a risk assessment requested', () => {
  let manager: Awaited<ReturnType<typeof staff>>;
  beforeAll(async () => {
    manager = await staff('manager');
  });

  it('starts the risk review with the assessment, and a second request while it is open starts none', async () => {
    const client = await financeableClient();
    const first = await requestAssessment({ entityType: 'client', entityId: client.id, actor: manager });
    const instances = await instancesOf(client.id);
    expect(instances).toEqual([expect.objectContaining({ type: 'risk_assessment', start_event: 'risk_assessment_completed', context: { assessmentId: first.id } })]);
    const second = await requestAssessment({ entityType: 'client', entityId: client.id, actor: manager });
    expect(second.id).not.toBe(first.id);
    expect(await instancesOf(client.id)).toHaveLength(1);

    // Once that review is completed, the next request starts a new one.
    await execute(`UPDATE workflow_instances SET status = 'completed', completed_at = now(), current_step = jsonb_array_length(steps) WHERE id = :id`, {
      id: instances[0].id,
    });
    await requestAssessment({ entityType: 'client', entityId: client.id, actor: manager });
    expect((await instancesOf(client.id)).map((row) => row.status)).toEqual(['completed', 'running']);
  });

  it('starts one review when two requests for the same entity race', async () => {
    const customer = await insertCustomer();
    const results = await Promise.all([
      requestAssessment({ entityType: 'customer', entityId: customer.id, actor: manager }),
      requestAssessment({ entityType: 'customer', entityId: customer.id, actor: manager }),
    ]);
    expect(new Set(results.map((result) => result.id)).size).toBe(2);
    expect(await instancesOf(customer.id)).toHaveLength(1);
  });

  it('holds once per entity when the second event waits on the first one’s uncommitted instance', async () => {
    const customer = await insertCustomer();
    const event = { event: 'risk_assessment_completed', entityType: 'customer', entityId: customer.id, actor: manager } as const;
    const waitingOnLocks = async () =>
      (await selectOne<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`))!.n;
    let firstInserted!: () => void;
    const inserted = new Promise<void>((resolve) => (firstInserted = resolve));
    const first = inTransaction(async (transaction) => {
      const instance = await startWorkflowOnEvent(event, { transaction });
      firstInserted();
      // Commit only once the second insert is waiting on this one's index entry.
      await expect.poll(waitingOnLocks, { timeout: 10_000 }).toBeGreaterThan(0);
      return instance;
    });
    await inserted;
    const second = inTransaction((transaction) => startWorkflowOnEvent(event, { transaction }));
    const [a, c] = await Promise.all([first, second]);
    expect(a).not.toBeNull();
    expect(c).toBeNull();
    expect(await instancesOf(customer.id)).toHaveLength(1);
  });

  it('reports the requested assessment in its scoring step instead of making a second one', async () => {
    const client = await financeableClient();
    const assessment = await requestAssessment({ entityType: 'client', entityId: client.id, actor: manager });
    const [instance] = await instancesOf(client.id);
    const count = async () => (await selectOne<{ n: number }>(`SELECT count(*)::int AS n FROM risk_assessments WHERE entity_id = :id`, { id: client.id }))!.n;
    const before = await count();
    // HANFA, FINA, then the scoring step; the analyst's review waits for its task.
    for (const stepIndex of [0, 1, 2]) expect(await runWorkflowStep({ instanceId: instance.id, stepIndex, attempt: 1 })).toBe('completed');
    expect(await count()).toBe(before);
    const run = await selectOne<{ outcome: Record<string, unknown> }>(
      `SELECT outcome FROM workflow_step_runs WHERE instance_id = :id AND step_index = 2 AND status = 'completed'`,
      { id: instance.id },
    );
    expect(run!.outcome).toMatchObject({ assessmentId: assessment.id, score: assessment.score, requested: true });
    const task = await selectOne<{ type: string; status: string }>(`SELECT type, status FROM tasks WHERE workflow_instance_id = :id`, { id: instance.id });
    expect(task).toEqual({ type: 'risk_assessment', status: 'pending' });
  });
});

describe('the invoice verification notice', () => {
  it('goes out only for an invoice that was verified', async () => {
    await execute(`UPDATE email_templates SET is_active = false WHERE trigger = 'invoice_verified'`);
    try {
      const client = await financeableClient();
      await execute(`UPDATE clients SET email = 'klijent@example.hr' WHERE id = :id`, { id: client.id });
      const customer = await insertCustomer();
      const invoice = await createInvoice({ actor: b.user, input: invoiceInput(client.id, customer.id) });
      const [instance] = await instancesOf(invoice.id);
      const notice = (invoiceStatus: string) =>
        inTransaction(async (transaction) =>
          sendInvoiceVerifiedEmail({
            instance: { id: instance.id, workflowType: 'invoice_verification', entityType: 'invoice', entityId: invoice.id, context: {} },
            step: { name: 'Obavijest klijentu', type: 'automated', handler: 'sendInvoiceVerifiedEmail' },
            stepIndex: 4,
            transaction,
            dryRun: true,
          }).then((outcome) => ({ invoiceStatus, outcome })),
        );
      expect((await notice('pending')).outcome).toMatchObject({ sent: false, summary: expect.stringMatching(/is pending, not verified/) });
      await verifyInvoice({ actor: b.manager, id: invoice.id });
      expect((await notice('verified')).outcome).toMatchObject({ summary: 'would send the invoice verified notice to klijent@example.hr' });
      // A charged-back invoice was verified before it was financed: a late run of the step still sends it.
      await execute(`UPDATE invoices SET status = 'charged_back', factor_amount = 1, financed_at = now(), charged_back_at = now() WHERE id = :id`, { id: invoice.id });
      expect((await notice('charged_back')).outcome).toMatchObject({ summary: 'would send the invoice verified notice to klijent@example.hr' });
    } finally {
      await execute(`UPDATE email_templates SET is_active = true WHERE trigger = 'invoice_verified'`);
    }
  });
});
