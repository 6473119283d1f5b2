import { z } from 'zod';
import {
  amountCentsSchema,
  emailSchema,
  ibanSchema,
  oibSchema,
  postalCodeSchema,
  requiredString,
} from '../utils/validation.ts';
import { KYC_DOCUMENT_TYPES } from './kyc.ts';

/**
 * One schema per wizard step, used by the conform forms in the browser and by
 * the route action on the server (spec §5 'Client registration'). Messages are
 * i18n keys (spec §5: "Messages are translated keys"); the English values are
 * the spec's texts.
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
/** Spec §9: the desired-limit field's placeholder, in EUR. */
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
