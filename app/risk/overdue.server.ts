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

/**
 * Invoices handled per transaction. The daily backlog is a handful; a larger one (a book imported with
 * old invoices, days without a worker) is worked through in short transactions that each lock only
 * their own invoices, so payments on the others go on and a stopping worker waits for one batch at most.
 */
export const OVERDUE_BATCH = 500;

export async function reassessOverdue(options: { asOf?: string; batchSize?: number } = {}): Promise<{ invoices: number; assessments: number }> {
  const batchSize = options.batchSize ?? OVERDUE_BATCH;
  // Each party once per run: its assessment reads its whole book, so a later batch's invoices add nothing to it.
  const assessed = new Set<string>();
  let invoices = 0;
  for (;;) {
    const batch = await reassessOverdueBatch(options.asOf ?? null, batchSize, assessed);
    invoices += batch.invoices;
    for (const key of batch.assessed) assessed.add(key);
    if (batch.invoices < batchSize) return { invoices, assessments: assessed.size };
  }
}

async function reassessOverdueBatch(asOf: string | null, limit: number, alreadyAssessed: ReadonlySet<string>): Promise<{ invoices: number; assessed: string[] }> {
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
        LIMIT :limit
        FOR UPDATE OF i`,
      { asOf, action: OVERDUE_ACTION, limit },
      { transaction },
    );
    if (invoices.length === 0) return { invoices: 0, assessed: [] };

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
    for (const [key, { entityType, entityId, numbers }] of entities) {
      if (alreadyAssessed.has(key)) {
        entities.delete(key);
        continue;
      }
      await assessEntity({ entityType, entityId, actor: null, reason: 'overdue', notes: `Prekoračen rok plaćanja: ${numbers.join(', ')}`.slice(0, 5000) }, { transaction });
    }
    return { invoices: invoices.length, assessed: [...entities.keys()] };
  });
}
