import type { LoaderFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { fileResponse } from '~/documents/file-response.server.ts';
import { readDocumentFile } from '~/documents/documents.server.ts';
import { methodNotAllowed, requireUuidParam } from '~/utils/api.server.ts';

/** GET /api/documents/{id}/download: the stored bytes as an attachment (logged). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const actor = await requirePermission(request, 'read:all', { api: true });
  const file = await readDocumentFile(requireUuidParam(params.id), actor, clientIp(context), 'attachment');
  return fileResponse(file, 'attachment');
}

export const action = () => methodNotAllowed(['GET']);
