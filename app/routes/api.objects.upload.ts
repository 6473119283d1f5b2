import type { ActionFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { createUploadSlot } from '~/documents/uploads.server.ts';
import { apiJson, methodNotAllowed } from '~/utils/api.server.ts';

/**
 * POST /api/objects/upload (public, no body; docs/api.md): a short-lived upload
 * address for the registration wizard, `{ uploadURL, objectId, expiresAt }`.
 * 429 past 30 addresses per client address in 10 minutes.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  return apiJson(await createUploadSlot({ ip: clientIp(context) }));
}

export const loader = () => methodNotAllowed(['POST']);
