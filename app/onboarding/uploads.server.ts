import type { UploadHandler } from '@remix-run/node';
import { inTransaction } from '../db.server.ts';
import { checkUpload } from '../documents/file-types.server.ts';
import { ensureObjectPresent } from '../documents/object-refs.server.ts';
import { claimUploads } from '../documents/uploads.server.ts';
import { getObjectStore } from '../storage/object-store.server.ts';
import { apiError, readApiError } from '../utils/api.server.ts';
import { readFormData, readMultipartFormData } from '../utils/form-data.server.ts';
import { INPUT_ERRORS, isSingleLineText } from '../utils/validation.ts';
import { attachDraftFile, UPLOAD_CAP_EXCEEDED, type DraftFile } from './drafts.server.ts';
import { isKycType, KYC_ALLOWED_LABEL, KYC_DOCUMENT_TYPES, KYC_MAX_FILE_BYTES, KYC_MAX_FILE_MB, KYC_MIME_TYPES, type KycDocumentType } from './kyc.ts';
import { DRAFT_UPLOAD_CAP_MB } from './limits.ts';

/**
 * Step 3's files, by both routes (docs/domain-model.md#validation 'KYC upload'): without JavaScript
 * they arrive in the step's multipart post (field `file_<kycType>`); with
 * JavaScript they were PUT into the upload quarantine and the post names the
 * object (`object_<kycType>`), which is claimed here. Either way the file is
 * checked by its bytes and attached to the draft, replacing an earlier one of
 * its type.
 */
export const UPLOAD_ERRORS = {
  invalidType: 'onboarding.upload.invalidType',
  tooLarge: 'onboarding.upload.tooLarge',
  failed: 'onboarding.upload.error',
  capExceeded: UPLOAD_CAP_EXCEEDED,
} as const;

/** The limits the upload texts name, so the API's English carries the figures. */
const UPLOAD_LIMITS = { types: KYC_ALLOWED_LABEL, max: KYC_MAX_FILE_MB, cap: DRAFT_UPLOAD_CAP_MB };

/** Five files at the limit plus the text fields; a bigger body is refused before it is read. */
const MAX_BODY_BYTES = KYC_DOCUMENT_TYPES.length * KYC_MAX_FILE_BYTES + 1024 * 1024;
const MAX_TEXT_FIELD_BYTES = 64 * 1024;
const EXTENSION_OF_MIME: Record<string, string> = { 'application/pdf': 'pdf', 'image/png': 'png', 'image/jpeg': 'jpg' };

export interface FilePart {
  fileName: string;
  contentType: string;
  /** Only the first 10 MB + 1 byte are kept: enough to know the file is too large. */
  bytes: Buffer;
  size: number;
}

export interface WizardForm {
  fields: FormData;
  files: Map<KycDocumentType, FilePart>;
}

/** Parses a step's post; multipart bodies are streamed with per-file and per-request limits. */
export async function readWizardForm(request: Request): Promise<WizardForm> {
  const type = request.headers.get('Content-Type') ?? '';
  if (!type.startsWith('multipart/form-data')) return { fields: await readFormData(request), files: new Map() };
  if (Number(request.headers.get('Content-Length') ?? 0) > MAX_BODY_BYTES) throw apiError(413, UPLOAD_ERRORS.tooLarge, { params: UPLOAD_LIMITS });

  const files = new Map<KycDocumentType, FilePart>();
  let total = 0;
  const handler: UploadHandler = async ({ name, filename, contentType, data }) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const limit = filename === undefined ? MAX_TEXT_FIELD_BYTES : KYC_MAX_FILE_BYTES + 1;
    for await (const chunk of data) {
      size += chunk.length;
      total += chunk.length;
      if (total > MAX_BODY_BYTES) throw apiError(413, UPLOAD_ERRORS.tooLarge, { params: UPLOAD_LIMITS });
      // Past the limit the rest is drained, not kept: the size is all that matters then.
      if (size <= limit) chunks.push(chunk);
    }
    if (filename === undefined) return Buffer.concat(chunks).toString('utf8');
    const kycType = name.startsWith('file_') ? name.slice(5) : '';
    // A file input left empty still sends a part with an empty name and no bytes.
    if (!isKycType(kycType) || (size === 0 && !filename)) return undefined;
    files.set(kycType, { fileName: filename, contentType, bytes: Buffer.concat(chunks), size });
    return undefined;
  };
  return { fields: await readMultipartFormData(request, handler), files };
}

/** Maps a refusal to the wizard's own upload texts (the size and type texts carry their limits). */
async function uploadErrorOf(error: unknown): Promise<string> {
  const problem = await readApiError(error);
  if (!problem) throw error;
  if (problem.code === UPLOAD_CAP_EXCEEDED) return UPLOAD_ERRORS.capExceeded;
  if (problem.message === INPUT_ERRORS.invalidCharacters) return problem.message;
  if (problem.status === 413) return UPLOAD_ERRORS.tooLarge;
  if (problem.status === 415) return UPLOAD_ERRORS.invalidType;
  return UPLOAD_ERRORS.failed;
}

export type UploadErrors = Partial<Record<`file_${KycDocumentType}`, string[]>>;

/** Checks, stores and attaches each posted file; returns the errors per file field (empty when all went in). */
export async function attachPostedFiles(draftId: string, files: Map<KycDocumentType, FilePart>): Promise<UploadErrors> {
  const errors: UploadErrors = {};
  for (const [kycType, part] of files) {
    try {
      if (part.size > KYC_MAX_FILE_BYTES) throw apiError(413, UPLOAD_ERRORS.tooLarge, { params: UPLOAD_LIMITS });
      if (!isSingleLineText(part.fileName)) throw apiError(400, INPUT_ERRORS.invalidCharacters);
      const { mimeType } = checkUpload({ bytes: part.bytes, fileName: part.fileName, declaredMime: part.contentType });
      // Stored only once it passed the checks, so a refused file leaves nothing behind.
      const stored = await getObjectStore().put(part.bytes, { contentType: mimeType });
      const file: DraftFile = { kycType, storageKey: stored.key, checksum: stored.checksum, size: stored.size, mimeType, fileName: part.fileName };
      await inTransaction(async (transaction) => {
        // The object store's cleanup may not delete the bytes between the put and this reference.
        await ensureObjectPresent(stored, part.bytes, transaction);
        await attachDraftFile(draftId, file, { transaction });
      });
    } catch (error) {
      errors[`file_${kycType}`] = [await uploadErrorOf(error)];
    }
  }
  return errors;
}

/**
 * Claims quarantined uploads (JavaScript flow) into the draft, each in its own
 * transaction with the attach, so a claimed object is never left unattached.
 */
export async function claimPostedUploads(draftId: string, entries: Array<{ kycType: KycDocumentType; objectId: string; fileName?: string }>): Promise<UploadErrors> {
  const errors: UploadErrors = {};
  for (const entry of entries) {
    try {
      await inTransaction(async (transaction) => {
        const [claimed] = await claimUploads([entry.objectId], { transaction });
        if (!claimed) throw apiError(400, UPLOAD_ERRORS.failed);
        // The quarantine checked the bytes; its answer is still held to the wizard's own rules.
        if (!(KYC_MIME_TYPES as readonly string[]).includes(claimed.mimeType)) throw apiError(415, UPLOAD_ERRORS.invalidType, { params: UPLOAD_LIMITS });
        if (claimed.size > KYC_MAX_FILE_BYTES) throw apiError(413, UPLOAD_ERRORS.tooLarge, { params: UPLOAD_LIMITS });
        const fileName = claimed.fileName || entry.fileName || `${entry.kycType}.${EXTENSION_OF_MIME[claimed.mimeType] ?? 'pdf'}`;
        await attachDraftFile(
          draftId,
          { kycType: entry.kycType, storageKey: claimed.storageKey, checksum: claimed.checksum, size: claimed.size, mimeType: claimed.mimeType, fileName },
          { transaction },
        );
      });
    } catch (error) {
      errors[`file_${entry.kycType}`] = [await uploadErrorOf(error)];
    }
  }
  return errors;
}
