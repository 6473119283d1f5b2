import { describe, expect, it } from 'vitest';
import { execute, selectRows } from '../../app/db.server.ts';
import { handler } from './integration-health.ts';

describe('integration-health job', () => {
  it('tests each enabled integration and records status, lastCheck, errorCount and lastError', async () => {
    // A live integration without an endpoint fails; a disabled one is left alone.
    await execute(`INSERT INTO integrations (name, type, mode) VALUES ('FINA API', 'fina', 'live')`);
    await execute(`INSERT INTO integrations (name, type, is_enabled) VALUES ('E-potpis', 'docusign', false)`);
    const lines: string[] = [];
    await handler([], { worker: { workerId: 'w', hostname: 'h', pid: 1, startedAt: new Date() }, log: { info: (line) => lines.push(line), error: () => {} } });
    const rows = await selectRows<{ type: string; status: string; error_count: number; last_error: string | null; last_check: Date | null }>(
      `SELECT type, status, error_count, last_error, last_check FROM integrations ORDER BY type`,
    );
    const byType = Object.fromEntries(rows.map((row) => [row.type, row]));
    expect(byType.fina).toMatchObject({ status: 'error', error_count: 1, last_error: expect.stringContaining('live mode needs an endpoint'), last_check: expect.any(Date) });
    expect(byType.docusign).toMatchObject({ status: 'inactive', error_count: 0, last_check: null });
    for (const type of ['hanfa', 'einvoicing', 'sendgrid']) expect(byType[type]).toMatchObject({ status: 'active', error_count: 0, last_check: expect.any(Date) });
    expect(lines[0]).toContain('fina:');
    const logs = await selectRows<{ n: string }>(`SELECT count(*) AS n FROM integration_logs WHERE operation = 'test'`);
    expect(Number(logs[0].n)).toBe(4);
  });
});
