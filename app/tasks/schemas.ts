import * as z from 'zod';
import { TASK_ENTITY_TYPES, TASK_PRIORITIES, TASK_STATUSES, TASK_TYPES, type TaskEntityType, type TaskPriority, type TaskStatus, type TaskType } from '../../db/models/enums.ts';
import { parseTimestamp, isCalendarDate, plainText, UUID_PATTERN } from '../utils/validation.ts';
import { businessDay, businessOffsetMinutes } from '../utils/business-time.ts';

/**
 * Task payloads (docs/domain-model.md, docs/lifecycle.md#tasks; docs/api.md POST /api/tasks).
 * Shared by the /tasks forms (conform) and the API, so nothing server-only
 * is imported here. Messages are refusal codes (docs/decisions/013-error-codes.md).
 */
export { TASK_ENTITY_TYPES, TASK_PRIORITIES, TASK_STATUSES, TASK_TYPES };
export type { TaskEntityType, TaskPriority, TaskStatus, TaskType };

export const TASK_ERRORS = {
  titleRequired: 'tasks.validation.titleRequired',
  typeRequired: 'tasks.validation.typeRequired',
  invalidType: 'tasks.validation.invalidType',
  invalidPriority: 'tasks.validation.invalidPriority',
  invalidStatus: 'tasks.validation.invalidStatus',
  invalidDate: 'tasks.validation.invalidDate',
  invalidCompletedAt: 'tasks.validation.invalidCompletedAt',
  invalidAssignee: 'tasks.validation.invalidAssignee',
  unknownAssignee: 'tasks.validation.unknownAssignee',
  invalidEntity: 'tasks.validation.invalidEntity',
  entityPair: 'tasks.validation.entityPair',
  unknownEntity: 'tasks.validation.unknownEntity',
  tooLong255: 'tasks.validation.tooLong255',
  tooLong5000: 'tasks.validation.tooLong5000',
  nothingToUpdate: 'tasks.validation.nothingToUpdate',
  notFound: 'tasks.validation.notFound',
  notOpen: 'tasks.validation.notOpen',
  cannotStart: 'tasks.validation.cannotStart',
  cannotComplete: 'tasks.validation.cannotComplete',
  cannotCancel: 'tasks.validation.cannotCancel',
  cannotReopen: 'tasks.validation.cannotReopen',
  decideKyc: 'tasks.validation.decideKyc',
  decideInvoice: 'tasks.validation.decideInvoice',
  decidePayment: 'tasks.validation.decidePayment',
} as const;

/** The page's status tabs (docs/screens.md): no 'cancelled' tab, 'all' includes them. */
export const TASK_TABS = ['all', 'pending', 'in_progress', 'completed'] as const;
export type TaskTab = (typeof TASK_TABS)[number];
export const ASSIGNEE_FILTERS = ['all', 'me', 'unassigned'] as const;
export type AssigneeFilter = (typeof ASSIGNEE_FILTERS)[number];

const DAY = /^\d{4}-\d{2}-\d{2}$/;

const blankToUndefined = (value: unknown) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value);
/** In an update, '' or null clears an optional field; a missing key leaves it unchanged. */
const blankToNull = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? null : value);

/** Descriptions and notes: several lines allowed, control characters and broken Unicode not. */
const text = (max: number, message: string) => plainText(z.string(message).trim().max(max, message), { multiline: true });

/**
 * A due date as the forms send it (YYYY-MM-DD) means "by the end of that day
 * in Zagreb", so a task due today is not late before midnight there; a full
 * ISO timestamp (the API) is kept as given.
 */
export function dueDateToIso(value: string): string | null {
  const trimmed = value.trim();
  if (DAY.test(trimmed)) {
    // 30 February is refused, not rolled into March.
    if (!isCalendarDate(trimmed) || trimmed < '1000-01-01') return null;
    const guess = Date.parse(`${trimmed}T23:59:59.999Z`);
    return new Date(guess - businessOffsetMinutes(guess) * 60_000).toISOString();
  }
  const parsed = parseTimestamp(trimmed);
  if (!parsed) return null;
  // Without a zone the time is Zagreb's, like the day form above.
  const instant = parsed.local ? parsed.date.getTime() - businessOffsetMinutes(parsed.date.getTime()) * 60_000 : parsed.date.getTime();
  return new Date(instant).toISOString();
}

/** The Zagreb calendar day of a stored due date, for the edit form's date input. */
export function dueDay(iso: string | null): string {
  if (!iso) return '';
  return businessDay(iso);
}

const dueDateSchema = z.string(TASK_ERRORS.invalidDate).transform((value, ctx) => {
  const iso = dueDateToIso(value);
  if (!iso) {
    ctx.addIssue({ code: 'custom', message: TASK_ERRORS.invalidDate });
    return z.NEVER;
  }
  return iso;
});
const uuidSchema = (message: string) =>
  z
    .string(message)
    .trim()
    .regex(UUID_PATTERN, message)
    .transform((value) => value.toLowerCase());

const titleSchema = plainText(z.string(TASK_ERRORS.titleRequired).trim().min(1, TASK_ERRORS.titleRequired).max(255, TASK_ERRORS.tooLong255));
const prioritySchema = z.enum(TASK_PRIORITIES, TASK_ERRORS.invalidPriority);

/** POST /api/tasks and the new-task dialog. */
export const taskCreateSchema = z
  .object({
    // A missing title reads as empty, so it gets 'Title is required', not a type error.
    title: z.preprocess((value) => value ?? '', titleSchema),
    description: z.preprocess(blankToUndefined, text(5000, TASK_ERRORS.tooLong5000).optional()),
    type: z.preprocess(blankToUndefined, z.enum(TASK_TYPES, { error: (issue) => (issue.input === undefined ? TASK_ERRORS.typeRequired : TASK_ERRORS.invalidType) })),
    priority: z.preprocess(blankToUndefined, prioritySchema.default('medium')),
    assignedTo: z.preprocess(blankToUndefined, uuidSchema(TASK_ERRORS.invalidAssignee).optional()),
    dueDate: z.preprocess(blankToUndefined, dueDateSchema.optional()),
    entityType: z.preprocess(blankToUndefined, z.enum(TASK_ENTITY_TYPES, TASK_ERRORS.invalidEntity).optional()),
    entityId: z.preprocess(blankToUndefined, uuidSchema(TASK_ERRORS.invalidEntity).optional()),
    notes: z.preprocess(blankToUndefined, text(5000, TASK_ERRORS.tooLong5000).optional()),
  })
  .superRefine((value, ctx) => {
    if ((value.entityType === undefined) !== (value.entityId === undefined)) {
      ctx.addIssue({ code: 'custom', message: TASK_ERRORS.entityPair, path: [value.entityType === undefined ? 'entityType' : 'entityId'] });
    }
  });
export type TaskCreateInput = z.input<typeof taskCreateSchema>;

/** The fields that may be edited while a task is open (docs/lifecycle.md#tasks). */
export const TASK_EDIT_FIELDS = ['title', 'description', 'priority', 'assignedTo', 'dueDate', 'notes'] as const;
export type TaskEditField = (typeof TASK_EDIT_FIELDS)[number];

const editShape = {
  title: titleSchema.optional(),
  description: z.preprocess(blankToNull, text(5000, TASK_ERRORS.tooLong5000).nullable().optional()),
  priority: prioritySchema.optional(),
  assignedTo: z.preprocess(blankToNull, uuidSchema(TASK_ERRORS.invalidAssignee).nullable().optional()),
  dueDate: z.preprocess(blankToNull, dueDateSchema.nullable().optional()),
  notes: z.preprocess(blankToNull, text(5000, TASK_ERRORS.tooLong5000).nullable().optional()),
};

/**
 * PUT /api/tasks/{taskId} (docs/api.md): `status` (start, complete, cancel) and,
 * on completion, `completedAt` — accepted but ignored, the server sets it
 * (docs/lifecycle.md#tasks) — and/or the edit fields.
 */
export const taskUpdateSchema = z.object({
  status: z.enum(TASK_STATUSES, TASK_ERRORS.invalidStatus).optional(),
  // Ignored, but a value that is there must still be a real instant (or null).
  completedAt: z.preprocess(
    blankToUndefined,
    z
      .string(TASK_ERRORS.invalidCompletedAt)
      .trim()
      .refine((value) => isCalendarDate(value) || parseTimestamp(value) !== null, TASK_ERRORS.invalidCompletedAt)
      .optional(),
  ),
  ...editShape,
});
export type TaskUpdateInput = z.input<typeof taskUpdateSchema>;

/** The edit form posts every field, so it validates with the title required. */
export const taskEditFormSchema = z.object({ ...editShape, title: titleSchema, priority: prioritySchema });

/** The /tasks page's posts, told apart by their `intent` (each form's fields are parsed by its own schema). */
export const taskPageIntentSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('create') }),
  z.object({ intent: z.literal('edit') }),
  z.object({ intent: z.literal(['start', 'complete', 'cancel', 'assign']) }),
  z.object({ intent: z.literal('kyc') }),
]);
export type TaskPageIntent = z.infer<typeof taskPageIntentSchema>['intent'];
