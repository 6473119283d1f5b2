import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { createRegistrationDocument, listDocuments } from '~/documents/documents.server.ts';
import { listQuerySchema } from '~/documents/schemas.ts';
import { apiJson, listParams, methodNotAllowed, readJsonObject } from '~/utils/api.server.ts';

/** GET /api/documents: newest first, ?q (name), ?type, ?tab (all|signatures|recent|invoice|contract), ?limit, ?offset, X-Total-Count. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  const params = new URL(request.url).searchParams;
  const { tab, type } = listQuerySchema.parse({ tab: params.get('tab') ?? undefined, type: params.get('type') ?? undefined });
  const { items, total } = await listDocuments({ ...listParams(request), tab, type });
  return apiJson(items, { headers: { 'X-Total-Count': String(total) } });
}

/**
 * POST /api/documents, the registration document record (docs/domain-model.md) {name,
 * type, kycType?, entityId, entityType, fileUrl, size, mimeType}: staff only
 * (docs/api.md); fileUrl names an upload from POST /api/objects/upload, which is
 * claimed and recorded. 201 with the document.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const actor = await requirePermission(request, 'create:document', { api: true });
  const input = await readJsonObject(request);
  return apiJson(await createRegistrationDocument({ actor, input, ip: clientIp(context) }), { status: 201 });
}
