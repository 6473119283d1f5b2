import { randomUUID } from 'node:crypto';
import { REFERENCE_INTEGRATIONS, type ReferenceRowIds } from '../../reference-data.ts';
import { DAY, HOUR, type Row, date } from './plumbing.ts';
import type { Context } from './context.ts';

// ---- Integrations ----------------------------------------------------------------------

/** How each reference integration has fared in the book: its status and the calls its log shows. */
const INTEGRATION_HISTORY: Record<ReferenceIntegrationType, { status: string; operations: string[] }> = {
  hanfa: { status: 'active', operations: ['healthCheck', 'entityLookup'] },
  fina: { status: 'active', operations: ['healthCheck', 'companyLookup', 'accountStatus'] },
  // Active: the fee e-invoices go out through it (sandbox mode) and the sync job receives through it.
  einvoicing: { status: 'active', operations: ['healthCheck', 'sendDocument', 'receiveDocuments'] },
  sendgrid: { status: 'active', operations: ['healthCheck', 'sendEmail'] },
  docusign: { status: 'testing', operations: ['healthCheck', 'createEnvelope', 'envelopeStatus'] },
};
type ReferenceIntegrationType = keyof ReferenceRowIds['integrations'];

export function buildIntegrations(ctx: Context, reference: ReferenceRowIds) {
  const { random, clock } = ctx;
  const integrations: Row[] = [];
  const logs: Row[] = [];
  for (const { type } of REFERENCE_INTEGRATIONS) {
    const spec = { type, ...INTEGRATION_HISTORY[type] };
    const id = reference.integrations[type];
    const createdAt = clock.at(random.int(600, 780), random);
    let lastCheck = 0;
    let lastError: string | null = null;
    let errors = 0;
    // Twelve calls over the last three weeks, oldest first; the e-signature sandbox timed out twice lately.
    for (let n = 11; n >= 0; n--) {
      const at = clock.past(clock.midnight - n * 2 * DAY + random.int(0, 23) * HOUR);
      const success = spec.type === 'docusign' ? n > 2 || n === 0 : spec.type === 'einvoicing' ? random.chance(0.8) : random.chance(0.95);
      const message = success ? 'OK (sandbox)' : spec.type === 'docusign' ? 'Timeout nakon 5000 ms (POST /envelopes)' : 'HTTP 503 Service Unavailable';
      if (!success) {
        errors += 1;
        lastError = message;
      }
      lastCheck = Math.max(lastCheck, at);
      logs.push({
        id: randomUUID(),
        integration_id: id,
        operation: n % 3 === 0 ? 'healthCheck' : random.pick(spec.operations),
        success,
        duration_ms: success ? random.int(40, 900) : random.int(3000, 5000),
        message,
        created_at: date(at),
      });
    }
    // The row itself (name, mode, enabled) stays as installed; the book adds its health history.
    integrations.push({
      id,
      status: spec.status,
      last_check: date(lastCheck),
      last_sync: spec.status === 'active' ? date(clock.at(0, random)) : null,
      error_count: errors,
      last_error: lastError,
      created_at: date(createdAt),
      updated_at: date(lastCheck),
    });
  }
  return { integrations, logs };
}
