import type { Sequelize, Transaction } from 'sequelize';
import { DAY, HOUR, type Clock, date } from './plumbing.ts';
import type { StaffSet } from './staff.ts';

/**
 * Dilution in the demo book (docs/collections.md#dilution-and-disputes-resolved):
 * credit notes entered by hand on three financed invoices and a debtor's
 * dispute of a fourth, resolved as reduced, with its credit note. Each takes
 * 5 % of an invoice nothing has been paid on and whose advance is at most
 * 90 %, so what the debtor still owes stays above the advance and no excess
 * is charged back (the ledger is as the backfill left it). Chosen by invoice
 * number and dated by the clock, drawn from no PRNG, so the rest of the book
 * does not move. Returns the rows it wrote, for the log line.
 */
export async function seedDilution(sequelize: Sequelize, transaction: Transaction, clock: Clock, staff: StaffSet): Promise<string[]> {
  const [invoices] = (await sequelize.query(
    `SELECT i.id, i.invoice_number, i.amount, round(i.amount * 0.05, 2) AS credit, to_char(greatest(i.issue_date, CAST($1 AS date)), 'YYYY-MM-DD') AS issue_date
       FROM invoices i
      WHERE i.status = 'financed' AND i.paid_amount = 0 AND i.pending_amount = 0 AND NOT i.disputed AND i.factor_amount <= i.amount * 0.9
      ORDER BY i.invoice_number, (SELECT c.oib FROM clients c WHERE c.id = i.client_id) LIMIT 4`,
    { bind: [clock.dayAgo(8)], transaction },
  )) as [Array<{ id: string; invoice_number: string; amount: string; credit: string; issue_date: string }>, unknown];
  const [manager] = staff.deciders;
  if (invoices.length < 4 || !manager) throw new Error('the demo book has too few financed invoices or no manager for its credit notes');
  const at = (daysAgo: number, hour: number) => clock.past(clock.midnight - daysAgo * DAY + hour * HOUR);
  const reasons = ['Povrat oštećene robe', 'Naknadni popust za količinu', 'Ispravak cijene prema ugovoru'];

  const log = (action: string, invoiceId: string, when: number, details: Record<string, unknown>) =>
    sequelize.query(`INSERT INTO activity_logs (action, entity_type, entity_id, user_id, details, created_at) VALUES ($1, 'invoice', $2, $3, CAST($4 AS jsonb), $5)`, {
      bind: [action, invoiceId, manager.id, JSON.stringify(details), date(when)],
      transaction,
    });
  const insertCreditNote = async (invoice: (typeof invoices)[number], number: string, reason: string, when: number, disputeId: string | null) => {
    await sequelize.query(
      `INSERT INTO credit_notes (invoice_id, number, issue_date, amount, reason, source, dispute_id, booked_on, created_by, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, CAST((CAST($8 AS timestamptz) AT TIME ZONE 'Europe/Zagreb') AS date), $9, CAST($8 AS timestamptz))`,
      { bind: [invoice.id, number, invoice.issue_date, invoice.credit, reason, disputeId ? 'dispute' : 'manual', disputeId, date(when), manager.id], transaction },
    );
    // No ids in the details: the demo book is the same from run to run but for its UUIDs.
    await log('credit_note_recorded', invoice.id, when, {
      invoiceNumber: invoice.invoice_number,
      number,
      amount: invoice.credit,
      source: disputeId ? 'dispute' : 'manual',
      reason,
      chargeback: 0,
    });
  };

  for (const [index, invoice] of invoices.slice(0, 3).entries()) {
    await insertCreditNote(invoice, `ODB-${invoice.invoice_number}`.slice(0, 100), reasons[index], at(6 - index, 10), null);
  }

  // The debtor disputed the fourth through its link; a manager settled it at 95 % of the invoice.
  const disputed = invoices[3];
  const agreed = (Number(disputed.amount) * 100 - Number(disputed.credit) * 100) / 100;
  const reason = 'Dio isporuke nije odgovarao narudžbi';
  const note = 'Dogovoreno umanjenje od 5 % uz potvrdu kupca';
  const [[dispute]] = (await sequelize.query(
    `INSERT INTO invoice_disputes (invoice_id, reason, source, opened_at, opened_ip, outcome, agreed_amount, resolution_note, resolved_at, resolved_by)
     VALUES ($1, $2, 'debtor', $3, '93.136.41.7', 'reduced', $4, $5, $6, $7) RETURNING id`,
    { bind: [disputed.id, reason, date(at(9, 8)), agreed.toFixed(2), note, date(at(3, 11)), manager.id], transaction },
  )) as [Array<{ id: string }>, unknown];
  await insertCreditNote(disputed, `SPOR-${disputed.invoice_number}`.slice(0, 100), note, at(3, 11), dispute.id);
  await log('dispute_resolved', disputed.id, at(3, 11), { invoiceNumber: disputed.invoice_number, reason, outcome: 'reduced', agreedAmount: agreed, note });
  return [`${invoices.length} credit_notes`, '1 invoice_disputes'];
}
