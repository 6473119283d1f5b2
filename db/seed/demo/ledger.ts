import type { Sequelize, Transaction } from 'sequelize';
import { LEDGER_BACKFILL_STATEMENTS } from '../../ledger-backfill.ts';
import { DAY, HOUR, type Clock, date } from './plumbing.ts';
import type { StaffSet } from './staff.ts';

/**
 * The clients' accounts of the demo book (docs/money.md#the-clients-account):
 * the ledger its invoices, payments and payouts imply, written by the same
 * backfill an upgraded install runs (db/ledger-backfill.ts), which also sets
 * every client's and customer's used credit to its ledger sum. Then a few
 * manual adjustments on the first clients (by OIB) with entries: one posted at
 * once (under the book's four-eyes amount), one approved by a second manager,
 * one rejected and one pending above the amount. Drawn from no PRNG, so the
 * rest of the book does not move. Returns the rows it wrote, for the log line.
 */
export async function seedLedger(sequelize: Sequelize, transaction: Transaction, clock: Clock, staff: StaffSet): Promise<string[]> {
  for (const { sql } of LEDGER_BACKFILL_STATEMENTS) await sequelize.query(sql, { transaction });
  const [clients] = (await sequelize.query(
    `SELECT c.id, c.company_name FROM clients c WHERE EXISTS (SELECT 1 FROM client_ledger l WHERE l.client_id = c.id) ORDER BY c.oib LIMIT 3`,
    { transaction },
  )) as [Array<{ id: string; company_name: string }>, unknown];
  const [requester, approver] = staff.deciders;
  if (clients.length < 3 || !requester || !approver) throw new Error('the demo book has no clients with entries or too few managers for the adjustments');

  const at = (daysAgo: number, hour: number) => clock.past(clock.midnight - daysAgo * DAY + hour * HOUR);
  const adjustments = [
    {
      client: clients[0],
      amount: '-25.00',
      reason: 'Povrat troška opomene naplaćenog greškom',
      status: 'approved',
      requestedAt: at(24, 9),
      decider: requester,
      decidedAt: at(24, 9),
    },
    {
      client: clients[1],
      amount: '1500.00',
      reason: 'Trošak prisilne naplate po ovršnom postupku',
      status: 'approved',
      requestedAt: at(12, 10),
      decider: approver,
      decidedAt: at(11, 11),
    },
    {
      client: clients[1],
      amount: '-1800.00',
      reason: 'Otpis zatezne kamate po dogovoru s klijentom',
      status: 'rejected',
      requestedAt: at(9, 13),
      decider: approver,
      decidedAt: at(8, 9),
    },
    { client: clients[2], amount: '-2400.00', reason: 'Odobrenje dijela naknade zbog ranije naplate', status: 'pending', requestedAt: at(2, 10), decider: null, decidedAt: null },
  ] as const;
  // The demo book's setting, as an admin would have saved it on /settings.
  await sequelize.query(`INSERT INTO book_settings (key, value, updated_by) VALUES ('ledger_adjustment_four_eyes_above', '1000.00', $1)`, { bind: [approver.id], transaction });
  for (const adjustment of adjustments) {
    const [[row]] = (await sequelize.query(
      `INSERT INTO ledger_adjustments (client_id, amount, reason, status, requested_by, requested_at, decided_by, decided_at, rejection_reason, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, CAST($6 AS timestamptz), $7, CAST($8 AS timestamptz), $9, CAST($6 AS timestamptz), coalesce(CAST($8 AS timestamptz), CAST($6 AS timestamptz))) RETURNING id`,
      {
        bind: [
          adjustment.client.id,
          adjustment.amount,
          adjustment.reason,
          adjustment.status,
          requester.id,
          date(adjustment.requestedAt),
          adjustment.decider?.id ?? null,
          adjustment.decidedAt === null ? null : date(adjustment.decidedAt),
          adjustment.status === 'rejected' ? 'Nije priložena dokumentacija o dogovoru.' : null,
        ],
        transaction,
      },
    )) as [Array<{ id: string }>, unknown];
    // No ids in the details: the demo book is the same from run to run but for its UUIDs (db/seed/demo.test.ts compares two).
    const details = { clientName: adjustment.client.company_name, amount: adjustment.amount, reason: adjustment.reason };
    const log = (action: string, userId: string, when: number) =>
      sequelize.query(`INSERT INTO activity_logs (action, entity_type, entity_id, user_id, details, created_at) VALUES ($1, 'ledger_adjustment', $2, $3, CAST($4 AS jsonb), $5)`, {
        bind: [action, row.id, userId, JSON.stringify(details), date(when)],
        transaction,
      });
    if (adjustment.status === 'approved' && adjustment.decider === requester) {
      await log('ledger_adjustment_posted', requester.id, adjustment.requestedAt);
    } else {
      await log('ledger_adjustment_requested', requester.id, adjustment.requestedAt);
      if (adjustment.decider && adjustment.decidedAt !== null) await log(`ledger_adjustment_${adjustment.status}`, adjustment.decider.id, adjustment.decidedAt);
    }
    if (adjustment.status === 'approved') {
      // An adjustment moves no advance, so the used credit the backfill set stays its ledger sum.
      await sequelize.query(
        `INSERT INTO client_ledger (client_id, booked_on, kind, amount, adjustment_id, description, created_by, created_at)
         VALUES ($1, CAST((CAST($2 AS timestamptz) AT TIME ZONE 'Europe/Zagreb') AS date), 'adjustment', $3, $4, $5, $6, CAST($2 AS timestamptz))`,
        { bind: [adjustment.client.id, date(adjustment.decidedAt!), adjustment.amount, row.id, adjustment.reason, adjustment.decider!.id], transaction },
      );
    }
  }
  const [[counts]] = (await sequelize.query(`SELECT (SELECT count(*) FROM client_ledger)::int AS entries`, { transaction })) as [Array<{ entries: number }>, unknown];
  return [`${counts.entries} client_ledger`, `${adjustments.length} ledger_adjustments`];
}
