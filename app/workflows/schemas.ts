import * as z from 'zod';
import { plainText } from '../utils/validation.ts';

/**
 * Payloads of the workflow area (docs/domain-model.md Workflow definition; docs/lifecycle.md#workflows): the
 * definition editor on /workflows and the API bodies share these. No server
 * imports here: the browser form uses them too.
 */
export const WORKFLOW_TYPES = ['client_onboarding', 'invoice_verification', 'risk_assessment', 'payment_processing'] as const;
export type WorkflowType = (typeof WORKFLOW_TYPES)[number];
export const WORKFLOW_STATUSES = ['running', 'completed', 'failed', 'paused'] as const;
export const STEP_TYPES = ['automated', 'manual'] as const;
export const TASK_TYPES = ['kyc_verification', 'risk_assessment', 'manual_review', 'document_review', 'customer_contact', 'limit_approval'] as const;
export const ENTITY_TYPES = ['client', 'customer', 'invoice', 'payment', 'credit_limit_request'] as const;

/** The handlers a definition may name (implemented in handlers/*.server.ts; the registry checks it knows each). */
export const HANDLER_NAMES = [
  'checkDocuments',
  'finaCheck',
  'riskAssessment',
  'sendWelcomeEmail',
  'validateInvoice',
  'checkDuplicateInvoice',
  'sendInvoiceVerifiedEmail',
  'hanfaCheck',
  'matchPayment',
  'releaseReserve',
  'sendPaymentConfirmation',
] as const;
export type HandlerName = (typeof HANDLER_NAMES)[number];

/** Which entity an instance of each type works on (risk assessments also take customers). */
export const ENTITY_TYPES_OF: Record<WorkflowType, readonly (typeof ENTITY_TYPES)[number][]> = {
  client_onboarding: ['client'],
  invoice_verification: ['invoice'],
  risk_assessment: ['client', 'customer'],
  payment_processing: ['payment'],
};

/** Refusal codes of the workflow calls (docs/decisions/013-error-codes.md); their en texts are the API's English. */
export const WORKFLOW_MESSAGES = {
  nameRequired: 'workflows.refusals.nameRequired',
  nameTooLong: 'workflows.refusals.nameTooLong',
  typeInvalid: 'workflows.refusals.typeInvalid',
  descriptionTooLong: 'workflows.refusals.descriptionTooLong',
  stepsRequired: 'workflows.refusals.stepsRequired',
  stepsTooMany: 'workflows.refusals.stepsTooMany',
  stepNameRequired: 'workflows.refusals.stepNameRequired',
  stepTypeInvalid: 'workflows.refusals.stepTypeInvalid',
  handlerRequired: 'workflows.refusals.handlerRequired',
  handlerUnknown: 'workflows.refusals.handlerUnknown',
  taskTypeRequired: 'workflows.refusals.taskTypeRequired',
  entityIdInvalid: 'workflows.refusals.entityIdInvalid',
  entityTypeInvalid: 'workflows.refusals.entityTypeInvalid',
  entityIdRequired: 'workflows.refusals.entityIdRequired',
  entityNotFound: 'workflows.refusals.entityNotFound',
  noActiveDefinition: 'workflows.refusals.noActiveDefinition',
  entityTypeMismatch: 'workflows.refusals.entityTypeMismatch',
  noEntity: 'workflows.refusals.noEntity',
  instanceNotFound: 'workflows.refusals.instanceNotFound',
  definitionNotFound: 'workflows.refusals.definitionNotFound',
  notRunning: 'workflows.refusals.notRunning',
  notPaused: 'workflows.refusals.notPaused',
  notFailed: 'workflows.refusals.notFailed',
} as const;

export const stepSchema = z
  .object({
    name: plainText(z.string(WORKFLOW_MESSAGES.stepNameRequired).trim().min(1, WORKFLOW_MESSAGES.stepNameRequired).max(255, WORKFLOW_MESSAGES.nameTooLong)),
    type: z.enum(STEP_TYPES, WORKFLOW_MESSAGES.stepTypeInvalid),
    handler: plainText(z.string(WORKFLOW_MESSAGES.handlerUnknown).trim().max(100, WORKFLOW_MESSAGES.handlerUnknown)).optional(),
    taskType: plainText(z.string(WORKFLOW_MESSAGES.taskTypeRequired).trim().max(100, WORKFLOW_MESSAGES.taskTypeRequired)).optional(),
  })
  .transform((step, ctx) => {
    // Only the field that belongs to the step's type is kept, so a switched type leaves no stale value behind.
    if (step.type === 'automated') {
      if (!step.handler) ctx.addIssue({ code: 'custom', path: ['handler'], message: WORKFLOW_MESSAGES.handlerRequired });
      return { name: step.name, type: step.type, handler: step.handler ?? '' };
    }
    if (!step.taskType || !(TASK_TYPES as readonly string[]).includes(step.taskType)) {
      ctx.addIssue({ code: 'custom', path: ['taskType'], message: WORKFLOW_MESSAGES.taskTypeRequired });
    }
    return { name: step.name, type: step.type, taskType: step.taskType ?? '' };
  });

const definitionFields = {
  name: plainText(z.string(WORKFLOW_MESSAGES.nameRequired).trim().min(1, WORKFLOW_MESSAGES.nameRequired).max(255, WORKFLOW_MESSAGES.nameTooLong)),
  type: z.enum(WORKFLOW_TYPES, WORKFLOW_MESSAGES.typeInvalid),
  description: plainText(z.string(WORKFLOW_MESSAGES.descriptionTooLong).trim().max(5000, WORKFLOW_MESSAGES.descriptionTooLong), { multiline: true })
    .nullish()
    .transform((value) => value || null),
  steps: z.array(stepSchema, WORKFLOW_MESSAGES.stepsRequired).min(1, WORKFLOW_MESSAGES.stepsRequired).max(50, WORKFLOW_MESSAGES.stepsTooMany),
};

/** POST /api/workflows and the editor's save. */
export const definitionSchema = z.object(definitionFields);

/** PUT /api/workflows/{id}: any of the editable fields, and/or isActive (activate/deactivate). */
export const definitionUpdateSchema = z
  .object({ ...definitionFields, isActive: z.boolean() })
  .partial()
  // Nothing to change is refused on isActive, the switch most calls send.
  .refine((value) => Object.keys(value).length > 0, { message: 'Nothing to update', path: ['isActive'] });

/** POST /api/workflows/start. */
export const startSchema = z.object({
  workflowType: z.enum(WORKFLOW_TYPES, WORKFLOW_MESSAGES.typeInvalid),
  entityType: z.enum(ENTITY_TYPES, WORKFLOW_MESSAGES.entityTypeInvalid),
  entityId: z.uuid(WORKFLOW_MESSAGES.entityIdInvalid),
});

/** POST /api/workflows/{id}/test and the page's test form. */
export const testSchema = z.object({ entityId: z.uuid(WORKFLOW_MESSAGES.entityIdInvalid) });

/**
 * The /workflows page's posts, told apart by their `intent`. The editor's
 * step buttons post `move-up:2`, `move-down:0`, `remove-step:1` (a button
 * carries one name and value, and the editor works without JavaScript), read
 * here as the verb and the step's index.
 */
export const workflowPageIntentSchema = z.preprocess(
  (fields) => {
    const { intent } = fields as { intent?: unknown };
    const match = typeof intent === 'string' ? /^(move-up|move-down|remove-step):(\d{1,3})$/.exec(intent) : null;
    return match ? { ...(fields as object), intent: match[1], step: match[2] } : fields;
  },
  z.discriminatedUnion('intent', [
    z.object({ intent: z.literal(['pause', 'resume', 'restart']) }),
    z.object({ intent: z.literal(['activate', 'deactivate']) }),
    z.object({ intent: z.literal('test') }),
    z.object({ intent: z.literal('save') }),
    z.object({ intent: z.literal('add-step') }),
    z.object({ intent: z.literal(['move-up', 'move-down', 'remove-step']), step: z.coerce.number().int() }),
  ]),
);
export type WorkflowPageIntent = z.infer<typeof workflowPageIntentSchema>;
