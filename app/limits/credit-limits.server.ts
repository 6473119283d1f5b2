import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { utilisationPercent } from '../clients/clients.server.ts';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { containsPattern } from '../search.server.ts';
import { apiError, parseInput } from '../utils/api.server.ts';
import { centsToDecimalString, centsToNumber, toCents } from '../utils/money.ts';
import { addDays, zagrebToday } from './dates.ts';
import {
  CREDIT_LIMIT_STATUSES,
  DEFAULT_VALIDITY_DAYS,
  LIMIT_ERRORS,
  approveCreditLimitSchema,
  creditLimitRequestSchema,
  rejectCreditLimitSchema,
  LIMIT_PARTY_TYPES,
  type CreditLimitRequestInput,
  type CreditLimitStatus,
  type LimitPartyType,
} from './schemas.ts';
import { isUuid } from '../utils/validation.ts';
import { iso, money } from '../utils/api-values.ts';
import type { Client, CreditLimitRequest, Customer } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { sqlUserName } from '../auth/user-record.server.ts';
import { pageBounds } from '../utils/list-url.ts';

/**
 * Credit limits (docs/lifecycle.md#credit-limits, docs/domain-model.md, docs/api.md). A limit is
 * only ever set through a request that a manager other than its author
 * approves; the approval sets the party's credit_limit: a client's
 * (clients.credit_limit) or a debtor's (customers.credit_limit, the factor's
 * exposure on that customer across all clients). Approved limits lapse
 * after validUntil (the daily 'credit-limit-expiry' job), and a renewal task
 * is opened 30 days ahead. Every write logs its activity row in its
 * transaction; decisions lock the request row so two managers cannot both
 * decide it.
 */

/** Days before validUntil when the renewal task is opened. */
export const RENEWAL_NOTICE_DAYS = 30;

export interface CreditLimitRequestDto {
  id: string;
  /** Whose limit: a client's or a debtor's (customer); exactly one of clientId/customerId is set. */
  partyType: LimitPartyType;
  clientId: string | null;
  /** The client's name; null on a debtor's request (partyName names either). */
  clientName: string | null;
  customerId: string | null;
  partyName: string;
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

// Exactly one of client_id/customer_id is set (the table's one_party check), so exactly one name is.
type RequestRow = Omit<RowOf<typeof CreditLimitRequest>, 'created_at' | 'updated_at'> & {
  client_name: RowOf<typeof Client>['company_name'] | null;
  customer_name: RowOf<typeof Customer>['company_name'] | null;
  requested_by_name: string | null;
  decided_by_name: string | null;
};

const SELECT_REQUESTS = `
  SELECT r.id, r.client_id, c.company_name AS client_name, r.customer_id, cu.company_name AS customer_name,
         r.previous_limit, r.requested_limit, r.approved_limit, r.reason,
         r.requested_by, ${sqlUserName('ru')} AS requested_by_name, r.requested_at,
         to_char(r.valid_until, 'YYYY-MM-DD') AS valid_until, r.status,
         r.decided_by, ${sqlUserName('du')} AS decided_by_name, r.decided_at, r.rejection_reason
    FROM credit_limit_requests r
    LEFT JOIN clients c ON c.id = r.client_id
    LEFT JOIN customers cu ON cu.id = r.customer_id
    LEFT JOIN users ru ON ru.id = r.requested_by
    LEFT JOIN users du ON du.id = r.decided_by`;

/** A request's party: which table holds its limit, and the row's id. */
interface Party {
  type: LimitPartyType;
  table: 'clients' | 'customers';
  column: 'client_id' | 'customer_id';
  id: string;
}

export function partyOf(row: { client_id: string | null; customer_id: string | null }): Party {
  return row.client_id !== null
    ? { type: 'client', table: 'clients', column: 'client_id', id: row.client_id }
    : { type: 'customer', table: 'customers', column: 'customer_id', id: row.customer_id! };
}

/** The party's row, locked while its limit changes: its name and current limit. */
export async function lockHolder(party: Party, transaction: Transaction) {
  return (await selectOne<RowOf<typeof Client | typeof Customer, 'company_name' | 'credit_limit'>>(
    `SELECT company_name, credit_limit FROM ${party.table} WHERE id = :id FOR UPDATE`,
    { id: party.id },
    { transaction },
  ))!;
}

/** The activity details naming the party: clientId/clientName as before for a client, customerId/customerName for a debtor. */
export function partyDetails(party: Party, name: string | null): Record<string, string | null> {
  return party.type === 'client' ? { clientId: party.id, clientName: name } : { customerId: party.id, customerName: name };
}

export const decimal = (value: string): string => centsToDecimalString(toCents(value));

function toDto(row: RequestRow): CreditLimitRequestDto {
  return {
    id: row.id,
    partyType: row.client_id !== null ? 'client' : 'customer',
    clientId: row.client_id,
    clientName: row.client_name,
    customerId: row.customer_id,
    partyName: row.client_name ?? row.customer_name ?? '',
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
 * POST /api/credit-limits and the request dialog: a pending request for a
 * client's limit (clientId) or a debtor's (customerId).
 * previousLimit is the party's limit at this moment (read under a share
 * lock, so a decision committing meanwhile is either before or after it);
 * validUntil defaults to 365 days after today in Croatia (docs/lifecycle.md#credit-limits) and may not
 * lie in the past. With `options.transaction` the caller's transaction is
 * used. Throws 400 (invalid input, both or neither party, unknown client or customer), 403.
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
    const party = partyOf({ client_id: data.clientId ?? null, customer_id: data.customerId ?? null });
    const current = await selectOne<RowOf<typeof Client | typeof Customer, 'id' | 'company_name' | 'credit_limit'>>(
      `SELECT id, company_name, credit_limit FROM ${party.table} WHERE id = :id FOR SHARE`,
      { id: party.id },
      { transaction },
    );
    if (!current) {
      // Refused as the client side always was: a field error on the id that names no row.
      const [field, code] = party.type === 'client' ? ['clientId', LIMIT_ERRORS.clientNotFound] : ['customerId', LIMIT_ERRORS.customerNotFound];
      throw apiError(400, code, { errors: { [field]: [code] } });
    }
    const previousLimit = current.credit_limit === null ? null : decimal(current.credit_limit);
    const { rows } = await execute<{ id: string }>(
      `INSERT INTO credit_limit_requests (${party.column}, previous_limit, requested_limit, reason, requested_by, valid_until, status)
       VALUES (:partyId, :previousLimit, :requestedLimit, :reason, :actorId, CAST(:validUntil AS date), 'pending')
       RETURNING id`,
      {
        partyId: party.id,
        previousLimit,
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
          ...partyDetails(party, current.company_name),
          previousLimit,
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
  client_id: string | null;
  customer_id: string | null;
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
        `SELECT id, client_id, customer_id, requested_limit, requested_by, to_char(valid_until, 'YYYY-MM-DD') AS valid_until, status
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
 * defaults to the requested limit (docs/lifecycle.md#credit-limits) and becomes the client's or
 * the debtor's credit limit. Throws 400, 403 (role; own request), 404, 409 (not pending; validity ended).
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
    const party = partyOf(request);
    const holder = await lockHolder(party, transaction);
    await execute(
      `UPDATE credit_limit_requests SET status = 'approved', approved_limit = :limit, decided_by = :actorId, decided_at = now() WHERE id = :id`,
      { id: request.id, limit, actorId: actor.id },
      { transaction },
    );
    await execute(`UPDATE ${party.table} SET credit_limit = :limit WHERE id = :partyId`, { partyId: party.id, limit }, { transaction });
    await logActivity(
      {
        action: 'credit_limit_approved',
        userId: actor.id,
        entityType: 'credit_limit_request',
        entityId: request.id,
        ipAddress: ip,
        details: {
          ...partyDetails(party, holder.company_name),
          previousLimit: holder.credit_limit === null ? null : decimal(holder.credit_limit),
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
 * page always sends FIXED_REJECTION_REASON, docs/lifecycle.md#credit-limits). The party's limit is
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
    const party = partyOf(request);
    const holder = await selectOne<RowOf<typeof Client | typeof Customer, 'company_name'>>(
      `SELECT company_name FROM ${party.table} WHERE id = :id`,
      { id: party.id },
      { transaction },
    );
    await logActivity(
      {
        action: 'credit_limit_rejected',
        userId: actor.id,
        entityType: 'credit_limit_request',
        entityId: request.id,
        ipAddress: ip,
        details: { ...partyDetails(party, holder?.company_name ?? null), requestedLimit: decimal(request.requested_limit), reason: data.reason },
      },
      transaction,
    );
    return readRequest(request.id, transaction);
  });
}

export type LimitCounts = Record<CreditLimitStatus | 'all', number>;

/** `q` on a party: name anywhere, or the OIB's beginning when it is all digits (same indexes as /clients and /customers). */
function partySearch(q: string | null | undefined, aliases: string[]): { condition: string | null; replacements: Record<string, unknown> } {
  const term = q?.trim();
  if (!term) return { condition: null, replacements: {} };
  const digits = term.replace(/\s+/g, '');
  const byOib = /^\d{1,11}$/.test(digits);
  const one = (alias: string) => (byOib ? `${alias}.company_name ILIKE :pattern OR ${alias}.oib LIKE :oibPrefix` : `${alias}.company_name ILIKE :pattern`);
  return {
    condition: `(${aliases.map(one).join(' OR ')})`,
    replacements: byOib ? { pattern: containsPattern(term), oibPrefix: `${digits}%` } : { pattern: containsPattern(term) },
  };
}

/** ?partyType: 'client' or 'customer', or 'all'/absent for both. Throws 400 for anything else. */
function readPartyType(value: string | null | undefined): LimitPartyType | null {
  if (!value || value === 'all') return null;
  if (!(LIMIT_PARTY_TYPES as readonly string[]).includes(value)) {
    throw apiError(400, LIMIT_ERRORS.invalidPartyType, { errors: { partyType: [LIMIT_ERRORS.invalidPartyType] } });
  }
  return value as LimitPartyType;
}

/**
 * GET /api/credit-limits and the /limits list: newest first; `status` one of
 * the four states, or 'all'/absent for every request (the page passes its
 * tab, pending by default); `partyType` 'client' or 'customer' (absent: both);
 * `q` the party's name or OIB prefix. `counts` are the per-status counts of
 * the same search and kind, from one SQL count; `total` is the count of the
 * filter shown. Throws 400 for an unknown status or partyType.
 */
export async function listCreditLimitRequests(
  options: { q?: string | null; status?: string | null; partyType?: string | null; limit?: number; offset?: number } = {},
): Promise<{ requests: CreditLimitRequestDto[]; total: number; counts: LimitCounts }> {
  const status = options.status && options.status !== 'all' ? options.status : null;
  if (status !== null && !(CREDIT_LIMIT_STATUSES as readonly string[]).includes(status)) {
    throw apiError(400, LIMIT_ERRORS.invalidStatus, { errors: { status: [LIMIT_ERRORS.invalidStatus] } });
  }
  const partyType = readPartyType(options.partyType);
  const { limit, offset } = pageBounds(options);
  const search = partySearch(options.q, partyType === 'client' ? ['c'] : partyType === 'customer' ? ['cu'] : ['c', 'cu']);
  const kind = partyType === 'client' ? 'r.client_id IS NOT NULL' : partyType === 'customer' ? 'r.customer_id IS NOT NULL' : null;
  const countWhere = [search.condition, kind].filter(Boolean).join(' AND ');
  const listWhere = [countWhere, status ? 'r.status = :status' : null].filter(Boolean).join(' AND ');
  const replacements = { ...search.replacements, status, limit, offset };
  const [rows, counts] = await Promise.all([
    selectRows<RequestRow>(`${SELECT_REQUESTS} ${listWhere ? `WHERE ${listWhere}` : ''} ORDER BY r.requested_at DESC, r.id DESC LIMIT :limit OFFSET :offset`, replacements),
    selectOne<LimitCounts>(
      `SELECT count(*) FILTER (WHERE r.status = 'pending')::int AS pending,
              count(*) FILTER (WHERE r.status = 'approved')::int AS approved,
              count(*) FILTER (WHERE r.status = 'rejected')::int AS rejected,
              count(*) FILTER (WHERE r.status = 'expired')::int AS expired,
              count(*)::int AS "all"
         FROM credit_limit_requests r
         LEFT JOIN clients c ON c.id = r.client_id
         LEFT JOIN customers cu ON cu.id = r.customer_id
         ${countWhere ? `WHERE ${countWhere}` : ''}`,
      replacements,
    ),
  ]);
  const allCounts = counts ?? { pending: 0, approved: 0, rejected: 0, expired: 0, all: 0 };
  return { requests: rows.map(toDto), total: allCounts[(status ?? 'all') as keyof LimitCounts], counts: allCounts };
}

export interface ClientLimitDto {
  id: string;
  /** A client's limit, or a debtor's (customer). */
  partyType: LimitPartyType;
  companyName: string;
  creditLimit: number;
  /** The client's used credit, or the debtor's exposure (advances outstanding on its invoices across all clients). */
  usedCredit: number;
  /** creditLimit − usedCredit (negative when over the limit). */
  availableCredit: number;
  /** usedCredit / creditLimit in percent, one decimal, uncapped (the bar caps at 100); null for a zero limit. */
  utilisation: number | null;
  /** When the approval that granted the current limit lapses; null when no approved request backs it. */
  validUntil: string | null;
}

/** The /limits grid: clients (or, with partyType 'customer', debtors) that have a credit limit, by name; `q` as in the list. */
export async function clientLimitsOverview(
  options: { q?: string | null; partyType?: LimitPartyType; limit?: number; offset?: number } = {},
): Promise<{ clients: ClientLimitDto[]; total: number }> {
  const { limit, offset } = pageBounds(options);
  const partyType = options.partyType ?? 'client';
  const [table, column] = partyType === 'client' ? ['clients', 'client_id'] : ['customers', 'customer_id'];
  const search = partySearch(options.q, ['c']);
  const where = ['c.credit_limit IS NOT NULL', search.condition].filter(Boolean).join(' AND ');
  const replacements = { ...search.replacements, limit, offset };
  const [rows, count] = await Promise.all([
    selectRows<RowOf<typeof Client | typeof Customer, 'id' | 'company_name'> & { credit_limit: string; used_credit: string; valid_until: string | null }>(
      `SELECT c.id, c.company_name, c.credit_limit, c.used_credit, a.valid_until
         FROM ${table} c
         LEFT JOIN LATERAL (
           SELECT to_char(r.valid_until, 'YYYY-MM-DD') AS valid_until FROM credit_limit_requests r
            WHERE r.${column} = c.id AND r.status = 'approved'
            ORDER BY r.decided_at DESC, r.id DESC LIMIT 1) a ON true
        WHERE ${where}
        ORDER BY c.company_name, c.id
        LIMIT :limit OFFSET :offset`,
      replacements,
    ),
    selectOne<{ total: number }>(`SELECT count(*)::int AS total FROM ${table} c WHERE ${where}`, replacements),
  ]);
  return {
    clients: rows.map((row) => {
      const limitCents = toCents(row.credit_limit);
      const usedCents = toCents(row.used_credit);
      return {
        id: row.id,
        partyType,
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

/** How many debtors the request form lists at once; a search finds the others. */
const DEBTOR_CHOICES = 50;

/**
 * The request form's debtor choices: the first DEBTOR_CHOICES by name, or
 * those whose name or OIB prefix matches `q` (the form's search step, which
 * works without JavaScript); the one already chosen stays listed. `capped`:
 * more match than listed.
 */
export async function customerChoices(
  options: { q?: string | null; chosenId?: string | null } = {},
): Promise<{ customers: Array<{ id: string; companyName: string; creditLimit: number | null }>; capped: boolean }> {
  const search = partySearch(options.q, ['c']);
  const rows = await selectRows<RowOf<typeof Customer, 'id' | 'company_name' | 'credit_limit'>>(
    `SELECT c.id, c.company_name, c.credit_limit FROM customers c ${search.condition ? `WHERE ${search.condition}` : ''}
      ORDER BY lower(c.company_name), c.id LIMIT :cap`,
    { ...search.replacements, cap: DEBTOR_CHOICES + 1 },
  );
  const listed = rows.slice(0, DEBTOR_CHOICES);
  const chosenId = options.chosenId?.toLowerCase() ?? '';
  if (isUuid(chosenId) && !listed.some((row) => row.id === chosenId)) {
    const chosen = await selectOne<RowOf<typeof Customer, 'id' | 'company_name' | 'credit_limit'>>(`SELECT id, company_name, credit_limit FROM customers WHERE id = :id`, {
      id: chosenId,
    });
    if (chosen) listed.unshift(chosen);
  }
  return { customers: listed.map((row) => ({ id: row.id, companyName: row.company_name, creditLimit: money(row.credit_limit) })), capped: rows.length > DEBTOR_CHOICES };
}

/** The customer page's limit requests for one debtor, newest first (at most `limit`). */
export async function customerLimitRequests(customerId: string, limit = 20): Promise<CreditLimitRequestDto[]> {
  if (!isUuid(customerId)) return [];
  const rows = await selectRows<RequestRow>(`${SELECT_REQUESTS} WHERE r.customer_id = :customerId ORDER BY r.requested_at DESC, r.id DESC LIMIT :limit`, { customerId, limit });
  return rows.map(toDto);
}
