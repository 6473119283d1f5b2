import { getDocument, readDocumentFile } from '~/documents/documents.server.ts';
import { fileResponse } from '~/documents/file-response.server.ts';
import { isInlineViewable } from '~/documents/file-types.server.ts';
import { MESSAGES } from '~/documents/schemas.ts';
import { apiError, methodNotAllowed, requireUuidParam } from '~/utils/api.server.ts';
import { apiLoader } from '~/utils/api-route.server.ts';

/** GET /api/documents/{id}/view: inline in the browser, only for PDF and images (415 otherwise); logged like a download. */
export const loader = apiLoader('read:all', async ({ actor, params, ip }) => {
  const id = requireUuidParam(params.id);
  if (!isInlineViewable((await getDocument(id)).mimeType)) throw apiError(415, MESSAGES.notInline);
  return fileResponse(await readDocumentFile(id, actor, ip, 'inline'), 'inline');
});

export const action = () => methodNotAllowed(['GET']);
