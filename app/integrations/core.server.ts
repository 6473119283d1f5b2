import { decryptSecret } from '../auth/crypto.server.ts';
import { execute, selectOne } from '../db.server.ts';
import { getEnv } from '../env.server.ts';
import { API_ERRORS, apiError } from '../utils/api.server.ts';
import { englishText, type RefusalParams } from '../utils/refusals.ts';
import { INTEGRATION_DEFAULTS, type IntegrationAdapter, type IntegrationMode, type IntegrationType, type TestOutcome } from './types.ts';
import type { Integration } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';

/**
 * What every adapter shares (docs/domain-model.md): its configuration (the integrations
 * row: mode, enabled, endpoint, credentials decrypted on demand), the
 * recording of each call (an integration_logs row and the row's health:
 * last_check / last_sync, error_count reset on success and +1 on failure,
 * last_error, status active/error) and the live HTTP call with a timeout.
 *
 * Mode: the row's `mode` (an admin sets it under /integrations); without a
 * row, INTEGRATIONS_MODE (default 'sandbox'). Rows created by
 * `ensureIntegrations` start in INTEGRATIONS_MODE.
 */

/**
 * An adapter's known failure, by refusal code (docs/decisions/013-error-codes.md):
 * its message is the code's English text, as the logs and the API showed before
 * codes; `upstreamRefusal` hands the code to the page.
 */
export class IntegrationError extends Error {
  constructor(
    readonly code: string,
    readonly params: RefusalParams = {},
  ) {
    super(englishText(code, params));
    this.name = 'IntegrationError';
  }
}

/** The 502 of a call that failed at the integration: an adapter's known failure by its code, anything else as its detail. */
export function upstreamRefusal(error: unknown): Response {
  if (error instanceof IntegrationError) return apiError(502, error.code, { params: error.params });
  return apiError(502, API_ERRORS.upstream, { params: { detail: errorText(error) } });
}

export interface IntegrationConfig {
  type: IntegrationType;
  id: string | null;
  name: string;
  mode: IntegrationMode;
  enabled: boolean;
  endpoint: string | null;
  /** Decrypts the stored credentials (a key → value map); {} when none are stored. */
  credentials(): Record<string, string>;
}

type ConfigRow = RowOf<typeof Integration, 'id' | 'name' | 'mode' | 'is_enabled' | 'endpoint' | 'settings_encrypted'>;

/** Credentials are bound to their integration row (AES-GCM associated data), so a copied ciphertext does not decrypt elsewhere. */
export const credentialsContext = (id: string) => `integration:${id}`;

export function decryptCredentials(id: string, stored: string | null): Record<string, string> {
  if (!stored) return {};
  const parsed: unknown = JSON.parse(decryptSecret(stored, credentialsContext(id)));
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
  return Object.fromEntries(Object.entries(parsed).map(([key, value]) => [key, String(value)]));
}

export async function loadConfig(type: IntegrationType): Promise<IntegrationConfig> {
  const row = await selectOne<ConfigRow>(`SELECT id, name, mode, is_enabled, endpoint, settings_encrypted FROM integrations WHERE type = :type`, { type });
  if (!row) {
    return {
      type,
      id: null,
      name: INTEGRATION_DEFAULTS[type].name,
      mode: getEnv().INTEGRATIONS_MODE,
      enabled: true,
      endpoint: null,
      credentials: () => ({}),
    };
  }
  return {
    type,
    id: row.id,
    name: row.name,
    mode: row.mode,
    enabled: row.is_enabled,
    endpoint: row.endpoint,
    credentials: () => {
      try {
        return decryptCredentials(row.id, row.settings_encrypted);
      } catch {
        throw new IntegrationError('integrations.errors.credentialsUnreadable', { name: row.name });
      }
    },
  };
}

/** Creates the row of each known integration that has none (disabled integrations stay as they are). */
export async function ensureIntegrations(): Promise<void> {
  const mode = getEnv().INTEGRATIONS_MODE;
  for (const [type, { name, description }] of Object.entries(INTEGRATION_DEFAULTS)) {
    await execute(
      `INSERT INTO integrations (name, description, type, status, mode) VALUES (:name, :description, :type, 'inactive', :mode)
       ON CONFLICT (type) DO NOTHING`,
      { name, description, type, mode },
    );
  }
}

export interface CallRecord {
  success: boolean;
  message: string;
  durationMs: number;
}

/**
 * Writes the call's log row and the row's health. A test refreshes
 * last_check, any other call last_sync. A recording failure never hides the
 * call's own outcome.
 */
async function record(type: IntegrationType, operation: string, outcome: CallRecord): Promise<void> {
  const message = outcome.message.slice(0, 2000);
  try {
    await execute(
      `INSERT INTO integration_logs (integration_id, operation, success, duration_ms, message)
       SELECT id, :operation, :success, :duration, :message FROM integrations WHERE type = :type`,
      { operation: operation.slice(0, 100), success: outcome.success, duration: outcome.durationMs, message, type },
    );
    await execute(
      `UPDATE integrations SET
         last_check = CASE WHEN :isTest THEN now() ELSE last_check END,
         last_sync = CASE WHEN :isTest OR NOT :success THEN last_sync ELSE now() END,
         error_count = CASE WHEN :success THEN 0 ELSE error_count + 1 END,
         last_error = CASE WHEN :success THEN last_error ELSE :message END,
         status = CASE WHEN NOT is_enabled THEN 'inactive' WHEN :success THEN 'active' ELSE 'error' END
       WHERE type = :type`,
      { isTest: operation === 'test', success: outcome.success, message, type },
    );
  } catch (error) {
    console.error(`integration log failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Runs one adapter call and records it. `describe` turns a result into the
 * logged outcome (a test answering ok: false is a failure without a throw).
 * Thrown errors are recorded and rethrown.
 */
export async function recorded<T>(type: IntegrationType, operation: string, run: () => Promise<T>, describe: (result: T) => { success: boolean; message: string }): Promise<T> {
  const startedAt = performance.now();
  const duration = () => Math.max(0, Math.round(performance.now() - startedAt));
  try {
    const result = await run();
    await record(type, operation, { ...describe(result), durationMs: duration() });
    return result;
  } catch (error) {
    await record(type, operation, { success: false, message: errorText(error), durationMs: duration() });
    throw error;
  }
}

/** Refuses business calls to a disabled integration (its test still runs). */
function assertEnabled(config: IntegrationConfig): void {
  if (!config.enabled) throw new IntegrationError('integrations.errors.disabled', { name: config.name });
}

/**
 * The recorded calls of one integration's adapter: the adapter is the one for
 * the row's mode (`forConfig`), or `base` (tests). `test()` runs even while
 * the integration is disabled; `call` is a business call, refused then.
 * Each is logged by `recorded`.
 */
export function adapterCalls<Adapter extends IntegrationAdapter>(type: IntegrationType, forConfig: (config: IntegrationConfig) => Adapter, base?: Adapter) {
  const resolve = async (business: boolean) => {
    const config = await loadConfig(type);
    if (business) assertEnabled(config);
    return base ?? forConfig(config);
  };
  return {
    test: () =>
      recorded(
        type,
        'test',
        async () => (await resolve(false)).test(),
        (result: TestOutcome) => ({ success: result.ok, message: result.message }),
      ),
    call: <T>(operation: string, run: (adapter: Adapter) => Promise<T>, describe: (result: T) => { success: boolean; message: string }) =>
      recorded(type, operation, async () => run(await resolve(true)), describe),
  };
}

export const LIVE_TIMEOUT_MS = 10_000;

/**
 * One live call to the configured endpoint: credentials `apiKey`/`token` go as
 * a bearer token, `username` + `password` as basic auth, any other key as an
 * `X-<key>` header. Fails clearly without an endpoint, on timeout and on a
 * non-2xx answer.
 */
export async function liveRequest(
  config: IntegrationConfig,
  path: string,
  init: { method?: string; body?: string; contentType?: string; accept?: string } = {},
): Promise<Response> {
  if (!config.endpoint) throw new IntegrationError('integrations.errors.noEndpoint', { name: config.name });
  const credentials = config.credentials();
  const headers = new Headers({ Accept: init.accept ?? 'application/json' });
  if (init.contentType) headers.set('Content-Type', init.contentType);
  for (const [key, value] of Object.entries(credentials)) {
    if (key === 'apiKey' || key === 'token') headers.set('Authorization', `Bearer ${value}`);
    else if (key !== 'username' && key !== 'password' && /^[A-Za-z0-9-]+$/.test(key)) headers.set(`X-${key}`, value);
  }
  if (credentials.username && credentials.password) {
    headers.set('Authorization', `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`);
  }
  const url = new URL(path.replace(/^\//, ''), config.endpoint.endsWith('/') ? config.endpoint : `${config.endpoint}/`);
  let response: Response;
  try {
    response = await fetch(url, { method: init.method ?? 'GET', headers, body: init.body, signal: AbortSignal.timeout(LIVE_TIMEOUT_MS) });
  } catch (error) {
    const call = { name: config.name, method: init.method ?? 'GET', path: url.pathname };
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
      throw new IntegrationError('integrations.errors.timeout', { ...call, ms: LIVE_TIMEOUT_MS });
    throw new IntegrationError('integrations.errors.unreachable', { ...call, reason: errorText(error) });
  }
  if (!response.ok) throw new IntegrationError('integrations.errors.httpStatus', { name: config.name, method: init.method ?? 'GET', path: url.pathname, status: response.status });
  return response;
}

export async function liveJson<T>(config: IntegrationConfig, path: string, init: Parameters<typeof liveRequest>[2] = {}): Promise<T> {
  const response = await liveRequest(config, path, init);
  try {
    return (await response.json()) as T;
  } catch {
    throw new IntegrationError('integrations.errors.notJson', { name: config.name, path });
  }
}

/** A live adapter's test: its endpoint's `status` answers. */
export async function liveStatusTest(config: IntegrationConfig): Promise<TestOutcome> {
  await liveJson(config, 'status');
  return { ok: true, message: `${config.name} answered at ${config.endpoint ?? ''}` };
}
