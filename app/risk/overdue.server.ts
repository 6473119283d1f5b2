import { logActivity } from '../activity-log.server.ts';
import { execute, inTransaction, selectRows } from '../db.server.ts';
import { assessEntity } from './assessments.server.ts';
import type { RiskEntityType } from './scoring.server.ts';
import { SQL_BUSINESS_TODAY } from '../utils/business-time.ts';
import type { Invoice } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';

/**
 * The daily overdue reassessment (worker job 'overdue-risk'): every financed
 * invoice whose due date has passed and that has not yet been handled gets
 * an 'invoice_overdue' activity row, and its customer and client are each
 * reassessed once with reason 'overdue'. The activity row is the memory that
 * makes reruns (a retried job, a second worker, a manual run) do nothing.
 */
export const OVERDUE_ACTION = 'invoice_overdue';

export async function reassessOverdue(options: { asOf?: string } = {}): Promise<{ invoices: number; assessments: number }> {
  return inTransaction(async (transaction) => {
    // One run at a time: a concurrent run waits and then finds the invoices already handled.
    await execute(`SELECT pg_advisory_xact_lock(hashtext('finflow:overdue-risk'))`, {}, { transaction });
    const invoices = await selectRows<RowOf<typeof Invoice, 'id' | 'invoice_number' | 'client_id' | 'customer_id' | 'due_date'>>(
      `SELECT i.id, i.invoice_number, i.client_id, i.customer_id, i.due_date::text AS due_date
         FROM invoices i
        WHERE i.status = 'financed'
          AND i.due_date < coalesce(CAST(:asOf AS date), ${SQL_BUSINESS_TODAY})
          AND NOT EXISTS (
            SELECT 1 FROM activity_logs a WHERE a.action = :action AND a.entity_type = 'invoice' AND a.entity_id = i.id)
        ORDER BY i.due_date, i.id
        FOR UPDATE OF i`,
      { asOf: options.asOf ?? null, action: OVERDUE_ACTION },
      { transaction },
    );
    if (invoices.length === 0) return { invoices: 0, assessments: 0 };

    const entities = new Map<string, { entityType: RiskEntityType; entityId: string; numbers: string[] }>();
    for (const invoice of invoices) {
      for (const [entityType, entityId] of [
        ['customer', invoice.customer_id],
        ['client', invoice.client_id],
      ] as const) {
        const key = `${entityType}:${entityId}`;
        const entry = entities.get(key) ?? { entityType, entityId, numbers: [] };
        entry.numbers.push(invoice.invoice_number);
        entities.set(key, entry);
      }
      await logActivity(
        {
          action: OVERDUE_ACTION,
          userId: null,
          entityType: 'invoice',
          entityId: invoice.id,
          details: { invoiceNumber: invoice.invoice_number, dueDate: invoice.due_date },
        },
        transaction,
      );
    }
    for (const { entityType, entityId, numbers } of entities.values()) {
      await assessEntity({ entityType, entityId, actor: null, reason: 'overdue', notes: `Prekoračen rok plaćanja: ${numbers.join(', ')}`.slice(0, 5000) }, { transaction });
    }
    return { invoices: invoices.length, assessments: entities.size };
  });
}
