import { fileResponse } from '~/documents/file-response.server.ts';
import { readDocumentFile } from '~/documents/documents.server.ts';
import { methodNotAllowed, requireUuidParam } from '~/utils/api.server.ts';
import { apiLoader } from '~/utils/api-route.server.ts';

/** GET /api/documents/{id}/download: the stored bytes as an attachment (logged). */
export const loader = apiLoader('read:all', async ({ actor, params, ip }) => {
  const file = await readDocumentFile(requireUuidParam(params.id), actor, ip, 'attachment');
  return fileResponse(file, 'attachment');
});

export const action = () => methodNotAllowed(['GET']);
