import * as z from 'zod';
import { amountCentsSchema, emailSchema, ibanSchema, oibSchema, plainText, postalCodeSchema, requiredString } from '../utils/validation.ts';
import { KYC_DOCUMENT_TYPES } from './kyc.ts';

/**
 * One schema per wizard step, used by the conform forms in the browser and by
 * the route action on the server (docs/domain-model.md#validation 'Client registration'). Messages are
 * i18n keys (docs/domain-model.md#validation); the English values are
 * the product's original texts.
 */
export const MESSAGES = {
  companyNameRequired: 'onboarding.errors.companyNameRequired',
  oibFormat: 'onboarding.errors.oibFormat',
  oibChecksum: 'onboarding.errors.oibChecksum',
  registrationNumberRequired: 'onboarding.errors.registrationNumberRequired',
  contactPersonRequired: 'onboarding.errors.contactPersonRequired',
  emailInvalid: 'onboarding.errors.emailInvalid',
  phoneRequired: 'onboarding.errors.phoneRequired',
  addressRequired: 'onboarding.errors.addressRequired',
  cityRequired: 'onboarding.errors.cityRequired',
  postalCodeFormat: 'onboarding.errors.postalCodeFormat',
  countryInvalid: 'onboarding.errors.countryInvalid',
  ibanFormat: 'onboarding.errors.ibanFormat',
  ibanChecksum: 'onboarding.errors.ibanChecksum',
  creditLimitInvalid: 'onboarding.errors.creditLimitInvalid',
  kycTypeInvalid: 'onboarding.errors.kycTypeInvalid',
  uploadInvalid: 'onboarding.upload.error',
} as const;

export const COUNTRIES = ['Croatia', 'Slovenia', 'Bosnia and Herzegovina', 'Serbia'] as const;
export type Country = (typeof COUNTRIES)[number];
export const DEFAULT_COUNTRY: Country = 'Croatia';
/** docs/screens.md: the desired-limit field's placeholder, in EUR. */
export const CREDIT_LIMIT_PLACEHOLDER = 50000;
export const WIZARD_STEPS = 4;

export const companyStepSchema = z.object({
  companyName: requiredString(MESSAGES.companyNameRequired),
  oib: oibSchema(MESSAGES.oibFormat, MESSAGES.oibChecksum),
  registrationNumber: requiredString(MESSAGES.registrationNumberRequired, { max: 50 }),
  contactPerson: requiredString(MESSAGES.contactPersonRequired),
  email: emailSchema(MESSAGES.emailInvalid),
  phone: requiredString(MESSAGES.phoneRequired, { max: 50 }),
});
export type CompanyStep = z.output<typeof companyStepSchema>;

export const bankingStepSchema = z.object({
  address: requiredString(MESSAGES.addressRequired),
  city: requiredString(MESSAGES.cityRequired),
  postalCode: postalCodeSchema(MESSAGES.postalCodeFormat),
  // conform sends an untouched select as missing; the spec's default applies.
  country: z.enum(COUNTRIES, { error: MESSAGES.countryInvalid }).default(DEFAULT_COUNTRY),
  iban: ibanSchema(MESSAGES.ibanFormat, MESSAGES.ibanChecksum),
  // Optional (empty = let the factor assess); parsed to integer cents.
  creditLimit: amountCentsSchema(MESSAGES.creditLimitInvalid).optional(),
});
export type BankingStep = z.output<typeof bankingStepSchema>;

/** The JavaScript upload flow: the object a browser PUT to the signed URL, claimed for one KYC type. */
export const attachUploadSchema = z.object({
  kycType: z.enum(KYC_DOCUMENT_TYPES, { error: MESSAGES.kycTypeInvalid }),
  objectId: z.uuid({ error: MESSAGES.uploadInvalid }),
});

/** The fields each step owns, so a step's post saves only its own values into the draft. */
export const STEP_FIELDS = {
  1: Object.keys(companyStepSchema.shape) as Array<keyof CompanyStep>,
  2: Object.keys(bankingStepSchema.shape) as Array<keyof BankingStep>,
} as const;

// ---------------------------------------------------------------------------
// Staff's KYC decision on an application (app/onboarding/kyc-decision.server.ts):
// the API body and the decision forms of /tasks and /clients/{id}. Refusal
// codes (docs/decisions/013-error-codes.md).

export const KYC_DECISIONS = ['approve', 'reject', 'request_documents'] as const;
export type KycDecision = (typeof KYC_DECISIONS)[number];
/** How long the emailed link to add documents works. */
export const KYC_REQUEST_TTL_DAYS = 14;

export const KYC_ERRORS = {
  decisionInvalid: 'kyc.messages.decisionInvalid',
  reasonRequired: 'kyc.messages.reasonRequired',
  messageRequired: 'kyc.messages.messageRequired',
  tooLong5000: 'kyc.messages.tooLong5000',
  alreadyDecided: 'kyc.messages.alreadyDecided',
  noEmail: 'kyc.messages.noEmail',
  clientNotFound: 'kyc.messages.clientNotFound',
} as const;

/** Optional text: absent or blank is "not given"; present, it must be a string of at most 5,000 characters, lines but no control characters. */
const optionalText = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
  plainText(z.string(KYC_ERRORS.tooLong5000).trim().max(5000, KYC_ERRORS.tooLong5000), { multiline: true }).optional(),
);

/** POST /api/clients/{id}/kyc-decision {decision, reason?, message?} and the page forms (intent 'kyc'). */
export const kycDecisionSchema = z
  .object({
    decision: z.enum(KYC_DECISIONS, { error: KYC_ERRORS.decisionInvalid }),
    reason: optionalText,
    message: optionalText,
  })
  .superRefine((value, ctx) => {
    if (value.decision === 'reject' && !value.reason) ctx.addIssue({ code: 'custom', path: ['reason'], message: KYC_ERRORS.reasonRequired });
    if (value.decision === 'request_documents' && !value.message) {
      ctx.addIssue({ code: 'custom', path: ['message'], message: KYC_ERRORS.messageRequired });
    }
  });
export type KycDecisionInput = z.input<typeof kycDecisionSchema>;
