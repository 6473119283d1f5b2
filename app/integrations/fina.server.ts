import { createHash } from 'node:crypto';
import { isValidOib } from '../utils/validation.ts';
import { sandboxAccountBlocked } from './sandbox-rules.ts';
import { adapterCalls, IntegrationError, liveStatusTest, liveJson, type IntegrationConfig } from './core.server.ts';
import type { IntegrationAdapter } from './types.ts';

export { sandboxAccountBlocked };

/**
 * FINA (the national financial agency): company data by OIB and whether the
 * company's accounts are blocked (docs/croatian-formats.md).
 *
 * Sandbox rule (deterministic, no network), so tests can pick OIBs:
 *   weighted = Σ digit[i] × (i + 1) over all 11 digits of the OIB (i from 0);
 *   the account is BLOCKED exactly when weighted mod 10 === 7.
 * The check digit takes part, so roughly one valid OIB in ten is blocked
 * (sandbox-rules.ts: `sandboxAccountBlocked`, `sandboxOibs` to pick OIBs).
 * The reason, the date since and the company data are derived from the
 * SHA-256 of the OIB.
 *
 * Live: GET {endpoint}/companies/{oib} → { name, address, status, founded }
 * and GET {endpoint}/accounts/{oib}/blockage → { blocked, reason, since }.
 */
export interface FinaCompany {
  oib: string;
  name: string;
  address: string;
  status: 'active' | 'in_liquidation' | 'bankrupt' | 'closed';
  founded: string | null;
}
export interface FinaBlockage {
  blocked: boolean;
  reason: string | null;
  since: string | null;
}
export interface FinaAdapter extends IntegrationAdapter {
  companyByOib(oib: string): Promise<FinaCompany>;
  accountBlockage(oib: string): Promise<FinaBlockage>;
}

const digest = (oib: string) => createHash('sha256').update(`fina-sandbox:${oib}`).digest();

const REASONS = [
  'Neizvršene osnove za plaćanje (Porezna uprava)',
  'Ovrha na temelju vjerodostojne isprave',
  'Neizvršena rješenja o ovrsi (sudska ovrha)',
  'Nepodmireni doprinosi (HZMO)',
];
const ROOTS = ['Jadran', 'Velebit', 'Sava', 'Drava', 'Učka', 'Kvarner', 'Biokovo', 'Mura'];
const TRADES = ['trgovina', 'gradnja', 'logistika', 'proizvodnja', 'usluge', 'energija'];
const CITIES = ['10000 Zagreb', '21000 Split', '51000 Rijeka', '31000 Osijek', '23000 Zadar', '42000 Varaždin'];

function assertOib(oib: string) {
  if (!isValidOib(oib)) throw new IntegrationError('integrations.errors.invalidOib');
}

export const sandboxFina: FinaAdapter = {
  async test() {
    return { ok: true, message: 'FINA sandbox is available (deterministic company and blockage data)' };
  },
  async companyByOib(oib) {
    assertOib(oib);
    const bytes = digest(oib);
    const blocked = sandboxAccountBlocked(oib);
    const year = 1990 + (bytes[3] % 32);
    return {
      oib,
      name: `${ROOTS[bytes[0] % ROOTS.length]} ${TRADES[bytes[1] % TRADES.length]} d.o.o.`,
      address: `Ulica ${1 + (bytes[4] % 120)}, ${CITIES[bytes[2] % CITIES.length]}`,
      status: blocked && bytes[5] % 4 === 0 ? 'in_liquidation' : 'active',
      founded: `${year}-${String(1 + (bytes[6] % 12)).padStart(2, '0')}-${String(1 + (bytes[7] % 28)).padStart(2, '0')}`,
    };
  },
  async accountBlockage(oib) {
    assertOib(oib);
    if (!sandboxAccountBlocked(oib)) return { blocked: false, reason: null, since: null };
    const bytes = digest(oib);
    const since = new Date(Date.UTC(2025, 0, 1) + (bytes[8] % 300) * 86_400_000).toISOString().slice(0, 10);
    return { blocked: true, reason: REASONS[bytes[9] % REASONS.length], since };
  },
};

export function liveFina(config: IntegrationConfig): FinaAdapter {
  return {
    test: () => liveStatusTest(config),
    async companyByOib(oib) {
      assertOib(oib);
      const body = await liveJson<Partial<FinaCompany>>(config, `companies/${oib}`);
      if (typeof body.name !== 'string') throw new IntegrationError('integrations.errors.unexpectedCompany', { name: config.name });
      return { oib, name: body.name, address: String(body.address ?? ''), status: body.status ?? 'active', founded: body.founded ?? null };
    },
    async accountBlockage(oib) {
      assertOib(oib);
      const body = await liveJson<Partial<FinaBlockage>>(config, `accounts/${oib}/blockage`);
      if (typeof body.blocked !== 'boolean') throw new IntegrationError('integrations.errors.unexpectedBlockage', { name: config.name });
      return { blocked: body.blocked, reason: body.reason ?? null, since: body.since ?? null };
    },
  };
}

/** The FINA adapter for the row's mode, each call logged. `base` replaces the implementation (tests). */
export function getFina(base?: FinaAdapter): FinaAdapter {
  const { test, call } = adapterCalls('fina', (config) => (config.mode === 'live' ? liveFina(config) : sandboxFina), base);
  return {
    test,
    companyByOib: (oib) =>
      call(
        'companyByOib',
        (fina) => fina.companyByOib(oib),
        (company) => ({ success: true, message: `${oib}: ${company.name} (${company.status})` }),
      ),
    accountBlockage: (oib) =>
      call(
        'accountBlockage',
        (fina) => fina.accountBlockage(oib),
        (result) => ({
          success: true,
          message: result.blocked ? `${oib}: blocked since ${result.since ?? '?'} (${result.reason ?? ''})` : `${oib}: not blocked`,
        }),
      ),
  };
}
