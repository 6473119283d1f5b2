import { getEnv } from '../env.server.ts';
import { resolveSessionSecret } from '../secrets.server.ts';

let cached: string | undefined;

/**
 * The one server secret: it signs the session cookie and (through HKDF) keys
 * the encryption of stored secrets. Resolved lazily so importing an auth
 * module never touches the environment or DATA_DIR.
 */
export function getSessionSecret(): string {
  cached ??= process.env.SESSION_SECRET || resolveSessionSecret(getEnv());
  return cached;
}
