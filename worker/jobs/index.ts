import type { JobModule } from './define.ts';
import * as backup from './backup.ts';
import * as creditLimitExpiry from './credit-limit-expiry.ts';
import * as dunning from './dunning.ts';
import * as emailCampaign from './email-campaign.ts';
import * as emailPaymentReminders from './email-payment-reminders.ts';
import * as emailSend from './email-send.ts';
import * as einvoiceSend from './einvoice-send.ts';
import * as einvoiceSync from './einvoice-sync.ts';
import * as finaChecks from './fina-checks.ts';
import * as heartbeat from './heartbeat.ts';
import * as integrationHealth from './integration-health.ts';
import * as overdueRisk from './overdue-risk.ts';
import * as passwordReset from './password-reset.ts';
import * as recourseChargeback from './recourse-chargeback.ts';
import * as housekeeping from './housekeeping.ts';
import * as workflowStep from './workflow-step.ts';

/**
 * Every job the worker runs: one module per queue declared in app/jobs/queues.server.ts
 * (worker.test.ts checks that each declared queue has exactly one).
 */
export const jobs: readonly JobModule[] = [
  heartbeat,
  housekeeping,
  overdueRisk,
  creditLimitExpiry,
  workflowStep,
  integrationHealth,
  finaChecks,
  emailSend,
  emailCampaign,
  emailPaymentReminders,
  dunning,
  einvoiceSend,
  einvoiceSync,
  backup,
  passwordReset,
  recourseChargeback,
];
