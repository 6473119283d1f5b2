import { createHash } from 'node:crypto';
import type { IntegrationAdapter } from './types.ts';
import { adapterCalls, IntegrationError, liveStatusTest, liveJson, type IntegrationConfig } from './core.server.ts';

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
      return liveStatusTest(config);
    },
  };
}

/**
 * The adapter for the integration row's mode (INTEGRATIONS_MODE without a
 * row), wrapped so each call is logged and the row's health updated
 * (core.server.ts). `base` is for tests.
 */
export function getESignature(base?: ESignatureAdapter): ESignatureAdapter {
  const { test, call } = adapterCalls(INTEGRATION_TYPE, (config) => (config.mode === 'live' ? liveESignature(config) : sandboxESignature), base);
  return {
    sign: (document, signer) =>
      call(
        'sign',
        (esignature) => esignature.sign(document, signer),
        (result) => ({ success: true, message: `Document ${document.id} signed by ${signer.email} (${result.signatureId})` }),
      ),
    test,
  };
}
