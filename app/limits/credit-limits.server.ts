import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { utilisationPercent } from '../clients/clients.server.ts';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { containsPattern } from '../search.server.ts';
import { apiError, parseInput } from '../utils/api.server.ts';
import { formatDate, formatEur } from '../utils/format.ts';
import { centsToDecimalString, centsToNumber, toCents } from '../utils/money.ts';
import { addDays, zagrebToday } from './dates.ts';
import {
  CREDIT_LIMIT_STATUSES,
  DEFAULT_VALIDITY_DAYS,
  LIMIT_ERRORS,
  approveCreditLimitSchema,
  creditLimitRequestSchema,
  rejectCreditLimitSchema,
  type CreditLimitRequestInput,
  type CreditLimitStatus,
} from './schemas.ts';
import { sqlFromBusinessLocal } from '../utils/business-time.ts';
import { isUuid } from '../utils/validation.ts';
import { iso, money } from '../utils/api-values.ts';
import type { Client, CreditLimitRequest } from '../../db/models/index.ts';
import type { NonNullColumns, RowOf } from '../../db/models/rows.ts';
import { sqlUserName } from '../auth/user-record.server.ts';
import { pageBounds } from '../utils/list-url.ts';

/**
 * Credit limits (docs/lifecycle.md#credit-limits, docs/domain-model.md, docs/api.md). A limit is
 * only ever set through a request that a manager other than its author
 * approves; the approval sets clients.credit_limit. Approved limits lapse
 * after validUntil (the daily 'credit-limit-expiry' job), and a renewal task
 * is opened 30 days ahead. Every write logs its activity row in its
 * transaction; decisions lock the request row so two managers cannot both
 * decide it.
 */

/** Days before validUntil when the renewal task is opened. */
export const RENEWAL_NOTICE_DAYS = 30;

export interface CreditLimitRequestDto {
  id: string;
  clientId: string;
  clientName: string;
  previousLimit: number | null;
  requestedLimit: number;
  approvedLimit: number | null;
  reason: string;
  /** The requester's name; null for the registration wizard's applicant. */
  requestedBy: string | null;
  requestedById: string | null;
  requestedAt: string;
  /** A calendar day 'YYYY-MM-DD' (docs/lifecycle.md#credit-limits). */
  validUntil: string | null;
  status: CreditLimitStatus;
  decidedBy: string | null;
  decidedById: string | null;
  decidedAt: string | null;
  rejectionReason: string | null;
}

// Client requests only until the debtor side joins customers (the JOIN above keeps client_id set).
type RequestRow = NonNullColumns<Omit<RowOf<typeof CreditLimitRequest>, 'created_at' | 'updated_at' | 'customer_id'>, 'client_id'> & {
  client_name: ClientRow['company_name'];
  requested_by_name: string | null;
  decided_by_name: string | null;
};
type ClientRow = RowOf<typeof Client>;

const SELECT_REQUESTS = `
  SELECT r.id, r.client_id, c.company_name AS client_name, r.previous_limit, r.requested_limit, r.approved_limit, r.reason,
         r.requested_by, ${sqlUserName('ru')} AS requested_by_name, r.requested_at,
         to_char(r.valid_until, 'YYYY-MM-DD') AS valid_until, r.status,
         r.decided_by, ${sqlUserName('du')} AS decided_by_name, r.decided_at, r.rejection_reason
    FROM credit_limit_requests r
    JOIN clients c ON c.id = r.client_id
    LEFT JOIN users ru ON ru.id = r.requested_by
    LEFT JOIN users du ON du.id = r.decided_by`;

const decimal = (value: string): string => centsToDecimalString(toCents(value));

function toDto(row: RequestRow): CreditLimitRequestDto {
  return {
    id: row.id,
    clientId: row.client_id,
    clientName: row.client_name,
    previousLimit: money(row.previous_limit),
    requestedLimit: money(row.requested_limit),
    approvedLimit: money(row.approved_limit),
    reason: row.reason,
    requestedBy: row.requested_by_name,
    requestedById: row.requested_by,
    requestedAt: iso(row.requested_at),
    validUntil: row.valid_until,
    status: row.status,
    decidedBy: row.decided_by_name,
    decidedById: row.decided_by,
    decidedAt: iso(row.decided_at),
    rejectionReason: row.rejection_reason,
  };
}

/** Domain functions validate again, so a caller that skipped the schema cannot write bad data. */

async function readRequest(id: string, transaction?: Transaction): Promise<CreditLimitRequestDto> {
  const row = await selectOne<RequestRow>(`${SELECT_REQUESTS} WHERE r.id = :id`, { id }, { transaction });
  if (!row) throw apiError(404, LIMIT_ERRORS.notFound);
  return toDto(row);
}

/**
 * POST /api/credit-limits and the request dialog: a pending request.
 * previousLimit is the client's limit at this moment (read under a share
 * lock, so a decision committing meanwhile is either before or after it);
 * validUntil defaults to 365 days after today in Croatia (docs/lifecycle.md#credit-limits) and may not
 * lie in the past. With `options.transaction` the caller's transaction is
 * used. Throws 400 (invalid input, unknown client), 403.
 */
export async function requestCreditLimit(
  { actor, input, ip }: { actor: Actor; input: CreditLimitRequestInput; ip?: string | null },
  options: { transaction?: Transaction } = {},
): Promise<CreditLimitRequestDto> {
  assertCan(actor, 'create:credit_limit');
  const data = parseInput(creditLimitRequestSchema, input);
  const today = zagrebToday();
  const validUntil = data.validUntil ?? addDays(today, DEFAULT_VALIDITY_DAYS);
  if (validUntil < today) throw apiError(400, LIMIT_ERRORS.validUntilPast, { errors: { validUntil: [LIMIT_ERRORS.validUntilPast] } });

  const work = async (transaction: Transaction) => {
    const client = await selectOne<RowOf<typeof Client, 'id' | 'company_name' | 'credit_limit'>>(
      `SELECT id, company_name, credit_limit FROM clients WHERE id = :id FOR SHARE`,
      { id: data.clientId },
      { transaction },
    );
    if (!client) throw apiError(400, LIMIT_ERRORS.clientNotFound, { errors: { clientId: [LIMIT_ERRORS.clientNotFound] } });
    const { rows } = await execute<{ id: string }>(
      `INSERT INTO credit_limit_requests (client_id, previous_limit, requested_limit, reason, requested_by, valid_until, status)
       VALUES (:clientId, :previousLimit, :requestedLimit, :reason, :actorId, CAST(:validUntil AS date), 'pending')
       RETURNING id`,
      {
        clientId: client.id,
        previousLimit: client.credit_limit === null ? null : decimal(client.credit_limit),
        requestedLimit: data.creditLimit,
        reason: data.reason,
        actorId: actor.id,
        validUntil,
      },
      { transaction },
    );
    const id = rows[0].id;
    await logActivity(
      {
        action: 'credit_limit_requested',
        userId: actor.id,
        entityType: 'credit_limit_request',
        entityId: id,
        ipAddress: ip,
        details: {
          clientId: client.id,
          clientName: client.company_name,
          previousLimit: client.credit_limit === null ? null : decimal(client.credit_limit),
          requestedLimit: data.creditLimit,
          validUntil,
        },
      },
      transaction,
    );
    return readRequest(id, transaction);
  };
  return inTransaction(work, options.transaction);
}

interface LockedRequest {
  id: string;
  client_id: string;
  requested_limit: string;
  requested_by: string | null;
  valid_until: string | null;
  status: CreditLimitStatus;
}

/**
 * The request row locked FOR UPDATE: a second manager deciding at the same
 * moment waits here and then sees the first decision (409). Throws 404.
 */
async function lockForDecision(actor: Actor, id: string, transaction: Transaction): Promise<LockedRequest> {
  const row = isUuid(id)
    ? await selectOne<LockedRequest>(
        `SELECT id, client_id, requested_limit, requested_by, to_char(valid_until, 'YYYY-MM-DD') AS valid_until, status
           FROM credit_limit_requests WHERE id = :id FOR UPDATE`,
        { id },
        { transaction },
      )
    : null;
  if (!row) throw apiError(404, LIMIT_ERRORS.notFound);
  // Four eyes (docs/domain-model.md#roles-and-permissions): checked before the state, since the author may never decide it.
  if (row.requested_by !== null && row.requested_by === actor.id) throw apiError(403, LIMIT_ERRORS.ownRequest);
  return row;
}

/**
 * PUT /api/credit-limits/{id}/approve: a manager other than the author
 * approves a pending request whose validity has not ended; approvedLimit
 * defaults to the requested limit (docs/lifecycle.md#credit-limits) and becomes the client's credit
 * limit. Throws 400, 403 (role; own request), 404, 409 (not pending; validity ended).
 */
export async function approveCreditLimit({
  actor,
  id,
  approvedLimit,
  ip,
}: {
  actor: Actor;
  id: string;
  approvedLimit?: number | string | null;
  ip?: string | null;
}): Promise<CreditLimitRequestDto> {
  assertCan(actor, 'decide:credit_limit');
  const data = parseInput(approveCreditLimitSchema, { approvedLimit });
  return inTransaction(async (transaction) => {
    const request = await lockForDecision(actor, id, transaction);
    if (request.status !== 'pending') throw apiError(409, LIMIT_ERRORS.notPendingApprove);
    if (request.valid_until !== null && request.valid_until < zagrebToday()) throw apiError(409, LIMIT_ERRORS.validityEnded);
    const limit = data.approvedLimit ?? decimal(request.requested_limit);
    const client = (await selectOne<RowOf<typeof Client, 'company_name' | 'credit_limit'>>(
      `SELECT company_name, credit_limit FROM clients WHERE id = :id FOR UPDATE`,
      { id: request.client_id },
      { transaction },
    ))!;
    await execute(
      `UPDATE credit_limit_requests SET status = 'approved', approved_limit = :limit, decided_by = :actorId, decided_at = now() WHERE id = :id`,
      { id: request.id, limit, actorId: actor.id },
      { transaction },
    );
    await execute(`UPDATE clients SET credit_limit = :limit WHERE id = :clientId`, { clientId: request.client_id, limit }, { transaction });
    await logActivity(
      {
        action: 'credit_limit_approved',
        userId: actor.id,
        entityType: 'credit_limit_request',
        entityId: request.id,
        ipAddress: ip,
        details: {
          clientId: request.client_id,
          clientName: client.company_name,
          previousLimit: client.credit_limit === null ? null : decimal(client.credit_limit),
          requestedLimit: decimal(request.requested_limit),
          approvedLimit: limit,
          validUntil: request.valid_until,
        },
      },
      transaction,
    );
    return readRequest(request.id, transaction);
  });
}

/**
 * PUT /api/credit-limits/{id}/reject: a manager other than the author rejects
 * a pending request; the reason given is stored as rejectionReason (the
 * page always sends FIXED_REJECTION_REASON, docs/lifecycle.md#credit-limits). The client's limit is
 * untouched. Throws 400, 403 (role; own request), 404, 409 (not pending).
 */
export async function rejectCreditLimit({ actor, id, reason, ip }: { actor: Actor; id: string; reason: string; ip?: string | null }): Promise<CreditLimitRequestDto> {
  assertCan(actor, 'decide:credit_limit');
  const data = parseInput(rejectCreditLimitSchema, { reason });
  return inTransaction(async (transaction) => {
    const request = await lockForDecision(actor, id, transaction);
    if (request.status !== 'pending') throw apiError(409, LIMIT_ERRORS.notPendingReject);
    await execute(
      `UPDATE credit_limit_requests SET status = 'rejected', rejection_reason = :reason, decided_by = :actorId, decided_at = now() WHERE id = :id`,
      { id: request.id, reason: data.reason, actorId: actor.id },
      { transaction },
    );
    const client = await selectOne<RowOf<typeof Client, 'company_name'>>(`SELECT company_name FROM clients WHERE id = :id`, { id: request.client_id }, { transaction });
    await logActivity(
      {
        action: 'credit_limit_rejected',
        userId: actor.id,
        entityType: 'credit_limit_request',
        entityId: request.id,
        ipAddress: ip,
        details: { clientId: request.client_id, clientName: client?.company_name ?? null, requestedLimit: decimal(request.requested_limit), reason: data.reason },
      },
      transaction,
    );
    return readRequest(request.id, transaction);
  });
}

export type LimitCounts = Record<CreditLimitStatus | 'all', number>;

/** `q` on the client: name anywhere, or the OIB's beginning when it is all digits (same indexes as /clients). */
function clientSearch(q: string | null | undefined, alias: string): { condition: string | null; replacements: Record<string, unknown> } {
  const term = q?.trim();
  if (!term) return { condition: null, replacements: {} };
  const digits = term.replace(/\s+/g, '');
  if (/^\d{1,11}$/.test(digits)) {
    return {
      condition: `(${alias}.company_name ILIKE :pattern OR ${alias}.oib LIKE :oibPrefix)`,
      replacements: { pattern: containsPattern(term), oibPrefix: `${digits}%` },
    };
  }
  return { condition: `${alias}.company_name ILIKE :pattern`, replacements: { pattern: containsPattern(term) } };
}

/**
 * GET /api/credit-limits and the /limits list: newest first; `status` one of
 * the four states, or 'all'/absent for every request (the page passes its
 * tab, pending by default); `q` the client's name or OIB prefix. `counts` are
 * the per-status counts of the same search, from one SQL count; `total` is
 * the count of the filter shown. Throws 400 for an unknown status.
 */
export async function listCreditLimitRequests(
  options: { q?: string | null; status?: string | null; limit?: number; offset?: number } = {},
): Promise<{ requests: CreditLimitRequestDto[]; total: number; counts: LimitCounts }> {
  const status = options.status && options.status !== 'all' ? options.status : null;
  if (status !== null && !(CREDIT_LIMIT_STATUSES as readonly string[]).includes(status)) {
    throw apiError(400, LIMIT_ERRORS.invalidStatus, { errors: { status: [LIMIT_ERRORS.invalidStatus] } });
  }
  const { limit, offset } = pageBounds(options);
  const search = clientSearch(options.q, 'c');
  const searchWhere = search.condition ? `WHERE ${search.condition}` : '';
  const listWhere = [search.condition, status ? 'r.status = :status' : null].filter(Boolean).join(' AND ');
  const replacements = { ...search.replacements, status, limit, offset };
  const [rows, counts] = await Promise.all([
    selectRows<RequestRow>(`${SELECT_REQUESTS} ${listWhere ? `WHERE ${listWhere}` : ''} ORDER BY r.requested_at DESC, r.id DESC LIMIT :limit OFFSET :offset`, replacements),
    selectOne<LimitCounts>(
      `SELECT count(*) FILTER (WHERE r.status = 'pending')::int AS pending,
              count(*) FILTER (WHERE r.status = 'approved')::int AS approved,
              count(*) FILTER (WHERE r.status = 'rejected')::int AS rejected,
              count(*) FILTER (WHERE r.status = 'expired')::int AS expired,
              count(*)::int AS "all"
         FROM credit_limit_requests r JOIN clients c ON c.id = r.client_id ${searchWhere}`,
      replacements,
    ),
  ]);
  const allCounts = counts ?? { pending: 0, approved: 0, rejected: 0, expired: 0, all: 0 };
  return { requests: rows.map(toDto), total: allCounts[(status ?? 'all') as keyof LimitCounts], counts: allCounts };
}

export interface ClientLimitDto {
  id: string;
  companyName: string;
  creditLimit: number;
  usedCredit: number;
  /** creditLimit − usedCredit (negative when over the limit). */
  availableCredit: number;
  /** usedCredit / creditLimit in percent, one decimal, uncapped (the bar caps at 100); null for a zero limit. */
  utilisation: number | null;
  /** When the approval that granted the current limit lapses; null when no approved request backs it. */
  validUntil: string | null;
}

/** The /limits grid: clients that have a credit limit, by name; `q` as in the list. */
export async function clientLimitsOverview(options: { q?: string | null; limit?: number; offset?: number } = {}): Promise<{ clients: ClientLimitDto[]; total: number }> {
  const { limit, offset } = pageBounds(options);
  const search = clientSearch(options.q, 'c');
  const where = ['c.credit_limit IS NOT NULL', search.condition].filter(Boolean).join(' AND ');
  const replacements = { ...search.replacements, limit, offset };
  const [rows, count] = await Promise.all([
    selectRows<{ id: string; company_name: string; credit_limit: string; used_credit: string; valid_until: string | null }>(
      `SELECT c.id, c.company_name, c.credit_limit, c.used_credit, a.valid_until
         FROM clients c
         LEFT JOIN LATERAL (
           SELECT to_char(r.valid_until, 'YYYY-MM-DD') AS valid_until FROM credit_limit_requests r
            WHERE r.client_id = c.id AND r.status = 'approved'
            ORDER BY r.decided_at DESC, r.id DESC LIMIT 1) a ON true
        WHERE ${where}
        ORDER BY c.company_name, c.id
        LIMIT :limit OFFSET :offset`,
      replacements,
    ),
    selectOne<{ total: number }>(`SELECT count(*)::int AS total FROM clients c WHERE ${where}`, replacements),
  ]);
  return {
    clients: rows.map((row) => {
      const limitCents = toCents(row.credit_limit);
      const usedCents = toCents(row.used_credit);
      return {
        id: row.id,
        companyName: row.company_name,
        creditLimit: centsToNumber(limitCents),
        usedCredit: centsToNumber(usedCents),
        availableCredit: centsToNumber(limitCents - usedCents),
        utilisation: utilisationPercent(usedCents, limitCents),
        validUntil: row.valid_until,
      };
    }),
    total: count?.total ?? 0,
  };
}

/** The request dialog's client choices, by name. */
export async function clientChoices(limit = 1000): Promise<Array<{ id: string; companyName: string; creditLimit: number | null }>> {
  const rows = await selectRows<RowOf<typeof Client, 'id' | 'company_name' | 'credit_limit'>>(
    `SELECT id, company_name, credit_limit FROM clients ORDER BY company_name, id LIMIT :limit`,
    { limit },
  );
  return rows.map((row) => ({ id: row.id, companyName: row.company_name, creditLimit: money(row.credit_limit) }));
}

/** An approved request with a validity (the query's WHERE). */
type ExpiringRow = NonNullColumns<
  RowOf<typeof CreditLimitRequest, 'id' | 'client_id' | 'previous_limit' | 'approved_limit' | 'requested_at' | 'valid_until' | 'status'>,
  'approved_limit' | 'valid_until'
>;

/**
 * What a client's limit falls back to when approval `expired` lapses on `today`:
 * 1. the approved limit of the client's latest (by decision) other approved
 *    request that is still valid on `today`; else
 * 2. the expired request's previousLimit, the limit before it was approved —
 *    unless that value was itself granted by an earlier approval (the latest
 *    one decided before this request was made, with the same amount), which
 *    by now has lapsed too (rule 1 found nothing valid): then that one's
 *    previousLimit, and so on back. A lapsed limit is never revived.
 */
async function fallbackLimit(expired: ExpiringRow, today: string, transaction: Transaction): Promise<{ limit: string | null; fromRequestId: string | null }> {
  const valid = await selectOne<{ id: string; approved_limit: string }>(
    `SELECT id, approved_limit FROM credit_limit_requests
      WHERE client_id = :clientId AND id <> :id AND status = 'approved' AND (valid_until IS NULL OR valid_until >= CAST(:today AS date))
      ORDER BY decided_at DESC, id DESC LIMIT 1`,
    { clientId: expired.client_id, id: expired.id, today },
    { transaction },
  );
  if (valid) return { limit: decimal(valid.approved_limit), fromRequestId: valid.id };

  let limit = expired.previous_limit === null ? null : decimal(expired.previous_limit);
  let before = expired.requested_at;
  const seen = new Set([expired.id]);
  while (limit !== null) {
    const earlier = await selectOne<{ id: string; previous_limit: string | null; approved_limit: string; requested_at: Date }>(
      `SELECT id, previous_limit, approved_limit, requested_at FROM credit_limit_requests
        WHERE client_id = :clientId AND status IN ('approved', 'expired') AND decided_at < :before
        ORDER BY decided_at DESC, id DESC LIMIT 1`,
      { clientId: expired.client_id, before },
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
 * limit falls back (see fallbackLimit), each in its own transaction with a
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
        `SELECT id, client_id, previous_limit, approved_limit, requested_at, to_char(valid_until, 'YYYY-MM-DD') AS valid_until, status
           FROM credit_limit_requests WHERE id = :id FOR UPDATE`,
        { id },
        { transaction },
      );
      if (!request || request.status !== 'approved' || request.valid_until >= today) return false;
      // Locked before the other requests are read, so an approval for this client committing now is seen (it holds this lock first).
      const client = (await selectOne<RowOf<typeof Client, 'company_name' | 'credit_limit'>>(
        `SELECT company_name, credit_limit FROM clients WHERE id = :id FOR UPDATE`,
        { id: request.client_id },
        { transaction },
      ))!;
      await execute(`UPDATE credit_limit_requests SET status = 'expired' WHERE id = :id`, { id }, { transaction });
      const fallback = await fallbackLimit(request, today, transaction);
      await execute(`UPDATE clients SET credit_limit = :limit WHERE id = :clientId`, { clientId: request.client_id, limit: fallback.limit }, { transaction });
      await logActivity(
        {
          action: 'credit_limit_expired',
          userId: null,
          entityType: 'credit_limit_request',
          entityId: id,
          details: {
            clientId: request.client_id,
            clientName: client.company_name,
            validUntil: request.valid_until,
            expiredLimit: decimal(request.approved_limit),
            limitBefore: client.credit_limit === null ? null : decimal(client.credit_limit),
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
 * approval (renewed). One run at a time (advisory lock).
 */
export async function openRenewalTasks(today: string = zagrebToday()): Promise<{ opened: number }> {
  return inTransaction(async (transaction) => {
    await execute(`SELECT pg_advisory_xact_lock(hashtext('finflow:limit-renewal-tasks'))`, {}, { transaction });
    const expiring = await selectRows<{ id: string; client_id: string; company_name: string; approved_limit: string; valid_until: string }>(
      `SELECT r.id, r.client_id, c.company_name, r.approved_limit, to_char(r.valid_until, 'YYYY-MM-DD') AS valid_until
         FROM credit_limit_requests r JOIN clients c ON c.id = r.client_id
        WHERE r.status = 'approved'
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
