import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { execute, inTransaction, selectOne } from '../db.server.ts';
import { apiError } from '../utils/api.server.ts';
import { centsToDecimalString, centsToNumber, toCents } from '../utils/money.ts';
import { PAYMENT_MESSAGES } from './schemas.ts';
import { applyEntityDecision } from '../workflows/decisions.server.ts';
import { isUuid } from '../utils/validation.ts';
import { getPayment, type PaymentDto } from './payment-queries.server.ts';
import { money } from '../utils/api-values.ts';
import { lockInvoice, type LockedInvoice } from './payment-recording.server.ts';
import { isCollectible } from './open-amount.server.ts';
import { cancelReserveRelease, postCollection, settleInvoice } from './settlement.server.ts';
import type { Client, Invoice, Payment } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';

/**
 * Collections from the factored invoices' customers (docs/lifecycle.md#payments,
 * docs/domain-model.md, docs/money.md).
 *
 * States: pending → confirmed | failed; confirmed → refunded. Recording is
 * the daily queue ('create:payment'); confirming, failing and refunding are
 * the manager's ('confirm:payment').
 *
 * Applying money: confirming adds the amount to invoices.paid_amount and
 * posts it to the client's account as a collection, which repays the advance
 * first (used credit and the debtor's exposure fall with it). When the
 * confirmed payments cover the amount, the invoice becomes 'paid' and is
 * settled: the final fee on the actual days, its completing fee e-invoice or
 * credit note, and the reserve (amount − advance − fees − VAT on them)
 * released as a pending 'reserve_release' payout to the client's IBAN
 * (./settlement.server.ts). On a charged-back invoice the collection is
 * credited to the client's account and nothing is settled. A refund of a confirmed payment takes the money
 * back off the invoice and the account; if that payment had settled it, the
 * reserve release is cancelled too — refused with 409 once the reserve left
 * in a bank file.
 *
 * Lock order (same as app/invoices): payment row, then invoice row, then
 * client row, each SELECT … FOR UPDATE inside one transaction; every
 * transition writes its activity rows in that transaction. Recording a
 * payment is ./payment-recording.server.ts.
 */

type LockedPayment = RowOf<typeof Payment, 'id' | 'invoice_id' | 'amount' | 'status' | 'reference'>;

async function lockPayment(id: string, transaction: Transaction): Promise<LockedPayment> {
  const row = isUuid(id)
    ? await selectOne<LockedPayment>('SELECT id, invoice_id, amount, status, reference FROM payments WHERE id = :id FOR UPDATE', { id }, { transaction })
    : null;
  if (!row) throw apiError(404, PAYMENT_MESSAGES.notFound);
  return row;
}

type LockedClient = RowOf<typeof Client, 'id' | 'company_name' | 'iban' | 'used_credit'>;

async function lockClient(id: string, transaction: Transaction): Promise<LockedClient> {
  return (await selectOne<LockedClient>('SELECT id, company_name, iban, used_credit FROM clients WHERE id = :id FOR UPDATE', { id }, { transaction }))!;
}

type Args = { actor: Actor; id: string; ip?: string | null };

async function setPaymentStatus(payment: LockedPayment, status: string, actor: Actor, transaction: Transaction) {
  await execute(
    `UPDATE payments SET status = :status, processed_by = :actorId, processed_at = coalesce(processed_at, now()) WHERE id = :id`,
    {
      id: payment.id,
      status,
      actorId: actor.id,
    },
    { transaction },
  );
}

async function logPayment(
  action: string,
  args: Args,
  payment: LockedPayment,
  invoice: Pick<LockedInvoice, 'id' | 'invoice_number' | 'currency'>,
  details: Record<string, unknown>,
  transaction: Transaction,
) {
  await logActivity(
    {
      action,
      userId: args.actor.id,
      entityType: 'payment',
      entityId: payment.id,
      ipAddress: args.ip,
      details: { invoiceId: invoice.id, invoiceNumber: invoice.invoice_number, amount: money(payment.amount), currency: invoice.currency, fromStatus: payment.status, ...details },
    },
    transaction,
  );
}

/**
 * PUT /api/payments/{id}/confirm (manager): pending → confirmed, applying
 * the money to the invoice and, when it is covered, settling it (see above).
 * 404 unknown, 409 not pending / invoice no longer open / above the open amount.
 */
export async function confirmPayment(args: Args, options: { transaction?: Transaction } = {}): Promise<PaymentDto> {
  assertCan(args.actor, 'confirm:payment');
  const run = async (transaction: Transaction) => {
    const payment = await lockPayment(args.id, transaction);
    if (payment.status !== 'pending') throw apiError(409, PAYMENT_MESSAGES.notPending, { params: { status: payment.status } });
    const invoice = (await lockInvoice(payment.invoice_id, transaction))!;
    const client = await lockClient(invoice.client_id, transaction);
    const amount = toCents(invoice.amount);
    // Credit notes lower what the debtor owes: it is paid when payments and credit notes cover the amount (docs/collections.md#dilution-and-disputes-resolved).
    const owed = amount - toCents(invoice.credited_amount);
    const paidBefore = toCents(invoice.paid_amount);
    const paying = toCents(payment.amount);
    if (!isCollectible(invoice.status)) throw apiError(409, PAYMENT_MESSAGES.invoiceNotPayable, { params: { number: invoice.invoice_number, invoiceStatus: invoice.status } });
    if (paidBefore + paying > owed) {
      throw apiError(409, PAYMENT_MESSAGES.amountAboveOpen, { params: { open: centsToDecimalString(owed - paidBefore), currency: invoice.currency } });
    }
    const paidAfter = paidBefore + paying;
    // A charged-back invoice is the client's debt now: its collection is credited back to the client, nothing is settled
    // (docs/collections.md#recourse-and-write-off).
    const settles = paidAfter === owed && invoice.status === 'financed';
    await setPaymentStatus(payment, 'confirmed', args.actor, transaction);
    await execute(
      `UPDATE invoices SET paid_amount = :paid, status = CASE WHEN :settles THEN 'paid' ELSE status END,
              paid_at = CASE WHEN :settles THEN now() ELSE paid_at END
        WHERE id = :id`,
      { id: invoice.id, paid: centsToDecimalString(paidAfter), settles },
      { transaction },
    );
    await logPayment(
      'payment_confirmed',
      args,
      payment,
      invoice,
      {
        toStatus: 'confirmed',
        paidBefore: centsToNumber(paidBefore),
        paidAfter: centsToNumber(paidAfter),
        invoiceAmount: centsToNumber(amount),
        settlesInvoice: settles,
      },
      transaction,
    );
    await postCollection({ actor: args.actor, invoice, paymentId: payment.id, cents: paying, reference: payment.reference }, transaction);
    if (settles) await settleInvoice({ actorId: args.actor.id, ip: args.ip, paymentId: payment.id }, invoice, client, transaction);
    // The confirmation is the payment processing's manual step: its task closes and the instance goes on.
    await applyEntityDecision({ workflowType: 'payment_processing', entityId: payment.id, decision: 'approve', actor: args.actor, summary: 'payment confirmed' }, { transaction });
    return getPayment(payment.id, transaction);
  };
  return inTransaction(run, options.transaction);
}

/** PUT /api/payments/{id}/fail (manager): pending → failed (the bank returned it, the cheque bounced). */
export async function failPayment(args: Args, options: { transaction?: Transaction } = {}): Promise<PaymentDto> {
  assertCan(args.actor, 'confirm:payment');
  const run = async (transaction: Transaction) => {
    const payment = await lockPayment(args.id, transaction);
    if (payment.status !== 'pending') throw apiError(409, PAYMENT_MESSAGES.notPending, { params: { status: payment.status } });
    const invoice = (await selectOne<RowOf<typeof Invoice>>('SELECT * FROM invoices WHERE id = :id', { id: payment.invoice_id }, { transaction }))!;
    await setPaymentStatus(payment, 'failed', args.actor, transaction);
    await logPayment('payment_failed', args, payment, invoice, { toStatus: 'failed' }, transaction);
    // A failed payment ends its processing: nothing to release, no one to tell of a payment that did not arrive.
    await applyEntityDecision({ workflowType: 'payment_processing', entityId: payment.id, decision: 'reject', actor: args.actor, summary: 'payment failed' }, { transaction });
    return getPayment(payment.id, transaction);
  };
  return inTransaction(run, options.transaction);
}

/**
 * PUT /api/payments/{id}/refund (manager): confirmed → refunded; the money
 * comes off the invoice, and a settlement it made is undone. 409 when not
 * confirmed, or 'Reserve already paid out' once the reserve was exported.
 */
export async function refundPayment(args: Args, options: { transaction?: Transaction } = {}): Promise<PaymentDto> {
  assertCan(args.actor, 'confirm:payment');
  const run = async (transaction: Transaction) => {
    const payment = await lockPayment(args.id, transaction);
    if (payment.status !== 'confirmed') throw apiError(409, PAYMENT_MESSAGES.notConfirmed, { params: { status: payment.status } });
    const invoice = (await lockInvoice(payment.invoice_id, transaction))!;
    const client = await lockClient(invoice.client_id, transaction);
    const paidBefore = toCents(invoice.paid_amount);
    const refunding = toCents(payment.amount);
    // Seeded history may hold refunds of payments never applied; only what was applied comes off.
    const paidAfter = Math.max(0, paidBefore - refunding);
    const reopens = invoice.status === 'paid';
    const details: Record<string, unknown> = { toStatus: 'refunded', paidBefore: centsToNumber(paidBefore), paidAfter: centsToNumber(paidAfter), reopensInvoice: reopens };
    // The reserve release first: once it left in a bank file the refund is refused before anything changes.
    const cancelledReserve = reopens ? await cancelReserveRelease({ ...args, paymentId: payment.id }, invoice, transaction) : null;
    const usedBefore = toCents(client.used_credit);
    if (paidBefore > paidAfter) {
      // What the payment had applied comes back off the account: the advance is outstanding again by that much.
      await postCollection({ actor: args.actor, invoice, paymentId: payment.id, cents: -(paidBefore - paidAfter), reference: payment.reference }, transaction);
    }
    if (reopens) {
      const usedAfter = toCents((await lockClient(client.id, transaction)).used_credit);
      await logActivity(
        {
          action: 'invoice_reopened',
          userId: args.actor.id,
          entityType: 'invoice',
          entityId: invoice.id,
          ipAddress: args.ip,
          details: {
            invoiceNumber: invoice.invoice_number,
            fromStatus: 'paid',
            toStatus: 'financed',
            paymentId: payment.id,
            usedCreditBefore: centsToNumber(usedBefore),
            usedCreditAfter: centsToNumber(usedAfter),
          },
        },
        transaction,
      );
      details.reserveCancelled = cancelledReserve?.id ?? null;
    }
    await execute(
      `UPDATE invoices SET paid_amount = :paid, status = CASE WHEN :reopens THEN 'financed' ELSE status END,
              paid_at = CASE WHEN :reopens THEN NULL ELSE paid_at END
        WHERE id = :id`,
      { id: invoice.id, paid: centsToDecimalString(paidAfter), reopens },
      { transaction },
    );
    await setPaymentStatus(payment, 'refunded', args.actor, transaction);
    await execute('UPDATE payments SET processed_at = now() WHERE id = :id', { id: payment.id }, { transaction });
    await logPayment('payment_refunded', args, payment, invoice, details, transaction);
    return getPayment(payment.id, transaction);
  };
  return inTransaction(run, options.transaction);
}
