import { describe, expect, it } from 'vitest';
import { selectRows } from '../db.server.ts';
import { execute } from '../db.server.ts';
import { getESignature, sandboxESignature } from './esignature.server.ts';

const document = { id: '00000000-0000-4000-8000-000000000001', checksum: 'a'.repeat(64), name: 'Ugovor' };
const signer = { id: '00000000-0000-4000-8000-000000000002', name: 'Ana Anić', email: 'ana@finflow.local' };

describe('e-signature adapter', () => {
  it('signs deterministically in the sandbox, without a network', async () => {
    const first = await sandboxESignature.sign(document, signer);
    const second = await sandboxESignature.sign(document, signer);
    expect(first.signatureId).toBe(second.signatureId);
    expect(first.signatureId).toMatch(/^sandbox-[0-9a-f]{32}$/);
    expect((await sandboxESignature.sign({ ...document, checksum: 'b'.repeat(64) }, signer)).signatureId).not.toBe(first.signatureId);
    expect(await sandboxESignature.test()).toEqual({ ok: true, message: expect.any(String) });
  });

  it('writes an integration log row per call when the docusign integration exists', async () => {
    // Without the row nothing is logged, and nothing fails.
    await getESignature().sign(document, signer);
    await execute(`INSERT INTO integrations (name, type, status) VALUES ('E-potpis', 'docusign', 'active')`);
    const adapter = getESignature();
    await adapter.sign(document, signer);
    await adapter.test();
    const failing = getESignature({
      sign: async () => {
        throw new Error('provider down');
      },
      test: async () => ({ ok: false, message: 'unreachable' }),
    });
    await expect(failing.sign(document, signer)).rejects.toThrow('provider down');
    await failing.test();
    const logs = await selectRows<{ operation: string; success: boolean; duration_ms: number; message: string }>(
      `SELECT l.operation, l.success, l.duration_ms, l.message FROM integration_logs l JOIN integrations i ON i.id = l.integration_id
        WHERE i.type = 'docusign' ORDER BY l.created_at, l.operation`,
    );
    expect(logs.map(({ operation, success }) => [operation, success])).toEqual([
      ['sign', true],
      ['test', true],
      ['sign', false],
      ['test', false],
    ]);
    expect(logs[2].message).toBe('provider down');
    expect(logs.every((log) => log.duration_ms >= 0)).toBe(true);
  });
});
