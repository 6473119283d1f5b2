import path from 'node:path';
import proxyAddr from 'proxy-addr';
import * as z from 'zod';
import { isValidIban, normalizeAnyIban } from './banking/iban.ts';
import { isKpd2025Code } from './einvoices/kpd.ts';
import { isValidOib } from './utils/validation.ts';

/** A number of proxies in front (Express's hop count) rather than their addresses. */
const HOP_COUNT = /^\d+$/;

/**
 * The process environment, validated once. Every entry point (start script,
 * web server, worker, tests) reads configuration through `getEnv()` so that a
 * bad value stops the process with one clear line instead of failing later.
 */
const booleanString = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((value) => value === 'true' || value === '1' || value === 'yes');

const urlWithProtocols = (protocols: string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}` },
  );

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce
    .number({ message: 'must be a port number' })
    .int('must be a whole number')
    .min(1, 'must be between 1 and 65535')
    .max(65535, 'must be between 1 and 65535')
    .default(3000),
  DATABASE_URL: urlWithProtocols(['postgres:', 'postgresql:']).optional(),
  DATA_DIR: z.string().min(1).default('./.data'),
  // Unset: 54329 when free, else any free port (db/embedded.ts); set: that port or a clear stop.
  EMBEDDED_PG_PORT: z.coerce
    .number({ message: 'must be a port number' })
    .int('must be a whole number')
    .min(1024, 'must be between 1024 and 65535')
    .max(65535, 'must be between 1024 and 65535')
    .optional(),
  // Unset: twice the machine's cores, at least 4 (db/connection.ts).
  DB_POOL_MAX: z.coerce
    .number({ message: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be between 1 and 1000')
    .max(1000, 'must be between 1 and 1000')
    .optional(),
  // How long the web process's statements wait for a lock before the request is answered "busy, try again"
  // (db/connection.ts boundLockWaits); 0 waits as long as it takes.
  DB_LOCK_TIMEOUT_MS: z.coerce
    .number({ message: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be between 0 and 600000')
    .max(600_000, 'must be between 0 and 600000')
    .default(5_000),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ADMIN_EMAIL: z.email('must be an email address').default('admin@finflow.local'),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  SEED_DEMO: booleanString.default(true),
  APP_URL: urlWithProtocols(['http:', 'https:']).optional(),
  SMTP_URL: urlWithProtocols(['smtp:', 'smtps:']).optional(),
  MAIL_FROM: z.string().min(3).default('FinFlow <no-reply@finflow.local>'),
  INTEGRATIONS_MODE: z.enum(['sandbox', 'live']).default('sandbox'),
  // The factor's own account: debtor of payout files, owner of imported statements (app/banking/factor-account.server.ts).
  FACTOR_NAME: z.string().max(140, 'must be at most 140 characters').optional(),
  FACTOR_IBAN: z
    .string()
    .refine((value) => isValidIban(normalizeAnyIban(value)), 'must be a valid IBAN')
    .optional(),
  FACTOR_BIC: z
    .string()
    .regex(/^[A-Za-z]{6}[A-Za-z2-9][A-NP-Za-np-z0-9]([A-Za-z0-9]{3})?$/, 'must be a BIC (8 or 11 characters)')
    .optional(),
  // The factor as the seller of its fee e-invoices (app/einvoices/factor-party.server.ts).
  FACTOR_OIB: z.string().refine(isValidOib, 'must be a valid OIB (11 digits with its check digit)').optional(),
  FACTOR_ADDRESS: z
    .string()
    .max(255, 'must be at most 255 characters')
    .regex(/^[^,]+,\s*\d{5}\s+\S.*$/, 'must be "street, postal code city", e.g. "Radnička cesta 80, 10000 Zagreb"')
    .optional(),
  // The KPD 2025 classification of the factor's service on its fee e-invoices, checked against the official list.
  FACTOR_KPD_CODE: z.string().trim().refine(isKpd2025Code, 'must be a KPD 2025 code of the official list (HR-BR-CL-2, app/einvoices/kpd-2025.json), e.g. "64.92.07"').optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  // The proxies whose X-Forwarded-For, -Proto and -Host the web server believes (server.ts, Express's `trust proxy`).
  TRUST_PROXY: z
    .string()
    .refine(
      (value) => HOP_COUNT.test(value) || isTrustProxySetting(value),
      'must be a number of proxies, or addresses or subnets separated by commas, or loopback, linklocal, uniquelocal',
    )
    // A number is how many proxies in front are believed, not an address.
    .transform((value): string | number => (HOP_COUNT.test(value) ? Number(value) : value))
    .default('loopback'),
});

/** What Express's `trust proxy` takes as text: proxy-addr's own reading of it (Express's dependency, the same check). */
function isTrustProxySetting(value: string): boolean {
  try {
    proxyAddr.compile(value.split(',').map((part) => part.trim()));
    return true;
  } catch {
    return false;
  }
}

export type Env = z.infer<typeof envSchema> & { DATA_DIR: string; APP_URL: string };

export class EnvError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnvError';
  }
}

/** Empty strings count as unset, as they do in docker-compose files. */
function withoutEmpty(source: NodeJS.ProcessEnv) {
  return Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ''));
}

export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const result = envSchema.safeParse(withoutEmpty(source));
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = issue.path.join('.') || 'environment';
    throw new EnvError(`Invalid environment: ${name} ${issue.message} (got ${JSON.stringify(source[name] ?? '')})`);
  }
  const env = result.data;
  return {
    ...env,
    DATA_DIR: path.resolve(env.DATA_DIR),
    APP_URL: env.APP_URL ?? `http://localhost:${env.PORT}`,
  };
}

let cached: Env | undefined;

export function getEnv(): Env {
  cached ??= parseEnv();
  return cached;
}

/** For tests that change process.env between cases. */
export function resetEnvCache() {
  cached = undefined;
}
