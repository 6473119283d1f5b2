import { createHash } from 'node:crypto';
import type { IntegrationAdapter } from './types.ts';
import { assertEnabled, IntegrationError, liveJson, loadConfig, recorded, type IntegrationConfig } from './core.server.ts';

/**
 * The e-signature integration (docs/domain-model.md): one small interface, a sandbox
 * implementation that answers deterministically without a network (the
 * default, so the product works offline), and 'live' which calls the configured endpoint. Every call is written to integration_logs of the
 * 'docusign' integration row, when that row exists.
 */
export interface SignableDocument {
  id: string;
  checksum: string;
  name: string;
}
export interface Signer {
  id: string;
  name: string;
  email: string;
}
export interface ESignatureAdapter extends IntegrationAdapter {
  sign(document: SignableDocument, signer: Signer): Promise<{ signatureId: string; signedAt: Date }>;
}

const INTEGRATION_TYPE = 'docusign';

/** Same document bytes and signer give the same signature id, so a retried call is recognisable. */
export const sandboxESignature: ESignatureAdapter = {
  async sign(document, signer) {
    const digest = createHash('sha256').update(`${document.checksum}:${signer.id}:${signer.email.toLowerCase()}`).digest('hex');
    return { signatureId: `sandbox-${digest.slice(0, 32)}`, signedAt: new Date() };
  },
  async test() {
    return { ok: true, message: 'E-signature sandbox is available' };
  },
};

export class IntegrationNotConfiguredError extends Error {
  constructor() {
    super('E-signature integration is not configured for live mode');
    this.name = 'IntegrationNotConfiguredError';
  }
}

/** Live: POST {endpoint}/signatures { document, signer } → { signatureId, signedAt }; fails clearly without an endpoint. */
export function liveESignature(config: IntegrationConfig): ESignatureAdapter {
  return {
    async sign(document, signer) {
      if (!config.endpoint) throw new IntegrationNotConfiguredError();
      const body = await liveJson<{ signatureId?: unknown; signedAt?: unknown }>(config, 'signatures', {
        method: 'POST',
        body: JSON.stringify({ document, signer }),
        contentType: 'application/json',
      });
      if (typeof body.signatureId !== 'string') throw new IntegrationError('integrations.errors.noSignatureId', { name: config.name });
      return { signatureId: body.signatureId, signedAt: typeof body.signedAt === 'string' ? new Date(body.signedAt) : new Date() };
    },
    async test() {
      if (!config.endpoint) throw new IntegrationNotConfiguredError();
      await liveJson(config, 'status');
      return { ok: true, message: `${config.name} answered at ${config.endpoint}` };
    },
  };
}

/**
 * The adapter for the integration row's mode (INTEGRATIONS_MODE without a
 * row), wrapped so each call is logged and the row's health updated
 * (core.server.ts). `base` is for tests.
 */
export function getESignature(base?: ESignatureAdapter): ESignatureAdapter {
  const resolve = async (business: boolean) => {
    const config = await loadConfig(INTEGRATION_TYPE);
    if (business) assertEnabled(config);
    return base ?? (config.mode === 'live' ? liveESignature(config) : sandboxESignature);
  };
  return {
    sign: (document, signer) =>
      recorded(
        INTEGRATION_TYPE,
        'sign',
        async () => (await resolve(true)).sign(document, signer),
        (result) => ({ success: true, message: `Document ${document.id} signed by ${signer.email} (${result.signatureId})` }),
      ),
    test: () =>
      recorded(
        INTEGRATION_TYPE,
        'test',
        async () => (await resolve(false)).test(),
        (result) => ({ success: result.ok, message: result.message }),
      ),
  };
}
