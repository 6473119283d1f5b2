import * as z from 'zod';
import { requiredString } from '../utils/validation.ts';
import { WRITE_OFF_REQUEST_STATUSES, type WriteOffRequestStatus } from '../../db/models/enums.ts';

/**
 * Recourse chargeback and write-off (docs/collections.md#recourse-and-write-off, docs/api.md):
 * PUT /api/invoices/{id}/charge-back, POST /api/invoices/{id}/write-off,
 * PUT /api/write-offs/{id}/approve|reject and the invoice page's and /limits'
 * forms. Shared by the browser and the server; messages are refusal codes
 * (docs/decisions/013-error-codes.md).
 */
export const RECOURSE_MESSAGES = {
  reasonRequired: 'recourse.validation.reasonRequired',
  reasonTooLong: 'recourse.validation.reasonTooLong',
  invalidStatus: 'recourse.validation.invalidStatus',
  invoiceNotFound: 'recourse.refusals.invoiceNotFound',
  requestNotFound: 'recourse.refusals.requestNotFound',
  notFinanced: 'recourse.refusals.notFinanced',
  nonRecourse: 'recourse.refusals.nonRecourse',
  alreadyChargedBack: 'recourse.refusals.alreadyChargedBack',
  recourseInvoice: 'recourse.refusals.recourseInvoice',
  alreadyWrittenOff: 'recourse.refusals.alreadyWrittenOff',
  writeOffPending: 'recourse.refusals.writeOffPending',
  ownRequest: 'recourse.refusals.ownRequest',
  notPending: 'recourse.refusals.notPending',
} as const;

const reason = () => requiredString(RECOURSE_MESSAGES.reasonRequired, { max: 5000, maxMessage: RECOURSE_MESSAGES.reasonTooLong, multiline: true });

/** PUT /api/invoices/{id}/charge-back {reason}; POST /api/invoices/{id}/write-off {reason}; PUT /api/write-offs/{id}/reject {reason}. */
export const recourseReasonSchema = z.object({ reason: reason() });
export type RecourseReasonInput = z.input<typeof recourseReasonSchema>;

export { WRITE_OFF_REQUEST_STATUSES, type WriteOffRequestStatus };

/** The recourse forms of the invoice page and /limits (the invoice decisions keep their own intents); the reason is read by recourseReasonSchema. */
export const recourseIntentSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal(['charge-back', 'request-write-off']) }),
  z.object({ intent: z.literal(['approve-write-off', 'reject-write-off']), requestId: z.uuid() }),
]);
