import type { Transaction } from 'sequelize';
import { financeInvoice } from '../../app/invoices/financing.server.ts';
import { approveInvoice, verifyInvoice } from '../../app/invoices/invoice-decisions.server.ts';
import { recordPayment } from '../../app/payments/payment-recording.server.ts';
import { confirmPayment, refundPayment } from '../../app/payments/payment-transitions.server.ts';
import { newInvoice, type Book } from '../factories.ts';
import { atBusinessDay } from './business-day.ts';

/**
 * The ageing tests' books (app/analytics/ageing*.server.test.ts): invoices
 * taken through the real modules, each step on its own business day, days
 * counted from the test's as-of day. Not a test file.
 */

/** One step of a book: what runs, in the transaction of business day `on`. */
export interface BookStep {
  on: number;
  run: (transaction: Transaction) => Promise<unknown>;
}

/** An invoice of the book: issued, due and financed on these days; each payment recorded and confirmed on its day (refunded on `refundOn`). */
export interface BookInvoice {
  key: string;
  clientId: string;
  customerId: string;
  amount: string;
  issueOn: number;
  dueOn: number;
  /** null: never financed. */
  financedOn: number | null;
  payments?: Array<{ on: number; amount: string; refundOn?: number }>;
}

/**
 * Creates the invoice now and, when it is financed, verifies and approves it (four eyes); answers its id and the
 * steps that finance it and move its payments, for `runBookSteps`.
 */
export async function bookInvoiceSteps(b: Book, day: (offset: number) => string, invoice: BookInvoice): Promise<{ id: string; steps: BookStep[] }> {
  const { id } = await newInvoice(b.user, invoice.clientId, invoice.customerId, { amount: invoice.amount, issueDate: day(invoice.issueOn), dueDate: day(invoice.dueOn) });
  const steps: BookStep[] = [];
  if (invoice.financedOn === null) return { id, steps };
  await verifyInvoice({ actor: b.manager, id });
  await approveInvoice({ actor: b.manager2, id });
  steps.push({ on: invoice.financedOn, run: (transaction) => financeInvoice({ actor: b.manager, id }, { transaction }) });
  for (const payment of invoice.payments ?? []) {
    let paymentId = '';
    steps.push({
      on: payment.on,
      run: async (transaction) => {
        paymentId = (await recordPayment({ actor: b.user, input: { invoiceId: id, amount: payment.amount, reference: `HR00 ${invoice.key}` } }, { transaction })).id;
        return confirmPayment({ actor: b.manager, id: paymentId }, { transaction });
      },
    });
    if (payment.refundOn !== undefined) steps.push({ on: payment.refundOn, run: (transaction) => refundPayment({ actor: b.manager, id: paymentId }, { transaction }) });
  }
  return { id, steps };
}

/** Runs every step on its business day, in the order of the days; steps of one day in the order they were listed (a payment before a credit note on its invoice). */
export async function runBookSteps(steps: BookStep[], day: (offset: number) => string) {
  // Array sort is stable.
  for (const step of [...steps].sort((left, right) => left.on - right.on)) await atBusinessDay(day(step.on), step.run);
}
