import type { Transaction } from 'sequelize';
import { CLIENT_STATUSES, type ClientStatus, type OnboardingStatus } from '../../db/models/enums.ts';
import { agreementInForceDto, type AgreementDto } from '../agreements/agreements.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { startKycReview } from '../onboarding/kyc-decision.server.ts';
import { inTransaction, selectOne } from '../db.server.ts';
import { apiError, parseInput } from '../utils/api.server.ts';
import { centsToNumber, toCents } from '../utils/money.ts';
import { iso, money } from '../utils/api-values.ts';
import type { Client } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import {
  createParty,
  findParty,
  listParties,
  partyCompanyDto,
  partyContactDto,
  partyRelations,
  updateParty,
  type PartyCompanyDto,
  type PartyConfig,
  type PartyContactDto,
  type PartyRelations,
} from './party.server.ts';
import { PARTY_ERRORS, clientCreateSchema, clientUpdateSchema, type ClientCreateInput, type ClientUpdateInput } from './schemas.ts';
import { isUuid } from '../utils/validation.ts';

/**
 * Clients: the companies that sell their invoices (docs/domain-model.md). Creation by
 * staff (the dialog, POST /api/clients) and by the applicant of the
 * registration wizard (actor null, in the wizard's transaction), the list,
 * the detail view and edits. The shared rules live in party.server.ts.
 */
export type { ClientCreateInput, ClientUpdateInput };

const CLIENTS: PartyConfig = {
  kind: 'client',
  table: 'clients',
  fields: ['companyName', 'oib', 'address', 'city', 'postalCode', 'country', 'contactPerson', 'email', 'phone', 'iban', 'registrationNumber', 'status', 'onboardingStatus'],
  createPermission: 'create:client',
  updatePermission: 'update:client',
  duplicateOibMessage: PARTY_ERRORS.clientDuplicateOib,
  notFoundMessage: 'errors.parties.clientNotFound',
};

type ClientRow = RowOf<typeof Client>;

/** A client in the API's shape (docs/domain-model.md field names; money in EUR as numbers). */
export interface ClientDto extends PartyCompanyDto, PartyContactDto {
  contactPerson: string | null;
  status: ClientStatus;
  riskCategory: 'low' | 'medium' | 'high' | null;
  riskScore: number | null;
  creditLimit: number | null;
  usedCredit: number;
  onboardingStatus: OnboardingStatus;
  createdAt: string;
  updatedAt: string;
}

/** GET /api/clients/{id}: the client, its agreement and figures, and the related rows of the detail view. */
export interface ClientDetailDto extends ClientDto, PartyRelations {
  /** The agreement version in force today (docs/money.md#the-agreement); null: the client cannot be financed. */
  agreement: AgreementDto | null;
  /** creditLimit − usedCredit; null while no limit is set. */
  availableCredit: number | null;
  /** usedCredit / creditLimit in percent, one decimal; null while no limit (or a zero limit) is set. */
  utilisation: number | null;
}

// Object.assign rather than spreads: V8 (Node 20) builds `{ ...a(), x, ...b() }` on a slow path, some
// 20 µs per row, the largest cost of a client list page (docs/benchmarks.md).
export function toClientDto(row: ClientRow): ClientDto {
  return Object.assign(partyCompanyDto(row), { contactPerson: row.contact_person }, partyContactDto(row), {
    status: row.status,
    riskCategory: row.risk_category,
    riskScore: row.risk_score,
    creditLimit: money(row.credit_limit),
    usedCredit: money(row.used_credit),
    onboardingStatus: row.onboarding_status,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  });
}

/** Utilisation in percent to one decimal, exact until the final half-up rounding. */
export function utilisationPercent(usedCents: number, limitCents: number | null): number | null {
  if (limitCents === null || limitCents <= 0) return null;
  const tenths = (BigInt(usedCents) * 1000n * 2n + BigInt(limitCents)) / (2n * BigInt(limitCents));
  return Number(tenths) / 10;
}

/**
 * POST /api/clients, the creation dialog and the registration wizard. Every
 * new client goes through the KYC review before it can be financed
 * (app/onboarding/kyc-decision.server.ts): one entered by staff starts
 * 'pending' with onboarding 'pending', and its review starts in the same
 * transaction (the onboarding workflow, or a KYC task without one); the
 * wizard's applicant (actor null) starts 'pending' with onboarding
 * 'in_progress', as the wizard starts its workflow itself. A desired credit
 * limit is never set here: the wizard turns it into a limit request. With
 * `options.transaction` the caller's transaction is used (nothing is
 * committed here). Throws 400, 403, 409 (OIB taken).
 */
export async function createClient(
  { actor, input, ip }: { actor: Actor | null; input: ClientCreateInput; ip?: string | null },
  options: { transaction?: Transaction } = {},
): Promise<ClientDto> {
  const data = parseInput(clientCreateSchema, input);
  return inTransaction(async (transaction) => {
    const row = await createParty<ClientRow>(CLIENTS, {
      actor,
      ip,
      transaction,
      values: {
        ...data,
        status: data.status ?? 'pending',
        onboardingStatus: actor ? 'pending' : 'in_progress',
      },
    });
    if (actor) await startKycReview({ clientId: row.id, actor, ip }, transaction);
    return toClientDto(row);
  }, options.transaction);
}

/** GET /api/clients: newest first; `q` (name, OIB prefix, email), `status`; the page and the full count. */
export async function listClients(options: { q?: string | null; status?: string | null; limit?: number; offset?: number } = {}): Promise<{ clients: ClientDto[]; total: number }> {
  const where: string[] = [];
  if (options.status) {
    if (!(CLIENT_STATUSES as readonly string[]).includes(options.status)) {
      throw apiError(400, PARTY_ERRORS.invalidStatus, { errors: { status: [PARTY_ERRORS.invalidStatus] } });
    }
    where.push('status = :status');
  }
  const { rows, total } = await listParties<ClientRow>(CLIENTS, { ...options, where, replacements: { status: options.status ?? null } });
  return { clients: rows.map(toClientDto), total };
}

/** GET /api/clients/{id}. Throws 404. */
export async function getClient(id: string): Promise<ClientDetailDto> {
  const row = await findParty<ClientRow>(CLIENTS, id);
  const relations = await partyRelations('client', row.id);
  const limitCents = row.credit_limit === null ? null : toCents(row.credit_limit);
  const usedCents = toCents(row.used_credit);
  return {
    ...toClientDto(row),
    agreement: await agreementInForceDto(row.id),
    availableCredit: limitCents === null ? null : centsToNumber(limitCents - usedCents),
    utilisation: utilisationPercent(usedCents, limitCents),
    ...relations,
  };
}

/** PUT /api/clients/{id}: the given fields; logs client_updated with old→new. Throws 400, 403, 404, 409 (OIB taken; 'active' before the KYC approval). */

export async function updateClient({ actor, id, input, ip }: { actor: Actor; id: string; input: ClientUpdateInput; ip?: string | null }): Promise<ClientDto> {
  const data = parseInput(clientUpdateSchema, input);
  if (data.status === 'active') {
    // Only the KYC approval makes a client active (app/onboarding/kyc-decision.server.ts); an edit cannot skip it.
    const current = isUuid(id) ? await selectOne<RowOf<typeof Client, 'onboarding_status'>>(`SELECT onboarding_status FROM clients WHERE id = :id`, { id }) : null;
    if (current && current.onboarding_status !== 'completed') {
      throw apiError(409, PARTY_ERRORS.kycNotApproved, { errors: { status: [PARTY_ERRORS.kycNotApproved] } });
    }
  }
  const row = await updateParty<ClientRow>(CLIENTS, { actor, id, values: data, ip });
  return toClientDto(row);
}
