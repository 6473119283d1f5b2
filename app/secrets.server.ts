import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * SESSION_SECRET from the environment, or (for a newcomer's machine) one
 * generated on first start and kept in DATA_DIR so sessions survive restarts.
 */
export function resolveSessionSecret(env: { SESSION_SECRET?: string; DATA_DIR: string }): string {
  if (env.SESSION_SECRET) return env.SESSION_SECRET;
  const file = path.join(env.DATA_DIR, 'session-secret');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(env.DATA_DIR, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  fs.writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
