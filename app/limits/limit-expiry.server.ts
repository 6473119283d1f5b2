import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { formatDate, formatEur } from '../utils/format.ts';
import { toCents } from '../utils/money.ts';
import { zagrebToday } from './dates.ts';
import { sqlFromBusinessLocal } from '../utils/business-time.ts';
import type { CreditLimitRequest } from '../../db/models/index.ts';
import type { NonNullColumns, RowOf } from '../../db/models/rows.ts';
import { decimal, lockHolder, partyDetails, partyOf, RENEWAL_NOTICE_DAYS } from './credit-limits.server.ts';

/**
 * Limits that lapse: on their valid-until day a client's or debtor's approved
 * limit falls back (fallbackLimit), and a renewal task opens ahead of it.
 * The daily credit-limit-expiry job runs both.
 */

/** An approved request with a validity (the query's WHERE). */
type ExpiringRow = NonNullColumns<
  RowOf<typeof CreditLimitRequest, 'id' | 'client_id' | 'customer_id' | 'previous_limit' | 'approved_limit' | 'requested_at' | 'valid_until' | 'status'>,
  'approved_limit' | 'valid_until'
>;

/**
 * What a client's (or debtor's) limit falls back to when approval `expired` lapses on `today`:
 * 1. the approved limit of the client's latest (by decision) other approved
 *    request that is still valid on `today`; else
 * 2. the expired request's previousLimit, the limit before it was approved —
 *    unless that value was itself granted by an earlier approval (the latest
 *    one decided before this request was made, with the same amount), which
 *    by now has lapsed too (rule 1 found nothing valid): then that one's
 *    previousLimit, and so on back. A lapsed limit is never revived.
 */
async function fallbackLimit(expired: ExpiringRow, today: string, transaction: Transaction): Promise<{ limit: string | null; fromRequestId: string | null }> {
  const party = partyOf(expired);
  const valid = await selectOne<{ id: string; approved_limit: string }>(
    `SELECT id, approved_limit FROM credit_limit_requests
      WHERE ${party.column} = :partyId AND id <> :id AND status = 'approved' AND (valid_until IS NULL OR valid_until >= CAST(:today AS date))
      ORDER BY decided_at DESC, id DESC LIMIT 1`,
    { partyId: party.id, id: expired.id, today },
    { transaction },
  );
  if (valid) return { limit: decimal(valid.approved_limit), fromRequestId: valid.id };

  let limit = expired.previous_limit === null ? null : decimal(expired.previous_limit);
  let before = expired.requested_at;
  const seen = new Set([expired.id]);
  while (limit !== null) {
    const earlier = await selectOne<{ id: string; previous_limit: string | null; approved_limit: string; requested_at: Date }>(
      `SELECT id, previous_limit, approved_limit, requested_at FROM credit_limit_requests
        WHERE ${party.column} = :partyId AND status IN ('approved', 'expired') AND decided_at < :before
        ORDER BY decided_at DESC, id DESC LIMIT 1`,
      { partyId: party.id, before },
      { transaction },
    );
    if (!earlier || seen.has(earlier.id) || toCents(earlier.approved_limit) !== toCents(limit)) break;
    seen.add(earlier.id);
    limit = earlier.previous_limit === null ? null : decimal(earlier.previous_limit);
    before = earlier.requested_at;
  }
  return { limit, fromRequestId: null };
}

/**
 * The daily job: every approved request whose validUntil is before `today`
 * (a Croatian calendar day, default today) becomes 'expired' and its client's
 * or debtor's limit falls back (see fallbackLimit), each in its own transaction with a
 * credit_limit_expired row. Oldest approvals first, so same-day lapses of one
 * client chain correctly. Idempotent: a rerun, or a concurrent one (row
 * locks, state re-checked), finds nothing left to do.
 */
export async function expireCreditLimits(today: string = zagrebToday()): Promise<{ expired: number }> {
  const due = await selectRows<{ id: string }>(
    `SELECT id FROM credit_limit_requests WHERE status = 'approved' AND valid_until < CAST(:today AS date)
      ORDER BY decided_at, id`,
    { today },
  );
  let expired = 0;
  for (const { id } of due) {
    const done = await inTransaction(async (transaction) => {
      const request = await selectOne<ExpiringRow>(
        `SELECT id, client_id, customer_id, previous_limit, approved_limit, requested_at, to_char(valid_until, 'YYYY-MM-DD') AS valid_until, status
           FROM credit_limit_requests WHERE id = :id FOR UPDATE`,
        { id },
        { transaction },
      );
      if (!request || request.status !== 'approved' || request.valid_until >= today) return false;
      // Locked before the other requests are read, so an approval for this party committing now is seen (it holds this lock first).
      const party = partyOf(request);
      const holder = await lockHolder(party, transaction);
      await execute(`UPDATE credit_limit_requests SET status = 'expired' WHERE id = :id`, { id }, { transaction });
      const fallback = await fallbackLimit(request, today, transaction);
      await execute(`UPDATE ${party.table} SET credit_limit = :limit WHERE id = :partyId`, { partyId: party.id, limit: fallback.limit }, { transaction });
      await logActivity(
        {
          action: 'credit_limit_expired',
          userId: null,
          entityType: 'credit_limit_request',
          entityId: id,
          details: {
            ...partyDetails(party, holder.company_name),
            validUntil: request.valid_until,
            expiredLimit: decimal(request.approved_limit),
            limitBefore: holder.credit_limit === null ? null : decimal(holder.credit_limit),
            limitAfter: fallback.limit,
            fallbackRequestId: fallback.fromRequestId,
          },
        },
        transaction,
      );
      return true;
    });
    if (done) expired += 1;
  }
  return { expired };
}

/**
 * The daily job, after expiry: for each approved request that lapses within
 * RENEWAL_NOTICE_DAYS of `today`, one high-priority 'limit_approval' task
 * (entity: the request, due on validUntil) so someone renews it. Once per
 * request: an open task is not duplicated and a worked one is not reopened
 * the next morning. Skipped when the client already has a later-running
 * approval (renewed). One run at a time (advisory lock). Clients' limits
 * only: a task's page is its request's client (app/tasks/tasks.server.ts), so
 * a debtor's limit lapses without one (docs/lifecycle.md#credit-limits).
 */
export async function openRenewalTasks(today: string = zagrebToday()): Promise<{ opened: number }> {
  return inTransaction(async (transaction) => {
    await execute(`SELECT pg_advisory_xact_lock(hashtext('finflow:limit-renewal-tasks'))`, {}, { transaction });
    const expiring = await selectRows<{ id: string; client_id: string; company_name: string; approved_limit: string; valid_until: string }>(
      `SELECT r.id, r.client_id, c.company_name, r.approved_limit, to_char(r.valid_until, 'YYYY-MM-DD') AS valid_until
         FROM credit_limit_requests r JOIN clients c ON c.id = r.client_id
        WHERE r.status = 'approved' AND r.client_id IS NOT NULL
          AND r.valid_until >= CAST(:today AS date) AND r.valid_until <= CAST(:today AS date) + :days
          AND NOT EXISTS (SELECT 1 FROM tasks t
                           WHERE t.type = 'limit_approval' AND t.entity_type = 'credit_limit_request' AND t.entity_id = r.id)
          AND NOT EXISTS (SELECT 1 FROM credit_limit_requests n
                           WHERE n.client_id = r.client_id AND n.id <> r.id AND n.status = 'approved' AND n.valid_until > r.valid_until)
        ORDER BY r.valid_until, r.id`,
      { today, days: RENEWAL_NOTICE_DAYS },
      { transaction },
    );
    for (const request of expiring) {
      const title = `Obnova kreditnog limita: ${request.company_name}`.slice(0, 255);
      const description = `Odobreni kreditni limit od ${formatEur(request.approved_limit, { decimals: 0 })} vrijedi do ${formatDate(request.valid_until)}. Podnesite zahtjev za obnovu limita prije isteka.`;
      const { rows } = await execute<{ id: string }>(
        `INSERT INTO tasks (title, description, type, priority, status, due_date, entity_type, entity_id)
         VALUES (:title, :description, 'limit_approval', 'high', 'pending',
                 ${sqlFromBusinessLocal('CAST(:validUntil AS date)::timestamp')}, 'credit_limit_request', :requestId)
         RETURNING id`,
        { title, description, validUntil: request.valid_until, requestId: request.id },
        { transaction },
      );
      await logActivity(
        {
          action: 'renewal_task_opened',
          userId: null,
          entityType: 'task',
          entityId: rows[0].id,
          details: { creditLimitRequestId: request.id, clientId: request.client_id, clientName: request.company_name, validUntil: request.valid_until },
        },
        transaction,
      );
    }
    return { opened: expiring.length };
  });
}
