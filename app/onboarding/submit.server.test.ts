import { beforeAll, describe, expect, it } from 'vitest';
import { activityRows } from '../auth/test-helpers.server.ts';
import { execute, selectOne, selectRows } from '../db.server.ts';
import { createDraft, loadDraftByToken, type DraftFile } from './drafts.server.ts';
import { KYC_DOCUMENT_TYPES } from './kyc.ts';
import { REGISTRATION_LIMIT_REASON, submitRegistration, SUBMIT_ERRORS } from './submit.server.ts';
import { attachKycFiles, seedOnboardingDefinition } from './test-fixtures.server.ts';
import { wizardValues } from '../../tests/factories.ts';

beforeAll(seedOnboardingDefinition);

/** A draft with both steps filled in and the given KYC types attached. */
async function readyDraft(values = wizardValues(), types: readonly DraftFile['kycType'][] = KYC_DOCUMENT_TYPES) {
  const { draft, token } = await createDraft({ values, step: 3 });
  await attachKycFiles(draft.id, types);
  return { draft, token, values };
}

const clientByOib = (oib: string) =>
  selectOne<{ id: string; status: string; onboarding_status: string; created_by: string | null }>(
    `SELECT id, status, onboarding_status, created_by FROM clients WHERE oib = :oib`,
    { oib },
  );

describe('submitting a registration', () => {
  it('creates the pending client, its five documents, the limit request and the onboarding instance in one go', async () => {
    const { draft, token, values } = await readyDraft();
    const result = await submitRegistration({ token, ip: '198.51.100.4' });
    expect(result).toMatchObject({ ok: true });
    const clientId = (result as { clientId: string }).clientId;

    expect(await clientByOib(values.oib)).toMatchObject({ id: clientId, status: 'pending', created_by: null });
    const documents = await selectRows<{ type: string; kyc_type: string; entity_type: string; uploaded_by: string | null }>(
      `SELECT type, kyc_type, entity_type, uploaded_by FROM documents WHERE entity_id = :clientId ORDER BY kyc_type`,
      { clientId },
    );
    expect(documents).toEqual([
      { type: 'bank_statement', kyc_type: 'bank_statement', entity_type: 'client', uploaded_by: null },
      { type: 'kyc_document', kyc_type: 'company_registration', entity_type: 'client', uploaded_by: null },
      { type: 'id_document', kyc_type: 'director_id', entity_type: 'client', uploaded_by: null },
      { type: 'financial_statement', kyc_type: 'financial_statements', entity_type: 'client', uploaded_by: null },
      { type: 'kyc_document', kyc_type: 'tax_certificate', entity_type: 'client', uploaded_by: null },
    ]);

    const limit = await selectOne<Record<string, unknown>>(
      `SELECT requested_limit, previous_limit, requested_by, reason, status, valid_until = (current_date + interval '1 year')::date AS one_year
         FROM credit_limit_requests WHERE client_id = :clientId`,
      { clientId },
    );
    expect(limit).toEqual({ requested_limit: '75000.00', previous_limit: null, requested_by: null, reason: REGISTRATION_LIMIT_REASON, status: 'pending', one_year: true });

    const instance = await selectOne<{ id: string; status: string; current_step: number; started_by: string | null }>(
      `SELECT i.id, i.status, i.current_step, i.started_by FROM workflow_instances i JOIN workflow_definitions d ON d.id = i.workflow_id
        WHERE i.entity_type = 'client' AND i.entity_id = :clientId AND d.type = 'client_onboarding'`,
      { clientId },
    );
    expect(instance).toMatchObject({ status: 'running', current_step: 0, started_by: null });

    expect(await activityRows('client_created', clientId)).toHaveLength(1);
    expect(await activityRows('workflow_started', instance!.id)).toHaveLength(1);
    expect((await activityRows('credit_limit_requested')).some((row) => row.details.clientId === clientId)).toBe(true);
    expect(await selectRows(`SELECT id FROM activity_logs WHERE ip_address = '198.51.100.4'`)).not.toHaveLength(0);

    // The draft is done: a second submit creates nothing more.
    expect(await selectOne(`SELECT submitted_at IS NOT NULL AS done, client_id FROM registration_drafts WHERE id = :id`, { id: draft.id })).toEqual({
      done: true,
      client_id: clientId,
    });
    expect(await submitRegistration({ token })).toMatchObject({ ok: false });
    expect(await selectRows(`SELECT id FROM clients WHERE oib = :oib`, { oib: values.oib })).toHaveLength(1);
  });

  it('without a desired limit no limit request is made', async () => {
    const { token, values } = await readyDraft(wizardValues({ creditLimit: '' }), ['tax_certificate']);
    const result = await submitRegistration({ token });
    expect(result.ok).toBe(true);
    const client = await clientByOib(values.oib);
    expect(await selectRows(`SELECT id FROM credit_limit_requests WHERE client_id = :id`, { id: client!.id })).toEqual([]);
  });

  it('needs at least one KYC document', async () => {
    const { token, values } = await readyDraft(wizardValues(), []);
    expect(await submitRegistration({ token })).toEqual({ ok: false, step: 3, message: SUBMIT_ERRORS.kycRequired });
    expect(await clientByOib(values.oib)).toBeNull();
  });

  it('a duplicate OIB is "Client registration failed" on the OIB field of step 1; nothing is created and the draft stays', async () => {
    const first = await readyDraft();
    expect((await submitRegistration({ token: first.token })).ok).toBe(true);
    const counts = () =>
      selectOne<Record<string, number>>(
        `SELECT (SELECT count(*)::int FROM clients) AS clients, (SELECT count(*)::int FROM documents) AS documents,
              (SELECT count(*)::int FROM credit_limit_requests) AS limits, (SELECT count(*)::int FROM workflow_instances) AS instances`,
      );
    const before = await counts();

    const second = await readyDraft(wizardValues({ oib: first.values.oib, companyName: 'Kopija d.o.o.' }));
    const result = await submitRegistration({ token: second.token });
    expect(result).toMatchObject({ ok: false, step: 1, message: SUBMIT_ERRORS.clientFailed, fieldErrors: { oib: [expect.any(String)] } });
    expect(await counts()).toEqual(before);
    const draft = await loadDraftByToken(second.token);
    expect(draft).toMatchObject({ submittedAt: null, values: { companyName: 'Kopija d.o.o.' } });
  });

  it('a document that cannot be recorded rolls the client back: "Error registering documents", the draft intact', async () => {
    const { draft, token, values } = await readyDraft(wizardValues(), ['tax_certificate']);
    // Bytes the store does not have: recording the document fails after the client was created.
    await execute(`UPDATE registration_draft_files SET storage_key = :key WHERE draft_id = :id`, { id: draft.id, key: `sha256/ab/${'c'.repeat(62)}` });
    expect(await submitRegistration({ token })).toEqual({ ok: false, step: 3, message: SUBMIT_ERRORS.documentsFailed });
    expect(await clientByOib(values.oib)).toBeNull();
    expect(await activityRows('client_created')).not.toContainEqual(expect.objectContaining({ details: expect.objectContaining({ oib: values.oib }) }));
    expect(await loadDraftByToken(token)).toMatchObject({ submittedAt: null });
  });

  it('a missing workflow definition also rolls everything back', async () => {
    const { token, values } = await readyDraft(wizardValues(), ['director_id']);
    await execute(`UPDATE workflow_definitions SET is_active = false WHERE type = 'client_onboarding'`);
    try {
      expect(await submitRegistration({ token })).toEqual({ ok: false, step: 3, message: SUBMIT_ERRORS.documentsFailed });
      expect(await clientByOib(values.oib)).toBeNull();
    } finally {
      await execute(`UPDATE workflow_definitions SET is_active = true WHERE type = 'client_onboarding'`);
    }
  });
});
