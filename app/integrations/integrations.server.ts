import { logActivity } from '../activity-log.server.ts';
import { encryptSecret } from '../auth/crypto.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import type { Actor } from '../auth/users.server.ts';
import { execute, inTransaction, selectOne, selectPage, selectRows } from '../db.server.ts';
import { pageBounds } from '../utils/list-url.ts';
import { apiError, zodRefusal } from '../utils/api.server.ts';
import { receiveIncomingEInvoices, type ReceiveSummary } from '../einvoices/incoming.server.ts';
import { credentialsContext, decryptCredentials, ensureIntegrations, upstreamRefusal } from './core.server.ts';
import { getEInvoicing } from './einvoicing.server.ts';
import { getEmail } from './email.server.ts';
import { getESignature } from './esignature.server.ts';
import { getFina } from './fina.server.ts';
import { getHanfa } from './hanfa.server.ts';
import { INTEGRATION_MESSAGES, integrationConfigSchema, type IntegrationConfigInput } from './schemas.ts';
import {
  CROATIAN_TYPES,
  GENERAL_TYPES,
  INTEGRATION_TYPES,
  isIntegrationType,
  type IntegrationAdapter,
  type IntegrationMode,
  type IntegrationStatus,
  type IntegrationType,
} from './types.ts';
import { iso } from '../utils/api-values.ts';
import type { Integration, IntegrationLog } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';

/**
 * The registry of integrations (docs/domain-model.md, docs/screens.md /integrations, docs/api.md): one
 * adapter per type, the list with its counters, test, configure (admin) and
 * the call log.
 */
export const ADAPTERS: Record<IntegrationType, () => IntegrationAdapter> = {
  hanfa: () => getHanfa(),
  fina: () => getFina(),
  einvoicing: () => getEInvoicing(),
  sendgrid: () => getEmail(),
  docusign: () => getESignature(),
};

export interface IntegrationDto {
  id: string;
  name: string;
  description: string | null;
  type: IntegrationType;
  status: IntegrationStatus;
  mode: IntegrationMode;
  isEnabled: boolean;
  endpoint: string | null;
  /** Stored credential keys with a masked hint of each value; the values themselves are never returned. */
  credentials: { key: string; hint: string }[];
  lastCheck: string | null;
  lastSync: string | null;
  errorCount: number;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

type IntegrationRow = RowOf<typeof Integration>;

/** "••••" and, for values long enough not to give them away, their last two characters. */
export function maskSecret(value: string): string {
  return value.length >= 10 ? `••••${value.slice(-2)}` : '••••';
}

function toDto(row: IntegrationRow): IntegrationDto {
  let credentials: { key: string; hint: string }[] = [];
  try {
    credentials = Object.entries(decryptCredentials(row.id, row.settings_encrypted)).map(([key, value]) => ({ key, hint: maskSecret(value) }));
  } catch {
    credentials = [{ key: '?', hint: 'unreadable' }];
  }
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    type: row.type,
    status: row.status,
    mode: row.mode,
    isEnabled: row.is_enabled,
    endpoint: row.endpoint,
    credentials,
    lastCheck: iso(row.last_check),
    lastSync: iso(row.last_sync),
    errorCount: row.error_count,
    lastError: row.last_error,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

const ORDER = `array_position(ARRAY['hanfa','fina','einvoicing','sendgrid','docusign']::text[], type)`;

export type IntegrationGroup = 'all' | 'croatian' | 'general';
const GROUP_TYPES: Record<IntegrationGroup, readonly IntegrationType[]> = { all: INTEGRATION_TYPES, croatian: CROATIAN_TYPES, general: GENERAL_TYPES };

/** Every integration (rows are created for known types that have none), in the spec's order. */
export async function listIntegrations(options: { group?: IntegrationGroup } = {}): Promise<IntegrationDto[]> {
  await ensureIntegrations();
  const rows = await selectRows<IntegrationRow>(`SELECT * FROM integrations WHERE type IN (:types) ORDER BY ${ORDER}`, {
    types: [...GROUP_TYPES[options.group ?? 'all']],
  });
  return rows.map(toDto);
}

/** Counters (docs/screens.md): active, error, and inactive (every other status). Computed in SQL. */
export async function integrationCounts(): Promise<{ active: number; error: number; inactive: number; total: number }> {
  const row = await selectOne<{ active: string; error: string; inactive: string; total: string }>(
    `SELECT count(*) FILTER (WHERE status = 'active') AS active, count(*) FILTER (WHERE status = 'error') AS error,
            count(*) FILTER (WHERE status NOT IN ('active', 'error')) AS inactive, count(*) AS total FROM integrations`,
  );
  return { active: Number(row?.active ?? 0), error: Number(row?.error ?? 0), inactive: Number(row?.inactive ?? 0), total: Number(row?.total ?? 0) };
}

export function requireIntegrationType(value: string | undefined): IntegrationType {
  if (!isIntegrationType(value)) throw apiError(404, INTEGRATION_MESSAGES.notFound);
  return value;
}

export async function getIntegration(type: IntegrationType): Promise<IntegrationDto> {
  await ensureIntegrations();
  const row = await selectOne<IntegrationRow>(`SELECT * FROM integrations WHERE type = :type`, { type });
  if (!row) throw apiError(404, INTEGRATION_MESSAGES.notFound);
  return toDto(row);
}

export interface TestResult {
  success: boolean;
  message: string;
  durationMs: number;
}

/**
 * POST /api/integrations/{type}/test and the cards' 'Test' button (admin), and
 * the health job (actor null). Never throws for a failing integration: the
 * failure is the result (and recorded on the row and in its log).
 */
export async function testIntegration({ actor, type, ip }: { actor: Actor | null; type: IntegrationType; ip?: string | null }): Promise<TestResult> {
  if (actor) assertCan(actor, 'manage:integrations');
  await ensureIntegrations();
  const startedAt = performance.now();
  let result: { success: boolean; message: string };
  try {
    const outcome = await ADAPTERS[type]().test();
    result = { success: outcome.ok, message: outcome.message };
  } catch (error) {
    result = { success: false, message: error instanceof Error ? error.message : String(error) };
  }
  const durationMs = Math.max(0, Math.round(performance.now() - startedAt));
  if (actor) {
    await inTransaction(async (transaction) => {
      const row = await selectOne<{ id: string }>(`SELECT id FROM integrations WHERE type = :type`, { type }, { transaction });
      await logActivity(
        { action: 'integration_tested', userId: actor.id, entityType: 'integration', entityId: row?.id ?? null, ipAddress: ip, details: { type, ...result, durationMs } },
        transaction,
      );
    });
  }
  return { ...result, durationMs };
}

/**
 * PUT /api/integrations/{type} and the configure form (admin): endpoint,
 * mode, enabled, credentials (stored AES-GCM encrypted, bound to the row;
 * the activity log records which keys changed, never their values).
 */
export async function configureIntegration({
  actor,
  type,
  input,
  ip,
}: {
  actor: Actor;
  type: IntegrationType;
  input: IntegrationConfigInput;
  ip?: string | null;
}): Promise<IntegrationDto> {
  assertCan(actor, 'manage:integrations');
  const parsed = integrationConfigSchema.safeParse(input);
  if (!parsed.success) throw zodRefusal(parsed.error);
  const data = parsed.data;
  await ensureIntegrations();
  return inTransaction(async (transaction) => {
    const row = await selectOne<IntegrationRow>(`SELECT * FROM integrations WHERE type = :type FOR UPDATE`, { type }, { transaction });
    if (!row) throw apiError(404, INTEGRATION_MESSAGES.notFound);
    let settings = row.settings_encrypted;
    let credentialKeys: string[] | undefined;
    if (data.clearCredentials) {
      settings = null;
      credentialKeys = [];
    }
    if (data.credentials && Object.keys(data.credentials).length > 0) {
      settings = encryptSecret(JSON.stringify(data.credentials), credentialsContext(row.id));
      credentialKeys = Object.keys(data.credentials);
    }
    const endpoint = data.endpoint === undefined ? row.endpoint : data.endpoint || null;
    const mode = data.mode ?? row.mode;
    const isEnabled = data.isEnabled ?? row.is_enabled;
    // Disabling makes it 'inactive'; enabling again waits for the next test to say whether it works.
    const status = !isEnabled ? 'inactive' : row.is_enabled ? row.status : 'inactive';
    await execute(
      `UPDATE integrations SET endpoint = :endpoint, mode = :mode, is_enabled = :isEnabled, settings_encrypted = :settings, status = :status
        WHERE id = :id`,
      { endpoint, mode, isEnabled, settings, status, id: row.id },
      { transaction },
    );
    await logActivity(
      {
        action: 'integration_configured',
        userId: actor.id,
        entityType: 'integration',
        entityId: row.id,
        ipAddress: ip,
        details: {
          type,
          mode: { from: row.mode, to: mode },
          isEnabled: { from: row.is_enabled, to: isEnabled },
          endpointChanged: endpoint !== row.endpoint,
          ...(credentialKeys ? { credentialKeys } : {}),
        },
      },
      transaction,
    );
    const updated = await selectOne<IntegrationRow>(`SELECT * FROM integrations WHERE id = :id`, { id: row.id }, { transaction });
    return toDto(updated as IntegrationRow);
  });
}

export interface IntegrationLogDto {
  id: string;
  operation: string;
  success: boolean;
  durationMs: number;
  message: string | null;
  createdAt: string;
}

/** One integration's calls, newest first, paginated; with the full count. */
export async function listIntegrationLogs(type: IntegrationType, options: { limit?: number; offset?: number } = {}): Promise<{ logs: IntegrationLogDto[]; total: number }> {
  const { limit, offset } = pageBounds({ limit: options.limit ?? 20, offset: options.offset });
  const { rows, total } = await selectPage<RowOf<typeof IntegrationLog, 'id' | 'operation' | 'success' | 'duration_ms' | 'message' | 'created_at'>>(
    `SELECT l.id, l.operation, l.success, l.duration_ms, l.message, l.created_at
       FROM integration_logs l JOIN integrations i ON i.id = l.integration_id
      WHERE i.type = :type ORDER BY l.created_at DESC, l.id DESC LIMIT :limit OFFSET :offset`,
    `SELECT count(*)::int AS total FROM integration_logs l JOIN integrations i ON i.id = l.integration_id WHERE i.type = :type`,
    { type, limit, offset },
  );
  return {
    logs: rows.map((row) => ({
      id: row.id,
      operation: row.operation,
      success: row.success,
      durationMs: row.duration_ms,
      message: row.message,
      createdAt: iso(row.created_at),
    })),
    total,
  };
}

/** HANFA 'Pošalji kvartalno izvješće' (admin): submits the quarter's figures and logs the receipt. */
export async function submitHanfaReport({ actor, period, ip }: { actor: Actor; period: string; ip?: string | null }) {
  assertCan(actor, 'manage:integrations');
  let receipt;
  try {
    receipt = await getHanfa().submitQuarterlyReport(period);
  } catch (error) {
    throw upstreamRefusal(error);
  }
  await inTransaction(async (transaction) => {
    const row = await selectOne<{ id: string }>(`SELECT id FROM integrations WHERE type = 'hanfa'`, {}, { transaction });
    await logActivity(
      {
        action: 'hanfa_report_submitted',
        userId: actor.id,
        entityType: 'integration',
        entityId: row?.id ?? null,
        ipAddress: ip,
        details: { period, receiptId: receipt.receiptId, figures: receipt.figures },
      },
      transaction,
    );
  });
  return receipt;
}

/**
 * E-invoicing 'Zaprimi dokumente' (admin): fetches waiting incoming documents
 * through the intermediary and takes each into the invoice intake
 * (app/einvoices/incoming.server.ts, which records and logs every document).
 */
export async function receiveEInvoices({ actor, ip }: { actor: Actor; ip?: string | null }): Promise<ReceiveSummary> {
  assertCan(actor, 'manage:integrations');
  return receiveIncomingEInvoices({ actor, ip });
}
