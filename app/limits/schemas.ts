import * as z from 'zod';
import { centsToDecimalString } from '../utils/money.ts';
import { amountCentsSchema, isCalendarDate, requiredString } from '../utils/validation.ts';

/**
 * Credit limit requests (docs/domain-model.md, docs/domain-model.md#validation, docs/api.md; docs/lifecycle.md#credit-limits): POST /api/credit-limits,
 * PUT …/approve, PUT …/reject and the /limits forms. Shared by the browser
 * (conform) and the server, so nothing server-only is imported here. Messages
 * are refusal codes (docs/decisions/013-error-codes.md).
 */
export const LIMIT_ERRORS = {
  clientRequired: 'limits.validation.clientRequired',
  customerRequired: 'limits.validation.customerRequired',
  onePartyOnly: 'limits.validation.onePartyOnly',
  customerNotFound: 'limits.validation.customerNotFound',
  invalidPartyType: 'limits.validation.invalidPartyType',
  creditLimitRequired: 'limits.validation.creditLimitRequired',
  creditLimitInvalid: 'limits.validation.creditLimitInvalid',
  reasonRequired: 'limits.validation.reasonRequired',
  reasonTooLong: 'limits.validation.reasonTooLong',
  validUntilInvalid: 'limits.validation.validUntilInvalid',
  validUntilPast: 'limits.validation.validUntilPast',
  approvedLimitInvalid: 'limits.validation.approvedLimitInvalid',
  clientNotFound: 'limits.validation.clientNotFound',
  notFound: 'limits.validation.notFound',
  ownRequest: 'limits.validation.ownRequest',
  notPendingApprove: 'limits.validation.notPendingApprove',
  notPendingReject: 'limits.validation.notPendingReject',
  validityEnded: 'limits.validation.validityEnded',
  invalidStatus: 'limits.validation.invalidStatus',
} as const;

/** docs/lifecycle.md#credit-limits: what the page always sends when rejecting (a fixed text, stored as rejectionReason). */
export const FIXED_REJECTION_REASON = 'Odbijeno od strane administratora';

/** docs/lifecycle.md#credit-limits: default validity of a limit. */
export const DEFAULT_VALIDITY_DAYS = 365;

export const CREDIT_LIMIT_STATUSES = ['pending', 'approved', 'rejected', 'expired'] as const;
export type CreditLimitStatus = (typeof CREDIT_LIMIT_STATUSES)[number];

/** Whose limit a request sets: a client's (its funding line) or a debtor's (the exposure on a customer across all clients; docs/domain-model.md). */
export const LIMIT_PARTY_TYPES = ['client', 'customer'] as const;
export type LimitPartyType = (typeof LIMIT_PARTY_TYPES)[number];

/** The /limits kind filter (docs/screens.md): every request, or one kind. */
export const LIMIT_KINDS = ['all', ...LIMIT_PARTY_TYPES] as const;
export type LimitKind = (typeof LIMIT_KINDS)[number];

/** The /limits tabs (docs/screens.md), pending first (the default). Expired requests appear under 'all'. */
export const LIMIT_TABS = ['pending', 'approved', 'rejected', 'all'] as const;
export type LimitTab = (typeof LIMIT_TABS)[number];

const blankToUndefined = (value: unknown) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value);

/**
 * A positive EUR amount to the cent, from a form string or a JSON number, as
 * an exact decimal string ('150000.00'). A string (not cents) so that the
 * domain function can validate a parsed value again without changing it.
 */
function moneySchema(requiredMessage: string, invalidMessage: string) {
  return z.preprocess(
    blankToUndefined,
    z
      .union([z.string(), z.number()], { error: requiredMessage })
      .pipe(amountCentsSchema(invalidMessage))
      .transform((cents) => centsToDecimalString(cents)),
  );
}

const optionalId = (message: string) => z.preprocess(blankToUndefined, z.uuid({ error: message }).optional());

/**
 * POST /api/credit-limits {clientId | customerId, creditLimit, reason, validUntil?} and the request form:
 * exactly one of clientId (a client's limit) and customerId (a debtor's).
 * The form also sends partyType, which says which of its two selects counts
 * (the other is dropped), so a choice left in the hidden one is no conflict.
 */
const creditLimitRequestFields = z.object({
  partyType: z.preprocess(blankToUndefined, z.enum(LIMIT_PARTY_TYPES, { error: LIMIT_ERRORS.invalidPartyType }).optional()),
  clientId: optionalId(LIMIT_ERRORS.clientRequired),
  customerId: optionalId(LIMIT_ERRORS.customerRequired),
  creditLimit: moneySchema(LIMIT_ERRORS.creditLimitRequired, LIMIT_ERRORS.creditLimitInvalid),
  reason: requiredString(LIMIT_ERRORS.reasonRequired, { max: 5000, maxMessage: LIMIT_ERRORS.reasonTooLong, multiline: true }),
  validUntil: z.preprocess(
    blankToUndefined,
    z.string({ error: LIMIT_ERRORS.validUntilInvalid }).trim().refine(isCalendarDate, { message: LIMIT_ERRORS.validUntilInvalid }).optional(),
  ),
});

export const creditLimitRequestSchema = z.preprocess(
  (value) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
    const input = value as Record<string, unknown>;
    if (input.partyType === 'client') return { ...input, customerId: undefined };
    if (input.partyType === 'customer') return { ...input, clientId: undefined };
    return input;
  },
  creditLimitRequestFields.superRefine(
    (data, ctx) => {
      if (data.clientId !== undefined && data.customerId !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['customerId'], message: LIMIT_ERRORS.onePartyOnly });
      } else if (data.clientId === undefined && data.customerId === undefined) {
        const debtor = data.partyType === 'customer';
        ctx.addIssue({ code: 'custom', path: [debtor ? 'customerId' : 'clientId'], message: debtor ? LIMIT_ERRORS.customerRequired : LIMIT_ERRORS.clientRequired });
      }
    },
    // Checked alongside the other fields' refusals (all shown at once), unless an id itself was refused.
    { when: (payload) => !payload.issues.some((issue) => issue.path?.[0] === 'clientId' || issue.path?.[0] === 'customerId') },
  ),
);
// The preprocess takes any value; callers pass the fields.
export type CreditLimitRequestInput = z.input<typeof creditLimitRequestFields>;

/** PUT /api/credit-limits/{id}/approve {approvedLimit?}: without it the requested limit is approved (docs/lifecycle.md#credit-limits). */
export const approveCreditLimitSchema = z.object({
  approvedLimit: z.preprocess(
    blankToUndefined,
    z
      .union([z.string(), z.number()], { error: LIMIT_ERRORS.approvedLimitInvalid })
      .pipe(amountCentsSchema(LIMIT_ERRORS.approvedLimitInvalid))
      .transform((cents) => centsToDecimalString(cents))
      .optional(),
  ),
});

/** PUT /api/credit-limits/{id}/reject {reason}. */
export const rejectCreditLimitSchema = z.object({
  reason: requiredString(LIMIT_ERRORS.reasonRequired, { max: 5000, maxMessage: LIMIT_ERRORS.reasonTooLong, multiline: true }),
});

/** The /limits decision buttons: which request, and what to do with it. */
export const decisionFormSchema = z.object({
  intent: z.enum(['approve', 'reject']),
  id: z.uuid(),
});

/** The /limits page's posts by `intent`: a decision on a request, or the request form (what the page reads when the intent is neither). */
export const limitPageIntentSchema = z.discriminatedUnion('intent', [z.object({ intent: z.literal(['approve', 'reject']) }), z.object({ intent: z.literal('create') })]);
