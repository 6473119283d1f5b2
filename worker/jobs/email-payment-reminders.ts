import { sendPaymentReminders } from '../../app/email/triggers.server.ts';
import type { JobHandler } from './define.ts';

/** Daily: payment_due (3 days before) and payment_overdue (the day after) mails of financed invoices, once each. */
export const queue = 'email-payment-reminders';

export const handler: JobHandler<typeof queue> = async (_jobs, { log }) => {
  const { due, overdue } = await sendPaymentReminders();
  if (due + overdue > 0) log.info(`email-payment-reminders: ${due} payment_due and ${overdue} payment_overdue mail(s) queued`);
};
