import { describe, expect, it } from 'vitest';
import { apiFailure } from '../auth/test-helpers.server.ts';
import { execute, inTransaction, selectOne } from '../db.server.ts';
import { getObjectStore } from '../storage/object-store.server.ts';
import { attachDraftFile, createDraft, draftCookie, listDraftFiles, loadDraft, loadDraftByToken, purgeExpiredDrafts, saveDraft, type DraftFile } from './drafts.server.ts';
import { DRAFT_UPLOAD_CAP_BYTES } from './limits.ts';
import { TINY_PDF, TINY_PNG } from './test-fixtures.server.ts';

async function storedFile(kycType: DraftFile['kycType'], bytes: Buffer, fileName: string, size?: number): Promise<DraftFile> {
  const stored = await getObjectStore().put(bytes);
  return { kycType, storageKey: stored.key, checksum: stored.checksum, size: size ?? stored.size, mimeType: fileName.endsWith('.png') ? 'image/png' : 'application/pdf', fileName };
}

describe('registration drafts', () => {
  it('saves values and the step, and loads them back by the cookie token; only the token’s hash is stored', async () => {
    const { draft, token } = await createDraft({ ip: '203.0.113.7', values: { companyName: 'Prva' } });
    await saveDraft(draft.id, { values: { oib: '123' }, step: 2 });
    await saveDraft(draft.id, { values: { companyName: 'Druga' } });

    const cookie = draftCookie(token);
    expect(cookie).toMatch(/^finflow_registration=[A-Za-z0-9_-]{43}; Path=\/onboarding; Max-Age=604800; HttpOnly; SameSite=Lax/);
    const request = new Request('http://localhost/onboarding', { headers: { Cookie: cookie.split(';')[0] } });
    expect(await loadDraft(request)).toMatchObject({ id: draft.id, values: { companyName: 'Druga', oib: '123' }, currentStep: 2, submittedAt: null });

    const row = await selectOne<{ token_hash: string; ip_address: string }>(`SELECT token_hash, ip_address FROM registration_drafts WHERE id = :id`, { id: draft.id });
    expect(row?.token_hash).not.toContain(token);
    expect(row?.ip_address).toBe('203.0.113.7');
    expect(await loadDraftByToken('x'.repeat(43))).toBeNull();
    expect(await loadDraft(new Request('http://localhost/onboarding'))).toBeNull();
  });

  it('a new file of the same KYC type replaces the earlier one; other types stay', async () => {
    const { draft } = await createDraft({});
    const first = await storedFile('company_registration', TINY_PDF, 'izvadak.pdf');
    const second = await storedFile('company_registration', TINY_PNG, 'izvadak-novi.png');
    const other = await storedFile('director_id', TINY_PNG, 'osobna.png');
    for (const file of [first, other, second]) await inTransaction((transaction) => attachDraftFile(draft.id, file, { transaction }));

    const files = await listDraftFiles(draft.id);
    expect(files.map((file) => [file.kycType, file.fileName])).toEqual(
      expect.arrayContaining([
        ['company_registration', 'izvadak-novi.png'],
        ['director_id', 'osobna.png'],
      ]),
    );
    expect(files).toHaveLength(2);
  });

  it('counts every attached byte against the per-draft cap: past it, 413 and nothing attached', async () => {
    const { draft } = await createDraft({});
    await execute(`UPDATE registration_drafts SET uploaded_bytes = :bytes WHERE id = :id`, { id: draft.id, bytes: DRAFT_UPLOAD_CAP_BYTES - 100 });
    const file = await storedFile('bank_statement', TINY_PDF, 'izvod.pdf', 200);
    const failure = await apiFailure(inTransaction((transaction) => attachDraftFile(draft.id, file, { transaction })));
    expect(failure.status).toBe(413);
    expect(await listDraftFiles(draft.id)).toEqual([]);
    // A file that still fits goes in.
    await inTransaction((transaction) => attachDraftFile(draft.id, { ...file, size: 100 }, { transaction }));
    expect(await listDraftFiles(draft.id)).toHaveLength(1);
  });

  it('an expired draft is not loaded, and the purge removes it with its files', async () => {
    const { draft, token } = await createDraft({ values: { companyName: 'Stara' } });
    await inTransaction(async (transaction) => attachDraftFile(draft.id, await storedFile('tax_certificate', TINY_PDF, 'potvrda.pdf'), { transaction }));
    expect(await loadDraftByToken(token)).not.toBeNull();
    await execute(`UPDATE registration_drafts SET expires_at = now() - interval '1 second' WHERE id = :id`, { id: draft.id });
    expect(await loadDraftByToken(token)).toBeNull();
    expect(await purgeExpiredDrafts()).toBeGreaterThanOrEqual(1);
    expect(await selectOne(`SELECT id FROM registration_draft_files WHERE draft_id = :id`, { id: draft.id })).toBeNull();
  });
});
