import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { getSessionSecret } from './secret.server.ts';

/**
 * Encryption at rest for secrets the server must read back (TOTP secrets,
 * integration credentials). AES-256-GCM authenticates as well as encrypts, so
 * a changed ciphertext fails loudly instead of decrypting to garbage.
 *
 * Output: `v1:<iv>:<tag>:<ciphertext>`, each base64url. The version prefix
 * lets a later key or algorithm be introduced without breaking stored values.
 * Changing SESSION_SECRET makes every stored v1 value unreadable.
 */
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

let cachedKey: { secret: string; key: Buffer } | undefined;

function encryptionKey(): Buffer {
  const secret = getSessionSecret();
  if (cachedKey?.secret !== secret) {
    // A separate key from the cookie-signing use of the same secret.
    const key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'finflow-encryption', 32));
    cachedKey = { secret, key };
  }
  return cachedKey.key;
}

export class DecryptionError extends Error {
  constructor(reason: string) {
    super(`Cannot decrypt secret: ${reason}`);
    this.name = 'DecryptionError';
  }
}

/** `associatedData` (optional) binds the ciphertext to a context, e.g. an integration id. */
export function encryptSecret(plain: string, associatedData?: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', encryptionKey(), iv, { authTagLength: TAG_BYTES });
  if (associatedData !== undefined) cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join(':');
}

export function decryptSecret(stored: string, associatedData?: string): string {
  const parts = stored.split(':');
  if (parts.length !== 4) throw new DecryptionError('malformed value');
  const [version, ivText, tagText, ciphertextText] = parts;
  if (version !== VERSION) throw new DecryptionError(`unknown version ${JSON.stringify(version)}`);
  const iv = Buffer.from(ivText, 'base64url');
  const tag = Buffer.from(tagText, 'base64url');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new DecryptionError('malformed value');
  const decipher = createDecipheriv('aes-256-gcm', encryptionKey(), iv, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(tag);
  if (associatedData !== undefined) decipher.setAAD(Buffer.from(associatedData, 'utf8'));
  try {
    return Buffer.concat([decipher.update(Buffer.from(ciphertextText, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    // GCM's tag check failed: tampered, truncated or encrypted under another key.
    throw new DecryptionError('authentication failed');
  }
}
