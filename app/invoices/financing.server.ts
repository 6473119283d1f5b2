import type { Transaction } from 'sequelize';
import type { Actor } from '../auth/users.server.ts';
import { execute } from '../db.server.ts';
import { feeFigures, issueFeeEInvoice } from '../einvoices/outgoing.server.ts';
import { postLedgerEntries } from '../ledger/ledger.server.ts';
import { centsToDecimalString, centsToNumber, toCents } from '../utils/money.ts';
import { firstRefusal, invoiceEligibility } from './eligibility.server.ts';
import { transition } from './invoice-transition.server.ts';
import { noticeOnFinancing } from '../debtors/notices.server.ts';

/**
 * PUT /api/invoices/{id}/finance (manager): approved → financed, on the
 * client's agreement in force today (docs/money.md#the-factoring-figures).
 * In one transaction, with the invoice, the client and the customer rows
 * locked in that order: runs every eligibility check (./eligibility.server.ts,
 * docs/lifecycle.md#financing) and refuses with the first failing one's 409
 * before anything is written; otherwise stores the advance, the fee (with
 * the documentation fee of the agreement's first financing), its VAT and
 * the agreement version used, inserts the pending advance payout to the
 * client's IBAN, issues the fee e-invoice (app/einvoices/outgoing.server.ts,
 * sent by a job after commit) and books advance, fee and fee VAT in the
 * client's ledger, which raises the client's used credit and the debtor's
 * exposure by the advance (app/ledger/ledger.server.ts).
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
        const eligibility = await invoiceEligibility(row.id, { transaction, lock: true });
        const refusal = firstRefusal(eligibility);
        if (refusal) throw refusal;
        const { agreement, figures, client } = eligibility as typeof eligibility & {
          agreement: NonNullable<typeof eligibility.agreement>;
          figures: NonNullable<typeof eligibility.figures>;
        };
        const factorFeeVat = feeFigures(figures.factorFeeCents).vat;

        await execute(
          `UPDATE invoices SET status = 'financed', factor_amount = :factorAmount, factor_fee = :factorFee, factor_fee_vat = :factorFeeVat,
                  documentation_fee = :documentationFee, agreement_id = :agreementId, financed_by = :actorId, financed_at = now()
            WHERE id = :id`,
          {
            id: row.id,
            actorId: args.actor.id,
            factorAmount: centsToDecimalString(figures.advanceCents),
            factorFee: centsToDecimalString(figures.factorFeeCents),
            factorFeeVat: centsToDecimalString(factorFeeVat),
            documentationFee: centsToDecimalString(figures.documentationFeeCents),
            agreementId: agreement.id,
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
            amount: centsToDecimalString(figures.advanceCents),
            currency: row.currency,
            iban: client.iban,
            actorId: args.actor.id,
          },
          { transaction },
        );
        // The fee e-invoice to the client, in this transaction: no financing without it, no e-invoice without the financing.
        const feeEInvoice = await issueFeeEInvoice(row.id, transaction);
        const feeReference = feeEInvoice?.number ?? row.invoice_number;
        const entry = { clientId: row.client_id, invoiceId: row.id, createdBy: args.actor.id, bookedOn: figures.today, currency: row.currency };
        await postLedgerEntries(
          [
            { ...entry, kind: 'advance', amountCents: figures.advanceCents, payoutId: rows[0].id, description: row.invoice_number },
            { ...entry, kind: 'fee', amountCents: figures.factorFeeCents, einvoiceId: feeEInvoice?.id ?? null, description: feeReference },
            { ...entry, kind: 'fee_vat', amountCents: factorFeeVat, einvoiceId: feeEInvoice?.id ?? null, description: feeReference },
          ],
          transaction,
        );
        // The notice of assignment at the pair's first financing under a disclosed agreement (docs/collections.md), in this transaction.
        const notice = await noticeOnFinancing({ invoice: row, agreement, actor: args.actor, ip: args.ip }, transaction);
        const used = toCents(client.used_credit);
        return {
          factorAmount: centsToNumber(figures.advanceCents),
          factorFee: centsToNumber(figures.factorFeeCents),
          factorFeeVat: centsToNumber(factorFeeVat),
          documentationFee: centsToNumber(figures.documentationFeeCents),
          agreementId: agreement.id,
          agreementNumber: agreement.number,
          agreementVersion: agreement.version,
          feeModel: agreement.fee_model,
          advanceRate: Number(agreement.advance_rate),
          feeRate: Number(agreement.fee_rate),
          minimumFeeApplied: figures.fee.minimumApplied,
          financedOn: figures.today,
          dueDate: row.due_date,
          days: figures.fee.days,
          ...(agreement.fee_model === 'discount_30' ? { feePeriods: figures.fee.segments.length } : {}),
          usedCreditBefore: centsToNumber(used),
          usedCreditAfter: centsToNumber(used + figures.advanceCents),
          creditLimit: centsToNumber(toCents(client.credit_limit!)),
          payoutId: rows[0].id,
          iban: client.iban,
          feeEInvoice: feeEInvoice?.number ?? null,
          ...(notice ? { debtorNotice: { noticeId: notice.noticeId, documentId: notice.documentId, emailLogId: notice.link?.emailLogId ?? null, taskId: notice.taskId } } : {}),
        };
      },
    },
    options,
  );
}
