import type { Transaction } from 'sequelize';
import type { Collection, FeeModel } from '../agreements/fees.ts';
import { selectRows } from '../db.server.ts';
import { toCents } from '../utils/money.ts';

/**
 * What lowers a purchased invoice's fee base besides the debtor's collections
 * (docs/money.md#fees-that-follow-time), as the fee models take collections:
 *  - the discount runs on the open amount, which a credit note lowers from the
 *    day it was booked;
 *  - interest runs on the advance outstanding, which the excess advance
 *    charged back with a credit note lowers from its day (the negative
 *    'advance' entry of ./excess-advance.server.ts).
 * Read by the settlement and by the invoice page's fee to date, so both
 * compute the same fee.
 */
export async function feeBaseReductions(invoiceId: string, feeModel: FeeModel, options: { transaction?: Transaction } = {}): Promise<Collection[]> {
  const rows = await selectRows<{ day: string; cents: string }>(
    feeModel === 'discount_30'
      ? `SELECT to_char(booked_on, 'YYYY-MM-DD') AS day, sum(amount) AS cents FROM credit_notes WHERE invoice_id = :invoiceId GROUP BY booked_on ORDER BY booked_on`
      : `SELECT to_char(booked_on, 'YYYY-MM-DD') AS day, -sum(amount) AS cents
           FROM client_ledger WHERE invoice_id = :invoiceId AND kind = 'advance' AND amount < 0 GROUP BY booked_on ORDER BY booked_on`,
    { invoiceId },
    options,
  );
  return rows.map((row) => ({ day: row.day, cents: toCents(row.cents) }));
}
