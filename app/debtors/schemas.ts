import * as z from 'zod';
import { requiredString } from '../utils/validation.ts';

/**
 * The notice of assignment and the debtor's confirmation (docs/collections.md#the-notice-of-assignment-and-the-debtors-confirmation):
 * the refusal codes (i18n keys, app/locales/{en,hr}/debtors.json) and the
 * schemas shared by the API, the staff forms and the debtor's page. No server imports here.
 */
export const DEBTOR_ERRORS = {
  linkNotFound: 'debtors.errors.linkNotFound',
  linkClosed: 'debtors.errors.linkClosed',
  clientNotFound: 'debtors.errors.clientNotFound',
  customerNotFound: 'debtors.errors.customerNotFound',
  invoiceNotFound: 'debtors.errors.invoiceNotFound',
  noAgreement: 'debtors.errors.noAgreement',
  undisclosed: 'debtors.errors.undisclosed',
  noEmail: 'debtors.errors.noEmail',
  noTemplate: 'debtors.errors.noTemplate',
  noInvoices: 'debtors.errors.noInvoices',
  disputeOpen: 'debtors.errors.disputeOpen',
  disputeWrongState: 'debtors.errors.disputeWrongState',
  reasonRequired: 'debtors.errors.reasonRequired',
  reasonTooLong: 'debtors.errors.reasonTooLong',
  acknowledgementRequired: 'debtors.errors.acknowledgementRequired',
  answerInvalid: 'debtors.errors.answerInvalid',
  notOffered: 'debtors.errors.notOffered',
} as const;

/** The refusals of verification and financing that the debtor's side adds (docs/lifecycle.md#financing). */
export const DEBTOR_REFUSALS = {
  disputed: 'debtors.refusals.disputed',
  confirmationRequired: 'debtors.refusals.confirmationRequired',
} as const;

/** The invoice statuses a debtor is asked about and may dispute: open receivables not yet paid (docs/lifecycle.md#invoices). */
export const OFFERED_STATUSES = ['pending', 'verified', 'approved', 'financed'] as const;

/** How long a debtor's link works. */
export const DEBTOR_LINK_TTL_DAYS = 30;
/** The most invoices one link's page offers; the rest follow on the next link (docs/collections.md). */
export const DEBTOR_PAGE_INVOICES = 100;
export const REASON_MAX = 5000;

const uuid = (message: string) => z.uuid({ error: message });

/** POST /api/debtor-links {clientId, customerId} and the customer page's 'Zatraži potvrdu dužnika'. */
export const confirmationRequestSchema = z.object({
  clientId: uuid(DEBTOR_ERRORS.clientNotFound),
  customerId: uuid(DEBTOR_ERRORS.customerNotFound),
});
export type ConfirmationRequestInput = z.input<typeof confirmationRequestSchema>;

const reasonSchema = requiredString(DEBTOR_ERRORS.reasonRequired, { max: REASON_MAX, maxMessage: DEBTOR_ERRORS.reasonTooLong, multiline: true });

/** POST /api/invoices/{id}/dispute {reason} and the invoice page's form. */
export const disputeSchema = z.object({ reason: reasonSchema });
export type DisputeInput = z.input<typeof disputeSchema>;

/** The debtor's answer on one invoice; an empty choice leaves the invoice unanswered. */
export const DEBTOR_CHOICES = ['confirm', 'dispute'] as const;
export type DebtorChoice = (typeof DEBTOR_CHOICES)[number];

/** Field names of the debtor's form: one choice and one reason per offered invoice. */
export const answerField = (invoiceId: string) => `answer_${invoiceId}`;
export const reasonField = (invoiceId: string) => `reason_${invoiceId}`;

export interface DebtorAnswerInput {
  invoiceId: string;
  choice: DebtorChoice;
  /** Only with 'dispute'. */
  reason: string | null;
}

export interface ParsedDebtorAnswers {
  acknowledged: true;
  answers: DebtorAnswerInput[];
}

export type DebtorFormErrors = Partial<Record<string, string[]>>;

/**
 * The debtor's one submit, read from its form fields for the invoices the page
 * offered: the acknowledgement is required; each invoice is confirmed,
 * disputed with a reason (≤ 5000 characters) or left unanswered. Errors are
 * per field name (the codes above), so the page shows each beside its control.
 */
export function parseDebtorAnswers(fields: Record<string, unknown>, offered: readonly string[]): { ok: true; data: ParsedDebtorAnswers } | { ok: false; errors: DebtorFormErrors } {
  const errors: DebtorFormErrors = {};
  const acknowledged = fields.acknowledged === 'on' || fields.acknowledged === 'true' || fields.acknowledged === true;
  if (!acknowledged) errors.acknowledged = [DEBTOR_ERRORS.acknowledgementRequired];
  const answers: DebtorAnswerInput[] = [];
  for (const invoiceId of offered) {
    const raw = fields[answerField(invoiceId)];
    if (raw === undefined || raw === null || raw === '') continue;
    if (raw !== 'confirm' && raw !== 'dispute') {
      errors[answerField(invoiceId)] = [DEBTOR_ERRORS.answerInvalid];
      continue;
    }
    if (raw === 'confirm') {
      answers.push({ invoiceId, choice: 'confirm', reason: null });
      continue;
    }
    const reason = reasonSchema.safeParse(fields[reasonField(invoiceId)] ?? '');
    if (!reason.success) errors[reasonField(invoiceId)] = [reason.error.issues[0]?.message ?? DEBTOR_ERRORS.reasonRequired];
    else answers.push({ invoiceId, choice: 'dispute', reason: reason.data });
  }
  // A field naming an invoice the page did not offer is someone else's form: refused as a whole.
  for (const name of Object.keys(fields)) {
    const match = /^(?:answer|reason)_(.+)$/.exec(name);
    if (match && !offered.includes(match[1])) errors.form = [DEBTOR_ERRORS.notOffered];
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, data: { acknowledged: true, answers } };
}
