import type { Transaction } from 'sequelize';
import { logActivity } from '../activity-log.server.ts';
import { createClient } from '../clients/clients.server.ts';
import { execute, inTransaction } from '../db.server.ts';
import { recordStoredDocument } from '../documents/documents.server.ts';
import { readApiError, type FieldErrors } from '../utils/api.server.ts';
import { centsToDecimalString } from '../utils/money.ts';
import { startWorkflowInstance } from '../workflows/instances.server.ts';
import { listDraftFiles, loadDraftByToken, markDraftSubmitted } from './drafts.server.ts';
import { DOCUMENT_TYPE_OF_KYC } from './kyc.ts';
import { bankingStepSchema, companyStepSchema, STEP_FIELDS } from './schemas.ts';

/**
 * The wizard's final submit (docs/lifecycle.md#onboarding-and-kyc: client, then its
 * documents, then the onboarding workflow, then step 4). One transaction: a
 * failure anywhere leaves no client, document, limit request or instance, and
 * the draft stays as it was so the applicant can correct and resend.
 */
export const SUBMIT_ERRORS = {
  clientFailed: 'onboarding.errors.registrationFailed',
  documentsFailed: 'onboarding.errors.documentsFailed',
  kycRequired: 'onboarding.errors.kycRequired',
  expired: 'onboarding.errors.draftExpired',
} as const;
/** docs/lifecycle.md#onboarding-and-kyc: the wizard's desired limit becomes a pending request with this reason. */
export const REGISTRATION_LIMIT_REASON = 'Zahtjev iz registracije';

export type SubmitResult = { ok: true; clientId: string } | { ok: false; step: 1 | 2 | 3; message: string; fieldErrors?: FieldErrors };

function stepOfFields(errors: FieldErrors | undefined): 1 | 2 {
  const fields = Object.keys(errors ?? {});
  return fields.some((field) => (STEP_FIELDS[2] as string[]).includes(field)) && !fields.some((field) => (STEP_FIELDS[1] as string[]).includes(field)) ? 2 : 1;
}

export async function submitRegistration(input: { token: string; ip?: string | null }): Promise<SubmitResult> {
  let phase: 'client' | 'documents' = 'client';
  try {
    return await inTransaction(async (transaction: Transaction) => {
      // Locked, so a double click cannot register the company twice.
      const draft = await loadDraftByToken(input.token, { transaction });
      if (!draft || draft.submittedAt) return { ok: false, step: 1, message: SUBMIT_ERRORS.expired } as const;

      // Checked first: the applicant is on the documents step when submitting.
      const files = await listDraftFiles(draft.id, { transaction });
      if (files.length === 0) return { ok: false, step: 3, message: SUBMIT_ERRORS.kycRequired } as const;
      // As conform reads a form: an empty input is a missing value (the optional limit).
      const values = Object.fromEntries(Object.entries(draft.values).filter(([, value]) => value !== ''));
      const company = companyStepSchema.safeParse(values);
      if (!company.success) return { ok: false, step: 1, message: SUBMIT_ERRORS.clientFailed } as const;
      const banking = bankingStepSchema.safeParse(values);
      if (!banking.success) return { ok: false, step: 2, message: SUBMIT_ERRORS.clientFailed } as const;

      const { creditLimit, ...address } = banking.data;
      const client = await createClient({ actor: null, input: { ...company.data, ...address, status: 'pending' }, ip: input.ip ?? null }, { transaction });

      phase = 'documents';
      for (const file of files) {
        await recordStoredDocument(
          {
            actor: null,
            storageKey: file.storageKey,
            checksum: file.checksum,
            size: file.size,
            mimeType: file.mimeType,
            name: file.fileName,
            type: DOCUMENT_TYPE_OF_KYC[file.kycType],
            kycType: file.kycType,
            entityType: 'client',
            entityId: client.id,
            ip: input.ip ?? null,
          },
          { transaction },
        );
      }
      if (creditLimit !== undefined) await requestLimit(client.id, creditLimit, input.ip ?? null, transaction);
      await startWorkflowInstance({ type: 'client_onboarding', entityType: 'client', entityId: client.id, actor: null, ip: input.ip ?? null }, { transaction });
      await markDraftSubmitted(draft.id, client.id, { transaction });
      return { ok: true, clientId: client.id } as const;
    });
  } catch (error) {
    const problem = await readApiError(error);
    if (phase === 'client' && problem && problem.status < 500) {
      return { ok: false, step: stepOfFields(problem.errors), message: SUBMIT_ERRORS.clientFailed, fieldErrors: problem.errors };
    }
    // Logged for staff; the applicant gets the spec's text, never internals.
    console.error('registration submit failed', error);
    return { ok: false, step: phase === 'client' ? 1 : 3, message: phase === 'client' ? SUBMIT_ERRORS.clientFailed : SUBMIT_ERRORS.documentsFailed };
  }
}

/** A pending request for the applicant's desired limit: asked by nobody on staff, valid one year (docs/lifecycle.md#onboarding-and-kyc). */
async function requestLimit(clientId: string, cents: number, ip: string | null, transaction: Transaction) {
  const { rows } = await execute<{ id: string }>(
    `INSERT INTO credit_limit_requests (client_id, previous_limit, requested_limit, reason, requested_by, valid_until, status)
     VALUES (:clientId, NULL, :limit, :reason, NULL, (current_date + interval '1 year')::date, 'pending')
     RETURNING id`,
    { clientId, limit: centsToDecimalString(cents), reason: REGISTRATION_LIMIT_REASON },
    { transaction },
  );
  await logActivity(
    {
      action: 'credit_limit_requested',
      userId: null,
      entityType: 'credit_limit_request',
      entityId: rows[0].id,
      ipAddress: ip,
      details: { clientId, requestedLimit: centsToDecimalString(cents), source: 'registration' },
    },
    transaction,
  );
}
