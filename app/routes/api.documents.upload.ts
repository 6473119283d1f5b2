import { storeDocument } from '~/documents/documents.server.ts';
import { extensionOf, fileTooLarge } from '~/documents/file-types.server.ts';
import { MAX_UPLOAD_BYTES, MESSAGES, uploadApiSchema } from '~/documents/schemas.ts';
import { discardBody } from '~/documents/uploads.server.ts';
import { apiError, apiJson, methodNotAllowed, parseJsonBody } from '~/utils/api.server.ts';
import { apiAction } from '~/utils/api-route.server.ts';

// Base64 of 10 MB plus room for the other fields and a data: URL prefix.
const MAX_BODY_BYTES = Math.ceil(MAX_UPLOAD_BYTES / 3) * 4 + 64 * 1024;

/** 'data:application/pdf;base64,JVBE…' or bare base64 (docs/api.md) → bytes; 400 when it is not base64. */
function decodeFileData(fileData: string): { bytes: Buffer; declaredMime: string | null } {
  const match = /^data:([^;,]*)(?:;[^,]*)?,/.exec(fileData);
  const payload = (match ? fileData.slice(match[0].length) : fileData).replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(payload)) throw apiError(400, MESSAGES.fileDataBase64, { errors: { fileData: [MESSAGES.fileDataBase64] } });
  // Refuse before decoding what can only be too large.
  if (Math.floor((payload.length * 3) / 4) - (payload.match(/=+$/)?.[0].length ?? 0) > MAX_UPLOAD_BYTES) throw fileTooLarge();
  return { bytes: Buffer.from(payload, 'base64'), declaredMime: match?.[1] || null };
}

/**
 * The spec's payload has no file name: the document name stands in when it
 * ends like a file name ('ugovor.pdf', 'setup.exe'); otherwise ('Ugovor v1.2')
 * the bytes alone decide.
 */
function fileNameFrom(name: string): string | null {
  return /^[a-z]{2,4}$/.test(extensionOf(name)) ? name : null;
}

/**
 * POST /api/documents/upload {name, type, fileData, fileName?, entityId?,
 * entityType?, signatureRequired} → 201 with the document. 400 'Molimo unesite
 * sve obavezne podatke.' for missing fields, 413 over 10 MB, 415 not a
 * PDF/PNG/JPEG or not matching the file name's extension.
 */
export const action = apiAction({ method: 'POST', allow: ['POST'], permission: 'create:document' }, async ({ actor, request, ip }) => {
  if (Number(request.headers.get('Content-Length') ?? '0') > MAX_BODY_BYTES) {
    await discardBody(request);
    throw fileTooLarge();
  }
  const input = await parseJsonBody(request, uploadApiSchema, { maxBytes: MAX_BODY_BYTES }).catch((error: unknown) => {
    // A body past the cap can only be a file past 10 MB.
    throw error instanceof Response && error.status === 413 ? fileTooLarge() : error;
  });
  const { bytes, declaredMime } = decodeFileData(input.fileData);
  const document = await storeDocument({
    actor,
    bytes,
    fileName: input.fileName ?? fileNameFrom(input.name),
    declaredMime,
    name: input.name,
    type: input.type,
    entityType: input.entityType ?? null,
    entityId: input.entityId ?? null,
    signatureRequired: input.signatureRequired,
    ip,
  });
  return apiJson(document, { status: 201 });
});

export const loader = () => methodNotAllowed(['POST']);
