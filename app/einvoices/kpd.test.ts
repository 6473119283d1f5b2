import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractKpdCodes, HR_CIUS_XSLT, KPD_JSON, kpdJson } from '../../scripts/extract-kpd-codes.ts';
import { parseEnv } from '../env.server.ts';
import { factorParty } from './factor-party.server.ts';
import { DEFAULT_FACTOR_KPD_CODE, isKpd2025Code, KPD_2025_CODES } from './kpd.ts';

/** The KPD 2025 list FinFlow checks against, and the setting of the factor's own code. */
describe('the KPD 2025 list', () => {
  it('is, code for code, the list the vendored official HR CIUS rules hold (HR-BR-CL-2)', () => {
    const official = extractKpdCodes(fs.readFileSync(HR_CIUS_XSLT, 'utf8'));
    expect(official.length).toBeGreaterThan(3000);
    expect([...KPD_2025_CODES]).toEqual(official);
    // The file is exactly what scripts/extract-kpd-codes.ts writes.
    expect(fs.readFileSync(KPD_JSON, 'utf8')).toBe(kpdJson(official));
  });

  it('has the factoring code FinFlow issues by default, not the KPD 2015 one it used to write', () => {
    expect(isKpd2025Code(DEFAULT_FACTOR_KPD_CODE)).toBe(true);
    expect(DEFAULT_FACTOR_KPD_CODE).toBe('64.92.07');
    expect(isKpd2025Code('64.99.19')).toBe(false);
    expect(isKpd2025Code('64.92')).toBe(false);
    expect(isKpd2025Code(' 64.92.07')).toBe(false);
  });
});

describe('FACTOR_KPD_CODE', () => {
  it('defaults to 64.92.07 and takes another code of the list', () => {
    expect(factorParty({}).kpdCode).toBe('64.92.07');
    expect(factorParty({ FACTOR_KPD_CODE: '64.92.09' }).kpdCode).toBe('64.92.09');
    expect(parseEnv({ NODE_ENV: 'test', FACTOR_KPD_CODE: '64.92.09' }).FACTOR_KPD_CODE).toBe('64.92.09');
  });

  it('stops the start with one line when the code is not in the official list', () => {
    expect(() => parseEnv({ NODE_ENV: 'test', FACTOR_KPD_CODE: '64.99.19' })).toThrow(
      'Invalid environment: FACTOR_KPD_CODE must be a KPD 2025 code of the official list (HR-BR-CL-2, app/einvoices/kpd-2025.json), e.g. "64.92.07" (got "64.99.19")',
    );
    expect(() => factorParty({ FACTOR_KPD_CODE: '64.99.19' })).toThrow('FACTOR_KPD_CODE is not a KPD 2025 code of the official list: 64.99.19');
  });
});
