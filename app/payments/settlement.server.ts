import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { execute, selectOne, selectRows } from '../db.server.ts';
import { invoiceFee } from '../agreements/fees.ts';
import { AGREEMENT_COLUMNS, feeTermsOf, type AgreementRow } from '../agreements/in-force.server.ts';
import { feeFigures } from '../einvoices/outgoing.server.ts';
import { issueFeeSettlementDocument } from '../einvoices/fee-settlement.server.ts';
import { invoiceLedgerBalance, postLedgerEntries } from '../ledger/ledger.server.ts';
import { feeBaseReductions } from '../dilution/fee-base.server.ts';
import { apiError } from '../utils/api.server.ts';
import { money } from '../utils/api-values.ts';
import { SQL_BUSINESS_TODAY } from '../utils/business-time.ts';
import { centsToDecimalString, centsToNumber, toCents } from '../utils/money.ts';

const formatCents = (cents: number) => centsToDecimalString(cents).replace('.', ',');
import { PAYMENT_MESSAGES } from './schemas.ts';
import type { LockedInvoice } from './payment-recording.server.ts';
import type { Payout } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';

/**
 * What a collection does to the client's account, and the settlement when
 * the debtor has paid the invoice in full (docs/money.md#the-clients-account).
 *
 *  - Every confirmed collection is a 'collection' entry (negative: the factor
 *    now owes it to the client); a refund reverses what was applied. The
 *    ledger writer moves used credit and the debtor's exposure with them:
 *    collections repay the advance first.
 *  - At settlement the fee is computed on the actual days under the agreement
 *    version the financing used (invoiceFee, from the financing day to today,
 *    the collections lowering the base from their days), plus the
 *    documentation fee charged at financing. The difference to the fees
 *    invoiced so far is invoiced by a completing fee e-invoice or credited by
 *    a credit note, each posted with its VAT.
 *  - The reserve released is then what the invoice's entries leave owed to
 *    the client: amount − advance − final fees − VAT on them, to the cent.
 *    When the fees exceed the reserve nothing is paid out and the client owes
 *    the rest on its account.
 */

type Args = { actor: Actor; id: string; ip?: string | null };
/** What covered the invoice: the settling payment, or a credit note (docs/collections.md#dilution-and-disputes-resolved). */
type SettlingArgs = { actorId: string | null; ip?: string | null; paymentId?: string; creditNoteId?: string };
type SettlingClient = { id: string; company_name: string; iban: string | null };

/** The 'collection' entry of a confirmed payment: `cents` is what it applied to the invoice (negative to the balance). */
export async function postCollection(input: { actor: Actor; invoice: LockedInvoice; paymentId: string; cents: number; reference: string | null }, transaction: Transaction) {
  await postLedgerEntries(
    [
      {
        clientId: input.invoice.client_id,
        kind: 'collection',
        amountCents: -input.cents,
        invoiceId: input.invoice.id,
        paymentId: input.paymentId,
        description: input.reference ? `${input.invoice.invoice_number} · ${input.reference}` : input.invoice.invoice_number,
        createdBy: input.actor.id,
      },
    ],
    transaction,
  );
}

/** The agreement version the financing used, and the invoice's money dates as its ledger booked them. */
async function invoiceTerms(invoiceId: string, transaction: Transaction) {
  const terms = (await selectOne<{ agreement_id: string | null; financed_on: string | null; today: string; documentation_fee: string; fees_invoiced: string | null }>(
    `SELECT i.agreement_id,
            (SELECT to_char(min(booked_on), 'YYYY-MM-DD') FROM client_ledger WHERE invoice_id = i.id AND kind = 'advance') AS financed_on,
            to_char(${SQL_BUSINESS_TODAY}, 'YYYY-MM-DD') AS today, i.documentation_fee,
            (SELECT sum(amount) FROM client_ledger WHERE invoice_id = i.id AND kind = 'fee') AS fees_invoiced
       FROM invoices i WHERE i.id = :invoiceId`,
    { invoiceId },
    { transaction },
  ))!;
  const agreement = terms.agreement_id
    ? await selectOne<AgreementRow>(`SELECT ${AGREEMENT_COLUMNS} FROM agreements WHERE id = :id`, { id: terms.agreement_id }, { transaction })
    : null;
  return { ...terms, agreement };
}

/** The collections on the invoice per booking day (refunds net off), as the fee models take them. */
async function collectionsOf(invoiceId: string, transaction: Transaction) {
  const rows = await selectRows<{ day: string; cents: string }>(
    `SELECT to_char(booked_on, 'YYYY-MM-DD') AS day, -sum(amount) AS cents
       FROM client_ledger WHERE invoice_id = :invoiceId AND kind = 'collection' GROUP BY booked_on ORDER BY booked_on`,
    { invoiceId },
    { transaction },
  );
  return rows.map((row) => ({ day: row.day, cents: toCents(row.cents) }));
}

/**
 * The fee on the actual days until today under the agreement version the
 * financing used (docs/money.md#fees-that-follow-time), the difference to the
 * fees invoiced so far issued as a completing fee e-invoice or a credit note
 * and posted with its VAT, and invoices.factor_fee / factor_fee_vat set to the
 * final figures. Shared by the settlement and the chargeback
 * (app/recourse/recourse.server.ts), which settles the fee the same way.
 */
export async function settleFeeToDate(
  actorId: string | null,
  invoice: Pick<LockedInvoice, 'id' | 'client_id' | 'invoice_number' | 'amount' | 'factor_amount'>,
  transaction: Transaction,
) {
  const amount = toCents(invoice.amount);
  const advance = toCents(invoice.factor_amount ?? '0');
  const terms = await invoiceTerms(invoice.id, transaction);
  // An invoice financed before the ledger existed and never backfilled would release its whole amount.
  if (terms.financed_on === null) throw new Error(`invoice ${invoice.id} is financed but has no advance in the client's ledger`);
  const invoiced = toCents(terms.fees_invoiced ?? '0');
  let feeDocument: string | null = null;

  // Financings before agreements keep the fee they were charged.
  let finalFee = invoiced;
  let feeBreakdown: ReturnType<typeof invoiceFee> | null = null;
  if (terms.agreement) {
    feeBreakdown = invoiceFee(feeTermsOf(terms.agreement), {
      amountCents: amount,
      advanceCents: advance,
      financedOn: terms.financed_on,
      until: terms.today,
      // Credit notes (discount) or the excess advance charged back (interest) lower the base like collections.
      collections: [...(await collectionsOf(invoice.id, transaction)), ...(await feeBaseReductions(invoice.id, terms.agreement.fee_model, { transaction }))],
    });
    finalFee = feeBreakdown.totalCents + toCents(terms.documentation_fee);
  }
  const difference = finalFee - invoiced;
  if (difference !== 0) {
    const reason = `Konačni obračun naknade za ${feeBreakdown?.days ?? 0} dana financiranja: ${formatCents(finalFee)} EUR, zaračunato ${formatCents(invoiced)} EUR.`;
    const document = await issueFeeSettlementDocument(invoice.id, { netCents: difference, reason, actorId }, transaction);
    // A financing from before e-invoicing has no fee e-invoice to complete: the difference is still booked, with its VAT.
    const vat = document?.vatCents ?? Math.sign(difference) * feeFigures(Math.abs(difference)).vat;
    const reference = document?.number ?? invoice.invoice_number;
    const clientId = invoice.client_id;
    await postLedgerEntries(
      [
        { clientId, kind: 'fee', amountCents: difference, invoiceId: invoice.id, einvoiceId: document?.id ?? null, description: reference, createdBy: actorId },
        { clientId, kind: 'fee_vat', amountCents: vat, invoiceId: invoice.id, einvoiceId: document?.id ?? null, description: reference, createdBy: actorId },
      ],
      transaction,
    );
    feeDocument = document?.number ?? null;
  }
  const feeVat = toCents(
    (await selectOne<{ vat: string | null }>(`SELECT sum(amount) AS vat FROM client_ledger WHERE invoice_id = :id AND kind = 'fee_vat'`, { id: invoice.id }, { transaction }))!
      .vat ?? '0',
  );
  await execute(
    'UPDATE invoices SET factor_fee = :fee, factor_fee_vat = :vat WHERE id = :id',
    { id: invoice.id, fee: centsToDecimalString(finalFee), vat: centsToDecimalString(feeVat) },
    { transaction },
  );
  return { invoiced, finalFee, feeVat, days: feeBreakdown?.days ?? null, feeDocument };
}

/**
 * The invoice is covered: the final fee on the actual days, its completing
 * document, and the reserve release. Returns the figures for the activity log.
 */
export async function settleInvoice(args: SettlingArgs, invoice: LockedInvoice, client: SettlingClient, transaction: Transaction) {
  const amount = toCents(invoice.amount);
  const advance = toCents(invoice.factor_amount ?? '0');
  const { invoiced, finalFee, feeVat, days, feeDocument } = await settleFeeToDate(args.actorId, invoice, transaction);

  const reserve = -(await invoiceLedgerBalance(invoice.id, { transaction }));
  await logActivity(
    {
      action: 'invoice_paid',
      userId: args.actorId,
      entityType: 'invoice',
      entityId: invoice.id,
      ipAddress: args.ip,
      details: {
        invoiceNumber: invoice.invoice_number,
        amount: centsToNumber(amount),
        currency: invoice.currency,
        fromStatus: 'financed',
        toStatus: 'paid',
        paymentId: args.paymentId ?? null,
        creditNoteId: args.creditNoteId ?? null,
        factorAmount: centsToNumber(advance),
        feeInvoiced: centsToNumber(invoiced),
        finalFee: centsToNumber(finalFee),
        feeDays: days,
        feeDocument,
        reserve: centsToNumber(Math.max(0, reserve)),
        owedByClient: centsToNumber(Math.max(0, -reserve)),
      },
    },
    transaction,
  );
  if (reserve <= 0) return;

  // The advance went to this account at financing; it is the fallback when the client's IBAN was cleared since.
  const iban =
    client.iban ??
    (
      await selectOne<RowOf<typeof Payout, 'iban'>>(
        `SELECT iban FROM payouts WHERE invoice_id = :id AND kind = 'advance' ORDER BY created_at DESC LIMIT 1`,
        { id: invoice.id },
        { transaction },
      )
    )?.iban;
  if (!iban) throw apiError(409, PAYMENT_MESSAGES.noIbanForReserve, { params: { name: client.company_name } });
  const { rows } = await execute<{ id: string }>(
    `INSERT INTO payouts (client_id, invoice_id, kind, amount, currency, iban, status, created_by)
     VALUES (:clientId, :invoiceId, 'reserve_release', :amount, :currency, :iban, 'pending', :actorId) RETURNING id`,
    { clientId: client.id, invoiceId: invoice.id, amount: centsToDecimalString(reserve), currency: invoice.currency, iban, actorId: args.actorId },
    { transaction },
  );
  await postLedgerEntries(
    [
      {
        clientId: client.id,
        kind: 'reserve_release',
        amountCents: reserve,
        invoiceId: invoice.id,
        payoutId: rows[0].id,
        description: invoice.invoice_number,
        createdBy: args.actorId,
      },
    ],
    transaction,
  );
  await logActivity(
    {
      action: 'reserve_released',
      userId: args.actorId,
      entityType: 'payout',
      entityId: rows[0].id,
      ipAddress: args.ip,
      details: {
        invoiceId: invoice.id,
        invoiceNumber: invoice.invoice_number,
        clientName: client.company_name,
        amount: centsToNumber(reserve),
        invoiceAmount: centsToNumber(amount),
        factorAmount: centsToNumber(advance),
        factorFee: centsToNumber(finalFee),
        factorFeeVat: centsToNumber(feeVat),
        iban,
      },
    },
    transaction,
  );
}

/**
 * A refund reopened a settled invoice: the pending reserve release is
 * cancelled and taken back off the account. The fee documents of the
 * settlement stay (they are issued); the next settlement invoices or credits
 * only the difference to them. Returns the cancelled payout, or null.
 */
export async function cancelReserveRelease(args: Args & { paymentId: string }, invoice: LockedInvoice, transaction: Transaction) {
  const reserve = await selectOne<RowOf<typeof Payout, 'id' | 'status' | 'amount'>>(
    `SELECT id, status, amount FROM payouts WHERE invoice_id = :id AND kind = 'reserve_release' AND status <> 'cancelled' FOR UPDATE`,
    { id: invoice.id },
    { transaction },
  );
  if (!reserve) return null;
  if (reserve.status !== 'pending') throw apiError(409, PAYMENT_MESSAGES.reserveAlreadyPaidOut);
  await execute(`UPDATE payouts SET status = 'cancelled' WHERE id = :id`, { id: reserve.id }, { transaction });
  await postLedgerEntries(
    [
      {
        clientId: invoice.client_id,
        kind: 'reserve_release',
        amountCents: -toCents(reserve.amount),
        invoiceId: invoice.id,
        payoutId: reserve.id,
        description: invoice.invoice_number,
        createdBy: args.actor.id,
      },
    ],
    transaction,
  );
  await logActivity(
    {
      action: 'reserve_cancelled',
      userId: args.actor.id,
      entityType: 'payout',
      entityId: reserve.id,
      ipAddress: args.ip,
      details: {
        invoiceId: invoice.id,
        invoiceNumber: invoice.invoice_number,
        amount: money(reserve.amount),
        paymentId: args.paymentId,
        fromStatus: 'pending',
        toStatus: 'cancelled',
      },
    },
    transaction,
  );
  return reserve;
}
