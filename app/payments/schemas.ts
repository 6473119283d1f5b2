import * as z from 'zod';
import { PAYMENT_METHODS, PAYMENT_STATUSES, PAYOUT_STATUSES } from '../../db/models/enums.ts';
import { amountCentsSchema, plainText, UUID_PATTERN } from '../utils/validation.ts';

/**
 * The record-payment dialog (docs/domain-model.md#validation) and the other payment, payout
 * and bank-statement payloads. Shared by the browser forms (conform) and the
 * API, so nothing server-only may be imported here. Messages are refusal
 * codes (docs/decisions/013-error-codes.md); their en texts are the API's English.
 */
export const PAYMENT_MESSAGES = {
  invoiceRequired: 'payments.validation.invoiceRequired',
  invoiceNotFound: 'payments.validation.invoiceNotFound',
  invoiceNotPayable: 'payments.validation.invoiceNotPayable',
  amountRequired: 'payments.validation.amountRequired',
  amountFormat: 'payments.validation.amountFormat',
  amountAboveOpen: 'payments.validation.amountAboveOpen',
  invalidMethod: 'payments.validation.invalidMethod',
  tooLong255: 'payments.validation.tooLong255',
  tooLong5000: 'payments.validation.tooLong5000',
  notFound: 'payments.validation.notFound',
  notPending: 'payments.validation.notPending',
  notConfirmed: 'payments.validation.notConfirmed',
  reserveAlreadyPaidOut: 'payments.validation.reserveAlreadyPaidOut',
  invalidStatus: 'payments.validation.invalidStatus',
  payoutsRequired: 'payments.validation.payoutsRequired',
  payoutNotFound: 'payments.validation.payoutNotFound',
  payoutNotPending: 'payments.validation.payoutNotPending',
  payoutNotExported: 'payments.validation.payoutNotExported',
  entryNotFound: 'payments.validation.entryNotFound',
  entryNotUnmatched: 'payments.validation.entryNotUnmatched',
  fileRequired: 'payments.validation.fileRequired',
  noIbanForReserve: 'payments.validation.noIbanForReserve',
  payoutNoAmount: 'payments.validation.payoutNoAmount',
  payoutInvalidIban: 'payments.validation.payoutInvalidIban',
  payoutNotEur: 'payments.validation.payoutNotEur',
  paymentFileInvalid: 'payments.validation.paymentFileInvalid',
} as const;

export const PAYMENT_TABS = ['pending', 'confirmed', 'failed', 'refunded', 'all'] as const;
export type PaymentTab = (typeof PAYMENT_TABS)[number];
export { PAYMENT_METHODS, PAYMENT_STATUSES, PAYOUT_STATUSES };
export const PAYOUT_FILTERS = ['pending', 'exported', 'paid', 'cancelled', 'all'] as const;
export type PayoutFilter = (typeof PAYOUT_FILTERS)[number];

const blank = (value: unknown) => value === null || (typeof value === 'string' && value.trim() === '');
const blankToUndefined = (value: unknown) => (blank(value) ? undefined : value);

const invoiceIdSchema = z.preprocess(
  blankToUndefined,
  z
    .string(PAYMENT_MESSAGES.invoiceRequired)
    .trim()
    .regex(UUID_PATTERN, PAYMENT_MESSAGES.invoiceNotFound)
    .transform((value) => value.toLowerCase()),
);

/** POST /api/payments and the record-payment dialog: amount to the cent (parsed to integer cents). */
export const paymentCreateSchema = z.object({
  invoiceId: invoiceIdSchema,
  amount: z.preprocess(blankToUndefined, z.union([z.string(), z.number()], PAYMENT_MESSAGES.amountRequired).pipe(amountCentsSchema(PAYMENT_MESSAGES.amountFormat))),
  paymentMethod: z.preprocess(blankToUndefined, z.enum(PAYMENT_METHODS, PAYMENT_MESSAGES.invalidMethod).default('bank_transfer')),
  reference: z.preprocess(blankToUndefined, plainText(z.string(PAYMENT_MESSAGES.tooLong255).trim().max(255, PAYMENT_MESSAGES.tooLong255)).optional()),
  notes: z.preprocess(blankToUndefined, plainText(z.string(PAYMENT_MESSAGES.tooLong5000).trim().max(5000, PAYMENT_MESSAGES.tooLong5000), { multiline: true }).optional()),
});

/** What recordPayment takes: the payload as sent (amount in EUR, a number or decimal text); it validates itself. */
export type PaymentCreateInput = z.input<typeof paymentCreateSchema>;

/** POST /api/payouts/export {ids}. */
export const payoutExportSchema = z.object({
  ids: z.array(z.string().trim().regex(UUID_PATTERN, PAYMENT_MESSAGES.payoutNotFound), PAYMENT_MESSAGES.payoutsRequired).min(1, PAYMENT_MESSAGES.payoutsRequired).max(1000),
});

/** POST /api/bank-statements/unmatched/{id}/assign {invoiceId}. */
export const entryAssignSchema = z.object({ invoiceId: invoiceIdSchema });

/** The /payments page's plain posts, told apart by their `intent` (each form's fields are parsed by its own schema). */
export const paymentPageIntentSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('create') }),
  z.object({ intent: z.literal(['confirm', 'fail', 'refund']) }),
  z.object({ intent: z.literal('markPaid') }),
  z.object({ intent: z.literal('assign') }),
]);
