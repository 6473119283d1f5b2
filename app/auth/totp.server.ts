import { authenticator } from 'otplib';
import type QRCodeModule from 'qrcode';
import { lazyRequire } from '../utils/lazy-require.server.ts';

const qrcode = lazyRequire<typeof QRCodeModule>('qrcode');

/**
 * TOTP per RFC 6238 as authenticator apps expect it: SHA-1, 6 digits, 30 s.
 * Codes are accepted one step either side of now (clock drift), and the caller
 * learns which step matched so that step can be refused the next time.
 */
export const TOTP_ISSUER = 'FinFlow';
const STEP_SECONDS = 30;

/** 160 bits, the size RFC 4226 recommends; base32 as apps expect it. */
export function generateTotpSecret(): string {
  return authenticator.generateSecret(20);
}

export function totpUri(email: string, secret: string): string {
  return authenticator.keyuri(email, TOTP_ISSUER, secret);
}

export function totpQrCode(email: string, secret: string): Promise<string> {
  return qrcode().toDataURL(totpUri(email, secret), { errorCorrectionLevel: 'M', margin: 2, width: 240 });
}

/** The time step `code` belongs to (within ±1 of now), or null when it matches none. */
export function matchTotpStep(code: string, secret: string, now: number = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const checker = authenticator.clone({ window: 1, epoch: now });
  let delta: number | null;
  try {
    delta = checker.checkDelta(code, secret);
  } catch {
    return null;
  }
  if (delta === null) return null;
  return Math.floor(now / 1000 / STEP_SECONDS) + delta;
}
