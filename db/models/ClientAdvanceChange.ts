import { day, money, primaryKey, tableModel, uuid } from './columns.ts';

const columns = {
  clientId: primaryKey(uuid),
  /** 'YYYY-MM-DD', the first day of the month. */
  month: primaryKey(day),
  change: money,
};

/**
 * How much the advances outstanding on a client's invoices changed over one
 * calendar month of booking (client_advance_changes): kept by triggers on
 * client_ledger, never written by the application; the dashboard's month-start
 * comparison reads it (db/migrations/2026.11.28T03.00.00.client-advance-changes.ts).
 */
export class ClientAdvanceChange extends tableModel('client_advance_changes', columns, { timestamps: false }) {}
