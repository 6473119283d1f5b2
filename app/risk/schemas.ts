import * as z from 'zod';
import { plainText } from '../utils/validation.ts';

/**
 * Payloads of the risk area: the API bodies and the /risk page forms share
 * their rules and messages (the page maps the messages to i18n keys).
 */
export const RISK_ERRORS = {
  entityTypeInvalid: 'risk.errors.entityTypeInvalid',
  entityIdInvalid: 'risk.errors.entityIdInvalid',
  entityRequired: 'risk.errors.entityRequired',
  adjustmentRequired: 'risk.errors.adjustmentRequired',
  adjustmentRange: 'risk.errors.adjustmentRange',
  notesRequired: 'risk.errors.notesRequired',
  notesTooLong: 'risk.errors.notesTooLong',
} as const;

export const ENTITY_TYPES = ['client', 'customer'] as const;
const entityType = z.enum(ENTITY_TYPES, RISK_ERRORS.entityTypeInvalid);
const optionalNotes = plainText(z.string(RISK_ERRORS.notesTooLong).trim().max(5000, RISK_ERRORS.notesTooLong), { multiline: true })
  .nullish()
  .transform((value) => value || null);
// An adjustment changes a decision someone relied on: it always says why.
const requiredNotes = plainText(z.string(RISK_ERRORS.notesRequired).trim().min(1, RISK_ERRORS.notesRequired).max(5000, RISK_ERRORS.notesTooLong), {
  multiline: true,
});

/** POST /api/risk-assessments {entityType, entityId, notes?}. */
export const newAssessmentSchema = z.object({
  entityType,
  entityId: z.uuid(RISK_ERRORS.entityIdInvalid),
  notes: optionalNotes,
});

/** The 'Nova procjena' form: one select whose values read 'client:<uuid>' or 'customer:<uuid>'. */
export const newAssessmentFormSchema = z.object({
  entity: z.string(RISK_ERRORS.entityRequired).regex(/^(client|customer):[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, RISK_ERRORS.entityRequired),
  notes: optionalNotes,
});

const adjustment = z.number(RISK_ERRORS.adjustmentRequired).int(RISK_ERRORS.adjustmentRange).min(-100, RISK_ERRORS.adjustmentRange).max(100, RISK_ERRORS.adjustmentRange);

/** PUT /api/risk-assessments/{id} {manualAdjustment, notes}. */
export const adjustAssessmentSchema = z.object({ manualAdjustment: adjustment, notes: requiredNotes });

/** The 'Uredi' form: the same rules, the number read from a text field. */
export const adjustAssessmentFormSchema = z.object({
  id: z.uuid(),
  manualAdjustment: z.coerce.number(RISK_ERRORS.adjustmentRequired).pipe(adjustment),
  notes: requiredNotes,
});

/** The /risk page's posts by `intent`: the manual adjustment or a new assessment (what the page reads when the intent is neither). */
export const riskPageIntentSchema = z.discriminatedUnion('intent', [z.object({ intent: z.literal('adjust') }), z.object({ intent: z.literal('assess') })]);
