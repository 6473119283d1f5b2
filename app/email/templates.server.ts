import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import { isUuid } from '../auth/user-record.server.ts';
import type { Role } from '../auth/schemas.ts';
import { execute, inTransaction, isUniqueViolation, selectOne, selectRows } from '../db.server.ts';
import { apiError, zodFieldErrors, type FieldErrors } from '../utils/api.server.ts';
import { validateTemplate } from './render.server.ts';
import {
  EMAIL_MESSAGES,
  templateCreateSchema,
  templateUpdateSchema,
  type EmailTrigger,
  type TemplateCreateInput,
  type TemplateUpdateInput,
} from './schemas.ts';

/** Email templates (spec §3, §5; DESIGN §7, §9): staff-edited, validated on save, one active template per event trigger. */

export type Actor = { id: string; role: Role; isActive?: boolean };

export interface TemplateRow {
  id: string;
  name: string;
  trigger: EmailTrigger;
  subject: string;
  body: string;
  is_active: boolean;
  usage_count: number;
  updated_at: Date | string;
}

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
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

const COLUMNS = 'id, name, trigger, subject, body, is_active, usage_count, updated_at';

/** Refuses (400, per field, with the line) a subject or body that uses anything but the four variables. */
function assertValidContent(content: { subject: string; body: string }): void {
  const problems = validateTemplate(content);
  if (problems.length === 0) return;
  const errors: FieldErrors = {};
  for (const problem of problems) (errors[problem.field] ??= []).push(problem.message);
  throw apiError(400, problems[0].message, errors);
}

function activeConflict(trigger: string): Response {
  return apiError(
    409,
    `Another active template already uses the trigger ${trigger}; deactivate it first (one active template per trigger)`,
    { isActive: ['Another active template already uses this trigger'] },
  );
}

export async function listTemplates({ limit = 100, offset = 0, activeOnly = false }: { limit?: number; offset?: number; activeOnly?: boolean } = {}) {
  const where = activeOnly ? 'WHERE is_active' : '';
  const [rows, count] = await Promise.all([
    selectRows<TemplateRow>(`SELECT ${COLUMNS} FROM email_templates ${where} ORDER BY updated_at DESC, id DESC LIMIT :limit OFFSET :offset`, { limit, offset }),
    selectOne<{ n: number }>(`SELECT count(*)::int AS n FROM email_templates ${where}`),
  ]);
  return { templates: rows.map(toTemplateDto), total: count?.n ?? 0 };
}

export async function getTemplateRow(id: string, transaction?: Transaction): Promise<TemplateRow | null> {
  return selectOne<TemplateRow>(`SELECT ${COLUMNS} FROM email_templates WHERE id = :id`, { id }, { transaction });
}

/** The one active template of an event trigger, if any. */
export async function activeTemplateFor(trigger: Exclude<EmailTrigger, 'manual'>, transaction?: Transaction | null): Promise<TemplateRow | null> {
  return selectOne<TemplateRow>(`SELECT ${COLUMNS} FROM email_templates WHERE trigger = :trigger AND is_active LIMIT 1`, { trigger }, { transaction });
}

export async function createTemplate({ actor, input, ip }: { actor: Actor; input: unknown; ip?: string | null }): Promise<TemplateDto> {
  assertCan(actor, 'edit:email_template');
  const parsed = templateCreateSchema.safeParse(input);
  if (!parsed.success) throw apiError(400, parsed.error.issues[0]?.message ?? 'Invalid input', zodFieldErrors(parsed.error));
  const data: TemplateCreateInput = parsed.data;
  assertValidContent(data);
  try {
    return await inTransaction(async (transaction) => {
      const { rows } = await execute<TemplateRow>(
        `INSERT INTO email_templates (name, trigger, subject, body, is_active, created_by)
         VALUES (:name, :trigger, :subject, :body, :isActive, :actorId) RETURNING ${COLUMNS}`,
        { ...data, actorId: actor.id },
        { transaction },
      );
      const row = rows[0];
      await logActivity(
        { action: 'email_template_created', userId: actor.id, entityType: 'email_template', entityId: row.id, ipAddress: ip, details: { name: row.name, trigger: row.trigger, isActive: row.is_active } },
        transaction,
      );
      return toTemplateDto(row);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw activeConflict(data.trigger);
    throw error;
  }
}

/** PUT /api/email/templates/{id}: the active switch and/or the content (validated again). */
export async function updateTemplate({ actor, id, input, ip }: { actor: Actor; id: string; input: unknown; ip?: string | null }): Promise<TemplateDto> {
  assertCan(actor, 'edit:email_template');
  const parsed = templateUpdateSchema.safeParse(input);
  if (!parsed.success) throw apiError(400, parsed.error.issues[0]?.message ?? 'Invalid input', zodFieldErrors(parsed.error));
  const data: TemplateUpdateInput = parsed.data;
  // An id that is no UUID names no template (a form may post anything): 404, not a SQL error.
  if (!isUuid(id)) throw apiError(404, EMAIL_MESSAGES.templateNotFound);
  let trigger = data.trigger ?? '';
  try {
    return await inTransaction(async (transaction) => {
      const current = await selectOne<TemplateRow>(`SELECT ${COLUMNS} FROM email_templates WHERE id = :id FOR UPDATE`, { id }, { transaction });
      if (!current) throw apiError(404, EMAIL_MESSAGES.templateNotFound);
      const next = {
        name: data.name ?? current.name,
        trigger: data.trigger ?? current.trigger,
        subject: data.subject ?? current.subject,
        body: data.body ?? current.body,
        isActive: data.isActive ?? current.is_active,
      };
      trigger = next.trigger;
      if (data.subject !== undefined || data.body !== undefined) assertValidContent(next);
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
          details: { name: next.name, trigger: next.trigger, changed },
        },
        transaction,
      );
      return toTemplateDto(rows[0]);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw activeConflict(trigger);
    throw error;
  }
}
