import type { Transaction } from 'sequelize';
import { execute, selectOne } from '../db.server.ts';
import { postLedgerEntries } from '../ledger/ledger.server.ts';
import { centsToDecimalString, toCents } from '../utils/money.ts';

/**
 * The excess advance of a diluted invoice (docs/money.md#dilution): once a
 * credit note has lowered what the debtor still owes (amount − confirmed
 * payments − credit notes) below the advance still outstanding on the invoice
 * (its 'advance' and 'collection' entries, the sum the ledger writer keeps as
 * used credit), the debtor's payments can no longer repay that advance: the
 * difference is the client's to repay, at once.
 *
 * Booked as two entries of the credit note, through the ledger's only writer:
 *  - 'chargeback' +excess: the debit the client now owes directly, naming the
 *    credit note;
 *  - 'advance' −excess: the same money taken off the advance the debtor's
 *    receivable stood for, so postLedgerEntries lowers the client's used
 *    credit and the debtor's exposure by exactly that amount.
 * The balance of the account does not move: what the client owed as an
 * advance it now owes as a chargeback (the advance was already a debit); a
 * single +chargeback would charge it twice. The settlement's reserve
 * (−the invoice's balance) is then amount − credit notes − advance − fees −
 * VAT on them, as with any payment.
 *
 * Runs in the credit note's transaction after it is inserted (the invoice's
 * credited_amount includes it), with the invoice, client and customer rows
 * locked by the caller. Records the excess on the credit note and returns it
 * in cents (0 when the advance is still covered).
 */
export async function chargeExcessAdvance(
  input: { invoiceId: string; creditNoteId: string; reference: string; actorId: string | null },
  transaction: Transaction,
): Promise<number> {
  const row = (await selectOne<{ client_id: string; owed: string; outstanding: string }>(
    `SELECT i.client_id, greatest(i.amount - i.paid_amount - i.credited_amount, 0) AS owed,
            greatest(coalesce((SELECT sum(l.amount) FROM client_ledger l WHERE l.invoice_id = i.id AND l.kind IN ('advance', 'collection')), 0), 0) AS outstanding
       FROM invoices i WHERE i.id = :invoiceId`,
    { invoiceId: input.invoiceId },
    { transaction },
  ))!;
  const excess = toCents(row.outstanding) - toCents(row.owed);
  if (excess <= 0) return 0;
  const description = `Odobrenje ${input.reference}: višak predujma`;
  const common = { clientId: row.client_id, invoiceId: input.invoiceId, description, createdBy: input.actorId };
  await postLedgerEntries(
    [
      { ...common, kind: 'chargeback', amountCents: excess },
      { ...common, kind: 'advance', amountCents: -excess },
    ],
    transaction,
  );
  await execute('UPDATE credit_notes SET chargeback_amount = :excess WHERE id = :id', { id: input.creditNoteId, excess: centsToDecimalString(excess) }, { transaction });
  return excess;
}
