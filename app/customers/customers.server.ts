import type { Transaction } from 'sequelize';
import type { Actor } from '../auth/users.server.ts';
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
} from '../clients/party.server.ts';
import { iso, money } from '../utils/api-values.ts';
import { centsToNumber, toCents } from '../utils/money.ts';
import type { Customer } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { PARTY_ERRORS } from '../clients/schemas.ts';
import { apiError, parseInput } from '../utils/api.server.ts';
import { customerCreateSchema, customerUpdateSchema, type CustomerCreateInput, type CustomerUpdateInput } from './schemas.ts';

/**
 * Customers: the debtors who pay the invoices (docs/domain-model.md). Same party rules as
 * clients (party.server.ts); their own fields are the FINA blockage data,
 * which the FINA integration writes, not these forms.
 */
const CUSTOMERS: PartyConfig = {
  kind: 'customer',
  table: 'customers',
  fields: ['companyName', 'oib', 'address', 'city', 'postalCode', 'country', 'email', 'phone', 'iban', 'registrationNumber'],
  createPermission: 'create:customer',
  updatePermission: 'update:customer',
  duplicateOibMessage: PARTY_ERRORS.customerDuplicateOib,
  notFoundMessage: 'errors.parties.customerNotFound',
};

type CustomerRow = RowOf<typeof Customer>;

export interface CustomerDto extends PartyCompanyDto, PartyContactDto {
  accountBlocked: boolean;
  blockageReason: string | null;
  lastFinaCheck: string | null;
  riskScore: number | null;
  riskCategory: 'low' | 'medium' | 'high' | null;
  /** The debtor's approved limit in EUR across all clients (docs/domain-model.md); null: none approved. */
  creditLimit: number | null;
  /** The advances outstanding on its invoices across all clients (kept by the ledger, docs/money.md). */
  usedCredit: number;
  /** creditLimit − usedCredit (negative when over); null without a limit. */
  availableCredit: number | null;
  createdAt: string;
  updatedAt: string;
}

/** GET /api/customers/{id}: the customer and the related rows of the detail view (invoices where it is the debtor). */
export type CustomerDetailDto = CustomerDto & PartyRelations;

// Object.assign rather than spreads: see toClientDto.
export function toCustomerDto(row: CustomerRow): CustomerDto {
  return Object.assign(partyCompanyDto(row), partyContactDto(row), {
    accountBlocked: row.account_blocked,
    blockageReason: row.blockage_reason,
    lastFinaCheck: iso(row.last_fina_check),
    riskScore: row.risk_score,
    riskCategory: row.risk_category,
    creditLimit: money(row.credit_limit),
    usedCredit: money(row.used_credit),
    availableCredit: row.credit_limit === null ? null : centsToNumber(toCents(row.credit_limit) - toCents(row.used_credit)),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  });
}

/** POST /api/customers and the 'Dodaj novog kupca' dialog. Throws 400, 403, 409 (OIB taken). */
export async function createCustomer(
  { actor, input, ip }: { actor: Actor | null; input: CustomerCreateInput; ip?: string | null },
  options: { transaction?: Transaction } = {},
): Promise<CustomerDto> {
  const data = parseInput(customerCreateSchema, input);
  const row = await createParty<CustomerRow>(CUSTOMERS, { actor, ip, transaction: options.transaction, values: data });
  return toCustomerDto(row);
}

/** GET /api/customers: newest first; `q` (name, OIB prefix, email), `accountBlocked` ('true'/'false'). */
export async function listCustomers(
  options: { q?: string | null; accountBlocked?: string | boolean | null; limit?: number; offset?: number } = {},
): Promise<{ customers: CustomerDto[]; total: number }> {
  const where: string[] = [];
  let blocked: boolean | null = null;
  if (options.accountBlocked !== undefined && options.accountBlocked !== null && options.accountBlocked !== '') {
    const value = String(options.accountBlocked);
    if (value !== 'true' && value !== 'false') {
      throw apiError(400, 'errors.parties.accountBlockedInvalid', { errors: { accountBlocked: ['errors.parties.accountBlockedInvalid'] } });
    }
    blocked = value === 'true';
    where.push('account_blocked = :blocked');
  }
  const { rows, total } = await listParties<CustomerRow>(CUSTOMERS, { ...options, where, replacements: { blocked } });
  return { customers: rows.map(toCustomerDto), total };
}

/** GET /api/customers/{id}. Throws 404. */
export async function getCustomer(id: string): Promise<CustomerDetailDto> {
  const row = await findParty<CustomerRow>(CUSTOMERS, id);
  return { ...toCustomerDto(row), ...(await partyRelations('customer', row.id)) };
}

/** PUT /api/customers/{id}: the given fields; logs customer_updated with old→new. Throws 400, 403, 404, 409. */
export async function updateCustomer({ actor, id, input, ip }: { actor: Actor; id: string; input: CustomerUpdateInput; ip?: string | null }): Promise<CustomerDto> {
  const data = parseInput(customerUpdateSchema, input);
  const row = await updateParty<CustomerRow>(CUSTOMERS, { actor, id, values: data, ip });
  return toCustomerDto(row);
}
