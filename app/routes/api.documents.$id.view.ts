import type { LoaderFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { getDocument, readDocumentFile } from '~/documents/documents.server.ts';
import { fileResponse } from '~/documents/file-response.server.ts';
import { isInlineViewable } from '~/documents/file-types.server.ts';
import { MESSAGES } from '~/documents/schemas.ts';
import { apiError, methodNotAllowed, requireUuidParam } from '~/utils/api.server.ts';

/** GET /api/documents/{id}/view: inline in the browser, only for PDF and images (415 otherwise); logged like a download. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const actor = await requirePermission(request, 'read:all', { api: true });
  const id = requireUuidParam(params.id);
  if (!isInlineViewable((await getDocument(id)).mimeType)) throw apiError(415, MESSAGES.notInline);
  return fileResponse(await readDocumentFile(id, actor, clientIp(context), 'inline'), 'inline');
}

export const action = () => methodNotAllowed(['GET']);
