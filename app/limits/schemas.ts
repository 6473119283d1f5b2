import { z } from 'zod';
import { centsToDecimalString } from '../utils/money.ts';
import { amountCentsSchema, isCalendarDate, requiredString } from '../utils/validation.ts';

/**
 * Credit limit requests (docs/domain-model.md, docs/domain-model.md#validation, docs/api.md; docs/lifecycle.md#credit-limits): POST /api/credit-limits,
 * PUT …/approve, PUT …/reject and the /limits forms. Shared by the browser
 * (conform) and the server, so nothing server-only is imported here. Messages
 * are the spec's English texts; pages translate them through LIMIT_MESSAGE_KEYS.
 */
export const LIMIT_MESSAGES = {
  clientRequired: 'Client is required',
  creditLimitRequired: 'Credit limit is required',
  creditLimitInvalid: 'Credit limit must be a positive amount with at most 2 decimals',
  reasonRequired: 'Reason is required',
  reasonTooLong: 'Reason must be at most 5000 characters',
  validUntilInvalid: 'Valid until must be a date (YYYY-MM-DD)',
  validUntilPast: 'Valid until cannot be in the past',
  approvedLimitInvalid: 'Approved limit must be a positive amount with at most 2 decimals',
  clientNotFound: 'Client not found',
  notFound: 'Credit limit request not found',
  ownRequest: 'You cannot decide your own credit limit request',
  notPendingApprove: 'Only a pending credit limit request can be approved',
  notPendingReject: 'Only a pending credit limit request can be rejected',
  validityEnded: 'The validity of this request has already ended',
  invalidStatus: 'Invalid status',
} as const;

/** Server message → i18n key, so pages show each message in the chosen language. */
export const LIMIT_MESSAGE_KEYS: Record<string, string> = Object.fromEntries(
  Object.entries(LIMIT_MESSAGES).map(([key, message]) => [message, `limits.validation.${key}`]),
);

/** docs/lifecycle.md#credit-limits: what the page always sends when rejecting (a fixed text, stored as rejectionReason). */
export const FIXED_REJECTION_REASON = 'Odbijeno od strane administratora';

/** docs/lifecycle.md#credit-limits: default validity of a limit. */
export const DEFAULT_VALIDITY_DAYS = 365;

export const CREDIT_LIMIT_STATUSES = ['pending', 'approved', 'rejected', 'expired'] as const;
export type CreditLimitStatus = (typeof CREDIT_LIMIT_STATUSES)[number];

/** The /limits tabs (docs/screens.md), pending first (the default). Expired requests appear under 'all'. */
export const LIMIT_TABS = ['pending', 'approved', 'rejected', 'all'] as const;
export type LimitTab = (typeof LIMIT_TABS)[number];

const blankToUndefined = (value: unknown) =>
  value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value;

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

/** POST /api/credit-limits {clientId, creditLimit, reason, validUntil?} and the request dialog. */
export const creditLimitRequestSchema = z.object({
  clientId: z.preprocess(blankToUndefined, z.uuid({ error: LIMIT_MESSAGES.clientRequired })),
  creditLimit: moneySchema(LIMIT_MESSAGES.creditLimitRequired, LIMIT_MESSAGES.creditLimitInvalid),
  reason: requiredString(LIMIT_MESSAGES.reasonRequired, { max: 5000, maxMessage: LIMIT_MESSAGES.reasonTooLong, multiline: true }),
  validUntil: z.preprocess(
    blankToUndefined,
    z.string({ error: LIMIT_MESSAGES.validUntilInvalid }).trim().refine(isCalendarDate, { message: LIMIT_MESSAGES.validUntilInvalid }).optional(),
  ),
});
export type CreditLimitRequestInput = z.input<typeof creditLimitRequestSchema>;

/** PUT /api/credit-limits/{id}/approve {approvedLimit?}: without it the requested limit is approved (docs/lifecycle.md#credit-limits). */
export const approveCreditLimitSchema = z.object({
  approvedLimit: z.preprocess(
    blankToUndefined,
    z
      .union([z.string(), z.number()], { error: LIMIT_MESSAGES.approvedLimitInvalid })
      .pipe(amountCentsSchema(LIMIT_MESSAGES.approvedLimitInvalid))
      .transform((cents) => centsToDecimalString(cents))
      .optional(),
  ),
});

/** PUT /api/credit-limits/{id}/reject {reason}. */
export const rejectCreditLimitSchema = z.object({
  reason: requiredString(LIMIT_MESSAGES.reasonRequired, { max: 5000, maxMessage: LIMIT_MESSAGES.reasonTooLong, multiline: true }),
});

/** The /limits decision buttons: which request, and what to do with it. */
export const decisionFormSchema = z.object({
  intent: z.enum(['approve', 'reject']),
  id: z.uuid(),
});

/** The /limits page's posts by `intent`: a decision on a request, or the request form (what the page reads when the intent is neither). */
export const limitPageIntentSchema = z.discriminatedUnion('intent', [z.object({ intent: z.literal(['approve', 'reject']) }), z.object({ intent: z.literal('create') })]);
