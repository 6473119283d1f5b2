import { describe, expect, it } from 'vitest';
import { selectRows } from '../../app/db.server.ts';
import { OVERDUE_ACTION, reassessOverdue } from '../../app/risk/overdue.server.ts';
import { handler } from './overdue-risk.ts';
import { insertClient, insertCustomer, insertInvoice } from '../../tests/factories.ts';

const assessmentsOf = (entityId: string) => selectRows<{ score: number }>(`SELECT score FROM risk_assessments WHERE entity_id = :entityId`, { entityId });

describe('overdue-risk', () => {
  it('reassesses the customer and client of a newly overdue financed invoice once, however often it runs', async () => {
    const { id: clientId } = await insertClient();
    const { id: customerId } = await insertCustomer();
    const { id: otherCustomer } = await insertCustomer();
    const overdue = await insertInvoice({ clientId, customerId, amount: '2000.00', dueDate: '2026-02-20' });
    await insertInvoice({ clientId, customerId, amount: '500.00', dueDate: '2026-02-25' });
    await insertInvoice({ clientId, customerId: otherCustomer, amount: '700.00', dueDate: '2026-03-15' }); // not due yet
    await insertInvoice({ clientId, customerId: otherCustomer, amount: '700.00', dueDate: '2026-01-15', paidAt: '2026-01-10T10:00:00Z' }); // paid

    // Two overdue invoices of one customer and one client: each entity is assessed once.
    expect(await reassessOverdue({ asOf: '2026-03-01' })).toEqual({ invoices: 2, assessments: 2 });
    expect(await reassessOverdue({ asOf: '2026-03-01' })).toEqual({ invoices: 0, assessments: 0 });
    expect(await assessmentsOf(customerId)).toHaveLength(1);
    expect(await assessmentsOf(clientId)).toHaveLength(1);
    expect(await assessmentsOf(otherCustomer)).toHaveLength(0);
    const logs = await selectRows<{ entity_id: string }>(`SELECT entity_id FROM activity_logs WHERE action = :action`, { action: OVERDUE_ACTION });
    expect(logs.map((row) => row.entity_id)).toContain(overdue);
    expect(logs).toHaveLength(2);
    const [assessed] = await selectRows<{ details: { reason: string } }>(`SELECT details FROM activity_logs WHERE action = 'risk_assessed' AND entity_id = :customerId`, {
      customerId,
    });
    expect(assessed.details.reason).toBe('overdue');

    // Two runs at once (a retried job beside the scheduled one) still handle each invoice once.
    const runs = await Promise.all([reassessOverdue({ asOf: '2026-03-20' }), reassessOverdue({ asOf: '2026-03-20' })]);
    expect(runs.map((run) => run.invoices).sort()).toEqual([0, 1]);
    expect(await assessmentsOf(otherCustomer)).toHaveLength(1);

    // The scheduled handler runs on today's date: everything due before today was handled above.
    const lines: string[] = [];
    await handler([], { worker: { workerId: 'w', hostname: 'h', pid: 1, startedAt: new Date() }, log: { info: (line) => lines.push(line), error: () => {} } });
    expect(await assessmentsOf(customerId)).toHaveLength(1);
  });

  it('works through a backlog in batches, each invoice marked once and each party reassessed once per run', async () => {
    const { id: clientId } = await insertClient();
    const [{ id: first }, { id: second }] = await Promise.all([insertCustomer(), insertCustomer()]);
    const invoices = [];
    for (const [index, customerId] of [first, first, second, first, second].entries()) {
      invoices.push(await insertInvoice({ clientId, customerId, amount: '100.00', dueDate: `2025-06-0${index + 1}` }));
    }
    // Five invoices two at a time: three transactions, the last one short.
    expect(await reassessOverdue({ asOf: '2025-07-01', batchSize: 2 })).toEqual({ invoices: 5, assessments: 3 });
    const marks = await selectRows<{ entity_id: string; transaction: string }>(
      `SELECT entity_id, xmin::text AS transaction FROM activity_logs WHERE action = :action AND entity_id IN (:invoices)`,
      {
        action: OVERDUE_ACTION,
        invoices,
      },
    );
    expect(marks.map((row) => row.entity_id).sort()).toEqual([...invoices].sort());
    // Rows written in one transaction share its id (xmin): three transactions.
    expect(new Set(marks.map((row) => row.transaction)).size).toBe(3);
    for (const party of [clientId, first, second]) expect(await assessmentsOf(party)).toHaveLength(1);
    expect(await reassessOverdue({ asOf: '2025-07-01', batchSize: 2 })).toEqual({ invoices: 0, assessments: 0 });
  });
});
