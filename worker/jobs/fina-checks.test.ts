import { describe, expect, it } from 'vitest';
import { execute, selectOne } from '../../app/db.server.ts';
import { sandboxOibs } from '../../app/integrations/sandbox-rules.ts';
import { handler } from './fina-checks.ts';

const context = () => {
  const lines: string[] = [];
  return { lines, context: { worker: { workerId: 'w', hostname: 'h', pid: 1, startedAt: new Date() }, log: { info: (line: string) => lines.push(line), error: () => {} } } };
};

describe('fina-checks job', () => {
  it('checks every customer; a rerun opens no second task', async () => {
    for (const oib of [...sandboxOibs(true, 2, 4242), ...sandboxOibs(false, 3, 4242)]) {
      await execute(`INSERT INTO customers (company_name, oib) VALUES (:name, :oib)`, { name: `Kupac ${oib}`, oib });
    }
    const run = context();
    await handler([], run.context);
    expect(run.lines[0]).toMatch(/^fina-checks: 5 checked, 2 newly blocked, 0 cleared, 0 failed$/);
    expect(Number((await selectOne<{ n: string }>(`SELECT count(*) AS n FROM customers WHERE last_fina_check IS NULL`))?.n)).toBe(0);
    await handler([], context().context);
    expect(Number((await selectOne<{ n: string }>(`SELECT count(*) AS n FROM tasks WHERE type = 'customer_contact'`))?.n)).toBe(2);
  });
});
