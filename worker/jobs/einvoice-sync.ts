import { receiveIncomingEInvoices } from '../../app/einvoices/incoming.server.ts';
import { requeueStalledEInvoices } from '../../app/einvoices/outgoing-send.server.ts';
import { loadConfig } from '../../app/integrations/core.server.ts';
import type { JobHandler } from './define.ts';

/**
 * Every 5 minutes: pending fee e-invoices whose send job was lost are queued
 * again, and, while the e-invoicing integration is enabled, the documents
 * waiting at the intermediary are received into the invoice intake
 * (app/einvoices/incoming.server.ts; a document is recorded once, so a rerun
 * takes nothing twice). A receive that fails (intermediary unreachable)
 * throws, so the run is retried and shows as failed.
 */
export const queue = 'einvoice-sync';

export const handler: JobHandler<typeof queue> = async (_jobs, { log }) => {
  const requeued = await requeueStalledEInvoices();
  if (requeued > 0) log.info(`einvoice-sync: re-queued ${requeued} pending e-invoice(s)`);
  const config = await loadConfig('einvoicing');
  if (!config.enabled) return;
  const summary = await receiveIncomingEInvoices({ actor: null });
  if (summary.received > 0) {
    log.info(`einvoice-sync: received ${summary.received} document(s): ${summary.imported} imported, ${summary.failed} failed, ${summary.duplicates} already known`);
  }
};
