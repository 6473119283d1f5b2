import { describe, expect, it } from 'vitest';
import { DecryptionError, decryptSecret, encryptSecret } from './crypto.server.ts';

describe('encryptSecret / decryptSecret', () => {
  it('round-trips, with a fresh IV each time', () => {
    const a = encryptSecret('JBSWY3DPEHPK3PXP');
    const b = encryptSecret('JBSWY3DPEHPK3PXP');
    expect(a).toMatch(/^v1:[\w-]+:[\w-]+:[\w-]+$/);
    expect(a).not.toBe(b);
    expect(decryptSecret(a)).toBe('JBSWY3DPEHPK3PXP');
    expect(decryptSecret(encryptSecret(''))).toBe('');
    expect(decryptSecret(encryptSecret('čćžšđ €'))).toBe('čćžšđ €');
  });

  it('never contains the plain text', () => {
    expect(encryptSecret('supersecretvalue')).not.toContain('supersecretvalue');
  });

  it('detects a changed ciphertext, tag or IV', () => {
    const [version, iv, tag, ciphertext] = encryptSecret('JBSWY3DPEHPK3PXP').split(':');
    const flip = (text: string) => {
      const bytes = Buffer.from(text, 'base64url');
      bytes[0] ^= 1;
      return bytes.toString('base64url');
    };
    expect(() => decryptSecret([version, iv, tag, flip(ciphertext)].join(':'))).toThrow(DecryptionError);
    expect(() => decryptSecret([version, iv, flip(tag), ciphertext].join(':'))).toThrow(DecryptionError);
    expect(() => decryptSecret([version, flip(iv), tag, ciphertext].join(':'))).toThrow(DecryptionError);
  });

  it('refuses malformed values and unknown versions', () => {
    const value = encryptSecret('x');
    expect(() => decryptSecret('not encrypted')).toThrow(DecryptionError);
    expect(() => decryptSecret(value.replace(/^v1/, 'v9'))).toThrow(/unknown version/);
    expect(() => decryptSecret(value.split(':').slice(0, 3).join(':'))).toThrow(DecryptionError);
  });

  it('binds to associated data when given', () => {
    const value = encryptSecret('token', 'integration:fina');
    expect(decryptSecret(value, 'integration:fina')).toBe('token');
    expect(() => decryptSecret(value, 'integration:hanfa')).toThrow(DecryptionError);
    expect(() => decryptSecret(value)).toThrow(DecryptionError);
  });
});
