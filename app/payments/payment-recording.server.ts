import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { execute, inTransaction, selectOne } from '../db.server.ts';
import { isCollectible, openForPaymentSql } from './open-amount.server.ts';
import { apiError, zodRefusal } from '../utils/api.server.ts';
import { centsToDecimalString, centsToNumber, toCents } from '../utils/money.ts';
import { PAYMENT_MESSAGES, paymentCreateSchema, type PaymentCreateInput } from './schemas.ts';
import { startWorkflowOnEvent } from '../workflows/instances.server.ts';
import { getPayment, type PaymentDto } from './payment-queries.server.ts';
import type { Invoice } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';

/**
 * Recording a collection: a pending payment on a payable invoice
 * (docs/lifecycle.md#payments), the daily queue ('create:payment'), by hand,
 * over the API or from a bank statement. Confirming, failing and refunding
 * are ./payment-transitions.server.ts.
 *
 * Recording refuses an amount above what is still open for a new payment:
 * amount − paid_amount − the credit notes − the pending payments (409 naming that figure; one
 * SQL definition with the payable list, ./open-amount.server.ts). That keeps
 * a typed-in payment and the same money from the bank statement from both
 * waiting for confirmation.
 */

export type LockedInvoice = RowOf<
  typeof Invoice,
  'id' | 'client_id' | 'invoice_number' | 'status' | 'amount' | 'paid_amount' | 'credited_amount' | 'factor_amount' | 'factor_fee' | 'currency'
> & {
  /** What a new payment may still cover (./open-amount.server.ts). */
  open_for_payment: string;
};

export async function lockInvoice(id: string, transaction: Transaction): Promise<LockedInvoice | null> {
  return selectOne<LockedInvoice>(
    `SELECT i.id, i.client_id, i.invoice_number, i.status, i.amount, i.paid_amount, i.credited_amount, i.factor_amount, i.factor_fee, i.currency,
            ${openForPaymentSql('i')} AS open_for_payment
       FROM invoices i WHERE i.id = :id FOR UPDATE`,
    { id },
    { transaction },
  );
}

/** Cents a new payment may still cover on an invoice: amount − confirmed payments − credit notes − pending payments (≥ 0). */
export async function expectedCents(invoice: Pick<LockedInvoice, 'id'>, transaction?: Transaction): Promise<number> {
  const row = await selectOne<{ open: string }>(`SELECT ${openForPaymentSql('i')} AS open FROM invoices i WHERE i.id = :id`, { id: invoice.id }, { transaction });
  return toCents(row?.open ?? '0');
}

export interface RecordOptions {
  transaction?: Transaction;
  /** Set by the bank-statement import: the entry's reference and source. */
  bank?: { entryRef: string };
}

/**
 * POST /api/payments: a pending payment on a payable invoice (financed or
 * charged back, amount > paid_amount). 400 invalid ('Invoice is required', 'Amount is
 * required', unknown invoice on the field), 403, 409 not payable or above
 * what is still expected (message names the figure).
 */
export async function recordPayment({ actor, input, ip }: { actor: Actor; input: PaymentCreateInput; ip?: string | null }, options: RecordOptions = {}): Promise<PaymentDto> {
  assertCan(actor, 'create:payment');
  // Domain functions validate again, so a caller that skipped the schema cannot write bad data.
  const parsed = paymentCreateSchema.safeParse(input);
  if (!parsed.success) throw zodRefusal(parsed.error);
  const data = parsed.data;

  const run = async (transaction: Transaction) => {
    const invoice = await lockInvoice(data.invoiceId, transaction);
    if (!invoice) throw apiError(400, PAYMENT_MESSAGES.invoiceNotFound, { errors: { invoiceId: [PAYMENT_MESSAGES.invoiceNotFound] } });
    if (!isCollectible(invoice.status) || toCents(invoice.amount) <= toCents(invoice.paid_amount) + toCents(invoice.credited_amount)) {
      const refusal = { code: PAYMENT_MESSAGES.invoiceNotPayable, params: { number: invoice.invoice_number, invoiceStatus: invoice.status } };
      throw apiError(409, refusal.code, { params: refusal.params, errors: { invoiceId: [refusal] } });
    }
    // Read under the row lock: a payment recorded meanwhile is already in pending_amount.
    const expected = toCents(invoice.open_for_payment);
    if (data.amount > expected) {
      const refusal = { code: PAYMENT_MESSAGES.amountAboveOpen, params: { open: centsToDecimalString(expected), currency: invoice.currency } };
      throw apiError(409, refusal.code, { params: refusal.params, errors: { amount: [refusal] } });
    }
    const { rows } = await execute<{ id: string }>(
      `INSERT INTO payments (invoice_id, amount, currency, payment_method, status, reference, notes, source, bank_entry_ref, recorded_by)
       VALUES (:invoiceId, :amount, :currency, :method, 'pending', :reference, :notes, :source, :bankEntryRef, :actorId)
       RETURNING id`,
      {
        invoiceId: invoice.id,
        amount: centsToDecimalString(data.amount),
        currency: invoice.currency,
        method: data.paymentMethod,
        reference: data.reference ?? null,
        notes: data.notes ?? null,
        source: options.bank ? 'bank_statement' : 'manual',
        bankEntryRef: options.bank?.entryRef ?? null,
        actorId: actor.id,
      },
      { transaction },
    );
    const id = rows[0].id;
    await logActivity(
      {
        action: 'payment_recorded',
        userId: actor.id,
        entityType: 'payment',
        entityId: id,
        ipAddress: ip,
        details: {
          invoiceId: invoice.id,
          invoiceNumber: invoice.invoice_number,
          amount: centsToNumber(data.amount),
          currency: invoice.currency,
          paymentMethod: data.paymentMethod,
          reference: data.reference ?? null,
          source: options.bank ? 'bank_statement' : 'manual',
          ...(options.bank ? { bankEntryRef: options.bank.entryRef } : {}),
          toStatus: 'pending',
        },
      },
      transaction,
    );
    // By hand, over the API or from a bank statement: the payment's processing workflow starts with it.
    await startWorkflowOnEvent({ event: 'payment_recorded', entityType: 'payment', entityId: id, actor, ip }, { transaction });
    return getPayment(id, transaction);
  };
  return inTransaction(run, options.transaction);
}
