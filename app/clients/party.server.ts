import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { assessEntity } from '../risk/assessments.server.ts';
import { assertCan, type Permission } from '../auth/permissions.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { execute, inTransaction, isUniqueViolation, selectOne, selectRows } from '../db.server.ts';
import { containsPattern } from '../search.server.ts';
import { apiError } from '../utils/api.server.ts';
import { iso, money } from '../utils/api-values.ts';
import { isUuid } from '../utils/validation.ts';
import type { ActivityLog, Client, Customer, Document, Invoice, RiskAssessment } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { pageBounds } from '../utils/list-url.ts';
import { dilutionOf, type DilutionDto } from '../dilution/rate.server.ts';

/**
 * What clients and customers have in common ("parties": companies with an
 * OIB): creation with its duplicate-OIB rule, edits with an old→new audit
 * trail, the searchable list, and the related rows of the detail view.
 * clients.server.ts and customers.server.ts add their own fields and DTOs.
 */
export type PartyKind = 'client' | 'customer';

/** camelCase API field → column. Only these names ever reach SQL text. */
export const PARTY_COLUMNS = {
  companyName: 'company_name',
  oib: 'oib',
  address: 'address',
  city: 'city',
  postalCode: 'postal_code',
  country: 'country',
  contactPerson: 'contact_person',
  email: 'email',
  phone: 'phone',
  iban: 'iban',
  registrationNumber: 'registration_number',
  status: 'status',
  onboardingStatus: 'onboarding_status',
} as const;
export type PartyColumnField = keyof typeof PARTY_COLUMNS;

export interface PartyConfig {
  kind: PartyKind;
  table: 'clients' | 'customers';
  fields: readonly PartyColumnField[];
  createPermission: Permission;
  updatePermission: Permission;
  duplicateOibMessage: string;
  notFoundMessage: string;
}

/** Columns both tables have; each DTO module reads its own extra columns from the same row. */
type PartyColumn =
  | 'id'
  | 'company_name'
  | 'oib'
  | 'address'
  | 'city'
  | 'postal_code'
  | 'country'
  | 'email'
  | 'phone'
  | 'iban'
  | 'registration_number'
  | 'risk_category'
  | 'risk_score'
  | 'created_at'
  | 'updated_at';
export type PartyRow = RowOf<typeof Client, PartyColumn> | RowOf<typeof Customer, PartyColumn>;

export type PartyValues = Partial<Record<PartyColumnField, string | null>>;

/** The company a client or a customer is, in the API's shape: its name, OIB and address. */
export interface PartyCompanyDto {
  id: string;
  companyName: string;
  oib: string;
  address: string | null;
  city: string | null;
  postalCode: string | null;
  country: string;
}

/** How a client or a customer is reached and paid, in the API's shape. */
export interface PartyContactDto {
  email: string | null;
  phone: string | null;
  iban: string | null;
  registrationNumber: string | null;
}

export function partyCompanyDto(row: PartyRow): PartyCompanyDto {
  return { id: row.id, companyName: row.company_name, oib: row.oib, address: row.address, city: row.city, postalCode: row.postal_code, country: row.country };
}

export function partyContactDto(row: PartyRow): PartyContactDto {
  return { email: row.email, phone: row.phone, iban: row.iban, registrationNumber: row.registration_number };
}

function duplicate(config: PartyConfig): Response {
  return apiError(409, config.duplicateOibMessage, { errors: { oib: [config.duplicateOibMessage] } });
}

async function assertOibFree(config: PartyConfig, oib: string, exceptId: string | null, transaction: Transaction) {
  const taken = await selectOne(
    `SELECT 1 AS taken FROM ${config.table} WHERE oib = :oib AND (CAST(:exceptId AS uuid) IS NULL OR id <> CAST(:exceptId AS uuid))`,
    { oib, exceptId },
    { transaction },
  );
  if (taken) throw duplicate(config);
}

/** Runs the party's INSERT or UPDATE … RETURNING *: an OIB taken meanwhile (the unique index) is the same 409 as the check's. */
async function writeParty<Row extends PartyRow>(config: PartyConfig, sql: string, replacements: Record<string, unknown>, transaction: Transaction): Promise<Row> {
  try {
    const { rows } = await execute<Row>(sql, replacements, { transaction });
    return rows[0];
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(config);
    throw error;
  }
}

/**
 * Inserts the party and its `<kind>_created` activity row in one transaction.
 * A taken OIB is 409 (checked first; a concurrent insert that slips past the
 * check hits the unique index and gets the same answer). `actor` null is the
 * applicant of the public registration wizard.
 */
export async function createParty<Row extends PartyRow>(
  config: PartyConfig,
  args: { actor: Actor | null; values: PartyValues; ip?: string | null; transaction?: Transaction },
): Promise<Row> {
  const { actor, values } = args;
  if (actor) assertCan(actor, config.createPermission);
  const fields = config.fields.filter((field) => values[field] !== undefined);
  const columns = fields.map((field) => PARTY_COLUMNS[field]);
  const replacements: Record<string, unknown> = { createdBy: actor?.id ?? null };
  for (const field of fields) replacements[PARTY_COLUMNS[field]] = values[field];

  return inTransaction(async (transaction) => {
    await assertOibFree(config, String(values.oib), null, transaction);
    const row = await writeParty<Row>(
      config,
      `INSERT INTO ${config.table} (${[...columns, 'created_by'].join(', ')})
       VALUES (${[...columns.map((column) => `:${column}`), ':createdBy'].join(', ')})
       RETURNING *`,
      replacements,
      transaction,
    );
    const recorded = Object.fromEntries(fields.map((field) => [field, values[field]]));
    await logActivity(
      {
        action: `${config.kind}_created`,
        userId: actor?.id ?? null,
        entityType: config.kind,
        entityId: row.id,
        ipAddress: args.ip,
        details: actor ? recorded : { ...recorded, source: 'registration' },
      },
      transaction,
    );
    // Every new party gets its first risk assessment at once; the score lands on the row.
    await assessEntity({ entityType: config.kind, entityId: row.id, actor: null, reason: 'created', ip: args.ip }, { transaction });
    const assessed = await selectOne<Row>(`SELECT * FROM ${config.table} WHERE id = :id`, { id: row.id }, { transaction });
    return assessed ?? row;
  }, args.transaction);
}

/**
 * Applies the given fields (undefined = unchanged, null = cleared) and writes
 * `<kind>_updated` with every changed field as {old, new}. Nothing changed:
 * no write and no log row. Throws 403, 404, 409 (OIB taken).
 */
export async function updateParty<Row extends PartyRow>(config: PartyConfig, args: { actor: Actor; id: string; values: PartyValues; ip?: string | null }): Promise<Row> {
  assertCan(args.actor, config.updatePermission);
  return inTransaction(async (transaction) => {
    const current = isUuid(args.id) ? await selectOne<Row>(`SELECT * FROM ${config.table} WHERE id = :id FOR UPDATE`, { id: args.id }, { transaction }) : null;
    if (!current) throw apiError(404, config.notFoundMessage);
    const changes: Record<string, { old: unknown; new: unknown }> = {};
    for (const field of config.fields) {
      const next = args.values[field];
      if (next === undefined) continue;
      const previous = (current as unknown as Record<string, unknown>)[PARTY_COLUMNS[field]] ?? null;
      if (previous !== next) changes[field] = { old: previous, new: next };
    }
    const changed = Object.keys(changes) as PartyColumnField[];
    if (changed.length === 0) return current;
    if (changes.oib) await assertOibFree(config, String(changes.oib.new), current.id, transaction);

    const replacements: Record<string, unknown> = { id: current.id };
    for (const field of changed) replacements[PARTY_COLUMNS[field]] = changes[field].new;
    const row = await writeParty<Row>(
      config,
      `UPDATE ${config.table} SET ${changed.map((field) => `${PARTY_COLUMNS[field]} = :${PARTY_COLUMNS[field]}`).join(', ')}
        WHERE id = :id RETURNING *`,
      replacements,
      transaction,
    );
    await logActivity(
      {
        action: `${config.kind}_updated`,
        userId: args.actor.id,
        entityType: config.kind,
        entityId: current.id,
        ipAddress: args.ip,
        details: { companyName: row.company_name, changes },
      },
      transaction,
    );
    return row;
  });
}

/** A party by `term`: the company name or email containing it (trigram indexes), or, when it is all digits, the OIB starting with it. */
export function partySearchCondition(term: string, replacements: Record<string, unknown>): string {
  replacements.pattern = containsPattern(term);
  const digits = term.replace(/\s+/g, '');
  if (/^\d{1,11}$/.test(digits)) {
    replacements.oibPrefix = `${digits}%`;
    return `(company_name ILIKE :pattern OR email ILIKE :pattern OR oib LIKE :oibPrefix)`;
  }
  return `(company_name ILIKE :pattern OR email ILIKE :pattern)`;
}

/**
 * A page of the list, newest first, and the full count of the same filter
 * (X-Total-Count). `q` matches the company name or email anywhere (trigram
 * indexes) and, when it is all digits, the OIB's beginning (pattern index).
 */
export async function listParties<Row extends PartyRow>(
  config: PartyConfig,
  options: { q?: string | null; where?: string[]; replacements?: Record<string, unknown>; limit?: number; offset?: number },
): Promise<{ rows: Row[]; total: number }> {
  const { limit, offset } = pageBounds(options);
  const conditions = [...(options.where ?? [])];
  const replacements: Record<string, unknown> = { ...options.replacements, limit, offset };
  const term = options.q?.trim();
  if (term) conditions.push(partySearchCondition(term, replacements));
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  const [rows, count] = await Promise.all([
    selectRows<Row>(`SELECT * FROM ${config.table} ${where} ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset`, replacements),
    selectOne<{ total: number }>(`SELECT count(*)::int AS total FROM ${config.table} ${where}`, replacements),
  ]);
  return { rows, total: count?.total ?? 0 };
}

export async function findParty<Row extends PartyRow>(config: PartyConfig, id: string): Promise<Row> {
  const row = isUuid(id) ? await selectOne<Row>(`SELECT * FROM ${config.table} WHERE id = :id`, { id }) : null;
  if (!row) throw apiError(404, config.notFoundMessage);
  return row;
}

// ---------------------------------------------------------------------------
// The detail view's related rows.

export const DETAIL_INVOICE_LIMIT = 20;
const DETAIL_ROW_LIMIT = 50;

export interface PartyInvoiceDto {
  id: string;
  invoiceNumber: string;
  status: RowOf<typeof Invoice>['status'];
  verificationStatus: string;
  amount: number;
  currency: string;
  issueDate: string;
  dueDate: string;
  factorAmount: number | null;
  factorFee: number | null;
  createdAt: string;
  /** The other party: the customer on a client's invoice, the client on a customer's. */
  counterpartyId: string;
  counterpartyName: string;
}
export interface PartyDocumentDto {
  id: string;
  name: string;
  type: string;
  mimeType: string;
  size: number;
  signatureStatus: string | null;
  createdAt: string;
}
export interface RiskHistoryDto {
  id: string;
  score: number;
  category: 'low' | 'medium' | 'high';
  automaticScore: number;
  manualAdjustment: number;
  assessedBy: string;
  notes: string | null;
  createdAt: string;
}
export interface ActivityDto {
  id: string;
  action: string;
  userName: string | null;
  details: Record<string, unknown>;
  createdAt: string;
}
export interface PartyRelations {
  invoices: PartyInvoiceDto[];
  invoiceCount: number;
  documents: PartyDocumentDto[];
  riskHistory: RiskHistoryDto[];
  activity: ActivityDto[];
  /** Credit notes ÷ financed amount over the last 12 months (docs/collections.md#dilution-and-disputes-resolved). */
  dilution: DilutionDto;
}

export async function partyRelations(kind: PartyKind, id: string): Promise<PartyRelations> {
  const own = kind === 'client' ? 'client_id' : 'customer_id';
  const other = kind === 'client' ? { id: 'customer_id', table: 'customers' } : { id: 'client_id', table: 'clients' };
  const [invoices, invoiceCount, documents, riskHistory, activity, dilution] = await Promise.all([
    selectRows<
      RowOf<
        typeof Invoice,
        'id' | 'invoice_number' | 'status' | 'verification_status' | 'amount' | 'currency' | 'issue_date' | 'due_date' | 'factor_amount' | 'factor_fee' | 'created_at'
      > & { counterparty_id: string; counterparty_name: string }
    >(
      `SELECT i.id, i.invoice_number, i.status, i.verification_status, i.amount, i.currency, i.issue_date, i.due_date,
              i.factor_amount, i.factor_fee, i.created_at, o.id AS counterparty_id, o.company_name AS counterparty_name
         FROM invoices i JOIN ${other.table} o ON o.id = i.${other.id}
        WHERE i.${own} = :id ORDER BY i.created_at DESC, i.id DESC LIMIT :limit`,
      { id, limit: DETAIL_INVOICE_LIMIT },
    ),
    selectOne<{ total: number }>(`SELECT count(*)::int AS total FROM invoices WHERE ${own} = :id`, { id }),
    selectRows<RowOf<typeof Document, 'id' | 'name' | 'type' | 'mime_type' | 'size' | 'signature_status' | 'created_at'>>(
      `SELECT id, name, type, mime_type, size, signature_status, created_at FROM documents
        WHERE entity_type = :kind AND entity_id = :id ORDER BY created_at DESC, id DESC LIMIT :limit`,
      { kind, id, limit: DETAIL_ROW_LIMIT },
    ),
    selectRows<RowOf<typeof RiskAssessment, 'id' | 'score' | 'category' | 'automatic_score' | 'manual_adjustment' | 'notes' | 'created_at'> & { assessor: string | null }>(
      `SELECT r.id, r.score, r.category, r.automatic_score, r.manual_adjustment, r.notes, r.created_at,
              CASE WHEN u.id IS NULL THEN NULL ELSE u.first_name || ' ' || u.last_name END AS assessor
         FROM risk_assessments r LEFT JOIN users u ON u.id = r.assessed_by
        WHERE r.entity_type = :kind AND r.entity_id = :id ORDER BY r.created_at DESC, r.id DESC LIMIT :limit`,
      { kind, id, limit: DETAIL_ROW_LIMIT },
    ),
    selectRows<RowOf<typeof ActivityLog, 'id' | 'action' | 'details' | 'created_at'> & { user_name: string | null }>(
      `SELECT a.id, a.action, a.details, a.created_at,
              CASE WHEN u.id IS NULL THEN NULL ELSE u.first_name || ' ' || u.last_name END AS user_name
         FROM activity_logs a LEFT JOIN users u ON u.id = a.user_id
        WHERE a.entity_type = :kind AND a.entity_id = :id ORDER BY a.created_at DESC, a.id DESC LIMIT :limit`,
      { kind, id, limit: DETAIL_ROW_LIMIT },
    ),
    dilutionOf({ kind, id }),
  ]);
  return {
    invoices: invoices.map((row) => ({
      id: row.id,
      invoiceNumber: row.invoice_number,
      status: row.status,
      verificationStatus: row.verification_status,
      amount: money(row.amount),
      currency: row.currency,
      issueDate: row.issue_date,
      dueDate: row.due_date,
      factorAmount: money(row.factor_amount),
      factorFee: money(row.factor_fee),
      createdAt: iso(row.created_at),
      counterpartyId: row.counterparty_id,
      counterpartyName: row.counterparty_name,
    })),
    invoiceCount: invoiceCount?.total ?? 0,
    documents: documents.map((row) => ({
      id: row.id,
      name: row.name,
      type: row.type,
      mimeType: row.mime_type,
      size: row.size,
      signatureStatus: row.signature_status,
      createdAt: iso(row.created_at),
    })),
    riskHistory: riskHistory.map((row) => ({
      id: row.id,
      score: row.score,
      category: row.category,
      automaticScore: row.automatic_score,
      manualAdjustment: row.manual_adjustment,
      // docs/domain-model.md: 'system' for automatic assessments.
      assessedBy: row.assessor ?? 'system',
      notes: row.notes,
      createdAt: iso(row.created_at),
    })),
    activity: activity.map((row) => ({
      id: row.id,
      action: row.action,
      userName: row.user_name,
      details: row.details,
      createdAt: iso(row.created_at),
    })),
    dilution,
  };
}
