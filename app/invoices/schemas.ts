import * as z from 'zod';
import { INVOICE_STATUSES, VAT_CATEGORIES, type InvoiceStatus } from '../../db/models/enums.ts';
import { amountCentsSchema, calendarDateSchema, plainText, requiredString } from '../utils/validation.ts';

/**
 * Invoice forms and payloads (docs/domain-model.md, docs/domain-model.md#validation; docs/api.md): POST /api/invoices,
 * the add-invoice form, PUT …/reject. Shared by the browser (conform) and the
 * server, so nothing server-only is imported here. Messages are refusal codes
 * (docs/decisions/013-error-codes.md); their en texts are the API's English.
 */
export const INVOICE_MESSAGES = {
  clientRequired: 'invoices.validation.clientRequired',
  customerRequired: 'invoices.validation.customerRequired',
  clientNotFound: 'invoices.validation.clientNotFound',
  customerNotFound: 'invoices.validation.customerNotFound',
  invoiceNumberRequired: 'invoices.validation.invoiceNumberRequired',
  invoiceNumberTooLong: 'invoices.validation.invoiceNumberTooLong',
  invoiceNumberTaken: 'invoices.validation.invoiceNumberTaken',
  issueDateRequired: 'invoices.validation.issueDateRequired',
  dueDateRequired: 'invoices.validation.dueDateRequired',
  dueBeforeIssue: 'invoices.validation.dueBeforeIssue',
  amountInvalid: 'invoices.validation.amountInvalid',
  currencyInvalid: 'invoices.validation.currencyInvalid',
  descriptionTooLong: 'invoices.validation.descriptionTooLong',
  reasonRequired: 'invoices.validation.reasonRequired',
  reasonTooLong: 'invoices.validation.reasonTooLong',
  lineDescriptionRequired: 'invoices.validation.lineDescriptionRequired',
  lineQuantityInvalid: 'invoices.validation.lineQuantityInvalid',
  linePriceInvalid: 'invoices.validation.linePriceInvalid',
  lineVatCategoryInvalid: 'invoices.validation.lineVatCategoryInvalid',
  lineVatRateInvalid: 'invoices.validation.lineVatRateInvalid',
  linesDoNotAddUp: 'invoices.validation.linesDoNotAddUp',
  invalidStatus: 'invoices.validation.invalidStatus',
  notFound: 'invoices.validation.notFound',
  // Financing needs the client's KYC approved (app/onboarding/kyc-decision.server.ts).
  kycNotApproved: 'invoices.validation.kycNotApproved',
  clientIdInvalid: 'invoices.validation.clientIdInvalid',
  customerIdInvalid: 'invoices.validation.customerIdInvalid',
  xmlFileRequired: 'invoices.validation.xmlFileRequired',
} as const;

/**
 * The decisions' refusals. Their figures and names are params; `status` and
 * `verb` travel raw (the en text quotes them) and pages add their labels
 * (LABEL_PATHS in app/utils/refusals.ts).
 */
export const INVOICE_REFUSALS = {
  wrongState: 'invoices.refusals.wrongState',
  fourEyes: 'invoices.refusals.fourEyes',
  blocked: 'invoices.refusals.blocked',
  blockedWithReason: 'invoices.refusals.blockedWithReason',
  duplicate: 'invoices.refusals.duplicate',
  duplicateElsewhere: 'invoices.refusals.duplicateElsewhere',
  notEur: 'invoices.refusals.notEur',
  noIban: 'invoices.refusals.noIban',
  noLimit: 'invoices.refusals.noLimit',
  limitExceeded: 'invoices.refusals.limitExceeded',
  feeExceedsAmount: 'invoices.refusals.feeExceedsAmount',
  noAgreement: 'invoices.refusals.noAgreement',
  debtorNoLimit: 'invoices.refusals.debtorNoLimit',
  debtorLimitExceeded: 'invoices.refusals.debtorLimitExceeded',
  concentrationExceeded: 'invoices.refusals.concentrationExceeded',
  tenorTooLong: 'invoices.refusals.tenorTooLong',
  pastDue: 'invoices.refusals.pastDue',
  crossAgeing: 'invoices.refusals.crossAgeing',
  customerProposal: 'invoices.refusals.customerProposal',
} as const;

/** The tabs of /invoices (docs/screens.md): all, the four statuses of the spec, and the two that close a financing unpaid. */
export const INVOICE_TABS = ['all', 'pending', 'verified', 'approved', 'rejected', 'charged_back', 'written_off'] as const;
export type InvoiceTab = (typeof INVOICE_TABS)[number];
export { INVOICE_STATUSES, type InvoiceStatus };

const blankToUndefined = (value: unknown) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value);

/** An ISO calendar date 'YYYY-MM-DD' (a form's date input sends exactly this) that exists. */
const dateSchema = calendarDateSchema;

/** A decimal with at most 4 places (NUMERIC(15,4)), as text so no float rounds it. */
function decimal4(message: string, options: { min?: number } = {}) {
  return z
    .union([z.string(), z.number()], { error: message })
    .transform((value) => String(value).trim())
    .refine((value) => /^-?\d{1,11}(\.\d{1,4})?$/.test(value) && (options.min === undefined || Number(value) >= options.min), { message });
}

export const invoiceLineSchema = z.object({
  description: requiredString(INVOICE_MESSAGES.lineDescriptionRequired, { max: 5000, maxMessage: INVOICE_MESSAGES.descriptionTooLong, multiline: true }),
  quantity: decimal4(INVOICE_MESSAGES.lineQuantityInvalid),
  unitCode: z.preprocess(blankToUndefined, plainText(z.string().trim().max(10)).default('H87')),
  unitPrice: decimal4(INVOICE_MESSAGES.linePriceInvalid, { min: 0 }),
  vatCategory: z.preprocess(blankToUndefined, z.enum(VAT_CATEGORIES, INVOICE_MESSAGES.lineVatCategoryInvalid).default('S')),
  vatRate: z.preprocess(
    blankToUndefined,
    decimal4(INVOICE_MESSAGES.lineVatRateInvalid, { min: 0 })
      .refine((value) => Number(value) <= 100, { message: INVOICE_MESSAGES.lineVatRateInvalid })
      .default('25'),
  ),
  kpdCode: z.preprocess(blankToUndefined, plainText(z.string().trim().max(20)).optional()),
});

/**
 * POST /api/invoices {clientId, customerId, invoiceNumber, issueDate, dueDate,
 * amount, currency, description, lines?}. `amount` parses to integer cents
 * (more than two decimals is refused, never rounded).
 */
export const invoiceCreateSchema = z
  .object({
    clientId: z.uuid({ message: INVOICE_MESSAGES.clientRequired }),
    customerId: z.uuid({ message: INVOICE_MESSAGES.customerRequired }),
    invoiceNumber: requiredString(INVOICE_MESSAGES.invoiceNumberRequired, { max: 100, maxMessage: INVOICE_MESSAGES.invoiceNumberTooLong }),
    issueDate: dateSchema(INVOICE_MESSAGES.issueDateRequired),
    dueDate: dateSchema(INVOICE_MESSAGES.dueDateRequired),
    amount: amountCentsSchema(INVOICE_MESSAGES.amountInvalid),
    currency: z.preprocess(
      blankToUndefined,
      z
        .string({ error: INVOICE_MESSAGES.currencyInvalid })
        .trim()
        .toUpperCase()
        .regex(/^[A-Z]{3}$/, { message: INVOICE_MESSAGES.currencyInvalid })
        .default('EUR'),
    ),
    description: z.preprocess(
      blankToUndefined,
      plainText(z.string(INVOICE_MESSAGES.descriptionTooLong).trim().max(5000, INVOICE_MESSAGES.descriptionTooLong), { multiline: true }).optional(),
    ),
    lines: z.array(invoiceLineSchema).max(1000).optional(),
  })
  .refine((value) => value.dueDate >= value.issueDate, { message: INVOICE_MESSAGES.dueBeforeIssue, path: ['dueDate'] });
export type InvoiceCreateInput = z.input<typeof invoiceCreateSchema>;

/** PUT /api/invoices/{id}/reject {reason}. */
export const invoiceRejectSchema = z.object({
  reason: requiredString(INVOICE_MESSAGES.reasonRequired, { max: 5000, maxMessage: INVOICE_MESSAGES.reasonTooLong, multiline: true }),
});
export type InvoiceRejectInput = z.input<typeof invoiceRejectSchema>;

/** The decisions posted by the invoice cards and the detail page (the reason of a rejection is read by invoiceRejectSchema). */
export const INVOICE_DECISIONS = ['verify', 'approve', 'finance', 'reject'] as const;
export const invoiceDecisionIntentSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal(['verify', 'approve', 'finance']) }),
  z.object({ intent: z.literal('reject') }),
]);
