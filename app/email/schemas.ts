import * as z from 'zod';
import { CAMPAIGN_RECIPIENTS, DEBTOR_EMAIL_TRIGGERS, EMAIL_TRIGGERS, type CampaignRecipients, type DebtorEmailTrigger, type EmailTrigger } from '../../db/models/enums.ts';
import { isTimestamp, plainText } from '../utils/validation.ts';

/** Email templates and campaigns (docs/domain-model.md, docs/domain-model.md#validation): shared by the page's forms (conform) and the API. No server imports. */

/**
 * The variables a template may use. The last seven are for mail to a debtor (docs/collections.md): its name, the
 * factor's name and IBAN, the invoice's payment reference, due date and open amount, and the debtor's personal link.
 */
export const TEMPLATE_VARIABLES = [
  'client_name',
  'company_name',
  'invoice_number',
  'amount',
  'debtor_name',
  'factor_name',
  'factor_iban',
  'payment_reference',
  'due_date',
  'open_amount',
  'debtor_link',
] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];

export { CAMPAIGN_RECIPIENTS, DEBTOR_EMAIL_TRIGGERS, EMAIL_TRIGGERS, type CampaignRecipients, type DebtorEmailTrigger, type EmailTrigger };

export const EMAIL_ERRORS = {
  nameRequired: 'email.errors.nameRequired',
  subjectRequired: 'email.errors.subjectRequired',
  bodyRequired: 'email.errors.bodyRequired',
  campaignNameRequired: 'email.errors.campaignNameRequired',
  templateRequired: 'email.errors.templateRequired',
  clientsRequired: 'email.errors.clientsRequired',
  scheduledAtInvalid: 'email.errors.scheduledAtInvalid',
  templateNotFound: 'email.errors.templateNotFound',
  templateInactive: 'email.errors.templateInactive',
  tooLong255: 'email.errors.tooLong255',
  bodyTooLong: 'email.errors.bodyTooLong',
  nothingToUpdate: 'email.errors.nothingToUpdate',
} as const;

const name = (message: string) => plainText(z.string(message).trim().min(1, message).max(255, EMAIL_ERRORS.tooLong255));

const templateFields = {
  name: name(EMAIL_ERRORS.nameRequired),
  trigger: z.enum(EMAIL_TRIGGERS).default('manual'),
  subject: name(EMAIL_ERRORS.subjectRequired),
  body: plainText(
    z
      .string(EMAIL_ERRORS.bodyRequired)
      .refine((value) => value.trim().length > 0, EMAIL_ERRORS.bodyRequired)
      .refine((value) => value.length <= 100_000, EMAIL_ERRORS.bodyTooLong),
    { multiline: true },
  ),
};

/** POST /api/email/templates: isActive defaults to true. */
export const templateCreateSchema = z.object({ ...templateFields, isActive: z.boolean().default(true) });
export type TemplateCreateInput = z.output<typeof templateCreateSchema>;

/** The page's form: an unchecked switch posts nothing, which is false (the switch starts on). */
export const templateFormSchema = z.object({ ...templateFields, isActive: z.boolean().default(false) });

/** PUT /api/email/templates/{id}: isActive and/or the content. */
export const templateUpdateSchema = z
  .object({
    name: templateFields.name.optional(),
    trigger: z.enum(EMAIL_TRIGGERS).optional(),
    subject: templateFields.subject.optional(),
    body: templateFields.body.optional(),
    isActive: z.boolean().optional(),
  })
  // Nothing to change is refused on isActive, the one field the spec's call sends.
  .refine((value) => Object.values(value).some((field) => field !== undefined), { message: EMAIL_ERRORS.nothingToUpdate, path: ['isActive'] });
export type TemplateUpdateInput = z.output<typeof templateUpdateSchema>;

export const templatePreviewSchema = z.object({
  subject: plainText(z.string(EMAIL_ERRORS.subjectRequired).max(255, EMAIL_ERRORS.tooLong255)),
  body: templateFields.body,
});

/**
 * A date-time-local value ('2026-11-22T10:00', Croatian time) or an ISO
 * timestamp with offset, naming an instant that exists (not 30 February, not
 * hour 25): an impossible one is refused here, before it reaches the database.
 */
const scheduledAt = z
  .string(EMAIL_ERRORS.scheduledAtInvalid)
  .trim()
  .optional()
  .transform((value) => value || undefined)
  .refine((value) => value === undefined || isTimestamp(value), EMAIL_ERRORS.scheduledAtInvalid);

const campaignFields = {
  name: name(EMAIL_ERRORS.campaignNameRequired),
  templateId: z.uuid(EMAIL_ERRORS.templateRequired),
  recipients: z.enum(CAMPAIGN_RECIPIENTS).default('active_clients'),
  clientIds: z.array(z.uuid()).max(10_000).default([]),
  scheduledAt: scheduledAt.nullable(),
};

export const campaignCreateSchema = z.object(campaignFields).superRefine((value, context) => {
  if (value.recipients === 'specific_clients' && value.clientIds.length === 0) {
    context.addIssue({ code: 'custom', path: ['clientIds'], message: EMAIL_ERRORS.clientsRequired });
  }
});
/** The /email-automation page's posts, told apart by their `intent` (each form's fields are parsed by its own schema). */
export const emailPageIntentSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('toggleTemplate') }),
  z.object({ intent: z.literal('updateTemplate') }),
  z.object({ intent: z.literal(['createTemplate', 'createCampaign']) }),
]);
