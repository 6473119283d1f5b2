import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import type { Role } from '../auth/schemas.ts';
import { execute, inTransaction, isUniqueViolation, selectOne, selectPage } from '../db.server.ts';
import { apiError, zodRefusal, type FieldErrors } from '../utils/api.server.ts';
import { validateTemplate } from './render.server.ts';
import { EMAIL_ERRORS, templateCreateSchema, templateUpdateSchema, type EmailTrigger, type TemplateCreateInput, type TemplateUpdateInput } from './schemas.ts';
import { isUuid } from '../utils/validation.ts';
import type { EmailTemplate } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';
import { iso } from '../utils/api-values.ts';

/**
 * Email templates (docs/domain-model.md, docs/domain-model.md#validation; docs/api.md): staff-edited, validated on
 * save, one active template per event trigger (the unique index
 * email_templates_active_trigger_key). The 'Aktivan' switch can be turned on
 * at any time: activating a template for an event trigger, or creating one
 * active, deactivates the one active before for that trigger in the same
 * transaction, logs both changes and names the deactivated template in the
 * answer, so the page can say so.
 */

export type Actor = { id: string; role: Role; isActive?: boolean };

type TemplateRow = RowOf<typeof EmailTemplate, 'id' | 'name' | 'trigger' | 'subject' | 'body' | 'is_active' | 'usage_count' | 'updated_at'>;

export interface TemplateDto {
  id: string;
  name: string;
  trigger: EmailTrigger;
  subject: string;
  body: string;
  isActive: boolean;
  usageCount: number;
  updatedAt: string;
}

export function toTemplateDto(row: TemplateRow): TemplateDto {
  return {
    id: row.id,
    name: row.name,
    trigger: row.trigger,
    subject: row.subject,
    body: row.body,
    isActive: row.is_active,
    usageCount: Number(row.usage_count),
    updatedAt: iso(row.updated_at),
  };
}

const COLUMNS = 'id, name, trigger, subject, body, is_active, usage_count, updated_at';

/** Refuses (400, per field, with the line) a subject or body that uses anything but the four variables. */
function assertValidContent(content: { subject: string; body: string }): void {
  const problems = validateTemplate(content);
  if (problems.length === 0) return;
  const errors: FieldErrors = {};
  for (const problem of problems) (errors[problem.field] ??= []).push(problem.message);
  throw apiError(400, problems[0].message, { errors: errors });
}

/** Only reachable if a writer outside this module activates a template for the trigger at the same moment. */
function activeConflict(trigger: string): Response {
  return apiError(409, 'email.errors.activeConflict', { params: { trigger }, errors: { isActive: ['email.errors.activeConflictField'] } });
}

export interface DeactivatedTemplate {
  id: string;
  name: string;
}

/** A saved template and the one it replaced as the active template of its trigger, if any. */
export type SavedTemplateDto = TemplateDto & { deactivatedTemplate: DeactivatedTemplate | null };

const switchesTrigger = (trigger: EmailTrigger) => trigger !== 'manual';

/**
 * Serialises the activations of one event trigger: a transaction-scoped
 * advisory lock keyed by the trigger. Row locks alone would not do: a
 * template created active has no row to lock yet, and two activations that
 * each hold their own template's row would wait on each other's. Taken
 * before any template row is locked.
 */
async function lockTrigger(trigger: EmailTrigger, transaction: Transaction): Promise<void> {
  await execute(`SELECT pg_advisory_xact_lock(hashtextextended('email_templates.trigger:' || :trigger, 0))`, { trigger }, { transaction });
}

/** Switches off the template active for `trigger` other than `keepId` (under lockTrigger); returns it. */
async function deactivateActive(trigger: EmailTrigger, keepId: string | null, transaction: Transaction): Promise<DeactivatedTemplate | null> {
  const { rows } = await execute<DeactivatedTemplate>(
    `UPDATE email_templates SET is_active = false
      WHERE trigger = :trigger AND is_active AND (CAST(:keepId AS uuid) IS NULL OR id <> CAST(:keepId AS uuid))
      RETURNING id, name`,
    { trigger, keepId },
    { transaction },
  );
  return rows[0] ?? null;
}

/** The deactivated template's own activity row: why it went off, and for which template. */
async function logReplaced(
  { actor, ip, trigger, replaced, by }: { actor: Actor; ip?: string | null; trigger: EmailTrigger; replaced: DeactivatedTemplate; by: DeactivatedTemplate },
  transaction: Transaction,
) {
  await logActivity(
    {
      action: 'email_template_deactivated',
      userId: actor.id,
      entityType: 'email_template',
      entityId: replaced.id,
      ipAddress: ip,
      details: { name: replaced.name, trigger, changed: ['isActive'], replacedBy: by },
    },
    transaction,
  );
}

export async function listTemplates({ limit = 100, offset = 0, activeOnly = false }: { limit?: number; offset?: number; activeOnly?: boolean } = {}) {
  const where = activeOnly ? 'WHERE is_active' : '';
  const { rows, total } = await selectPage<TemplateRow>(
    `SELECT ${COLUMNS} FROM email_templates ${where} ORDER BY updated_at DESC, id DESC LIMIT :limit OFFSET :offset`,
    `SELECT count(*)::int AS total FROM email_templates ${where}`,
    { limit, offset },
  );
  return { templates: rows.map(toTemplateDto), total };
}

export async function getTemplateRow(id: string, transaction?: Transaction): Promise<TemplateRow | null> {
  return selectOne<TemplateRow>(`SELECT ${COLUMNS} FROM email_templates WHERE id = :id`, { id }, { transaction });
}

/** The one active template of an event trigger, if any. */
export async function activeTemplateFor(trigger: Exclude<EmailTrigger, 'manual'>, transaction?: Transaction | null): Promise<TemplateRow | null> {
  return selectOne<TemplateRow>(`SELECT ${COLUMNS} FROM email_templates WHERE trigger = :trigger AND is_active LIMIT 1`, { trigger }, { transaction });
}

/** POST /api/email/templates; created active for an event trigger, it takes over from the template active before. */
export async function createTemplate({ actor, input, ip }: { actor: Actor; input: unknown; ip?: string | null }): Promise<SavedTemplateDto> {
  assertCan(actor, 'edit:email_template');
  const parsed = templateCreateSchema.safeParse(input);
  if (!parsed.success) throw zodRefusal(parsed.error);
  const data: TemplateCreateInput = parsed.data;
  assertValidContent(data);
  try {
    return await inTransaction(async (transaction) => {
      let deactivated: DeactivatedTemplate | null = null;
      if (data.isActive && switchesTrigger(data.trigger)) {
        await lockTrigger(data.trigger, transaction);
        deactivated = await deactivateActive(data.trigger, null, transaction);
      }
      const { rows } = await execute<TemplateRow>(
        `INSERT INTO email_templates (name, trigger, subject, body, is_active, created_by)
         VALUES (:name, :trigger, :subject, :body, :isActive, :actorId) RETURNING ${COLUMNS}`,
        { ...data, actorId: actor.id },
        { transaction },
      );
      const row = rows[0];
      await logActivity(
        {
          action: 'email_template_created',
          userId: actor.id,
          entityType: 'email_template',
          entityId: row.id,
          ipAddress: ip,
          details: { name: row.name, trigger: row.trigger, isActive: row.is_active, ...(deactivated ? { deactivatedTemplate: deactivated } : {}) },
        },
        transaction,
      );
      if (deactivated) await logReplaced({ actor, ip, trigger: data.trigger, replaced: deactivated, by: { id: row.id, name: row.name } }, transaction);
      return { ...toTemplateDto(row), deactivatedTemplate: deactivated };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw activeConflict(data.trigger);
    throw error;
  }
}

/**
 * PUT /api/email/templates/{id}: the active switch and/or the content
 * (validated again). Becoming the active template of an event trigger
 * (switched on, or moved to another trigger while on) deactivates the one
 * active there before.
 */
export async function updateTemplate({ actor, id, input, ip }: { actor: Actor; id: string; input: unknown; ip?: string | null }): Promise<SavedTemplateDto> {
  assertCan(actor, 'edit:email_template');
  const parsed = templateUpdateSchema.safeParse(input);
  if (!parsed.success) throw zodRefusal(parsed.error);
  const data: TemplateUpdateInput = parsed.data;
  // An id that is no UUID names no template (a form may post anything): 404, not a SQL error.
  if (!isUuid(id)) throw apiError(404, EMAIL_ERRORS.templateNotFound);
  let trigger = data.trigger ?? '';
  try {
    return await inTransaction(async (transaction) => {
      // The trigger lock comes before the row lock (see lockTrigger); a request that may make the template active takes it.
      const locked = new Set<EmailTrigger>();
      const lockFor = async (target: EmailTrigger) => {
        if (!switchesTrigger(target) || locked.has(target)) return;
        await lockTrigger(target, transaction);
        locked.add(target);
      };
      if (data.isActive !== false) {
        const target = data.trigger ?? (await getTemplateRow(id, transaction))?.trigger;
        if (target) await lockFor(target);
      }
      const current = await selectOne<TemplateRow>(`SELECT ${COLUMNS} FROM email_templates WHERE id = :id FOR UPDATE`, { id }, { transaction });
      if (!current) throw apiError(404, EMAIL_ERRORS.templateNotFound);
      const next = {
        name: data.name ?? current.name,
        trigger: data.trigger ?? current.trigger,
        subject: data.subject ?? current.subject,
        body: data.body ?? current.body,
        isActive: data.isActive ?? current.is_active,
      };
      trigger = next.trigger;
      if (data.subject !== undefined || data.body !== undefined) assertValidContent(next);
      const takesOver = next.isActive && switchesTrigger(next.trigger) && (!current.is_active || current.trigger !== next.trigger);
      let deactivated: DeactivatedTemplate | null = null;
      if (takesOver) {
        // Its trigger changed since it was read unlocked: rare, and the lock is still taken before any other row.
        await lockFor(next.trigger);
        deactivated = await deactivateActive(next.trigger, id, transaction);
      }
      const { rows } = await execute<TemplateRow>(
        `UPDATE email_templates SET name = :name, trigger = :trigger, subject = :subject, body = :body, is_active = :isActive
          WHERE id = :id RETURNING ${COLUMNS}`,
        { ...next, id },
        { transaction },
      );
      const changed = (Object.keys(data) as (keyof TemplateUpdateInput)[]).filter((key) => data[key] !== undefined);
      await logActivity(
        {
          action: data.isActive !== undefined && changed.length === 1 ? (data.isActive ? 'email_template_activated' : 'email_template_deactivated') : 'email_template_updated',
          userId: actor.id,
          entityType: 'email_template',
          entityId: id,
          ipAddress: ip,
          details: { name: next.name, trigger: next.trigger, changed, ...(deactivated ? { deactivatedTemplate: deactivated } : {}) },
        },
        transaction,
      );
      if (deactivated) await logReplaced({ actor, ip, trigger: next.trigger, replaced: deactivated, by: { id, name: next.name } }, transaction);
      return { ...toTemplateDto(rows[0]), deactivatedTemplate: deactivated };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw activeConflict(trigger);
    throw error;
  }
}
