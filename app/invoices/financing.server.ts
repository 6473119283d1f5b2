import { agreementInForce } from '../agreements/in-force.server.ts';
import { AGREEMENT_ERRORS } from '../agreements/schemas.ts';
import type { Transaction } from 'sequelize';
import type { Actor } from '../auth/users.server.ts';
import { execute, selectOne } from '../db.server.ts';
import { issueFeeEInvoice } from '../einvoices/outgoing.server.ts';
import { apiError } from '../utils/api.server.ts';
import { centsToDecimalString, centsToNumber, factoringFeeCents, feePeriods, percentOfCents, toCents } from '../utils/money.ts';
import { INVOICE_MESSAGES, INVOICE_REFUSALS } from './schemas.ts';
import { SQL_BUSINESS_TODAY } from '../utils/business-time.ts';
import { blockedRefusal, customerState, transition } from './invoice-transition.server.ts';
import type { Client } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';

/**
 * The financing figures (docs/money.md), the same rule the demo seed uses:
 *  - factorAmount (the advance) = amount × the client's advance_rate %, rounded half-up to the cent;
 *  - factorFee = amount × fee_rate % × periods, rounded once half-up, where
 *    periods = every started 30 days from the financing date to the due date,
 *    at least one (feePeriods); the financing date is today in Croatia
 *    (Europe/Zagreb), so an invoice due today or earlier pays one period.
 */
export function financingFigures(input: { amountCents: number; advanceRate: string; feeRate: string; days: number }) {
  return {
    factorAmount: percentOfCents(input.amountCents, input.advanceRate),
    factorFee: factoringFeeCents(input.amountCents, input.feeRate, input.days),
    periods: feePeriods(input.days),
  };
}

/**
 * PUT /api/invoices/{id}/finance (manager): approved → financed. In one
 * transaction, with the invoice and then the client row locked: refuses
 * (409, naming the reason) a client whose KYC is not approved, a blocked customer, a non-EUR invoice (limits and
 * used credit are in EUR), a client without IBAN or credit limit (a NULL
 * limit means no financing), used credit + advance past the limit, and an
 * advance + fee above the invoice amount; otherwise books factorAmount and
 * factorFee, raises clients.used_credit by the advance, inserts the
 * pending advance payout to the client's IBAN and issues the fee e-invoice
 * (app/einvoices/outgoing.server.ts), sent by a job after commit.
 */
export async function financeInvoice(args: { actor: Actor; id: string; ip?: string | null }, options: { transaction?: Transaction } = {}) {
  return transition(
    args,
    {
      verb: 'finance',
      permission: 'finance:invoice',
      action: 'invoice_financed',
      from: ['approved'],
      to: 'financed',
      apply: async (row, transaction) => {
        const client = (await selectOne<RowOf<typeof Client, 'company_name' | 'iban' | 'credit_limit' | 'used_credit' | 'onboarding_status'>>(
          'SELECT company_name, iban, credit_limit, used_credit, onboarding_status FROM clients WHERE id = :clientId FOR UPDATE',
          { clientId: row.client_id },
          { transaction },
        ))!;
        // No financing before staff approved the client's KYC (app/onboarding/kyc-decision.server.ts).
        if (client.onboarding_status !== 'completed') {
          throw apiError(409, INVOICE_MESSAGES.kycNotApproved, { errors: { clientId: [INVOICE_MESSAGES.kycNotApproved] } });
        }
        const customer = await customerState(row.customer_id, transaction);
        if (customer.account_blocked) throw blockedRefusal(customer, 'finance');
        if (row.currency !== 'EUR') throw apiError(409, INVOICE_REFUSALS.notEur, { params: { currency: row.currency } });
        if (!client.iban) throw apiError(409, INVOICE_REFUSALS.noIban, { params: { name: client.company_name } });
        if (client.credit_limit === null) throw apiError(409, INVOICE_REFUSALS.noLimit, { params: { name: client.company_name } });

        const { today, days } = (await selectOne<{ today: string; days: number }>(
          `SELECT to_char(${SQL_BUSINESS_TODAY}, 'YYYY-MM-DD') AS today,
                  (CAST(:dueDate AS date) - ${SQL_BUSINESS_TODAY}) AS days`,
          { dueDate: row.due_date },
          { transaction },
        ))!;
        // The rates come from the agreement version in force today (docs/money.md#the-agreement); none, no financing.
        const agreement = await agreementInForce(row.client_id, today, { transaction });
        if (!agreement) throw apiError(409, AGREEMENT_ERRORS.noneInForce, { params: { name: client.company_name } });
        const amount = toCents(row.amount);
        const { factorAmount, factorFee, periods } = financingFigures({
          amountCents: amount,
          advanceRate: agreement.advance_rate,
          feeRate: agreement.fee_rate,
          days,
        });
        const limit = toCents(client.credit_limit);
        const used = toCents(client.used_credit);
        if (used + factorAmount > limit) {
          throw apiError(409, INVOICE_REFUSALS.limitExceeded, {
            params: { used: centsToDecimalString(used), advance: centsToDecimalString(factorAmount), limit: centsToDecimalString(limit) },
          });
        }
        if (factorAmount + factorFee > amount) {
          throw apiError(409, INVOICE_REFUSALS.feeExceedsAmount, {
            params: { advance: centsToDecimalString(factorAmount), fee: centsToDecimalString(factorFee), amount: centsToDecimalString(amount) },
          });
        }

        await execute(
          `UPDATE invoices SET status = 'financed', factor_amount = :factorAmount, factor_fee = :factorFee,
                  financed_by = :actorId, financed_at = now()
            WHERE id = :id`,
          { id: row.id, actorId: args.actor.id, factorAmount: centsToDecimalString(factorAmount), factorFee: centsToDecimalString(factorFee) },
          { transaction },
        );
        await execute(
          'UPDATE clients SET used_credit = used_credit + :advance WHERE id = :clientId',
          {
            clientId: row.client_id,
            advance: centsToDecimalString(factorAmount),
          },
          { transaction },
        );
        const { rows } = await execute<{ id: string }>(
          `INSERT INTO payouts (client_id, invoice_id, kind, amount, currency, iban, status, created_by)
           VALUES (:clientId, :invoiceId, 'advance', :amount, :currency, :iban, 'pending', :actorId)
           RETURNING id`,
          {
            clientId: row.client_id,
            invoiceId: row.id,
            amount: centsToDecimalString(factorAmount),
            currency: row.currency,
            iban: client.iban,
            actorId: args.actor.id,
          },
          { transaction },
        );
        // The fee e-invoice to the client, in this transaction: no financing without it, no e-invoice without the financing.
        const feeEInvoice = await issueFeeEInvoice(row.id, transaction);
        return {
          factorAmount: centsToNumber(factorAmount),
          factorFee: centsToNumber(factorFee),
          advanceRate: Number(agreement.advance_rate),
          feeRate: Number(agreement.fee_rate),
          financedOn: today,
          dueDate: row.due_date,
          days,
          feePeriods: periods,
          usedCreditBefore: centsToNumber(used),
          usedCreditAfter: centsToNumber(used + factorAmount),
          creditLimit: centsToNumber(limit),
          payoutId: rows[0].id,
          iban: client.iban,
          feeEInvoice: feeEInvoice?.number ?? null,
        };
      },
    },
    options,
  );
}
