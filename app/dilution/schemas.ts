import * as z from 'zod';
import { INVOICE_DISPUTE_OUTCOMES, type CreditNoteSource } from '../../db/models/enums.ts';
import { amountCentsSchema, calendarDateSchema, requiredString } from '../utils/validation.ts';

/**
 * Dilution (docs/collections.md#dilution-and-disputes-resolved, docs/api.md):
 * the credit note form and POST /api/invoices/{id}/credit-notes, the dispute
 * resolution form and PUT /api/invoices/{id}/dispute/resolve. Shared by the
 * browser (conform) and the server; messages are refusal codes
 * (docs/decisions/013-error-codes.md).
 */
export const DILUTION_ERRORS = {
  numberRequired: 'dilution.errors.numberRequired',
  numberTooLong: 'dilution.errors.numberTooLong',
  issueDateInvalid: 'dilution.errors.issueDateInvalid',
  amountInvalid: 'dilution.errors.amountInvalid',
  reasonRequired: 'dilution.errors.reasonRequired',
  reasonTooLong: 'dilution.errors.reasonTooLong',
  outcomeInvalid: 'dilution.errors.outcomeInvalid',
  agreedAmountInvalid: 'dilution.errors.agreedAmountInvalid',
  agreedAmountRequired: 'dilution.errors.agreedAmountRequired',
  agreedAmountOnlyReduced: 'dilution.errors.agreedAmountOnlyReduced',
  noteRequired: 'dilution.errors.noteRequired',
  noteTooLong: 'dilution.errors.noteTooLong',
  invoiceNotFound: 'dilution.errors.invoiceNotFound',
  notPurchased: 'dilution.errors.notPurchased',
  aboveOpen: 'dilution.errors.aboveOpen',
  numberTaken: 'dilution.errors.numberTaken',
  issuedBeforeInvoice: 'dilution.errors.issuedBeforeInvoice',
  issuedInFuture: 'dilution.errors.issuedInFuture',
  noOpenDispute: 'dilution.errors.noOpenDispute',
  agreedNotBelowAmount: 'dilution.errors.agreedNotBelowAmount',
  creditOnlyWhenPurchased: 'dilution.errors.creditOnlyWhenPurchased',
  // A UBL CreditNote (app/dilution/ubl-intake.server.ts).
  ublNoReference: 'dilution.errors.ublNoReference',
  ublInvoiceUnknown: 'dilution.errors.ublInvoiceUnknown',
  ublBuyerNotDebtor: 'dilution.errors.ublBuyerNotDebtor',
  ublNotEur: 'dilution.errors.ublNotEur',
} as const;

export { INVOICE_DISPUTE_OUTCOMES, type CreditNoteSource };

const blankToUndefined = (value: unknown) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value);

/** POST /api/invoices/{id}/credit-notes {number, issueDate, amount, reason} and the invoice page's credit note form; amount in cents. */
export const creditNoteSchema = z.object({
  number: requiredString(DILUTION_ERRORS.numberRequired, { max: 100, maxMessage: DILUTION_ERRORS.numberTooLong }),
  issueDate: calendarDateSchema(DILUTION_ERRORS.issueDateInvalid),
  amount: amountCentsSchema(DILUTION_ERRORS.amountInvalid),
  reason: requiredString(DILUTION_ERRORS.reasonRequired, { max: 5000, maxMessage: DILUTION_ERRORS.reasonTooLong, multiline: true }),
});
export type CreditNoteInput = z.input<typeof creditNoteSchema>;

/**
 * PUT /api/invoices/{id}/dispute/resolve {outcome, agreedAmount?, note} and the
 * invoice page's resolution form. `agreedAmount` (what the debtor still owes
 * on the invoice) is required with 'reduced' and refused with the others.
 */
export const disputeResolveSchema = z
  .object({
    outcome: z.enum(INVOICE_DISPUTE_OUTCOMES, { error: DILUTION_ERRORS.outcomeInvalid }),
    agreedAmount: z.preprocess(blankToUndefined, amountCentsSchema(DILUTION_ERRORS.agreedAmountInvalid, { allowZero: true }).optional()),
    note: requiredString(DILUTION_ERRORS.noteRequired, { max: 5000, maxMessage: DILUTION_ERRORS.noteTooLong, multiline: true }),
  })
  .superRefine((value, ctx) => {
    if (value.outcome === 'reduced' && value.agreedAmount === undefined) {
      ctx.addIssue({ code: 'custom', message: DILUTION_ERRORS.agreedAmountRequired, path: ['agreedAmount'] });
    }
    if (value.outcome !== 'reduced' && value.agreedAmount !== undefined) {
      ctx.addIssue({ code: 'custom', message: DILUTION_ERRORS.agreedAmountOnlyReduced, path: ['agreedAmount'] });
    }
  });
export type DisputeResolveInput = z.input<typeof disputeResolveSchema>;

/** The invoice page's dilution posts, by intent. */
export const dilutionIntentSchema = z.discriminatedUnion('intent', [z.object({ intent: z.literal('credit-note') }), z.object({ intent: z.literal('dispute-resolve') })]);
