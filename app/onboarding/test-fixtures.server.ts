import { execute, inTransaction } from '../db.server.ts';
import { getObjectStore } from '../storage/object-store.server.ts';
import { attachDraftFile, type DraftFile } from './drafts.server.ts';

/** Files and the workflow definition for the wizard's tests (used by *.test.ts only); its field values are in tests/factories.ts. */
export const TINY_PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n', 'latin1');
export const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

export async function seedOnboardingDefinition(): Promise<void> {
  await execute(
    `INSERT INTO workflow_definitions (name, type, steps, is_active)
     VALUES ('Onboarding klijenta', 'client_onboarding', CAST(:steps AS jsonb), true)`,
    { steps: JSON.stringify([{ name: 'KYC pregled', type: 'manual', taskType: 'kyc_verification' }]) },
  );
}

/** Stores a small file of each KYC type (a PNG for the director's ID, PDFs else) and attaches it to the draft. */
export async function attachKycFiles(draftId: string, types: readonly DraftFile['kycType'][]): Promise<void> {
  for (const kycType of types) {
    const png = kycType === 'director_id';
    const stored = await getObjectStore().put(png ? TINY_PNG : Buffer.concat([TINY_PDF, Buffer.from(kycType)]));
    await inTransaction((transaction) =>
      attachDraftFile(
        draftId,
        {
          kycType,
          storageKey: stored.key,
          checksum: stored.checksum,
          size: stored.size,
          mimeType: png ? 'image/png' : 'application/pdf',
          fileName: `${kycType}.${png ? 'png' : 'pdf'}`,
        },
        { transaction },
      ),
    );
  }
}
