import { createHash } from 'node:crypto';
import { execute } from '../db.server.ts';
import { getEnv } from '../env.server.ts';

/**
 * The e-signature integration (DESIGN §7): one small interface, a sandbox
 * implementation that answers deterministically without a network (the
 * default, so the product works offline), and 'live' which a later issue
 * connects to the provider. Every call is written to integration_logs of the
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
export interface ESignatureAdapter {
  sign(document: SignableDocument, signer: Signer): Promise<{ signatureId: string; signedAt: Date }>;
  test(): Promise<{ ok: boolean; message: string }>;
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

const liveESignature: ESignatureAdapter = {
  async sign() {
    throw new IntegrationNotConfiguredError();
  },
  async test() {
    throw new IntegrationNotConfiguredError();
  },
};

/** Writes the call's log row; a log failure never hides the call's own outcome. */
async function logCall(operation: string, success: boolean, startedAt: number, message: string): Promise<void> {
  try {
    await execute(
      `INSERT INTO integration_logs (integration_id, operation, success, duration_ms, message)
       SELECT id, :operation, :success, :duration, :message FROM integrations WHERE type = :type`,
      { operation, success, duration: Math.max(0, Math.round(performance.now() - startedAt)), message: message.slice(0, 2000), type: INTEGRATION_TYPE },
    );
  } catch (error) {
    console.error(`integration log failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function logged<T>(operation: string, run: () => Promise<T>, describe: (result: T) => { success: boolean; message: string }): Promise<T> {
  const startedAt = performance.now();
  try {
    const result = await run();
    const { success, message } = describe(result);
    await logCall(operation, success, startedAt, message);
    return result;
  } catch (error) {
    await logCall(operation, false, startedAt, error instanceof Error ? error.message : String(error));
    throw error;
  }
}

/** The adapter for INTEGRATIONS_MODE, wrapped so each call is logged. `base` is for tests. */
export function getESignature(base?: ESignatureAdapter): ESignatureAdapter {
  const adapter = base ?? (getEnv().INTEGRATIONS_MODE === 'live' ? liveESignature : sandboxESignature);
  return {
    sign: (document, signer) =>
      logged(
        'sign',
        () => adapter.sign(document, signer),
        (result) => ({ success: true, message: `Document ${document.id} signed by ${signer.email} (${result.signatureId})` }),
      ),
    test: () => logged('test', () => adapter.test(), (result) => ({ success: result.ok, message: result.message })),
  };
}
