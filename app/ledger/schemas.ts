import * as z from 'zod';
import { centsToDecimalString } from '../utils/money.ts';
import { amountCentsSchema, calendarDateSchema, requiredString } from '../utils/validation.ts';

/**
 * The client's account (docs/money.md#the-clients-account, docs/api.md): the
 * statement's range, the manual adjustment forms and the book setting of the
 * four-eyes amount. Shared by the browser (conform) and the server; messages
 * are refusal codes (docs/decisions/013-error-codes.md).
 */
export const LEDGER_ERRORS = {
  clientNotFound: 'ledger.errors.clientNotFound',
  fromInvalid: 'ledger.errors.fromInvalid',
  toInvalid: 'ledger.errors.toInvalid',
  rangeInverted: 'ledger.errors.rangeInverted',
  formatInvalid: 'ledger.errors.formatInvalid',
  amountInvalid: 'ledger.errors.amountInvalid',
  reasonRequired: 'ledger.errors.reasonRequired',
  reasonTooLong: 'ledger.errors.reasonTooLong',
  invoiceInvalid: 'ledger.errors.invoiceInvalid',
  invoiceNotOfClient: 'ledger.errors.invoiceNotOfClient',
  adjustmentNotFound: 'ledger.errors.adjustmentNotFound',
  ownRequest: 'ledger.errors.ownRequest',
  notPending: 'ledger.errors.notPending',
  statusInvalid: 'ledger.errors.statusInvalid',
  thresholdInvalid: 'ledger.errors.thresholdInvalid',
} as const;

export const STATEMENT_FORMATS = ['pdf', 'csv'] as const;

const blankToUndefined = (value: unknown) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value);

/** GET /api/clients/{id}/statement?from&to&format and the client page's statement form. */
export const statementQuerySchema = z
  .object({
    from: calendarDateSchema(LEDGER_ERRORS.fromInvalid),
    to: calendarDateSchema(LEDGER_ERRORS.toInvalid),
    format: z.enum(STATEMENT_FORMATS, { error: LEDGER_ERRORS.formatInvalid }).default('pdf'),
  })
  .refine((range) => range.from <= range.to, { message: LEDGER_ERRORS.rangeInverted, path: ['to'] });

/**
 * A signed EUR amount to the cent, not zero, from a form string ('-12,50' is
 * not accepted: a dot, as the API's JSON numbers) or a JSON number, as an exact
 * decimal string ('-12.50').
 */
const signedAmountSchema = z.preprocess(
  blankToUndefined,
  z.union([z.string(), z.number()], { error: LEDGER_ERRORS.amountInvalid }).transform((value, ctx) => {
    const text = typeof value === 'string' ? value.trim() : value;
    const negative = typeof text === 'string' ? text.startsWith('-') : text < 0;
    const magnitude = typeof text === 'string' ? text.replace(/^[-+]/, '') : Math.abs(text);
    const parsed = amountCentsSchema(LEDGER_ERRORS.amountInvalid).safeParse(magnitude);
    if (!parsed.success) {
      ctx.addIssue({ code: 'custom', message: LEDGER_ERRORS.amountInvalid });
      return z.NEVER;
    }
    return centsToDecimalString(negative ? -parsed.data : parsed.data);
  }),
);

/** POST /api/clients/{id}/ledger-adjustments {amount, reason, invoiceId?} and the client page's request form. */
export const adjustmentRequestSchema = z.object({
  amount: signedAmountSchema,
  reason: requiredString(LEDGER_ERRORS.reasonRequired, { max: 5000, maxMessage: LEDGER_ERRORS.reasonTooLong, multiline: true }),
  invoiceId: z.preprocess(blankToUndefined, z.uuid({ error: LEDGER_ERRORS.invoiceInvalid }).optional()),
});
export type AdjustmentRequestInput = z.input<typeof adjustmentRequestSchema>;

/** POST /api/ledger-adjustments/{id}/reject {reason}. */
export const adjustmentRejectSchema = z.object({
  reason: requiredString(LEDGER_ERRORS.reasonRequired, { max: 5000, maxMessage: LEDGER_ERRORS.reasonTooLong, multiline: true }),
});

/** The client page's posts by intent: a statement is a GET to the API, so only the adjustment forms post here. */
export const accountIntentSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('adjustment-request') }),
  z.object({ intent: z.literal('adjustment-approve'), id: z.uuid() }),
  z.object({ intent: z.literal('adjustment-reject'), id: z.uuid() }),
]);

/** /settings: the amount (EUR) above which an adjustment waits for a second manager; 0 makes every one wait. */
export const fourEyesSettingSchema = z.object({
  intent: z.literal('ledger-four-eyes'),
  amount: z.preprocess(
    blankToUndefined,
    z
      .union([z.string(), z.number()], { error: LEDGER_ERRORS.thresholdInvalid })
      .pipe(amountCentsSchema(LEDGER_ERRORS.thresholdInvalid, { allowZero: true, max: 100_000_000_000 }))
      .transform((cents) => centsToDecimalString(cents)),
  ),
});
