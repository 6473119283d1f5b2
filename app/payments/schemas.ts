import { z } from 'zod';
import { PAYMENT_METHODS, PAYMENT_STATUSES, PAYOUT_STATUSES } from '../../db/models/enums.ts';
import { amountCentsSchema, plainText, UUID_PATTERN } from '../utils/validation.ts';

/**
 * The record-payment dialog (docs/domain-model.md#validation) and the other payment, payout
 * and bank-statement payloads. Shared by the browser forms (conform) and the
 * API, so nothing server-only may be imported here. Messages are the spec's
 * English texts; pages translate them through PAYMENT_MESSAGE_KEYS.
 */
export const PAYMENT_MESSAGES = {
  invoiceRequired: 'Invoice is required',
  invoiceNotFound: 'Invoice not found',
  invoiceNotPayable: 'Invoice is not payable',
  amountRequired: 'Amount is required',
  amountFormat: 'Amount must be greater than 0 with at most 2 decimals',
  amountAboveOpen: 'Amount exceeds the open amount of the invoice',
  invalidMethod: 'Invalid payment method',
  tooLong255: 'At most 255 characters',
  tooLong5000: 'At most 5,000 characters',
  notFound: 'Payment not found',
  notPending: 'Only a pending payment can be confirmed or failed',
  notConfirmed: 'Only a confirmed payment can be refunded',
  reserveAlreadyPaidOut: 'Reserve already paid out',
  invalidStatus: 'Invalid status',
  payoutsRequired: 'Choose at least one payout',
  payoutNotFound: 'Payout not found',
  payoutNotPending: 'Only pending payouts can be exported',
  payoutNotExported: 'Only exported payouts can be marked paid',
  entryNotFound: 'Bank statement entry not found',
  entryNotUnmatched: 'This entry has already been assigned',
  fileRequired: 'A camt.053 bank statement XML file is required',
} as const;

export const PAYMENT_MESSAGE_KEYS: Record<string, string> = Object.fromEntries(
  Object.entries(PAYMENT_MESSAGES).map(([key, message]) => [message, `payments.validation.${key}`]),
);

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
  ids: z
    .array(z.string().trim().regex(UUID_PATTERN, PAYMENT_MESSAGES.payoutNotFound), PAYMENT_MESSAGES.payoutsRequired)
    .min(1, PAYMENT_MESSAGES.payoutsRequired)
    .max(1000),
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
