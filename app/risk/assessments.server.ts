import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { apiError, parseInput } from '../utils/api.server.ts';
import { adjustAssessmentSchema, RISK_ERRORS } from './schemas.ts';
import { categoryOf, clampScore, RISK_FACTOR_NAMES, scoreEntity, type RiskEntityType, type StoredFactors } from './scoring.server.ts';
import type { RiskCategory } from './scoring.ts';
import { startWorkflowOnEvent } from '../workflows/instances.server.ts';
import { isUuid } from '../utils/validation.ts';
import { iso } from '../utils/api-values.ts';
import { sqlUserName } from '../auth/user-record.server.ts';
import type { RiskAssessment } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { pageBounds } from '../utils/list-url.ts';

/**
 * Risk assessments (docs/domain-model.md): made by the system when a client or
 * customer is created, when one of its invoices becomes overdue and when a
 * blockage is found, and on demand ('Nova procjena'); adjusted by a manager
 * ('Uredi'). A client's and customer's risk_score / risk_category always
 * equal their latest assessment, written in the same transaction.
 */
export type AssessmentReason = 'created' | 'overdue' | 'blockage' | 'on_demand';

export interface RiskAssessmentDto {
  id: string;
  entityType: RiskEntityType;
  entityId: string;
  entityName: string | null;
  category: RiskCategory;
  score: number;
  automaticScore: number;
  manualAdjustment: number;
  /** 'system' for automatic assessments, otherwise the user's name (docs/domain-model.md). */
  assessedBy: string;
  adjustedBy: string | null;
  adjustedAt: string | null;
  factors: StoredFactors;
  notes: string | null;
  hanfaData: Record<string, unknown> | null;
  finaData: Record<string, unknown> | null;
  createdAt: string;
  updatedAt: string;
}

/** The stored row with the names the list shows; `factors` is the scoring module's shape of the JSONB. */
type AssessmentRow = Omit<RowOf<typeof RiskAssessment>, 'adjusted_by' | 'factors'> & {
  factors: StoredFactors;
  entity_name: string | null;
  assessor: string | null;
  adjuster: string | null;
};

const TABLE: Record<RiskEntityType, string> = { client: 'clients', customer: 'customers' };
const NOT_FOUND: Record<RiskEntityType, string> = { client: 'errors.parties.clientNotFound', customer: 'errors.parties.customerNotFound' };
const REASONS: readonly AssessmentReason[] = ['created', 'overdue', 'blockage', 'on_demand'];

const SELECT = `
  SELECT r.id, r.entity_type, r.entity_id, r.category, r.score, r.automatic_score, r.manual_adjustment,
         r.assessed_by, r.adjusted_at, r.factors, r.notes, r.hanfa_data, r.fina_data, r.created_at, r.updated_at,
         coalesce(cl.company_name, cu.company_name) AS entity_name,
         coalesce(${sqlUserName('a')}, a.email) AS assessor,
         coalesce(${sqlUserName('j')}, j.email) AS adjuster
    FROM risk_assessments r
    LEFT JOIN clients cl ON r.entity_type = 'client' AND cl.id = r.entity_id
    LEFT JOIN customers cu ON r.entity_type = 'customer' AND cu.id = r.entity_id
    LEFT JOIN users a ON a.id = r.assessed_by
    LEFT JOIN users j ON j.id = r.adjusted_by`;

// jsonb keeps object keys sorted by length, not as written: put them back in the factor table's order
// (older assessments' 'financials' after it), so "the first 4 factors" are the same four everywhere.
const FACTOR_ORDER: readonly string[] = [...RISK_FACTOR_NAMES, 'financials'];

function inTableOrder(factors: StoredFactors): StoredFactors {
  const rank = (name: string) => (FACTOR_ORDER.includes(name) ? FACTOR_ORDER.indexOf(name) : FACTOR_ORDER.length);
  const names = Object.keys(factors ?? {}).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return Object.fromEntries(names.map((name) => [name, factors[name]]));
}

export function toAssessmentDto(row: AssessmentRow): RiskAssessmentDto {
  return {
    id: row.id,
    entityType: row.entity_type,
    entityId: row.entity_id,
    entityName: row.entity_name,
    category: row.category,
    score: row.score,
    automaticScore: row.automatic_score,
    manualAdjustment: row.manual_adjustment,
    assessedBy: row.assessed_by === null ? 'system' : (row.assessor ?? 'system'),
    adjustedBy: row.adjuster,
    adjustedAt: iso(row.adjusted_at),
    factors: inTableOrder(row.factors),
    notes: row.notes,
    hanfaData: row.hanfa_data,
    finaData: row.fina_data,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** Locks the entity row, so assessments and adjustments of one entity take turns and "latest" stays true. */
async function lockEntity(entityType: RiskEntityType, entityId: string, transaction: Transaction) {
  const row = isUuid(entityId)
    ? await selectOne<{ id: string; account_blocked?: boolean; blockage_reason?: string | null; last_fina_check?: Date | null }>(
        `SELECT * FROM ${TABLE[entityType]} WHERE id = :entityId FOR UPDATE`,
        { entityId },
        { transaction },
      )
    : null;
  if (!row) throw apiError(404, NOT_FOUND[entityType], { errors: { entityId: [NOT_FOUND[entityType]] } });
  return row;
}

async function setEntityScore(entityType: RiskEntityType, entityId: string, score: number, transaction: Transaction) {
  await execute(
    `UPDATE ${TABLE[entityType]} SET risk_score = :score, risk_category = :category WHERE id = :entityId`,
    { score, category: categoryOf(score), entityId },
    { transaction },
  );
}

/**
 * Assesses a client or customer as its book stands now and stores the
 * assessment; the entity's risk score follows it. `actor` null = the system
 * (assessed_by NULL, shown as 'system'). Joins the caller's transaction when
 * given one (creation of a client/customer, a FINA check). Throws 404 for an
 * unknown entity, 403 when a signed-in actor may not assess.
 */
export async function assessEntity(
  input: {
    entityType: RiskEntityType;
    entityId: string;
    actor: Actor | null;
    notes?: string | null;
    reason: AssessmentReason;
    ip?: string | null;
  },
  options: { transaction?: Transaction } = {},
): Promise<RiskAssessmentDto> {
  const { entityType, entityId, actor, reason } = input;
  if (entityType !== 'client' && entityType !== 'customer') throw apiError(400, RISK_ERRORS.entityTypeInvalid, { errors: { entityType: [RISK_ERRORS.entityTypeInvalid] } });
  if (!REASONS.includes(reason)) throw new Error(`unknown assessment reason: ${String(reason)}`);
  if (actor) assertCan(actor, 'assess:risk');
  const notes = input.notes?.trim() ? input.notes.trim() : null;
  if (notes && notes.length > 5000) throw apiError(400, RISK_ERRORS.notesTooLong, { errors: { notes: [RISK_ERRORS.notesTooLong] } });

  const run = async (transaction: Transaction) => {
    const entity = await lockEntity(entityType, entityId, transaction);
    const { factors, automaticScore, score, category } = await scoreEntity(entityType, entityId, { transaction });
    // What FINA last told us about a customer's account; absent when it has never been checked.
    const finaData =
      entityType === 'customer' && entity.last_fina_check
        ? {
            source: 'fina',
            accountBlocked: Boolean(entity.account_blocked),
            blockageReason: entity.blockage_reason ?? null,
            checkedAt: new Date(entity.last_fina_check).toISOString(),
          }
        : null;
    const { rows } = await execute<{ id: string }>(
      // clock_timestamp(): two assessments in one transaction still have an order.
      `INSERT INTO risk_assessments
         (entity_type, entity_id, category, score, automatic_score, manual_adjustment, assessed_by, factors, notes, fina_data,
          created_at, updated_at)
       VALUES (:entityType, :entityId, :category, :score, :automaticScore, 0, :assessedBy, CAST(:factors AS jsonb), :notes,
               CAST(:finaData AS jsonb), clock_timestamp(), clock_timestamp())
       RETURNING id`,
      {
        entityType,
        entityId,
        category,
        score,
        automaticScore,
        assessedBy: actor?.id ?? null,
        factors: JSON.stringify(factors),
        notes,
        finaData: finaData ? JSON.stringify(finaData) : null,
      },
      { transaction },
    );
    await setEntityScore(entityType, entityId, score, transaction);
    const id = rows[0].id;
    await logActivity(
      {
        action: 'risk_assessed',
        userId: actor?.id ?? null,
        entityType,
        entityId,
        ipAddress: input.ip,
        details: { assessmentId: id, reason, score, category, automaticScore },
      },
      transaction,
    );
    return id;
  };

  const id = await inTransaction(run, options.transaction);
  return (await findAssessment(id, options.transaction)) as RiskAssessmentDto;
}

/**
 * 'Nova procjena' and POST /api/risk-assessments: a staff member asks for an
 * assessment. It is made (reason on_demand), and with it the entity's risk
 * review workflow starts, carrying the assessment's id so that its scoring
 * step reports this assessment instead of making a second one
 * (docs/reference-data.md). One transaction.
 */
export async function requestAssessment(input: {
  entityType: RiskEntityType;
  entityId: string;
  actor: Actor;
  notes?: string | null;
  ip?: string | null;
}): Promise<RiskAssessmentDto> {
  return inTransaction(async (transaction) => {
    const assessment = await assessEntity({ ...input, reason: 'on_demand' }, { transaction });
    await startWorkflowOnEvent(
      {
        event: 'risk_assessment_completed',
        entityType: assessment.entityType,
        entityId: assessment.entityId,
        actor: input.actor,
        ip: input.ip,
        context: { assessmentId: assessment.id },
      },
      { transaction },
    );
    return assessment;
  });
}

/**
 * 'Uredi' / PUT /api/risk-assessments/{id} (manager, 'adjust:risk'): sets the
 * manual adjustment (−100…100) with notes, recording who and when; score and
 * category follow; the entity's score follows when this is its latest
 * assessment. Throws 400, 403, 404.
 */
export async function adjustAssessment(input: { actor: Actor; id: string; manualAdjustment: number; notes: string; ip?: string | null }): Promise<RiskAssessmentDto> {
  assertCan(input.actor, 'adjust:risk');
  const data = parseInput(adjustAssessmentSchema, { manualAdjustment: input.manualAdjustment, notes: input.notes });
  if (!isUuid(input.id)) throw apiError(404, 'risk.errors.notFound');

  await inTransaction(async (transaction) => {
    const found = await selectOne<RowOf<typeof RiskAssessment, 'entity_type' | 'entity_id'>>(
      `SELECT entity_type, entity_id FROM risk_assessments WHERE id = :id`,
      { id: input.id },
      { transaction },
    );
    if (!found) throw apiError(404, 'risk.errors.notFound');
    // Entity first, as assessEntity does: the same lock order never deadlocks.
    await lockEntity(found.entity_type, found.entity_id, transaction);
    const before = await selectOne<RowOf<typeof RiskAssessment, 'automatic_score' | 'manual_adjustment' | 'score' | 'category' | 'notes'>>(
      `SELECT automatic_score, manual_adjustment, score, category, notes FROM risk_assessments WHERE id = :id FOR UPDATE`,
      { id: input.id },
      { transaction },
    );
    if (!before) throw apiError(404, 'risk.errors.notFound');
    const score = clampScore(before.automatic_score + data.manualAdjustment);
    const category = categoryOf(score);
    await execute(
      `UPDATE risk_assessments
          SET manual_adjustment = :manualAdjustment, score = :score, category = :category, notes = :notes,
              adjusted_by = :actorId, adjusted_at = now()
        WHERE id = :id`,
      { manualAdjustment: data.manualAdjustment, score, category, notes: data.notes, actorId: input.actor.id, id: input.id },
      { transaction },
    );
    const latest = await selectOne<{ id: string }>(
      `SELECT id FROM risk_assessments WHERE entity_type = :entityType AND entity_id = :entityId
        ORDER BY created_at DESC, id DESC LIMIT 1`,
      { entityType: found.entity_type, entityId: found.entity_id },
      { transaction },
    );
    const isLatest = latest?.id === input.id;
    if (isLatest) await setEntityScore(found.entity_type, found.entity_id, score, transaction);
    await logActivity(
      {
        action: 'risk_adjusted',
        userId: input.actor.id,
        entityType: found.entity_type,
        entityId: found.entity_id,
        ipAddress: input.ip,
        details: {
          assessmentId: input.id,
          old: { manualAdjustment: before.manual_adjustment, score: before.score, category: before.category, notes: before.notes },
          new: { manualAdjustment: data.manualAdjustment, score, category, notes: data.notes },
          latest: isLatest,
        },
      },
      transaction,
    );
  });
  return (await findAssessment(input.id)) as RiskAssessmentDto;
}

async function findAssessment(id: string, transaction?: Transaction): Promise<RiskAssessmentDto | null> {
  const row = await selectOne<AssessmentRow>(`${SELECT} WHERE r.id = :id`, { id }, { transaction });
  return row ? toAssessmentDto(row) : null;
}

/** GET /api/risk-assessments/{id}; 404 when unknown. */
export async function getAssessment(id: string): Promise<RiskAssessmentDto> {
  const found = isUuid(id) ? await findAssessment(id) : null;
  if (!found) throw apiError(404, 'risk.errors.notFound');
  return found;
}

export interface ListAssessmentsOptions {
  q?: string | null;
  entityType?: RiskEntityType | null;
  category?: RiskCategory | null;
  limit?: number;
  offset?: number;
}

/** Newest first; `q` searches the entity's name (and OIB prefix); filters by entity type and category; the full count in SQL. */
export async function listAssessments(options: ListAssessmentsOptions = {}): Promise<{ items: RiskAssessmentDto[]; total: number }> {
  const { limit, offset } = pageBounds(options);
  const text = options.q?.trim() ?? '';
  const conditions: string[] = [];
  const replacements: Record<string, unknown> = { limit, offset };
  if (text) {
    replacements.q = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    replacements.oib = `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(`(coalesce(cl.company_name, cu.company_name) ILIKE :q OR coalesce(cl.oib, cu.oib) LIKE :oib)`);
  }
  if (options.entityType) {
    replacements.entityType = options.entityType;
    conditions.push('r.entity_type = :entityType');
  }
  if (options.category) {
    replacements.category = options.category;
    conditions.push('r.category = :category');
  }
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  const [rows, count] = await Promise.all([
    selectRows<AssessmentRow>(`${SELECT} ${where} ORDER BY r.created_at DESC, r.id DESC LIMIT :limit OFFSET :offset`, replacements),
    selectOne<{ total: number }>(
      `SELECT count(*)::int AS total FROM risk_assessments r
         LEFT JOIN clients cl ON r.entity_type = 'client' AND cl.id = r.entity_id
         LEFT JOIN customers cu ON r.entity_type = 'customer' AND cu.id = r.entity_id
       ${where}`,
      replacements,
    ),
  ]);
  return { items: rows.map(toAssessmentDto), total: count?.total ?? 0 };
}

/** The three summary cards: assessments per category, counted in SQL. */
export async function categoryCounts(): Promise<Record<RiskCategory, number> & { total: number }> {
  const row = await selectOne<{ low: number; medium: number; high: number; total: number }>(
    `SELECT count(*) FILTER (WHERE category = 'low')::int AS low,
            count(*) FILTER (WHERE category = 'medium')::int AS medium,
            count(*) FILTER (WHERE category = 'high')::int AS high,
            count(*)::int AS total
       FROM risk_assessments`,
  );
  return row ?? { low: 0, medium: 0, high: 0, total: 0 };
}

/** The 'Nova procjena' choice: every client and customer by name (capped, for one select). */
export async function assessableEntities(limit = 1000): Promise<{ clients: EntityOption[]; customers: EntityOption[] }> {
  const [clients, customers] = await Promise.all([
    selectRows<EntityOption>(`SELECT id, company_name AS name, oib FROM clients ORDER BY company_name, id LIMIT :limit`, { limit }),
    selectRows<EntityOption>(`SELECT id, company_name AS name, oib FROM customers ORDER BY company_name, id LIMIT :limit`, { limit }),
  ]);
  return { clients, customers };
}
export interface EntityOption {
  id: string;
  name: string;
  oib: string;
}
