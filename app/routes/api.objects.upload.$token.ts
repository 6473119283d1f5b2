import type { ActionFunctionArgs } from '@remix-run/node';
import { receiveUpload } from '~/documents/uploads.server.ts';
import { apiJson, methodNotAllowed } from '~/utils/api.server.ts';

/**
 * PUT /api/objects/upload/{token} (public): the file itself as the body, with
 * its content type (and optionally X-File-Name). The file is held in
 * quarantine until a wizard submit claims it. 404 unknown or expired address,
 * 409 already used, 413 over 10 MB, 415 not a PDF/PNG/JPEG.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(['PUT']);
  const { objectId, size, mimeType } = await receiveUpload(params.token ?? '', request);
  return apiJson({ id: objectId, objectId, size, mimeType });
}

export const loader = () => methodNotAllowed(['PUT']);
