import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import { activityRows, apiFailure, rejection } from '../auth/test-helpers.server.ts';
import { execute, selectOne, selectRows } from '../db.server.ts';
import { i18nConfig } from '../i18n.ts';
import { readApiError } from '../utils/api.server.ts';
import { refusalText } from '../utils/refusals.ts';
import { decryptCredentials, IntegrationError, loadConfig } from './core.server.ts';
import { documentIdOf, getEInvoicing, sandboxEInvoicing } from './einvoicing.server.ts';
import { getFina, sandboxAccountBlocked, sandboxFina } from './fina.server.ts';
import { getHanfa, quarterlyFigures, sandboxHanfa } from './hanfa.server.ts';
import { checkIntegrationsHealth } from './health.server.ts';
import { configureIntegration, getIntegration, integrationCounts, listIntegrationLogs, listIntegrations, submitHanfaReport, testIntegration } from './integrations.server.ts';
import { sandboxOibs } from './sandbox-rules.ts';
import { createTestUser, insertClient, insertCustomer, insertInvoice } from '../../tests/factories.ts';

const UBL = `<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><cbc:ID xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">R-1</cbc:ID></Invoice>`;

const row = (type: string) =>
  selectOne<{ status: string; error_count: number; last_error: string | null; last_check: Date | null; last_sync: Date | null; settings_encrypted: string | null; id: string }>(
    `SELECT * FROM integrations WHERE type = :type`,
    { type },
  );
const logs = (type: string) =>
  selectRows<{ operation: string; success: boolean; duration_ms: number; message: string }>(
    `SELECT l.operation, l.success, l.duration_ms, l.message FROM integration_logs l JOIN integrations i ON i.id = l.integration_id
      WHERE i.type = :type ORDER BY l.created_at, l.id`,
    { type },
  );

describe('integration adapters in sandbox mode', () => {
  it('FINA answers deterministically by the documented rule (weighted digit sum mod 10 = 7 is blocked)', async () => {
    const [blocked] = sandboxOibs(true, 1);
    const [clear] = sandboxOibs(false, 1);
    // The rule by hand: Σ digit × position (1-based).
    const weighted = [...blocked].reduce((sum, digit, index) => sum + Number(digit) * (index + 1), 0);
    expect(weighted % 10).toBe(7);
    expect(sandboxAccountBlocked(blocked)).toBe(true);
    const first = await sandboxFina.accountBlockage(blocked);
    expect(first).toEqual({ blocked: true, reason: expect.any(String), since: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    expect(await sandboxFina.accountBlockage(blocked)).toEqual(first);
    expect(await sandboxFina.accountBlockage(clear)).toEqual({ blocked: false, reason: null, since: null });
    const company = await sandboxFina.companyByOib(clear);
    expect(company).toEqual(await sandboxFina.companyByOib(clear));
    expect(company).toMatchObject({ oib: clear, name: expect.stringMatching(/d\.o\.o\.$/), status: 'active' });
    await expect(sandboxFina.accountBlockage('12345678901')).rejects.toThrow('Invalid OIB');
    // About one valid OIB in ten is blocked.
    const sample = [...sandboxOibs(true, 30, 1), ...sandboxOibs(false, 270, 1)];
    expect(sample.filter(sandboxAccountBlocked)).toHaveLength(30);
  });

  it('HANFA builds the quarter from SQL and receipts it deterministically', async () => {
    const { id: clientId } = await insertClient();
    const { id: customerId } = await insertCustomer();
    const invoiceId = await insertInvoice({ clientId, customerId, amount: '1000.00', dueDate: '2026-02-20' });
    await execute(`UPDATE invoices SET financed_at = '2026-02-01T10:00:00Z' WHERE id = :invoiceId`, { invoiceId });
    const figures = await quarterlyFigures('2026-Q1');
    const expected = await selectOne<{ count: string; volume: string; advances: string; fees: string }>(
      `SELECT count(*) AS count, sum(amount) AS volume, sum(factor_amount) AS advances, sum(factor_fee) AS fees FROM invoices
        WHERE financed_at >= '2026-01-01T00:00:00+01:00' AND financed_at < '2026-04-01T00:00:00+02:00'`,
    );
    expect(figures).toMatchObject({
      period: '2026-Q1',
      from: '2026-01-01',
      to: '2026-04-01',
      financedCount: Number(expected?.count),
      financedVolume: Number(expected?.volume),
      advances: Number(expected?.advances),
      fees: Number(expected?.fees),
      outstandingCount: 1,
      overdueCount: 1,
      clients: 1,
      customers: 1,
    });
    const first = await sandboxHanfa.submitQuarterlyReport('2026-Q1');
    const second = await sandboxHanfa.submitQuarterlyReport('2026-Q1');
    expect(first.receiptId).toMatch(/^HANFA-SBX-[0-9A-F]{16}$/);
    expect(second.receiptId).toBe(first.receiptId);
    expect((await sandboxHanfa.submitQuarterlyReport('2025-Q4')).receiptId).not.toBe(first.receiptId);
    await expect(sandboxHanfa.submitQuarterlyReport('2026-Q5')).rejects.toThrow('Period must look like 2026-Q1');
  });

  it('e-invoicing sends into and receives from the sandbox mailbox', async () => {
    const sent = await sandboxEInvoicing.sendDocument(UBL);
    expect(sent).toEqual({ documentId: documentIdOf(UBL), status: 'delivered' });
    await expect(sandboxEInvoicing.sendDocument('<html/>')).rejects.toThrow('The document is not a UBL 2.1 Invoice or CreditNote');
    const fs = await import('node:fs/promises');
    const { mailboxDir } = await import('./einvoicing.server.ts');
    await fs.mkdir(mailboxDir('inbox'), { recursive: true });
    await fs.writeFile(`${mailboxDir('inbox')}/incoming.xml`, UBL);
    const received = await sandboxEInvoicing.receiveDocuments();
    expect(received).toEqual([{ documentId: documentIdOf(UBL), receivedAt: expect.any(String), xml: UBL }]);
    expect(await sandboxEInvoicing.receiveDocuments()).toEqual([]);
    // Through the logged wrapper: each call is a log row.
    await listIntegrations();
    await getEInvoicing().sendDocument(UBL);
    expect((await logs('einvoicing')).map((log) => [log.operation, log.success])).toEqual([['sendDocument', true]]);
  });
});

describe('integration registry', () => {
  it('test() records status, last_check, error_count and a log row; a failure counts up and a success resets', async () => {
    const admin = await createTestUser({ role: 'admin' });
    const list = await listIntegrations();
    // Earlier tests of this file used the adapters: start from untested rows.
    await execute(`DELETE FROM integration_logs`);
    await execute(`UPDATE integrations SET status = 'inactive', error_count = 0, last_error = NULL, last_check = NULL`);
    expect(list.map((integration) => integration.type)).toEqual(['hanfa', 'fina', 'einvoicing', 'sendgrid', 'docusign']);
    expect(await integrationCounts()).toEqual({ active: 0, error: 0, inactive: 5, total: 5 });

    const ok = await testIntegration({ actor: admin, type: 'fina', ip: '10.0.0.9' });
    expect(ok).toEqual({ success: true, message: expect.stringContaining('FINA'), durationMs: expect.any(Number) });
    expect(await row('fina')).toMatchObject({ status: 'active', error_count: 0, last_check: expect.any(Date) });

    // live without an endpoint fails clearly, twice: error_count 2, status error.
    await configureIntegration({ actor: admin, type: 'fina', input: { mode: 'live' } });
    const failed = await testIntegration({ actor: admin, type: 'fina' });
    expect(failed.success).toBe(false);
    expect(failed.message).toBe('FINA API: live mode needs an endpoint; configure it under /integrations');
    await testIntegration({ actor: null, type: 'fina' });
    expect(await row('fina')).toMatchObject({ status: 'error', error_count: 2, last_error: failed.message });
    await expect(getFina().accountBlockage(sandboxOibs(false, 1)[0])).rejects.toThrow(IntegrationError);

    await configureIntegration({ actor: admin, type: 'fina', input: { mode: 'sandbox' } });
    await testIntegration({ actor: admin, type: 'fina' });
    expect(await row('fina')).toMatchObject({ status: 'active', error_count: 0 });
    expect((await logs('fina')).map((log) => [log.operation, log.success])).toEqual([
      ['test', true],
      ['test', false],
      ['test', false],
      ['accountBlockage', false],
      ['test', true],
    ]);
    const page = await listIntegrationLogs('fina', { limit: 2, offset: 0 });
    expect(page.total).toBe(5);
    expect(page.logs).toHaveLength(2);
    expect(page.logs[0]).toMatchObject({ operation: 'test', success: true, durationMs: expect.any(Number) });
    expect(await integrationCounts()).toMatchObject({ active: 1, error: 0, inactive: 4 });
    expect(await activityRows('integration_tested')).toHaveLength(3); // the system's test (actor null) is not an activity

    // Only admins test and configure.
    const user = await createTestUser({ role: 'manager' });
    expect((await apiFailure(testIntegration({ actor: user, type: 'fina' }))).status).toBe(403);
    expect((await apiFailure(configureIntegration({ actor: user, type: 'fina', input: { mode: 'live' } }))).status).toBe(403);
  });

  it('stores credentials encrypted, shows only masked hints, and uses them in live calls', async () => {
    const admin = await createTestUser({ role: 'admin' });
    const secret = 'super-secret-api-key-123';
    const updated = await configureIntegration({
      actor: admin,
      type: 'hanfa',
      input: { endpoint: 'http://127.0.0.1:9/hanfa', mode: 'live', credentials: { apiKey: secret } },
      ip: '10.0.0.1',
    });
    expect(updated.credentials).toEqual([{ key: 'apiKey', hint: '••••23' }]);
    expect(JSON.stringify(updated)).not.toContain(secret);
    const stored = await row('hanfa');
    expect(stored?.settings_encrypted).toMatch(/^v1:/);
    expect(stored?.settings_encrypted).not.toContain(secret);
    expect(decryptCredentials(stored!.id, stored!.settings_encrypted)).toEqual({ apiKey: secret });
    expect((await loadConfig('hanfa')).credentials()).toEqual({ apiKey: secret });
    const [log] = await activityRows('integration_configured', stored!.id);
    expect(JSON.stringify(log.details)).not.toContain(secret);
    expect(log.details).toMatchObject({ credentialKeys: ['apiKey'], endpointChanged: true });
    // An unreachable endpoint fails with a clear message, recorded on the row.
    const result = await testIntegration({ actor: admin, type: 'hanfa' });
    expect(result.success).toBe(false);
    expect(result.message).toMatch(/^HANFA API: GET \/hanfa\/status failed/);
    // A business call answers the adapter's failure by its code: the English as before, the page's text in the reader's language.
    const refused = await apiFailure(submitHanfaReport({ actor: admin, period: '2026-Q1' }));
    expect(refused).toMatchObject({ status: 502, body: { code: 'integrations.errors.unreachable', params: { name: 'HANFA API', path: '/hanfa/reports' } } });
    expect(refused.body.message).toMatch(/^HANFA API: POST \/hanfa\/reports failed: /);
    const page = await readApiError(await rejection(submitHanfaReport({ actor: admin, period: '2026-Q1' })));
    const hr = createInstance({ ...i18nConfig, lng: 'hr', initImmediate: false, saveMissing: false });
    await hr.init();
    expect(refusalText(hr.t, (key) => hr.exists(key), page!.message)).toMatch(/^HANFA API: POST \/hanfa\/reports nije uspio: /);
    // Without a new credentials map the stored one is kept; clearCredentials removes it.
    await configureIntegration({ actor: admin, type: 'hanfa', input: { mode: 'sandbox' } });
    expect((await getIntegration('hanfa')).credentials).toHaveLength(1);
    await configureIntegration({ actor: admin, type: 'hanfa', input: { clearCredentials: true, endpoint: null } });
    expect(await getIntegration('hanfa')).toMatchObject({ credentials: [], endpoint: null });
    // Invalid input is a 400 per field.
    const invalid = await apiFailure(configureIntegration({ actor: admin, type: 'hanfa', input: { endpoint: 'ftp://x' } }));
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors?.endpoint).toBeDefined();
    // The logged wrapper answers through the sandbox again.
    expect((await getHanfa().submitQuarterlyReport('2026-Q1')).receiptId).toMatch(/^HANFA-SBX-/);
  });

  it('the health check tests every enabled integration and records status', async () => {
    const admin = await createTestUser({ role: 'admin' });
    await listIntegrations();
    await configureIntegration({ actor: admin, type: 'docusign', input: { isEnabled: false } });
    await configureIntegration({ actor: admin, type: 'einvoicing', input: { mode: 'live' } });
    const results = await checkIntegrationsHealth();
    expect(results.map(({ type }) => type).sort()).toEqual(['einvoicing', 'fina', 'hanfa', 'sendgrid']);
    expect(results.find(({ type }) => type === 'einvoicing')?.result.success).toBe(false);
    const statuses = await selectRows<{ type: string; status: string; error_count: number; last_check: Date | null }>(
      `SELECT type, status, error_count, last_check FROM integrations ORDER BY type`,
    );
    expect(Object.fromEntries(statuses.map((s) => [s.type, [s.status, s.error_count, s.last_check !== null]]))).toEqual({
      docusign: ['inactive', 0, false],
      einvoicing: ['error', 1, true],
      fina: ['active', 0, true],
      hanfa: ['active', 0, true],
      sendgrid: ['active', 0, true],
    });
  });
});
