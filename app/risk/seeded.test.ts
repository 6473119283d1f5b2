import { describe, expect, it } from 'vitest';
import { getSequelize } from '../../db/connection.ts';
import { seedDemo } from '../../db/seed/demo.ts';
import { selectOne, selectRows } from '../db.server.ts';
import { assessEntity, categoryCounts, listAssessments } from './assessments.server.ts';
import { computeScore } from './scoring.server.ts';

/**
 * The done-when on the demo book: every stored assessment's score is
 * recomputed by hand from its stored factors and weights.
 */
type Row = {
  id: string;
  entity_type: 'client' | 'customer';
  entity_id: string;
  score: number;
  automatic_score: number;
  manual_adjustment: number;
  category: string;
  factors: Record<string, { score: number; weight: number }>;
};

describe('the demo book', () => {
  it('recomputes every seeded and every new assessment from its stored factors and weights', { timeout: 300_000 }, async () => {
    await seedDemo(getSequelize(), { now: new Date() });
    const seeded = await selectRows<Row>(`SELECT * FROM risk_assessments`);
    expect(seeded.length).toBeGreaterThan(20);
    for (const row of seeded) {
      expect(computeScore(row.factors, row.manual_adjustment), row.id).toEqual({
        automaticScore: row.automatic_score,
        score: row.score,
        category: row.category,
      });
    }

    const client = await selectOne<{ id: string }>(`SELECT id FROM clients WHERE status = 'active' ORDER BY company_name LIMIT 1`);
    const customer = await selectOne<{ id: string }>(`SELECT id FROM customers WHERE account_blocked ORDER BY company_name LIMIT 1`);
    for (const [entityType, entityId] of [
      ['client', client!.id],
      ['customer', customer!.id],
    ] as const) {
      const fresh = await assessEntity({ entityType, entityId, actor: null, reason: 'on_demand' });
      const stored = await selectOne<Row>(`SELECT * FROM risk_assessments WHERE id = :id`, { id: fresh.id });
      expect(computeScore(stored!.factors, stored!.manual_adjustment)).toEqual({
        automaticScore: stored!.automatic_score,
        score: stored!.score,
        category: stored!.category,
      });
      // By hand: Σ weight × score with weights in whole percent (0.15 → 15), rounded half up.
      const byHand = Math.round(Object.values(stored!.factors).reduce((sum, factor) => sum + Math.round(factor.weight * 100) * factor.score, 0) / 100);
      expect(byHand).toBe(stored!.automatic_score);
    }
    const oldest = await listAssessments({ limit: 1, offset: seeded.length + 1 });
    // Seeded assessments ('financials' instead of creditUsage) list their first four factors in the table's order too.
    expect(Object.keys(oldest.items[0].factors).slice(0, 4)).toEqual(['paymentHistory', 'daysPastDue', 'accountBlockages', 'concentration']);
    const blocked = await listAssessments({ entityType: 'customer', limit: 1 });
    expect(blocked.items[0].factors.accountBlockages.score).toBe(0);
  });

  it("keeps every client's and customer's risk score equal to its latest assessment", async () => {
    const mismatches = await selectRows(
      `SELECT e.id FROM (SELECT id, 'client' AS type, risk_score FROM clients UNION ALL SELECT id, 'customer', risk_score FROM customers) e
         LEFT JOIN LATERAL (SELECT score FROM risk_assessments r WHERE r.entity_type = e.type AND r.entity_id = e.id
                             ORDER BY created_at DESC, id DESC LIMIT 1) latest ON true
        WHERE e.risk_score IS DISTINCT FROM latest.score`,
    );
    expect(mismatches).toEqual([]);
  });

  it('counts the summary cards as SQL does', async () => {
    const counts = await categoryCounts();
    const sql = await selectOne<{ low: number; medium: number; high: number; total: number }>(
      `SELECT sum((category = 'low')::int)::int AS low, sum((category = 'medium')::int)::int AS medium,
              sum((category = 'high')::int)::int AS high, count(*)::int AS total FROM risk_assessments`,
    );
    expect(counts).toEqual(sql);
    expect((await listAssessments({ category: 'high', limit: 1 })).total).toBe(sql!.high);
    expect((await listAssessments({ limit: 1 })).total).toBe(sql!.total);
  });
});
