import * as z from 'zod';
import { AGREEMENT_FEE_MODELS } from '../../db/models/enums.ts';
import { centsToDecimalString } from '../utils/money.ts';
import { amountCentsSchema, calendarDateSchema, isCalendarDate, requiredString } from '../utils/validation.ts';

/**
 * The factoring agreement's terms (docs/domain-model.md, docs/money.md#the-agreement, docs/api.md):
 * one schema for POST /api/clients/{id}/agreements, PUT /api/agreements/{id} and the client
 * page's form. Shared by the browser and the server; messages are refusal codes
 * (docs/decisions/013-error-codes.md).
 */
export const AGREEMENT_ERRORS = {
  numberRequired: 'agreements.errors.numberRequired',
  dayInvalid: 'agreements.errors.dayInvalid',
  validUntilBeforeFrom: 'agreements.errors.validUntilBeforeFrom',
  effectiveBeforeValidFrom: 'agreements.errors.effectiveBeforeValidFrom',
  advanceRateInvalid: 'agreements.errors.advanceRateInvalid',
  feeModelInvalid: 'agreements.errors.feeModelInvalid',
  feeRateInvalid: 'agreements.errors.feeRateInvalid',
  feeInvalid: 'agreements.errors.feeInvalid',
  yesNoInvalid: 'agreements.errors.yesNoInvalid',
  recourseDaysRequired: 'agreements.errors.recourseDaysRequired',
  recourseDaysInvalid: 'agreements.errors.recourseDaysInvalid',
  maxTenorInvalid: 'agreements.errors.maxTenorInvalid',
  concentrationLimitInvalid: 'agreements.errors.concentrationLimitInvalid',
  signedOnInvalid: 'agreements.errors.signedOnInvalid',
  signedOnFuture: 'agreements.errors.signedOnFuture',
  notFound: 'agreements.errors.notFound',
  clientNotFound: 'agreements.errors.clientNotFound',
  alreadyExists: 'agreements.errors.alreadyExists',
  numberTaken: 'agreements.errors.numberTaken',
  notLatest: 'agreements.errors.notLatest',
  effectiveBeforeLatest: 'agreements.errors.effectiveBeforeLatest',
  alreadySigned: 'agreements.errors.alreadySigned',
  numberFixed: 'agreements.errors.numberFixed',
  noSignerEmail: 'agreements.errors.noSignerEmail',
  noDocument: 'agreements.errors.noDocument',
  signatureFailed: 'agreements.errors.signatureFailed',
  confirmationNeedsDisclosure: 'agreements.errors.confirmationNeedsDisclosure',
} as const;

export const FEE_MODEL_OPTIONS = AGREEMENT_FEE_MODELS;

const blankToUndefined = (value: unknown) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value);

const DECIMAL = /^\d+(\.\d+)?$/;

/** A percentage as a decimal string with at most `scale` decimals, within (or from, with `allowZero`) 0 to 100. */
function percentSchema(message: string, scale: number, options: { allowZero?: boolean } = {}) {
  return z.union([z.string(), z.number()], { error: message }).transform((value, ctx) => {
    const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
    const [whole, fraction = ''] = text.split('.');
    const number = Number(text);
    if (!DECIMAL.test(text) || fraction.length > scale || number > 100 || (options.allowZero ? number < 0 : number <= 0)) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return `${String(Number(whole))}.${fraction.padEnd(scale, '0')}`;
  });
}

/** EUR to the cent, zero allowed, as the NUMERIC string ('50.00'); absent is 0. */
function feeSchema() {
  return z.preprocess(
    (value) => blankToUndefined(value) ?? 0,
    amountCentsSchema(AGREEMENT_ERRORS.feeInvalid, { allowZero: true }).transform((cents) => centsToDecimalString(cents)),
  );
}

/** true/false from JSON, 'true'/'false' from the form's select, 'on' from a checkbox. */
function yesNoSchema() {
  return z.preprocess((value) => (value === 'true' || value === 'on' ? true : value === 'false' ? false : value), z.boolean({ error: AGREEMENT_ERRORS.yesNoInvalid }));
}

/** Whole days within min..max, from a form string or a JSON number. */
function daysSchema(message: string, min: number, max: number) {
  return z.preprocess(
    (value) => (typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
    z.number({ error: message }).int({ message }).min(min, { message }).max(max, { message }),
  );
}

const optionalDay = z.preprocess(
  blankToUndefined,
  z.string({ error: AGREEMENT_ERRORS.dayInvalid }).trim().refine(isCalendarDate, { message: AGREEMENT_ERRORS.dayInvalid }).optional(),
);

/** The terms of one agreement version (docs/money.md#the-agreement). */
export const agreementTermsSchema = z
  .object({
    number: requiredString(AGREEMENT_ERRORS.numberRequired, { max: 50 }),
    effectiveFrom: calendarDateSchema(AGREEMENT_ERRORS.dayInvalid),
    /** The contract's validity starts here; the effective day when absent. */
    validFrom: optionalDay,
    validUntil: optionalDay,
    advanceRate: percentSchema(AGREEMENT_ERRORS.advanceRateInvalid, 2),
    feeModel: z.enum(AGREEMENT_FEE_MODELS, { error: AGREEMENT_ERRORS.feeModelInvalid }),
    feeRate: percentSchema(AGREEMENT_ERRORS.feeRateInvalid, 4, { allowZero: true }),
    minimumFee: feeSchema(),
    adminFee: feeSchema(),
    documentationFee: feeSchema(),
    recourse: yesNoSchema(),
    recourseDays: z.preprocess(blankToUndefined, daysSchema(AGREEMENT_ERRORS.recourseDaysInvalid, 0, 3650).optional()),
    maxTenorDays: daysSchema(AGREEMENT_ERRORS.maxTenorInvalid, 1, 3650),
    disclosed: yesNoSchema(),
    /** Verification waits for the debtor's confirmation (docs/collections.md); absent is no. */
    requiresDebtorConfirmation: z.preprocess((value) => blankToUndefined(value) ?? false, yesNoSchema()),
    concentrationLimit: z.preprocess((value) => blankToUndefined(value) ?? '30', percentSchema(AGREEMENT_ERRORS.concentrationLimitInvalid, 2)),
    concentrationThreshold: feeSchema(),
  })
  .superRefine((terms, ctx) => {
    // A silent agreement never contacts the debtor, so it cannot wait for the debtor's confirmation.
    if (terms.requiresDebtorConfirmation && !terms.disclosed) {
      ctx.addIssue({ code: 'custom', path: ['requiresDebtorConfirmation'], message: AGREEMENT_ERRORS.confirmationNeedsDisclosure });
    }
    if (terms.recourse && terms.recourseDays === undefined) ctx.addIssue({ code: 'custom', path: ['recourseDays'], message: AGREEMENT_ERRORS.recourseDaysRequired });
    const validFrom = terms.validFrom ?? terms.effectiveFrom;
    if (terms.effectiveFrom < validFrom) ctx.addIssue({ code: 'custom', path: ['effectiveFrom'], message: AGREEMENT_ERRORS.effectiveBeforeValidFrom });
    if (terms.validUntil !== undefined && terms.validUntil < validFrom) ctx.addIssue({ code: 'custom', path: ['validUntil'], message: AGREEMENT_ERRORS.validUntilBeforeFrom });
  })
  // Without recourse there is no chargeback period (the table's CHECK holds the same).
  .transform((terms) => ({ ...terms, validFrom: terms.validFrom ?? terms.effectiveFrom, recourseDays: terms.recourse ? (terms.recourseDays ?? null) : null }));
export type AgreementTerms = z.output<typeof agreementTermsSchema>;

/** POST /api/agreements/{id}/mark-signed {signedOn} and the page's 'Označi potpisanim'. */
export const markSignedSchema = z.object({ signedOn: calendarDateSchema(AGREEMENT_ERRORS.signedOnInvalid) });

/** The client page's agreement posts, by intent. */
export const agreementPageIntentSchema = z.object({ intent: z.enum(['agreement-create', 'agreement-revise', 'agreement-send', 'agreement-signed']) });
export const agreementIdSchema = z.object({ agreementId: z.uuid({ error: AGREEMENT_ERRORS.notFound }) });
