import { selectOne } from '../../db.server.ts';
import { centsToDecimalString, toCents } from '../../utils/money.ts';
import { PermanentStepError } from '../step-errors.server.ts';
import type { StepContext, StepOutcome } from '../types.ts';
import { partyOf, sendOrDescribe } from './parties.server.ts';
import type { Invoice, Payment, Payout } from '../../../db/models/index.ts';
import type { RowOf } from '../../../db/models/rows.ts';

/**
 * Handlers of payment_processing. Confirming a payment (the manual step, by a
 * manager through app/payments) settles the invoice and creates the reserve
 * release payout in one transaction; these steps check and report that, they
 * never book money themselves.
 */

type PaymentRow = RowOf<typeof Payment, 'id' | 'status' | 'amount' | 'currency' | 'invoice_id'> &
  RowOf<typeof Invoice, 'invoice_number' | 'paid_amount' | 'credited_amount'> & {
    invoice_status: RowOf<typeof Invoice>['status'];
    invoice_amount: RowOf<typeof Invoice>['amount'];
  };

async function paymentOf({ instance, transaction }: StepContext): Promise<PaymentRow> {
  if (instance.entityType !== 'payment') throw new PermanentStepError(`This step needs a payment, not a ${instance.entityType}`);
  const row = await selectOne<PaymentRow>(
    `SELECT p.id, p.status, p.amount, p.currency, p.invoice_id, i.invoice_number, i.status AS invoice_status,
            i.amount AS invoice_amount, i.paid_amount, i.credited_amount
       FROM payments p JOIN invoices i ON i.id = p.invoice_id WHERE p.id = :id`,
    { id: instance.entityId },
    { transaction },
  );
  if (!row) throw new PermanentStepError(`Payment ${instance.entityId} not found`);
  return row;
}

const money = (cents: number, currency: string) => `${centsToDecimalString(cents)} ${currency}`;

/** How the payment fits its invoice's open amount: exact, partial or over. */
export async function matchPayment(context: StepContext): Promise<StepOutcome> {
  const payment = await paymentOf(context);
  if (payment.status === 'failed' || payment.status === 'refunded') throw new PermanentStepError(`Payment is ${payment.status}`);
  const amount = toCents(payment.amount);
  // A confirmed payment is already in paid_amount; count it back for the comparison.
  // Credit notes lower what the debtor owes (docs/collections.md#dilution-and-disputes-resolved).
  const open = toCents(payment.invoice_amount) - toCents(payment.paid_amount) - toCents(payment.credited_amount) + (payment.status === 'confirmed' ? amount : 0);
  const match = amount === open ? 'exact' : amount < open ? 'partial' : 'over';
  if (!['financed', 'paid', 'charged_back'].includes(payment.invoice_status)) {
    throw new PermanentStepError(`Invoice ${payment.invoice_number} is ${payment.invoice_status}, not financed`);
  }
  return {
    summary: `payment ${money(amount, payment.currency)} matched to invoice ${payment.invoice_number} (${match}; open ${money(open, payment.currency)})`,
    invoiceId: payment.invoice_id,
    match,
  };
}

/** Reports the reserve release that confirming the payment created (or why there is none). */
export async function releaseReserve(context: StepContext): Promise<StepOutcome> {
  const payment = await paymentOf(context);
  if (payment.status !== 'confirmed') throw new PermanentStepError(`Payment is ${payment.status}; confirm it before the reserve is released`);
  if (payment.invoice_status !== 'paid') return { summary: `no release yet: invoice ${payment.invoice_number} is not fully paid`, released: false };
  const payout = await selectOne<RowOf<typeof Payout, 'id' | 'amount' | 'status'>>(
    `SELECT id, amount, status FROM payouts WHERE invoice_id = :invoiceId AND kind = 'reserve_release' AND status <> 'cancelled'
      ORDER BY created_at DESC LIMIT 1`,
    { invoiceId: payment.invoice_id },
    { transaction: context.transaction },
  );
  if (!payout) return { summary: `no reserve to release for invoice ${payment.invoice_number}`, released: false };
  return {
    summary: `reserve release ${money(toCents(payout.amount), payment.currency)} is ${payout.status}`,
    released: true,
    payoutId: payout.id,
  };
}

export async function sendPaymentConfirmation(context: StepContext): Promise<StepOutcome> {
  const payment = await paymentOf(context);
  const client = await partyOf(context, { invoiceParty: 'client' });
  if (!client.email) return { summary: 'skipped: the client has no email address', sent: false };
  return sendOrDescribe(
    context,
    {
      to: client.email,
      subject: `Uplata za fakturu ${payment.invoice_number}`,
      text: `Poštovani, ${client.companyName},\n\nzaprimili smo uplatu od ${money(toCents(payment.amount), payment.currency)} za fakturu ${payment.invoice_number}.\n`,
    },
    'payment confirmation',
  );
}
