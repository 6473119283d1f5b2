import { z } from 'zod';
import { plainText } from '../utils/validation.ts';

/**
 * Payloads of the risk area: the API bodies and the /risk page forms share
 * their rules and messages (the page maps the messages to i18n keys).
 */
export const RISK_MESSAGES = {
  entityTypeInvalid: 'Entity type must be client or customer',
  entityIdInvalid: 'Entity is required',
  entityRequired: 'Choose a client or customer',
  adjustmentRequired: 'Manual adjustment is required',
  adjustmentRange: 'Manual adjustment must be a whole number from -100 to 100',
  notesRequired: 'Notes are required',
  notesTooLong: 'Notes must be at most 5000 characters',
} as const;

export const ENTITY_TYPES = ['client', 'customer'] as const;
const entityType = z.enum(ENTITY_TYPES, RISK_MESSAGES.entityTypeInvalid);
const optionalNotes = plainText(z.string(RISK_MESSAGES.notesTooLong).trim().max(5000, RISK_MESSAGES.notesTooLong), { multiline: true })
  .nullish()
  .transform((value) => value || null);
// An adjustment changes a decision someone relied on: it always says why.
const requiredNotes = plainText(z.string(RISK_MESSAGES.notesRequired).trim().min(1, RISK_MESSAGES.notesRequired).max(5000, RISK_MESSAGES.notesTooLong), {
  multiline: true,
});

/** POST /api/risk-assessments {entityType, entityId, notes?}. */
export const newAssessmentSchema = z.object({
  entityType,
  entityId: z.uuid(RISK_MESSAGES.entityIdInvalid),
  notes: optionalNotes,
});

/** The 'Nova procjena' form: one select whose values read 'client:<uuid>' or 'customer:<uuid>'. */
export const newAssessmentFormSchema = z.object({
  entity: z
    .string(RISK_MESSAGES.entityRequired)
    .regex(/^(client|customer):[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, RISK_MESSAGES.entityRequired),
  notes: optionalNotes,
});

const adjustment = z
  .number(RISK_MESSAGES.adjustmentRequired)
  .int(RISK_MESSAGES.adjustmentRange)
  .min(-100, RISK_MESSAGES.adjustmentRange)
  .max(100, RISK_MESSAGES.adjustmentRange);

/** PUT /api/risk-assessments/{id} {manualAdjustment, notes}. */
export const adjustAssessmentSchema = z.object({ manualAdjustment: adjustment, notes: requiredNotes });

/** The 'Uredi' form: the same rules, the number read from a text field. */
export const adjustAssessmentFormSchema = z.object({
  id: z.uuid(),
  manualAdjustment: z.coerce.number(RISK_MESSAGES.adjustmentRequired).pipe(adjustment),
  notes: requiredNotes,
});

/** The /risk page's posts by `intent`: the manual adjustment or a new assessment (what the page reads when the intent is neither). */
export const riskPageIntentSchema = z.discriminatedUnion('intent', [z.object({ intent: z.literal('adjust') }), z.object({ intent: z.literal('assess') })]);
