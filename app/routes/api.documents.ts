import { createRegistrationDocument, listDocuments } from '~/documents/documents.server.ts';
import { listQuerySchema } from '~/documents/schemas.ts';
import { apiJson, listParams, readJsonObject } from '~/utils/api.server.ts';
import { apiAction, apiLoader, apiList } from '~/utils/api-route.server.ts';

/** GET /api/documents: newest first, ?q (name), ?type, ?tab (all|signatures|recent|invoice|contract), ?limit, ?offset, X-Total-Count. */
export const loader = apiLoader('read:all', async ({ request }) => {
  const params = new URL(request.url).searchParams;
  const { tab, type } = listQuerySchema.parse({ tab: params.get('tab') ?? undefined, type: params.get('type') ?? undefined });
  const { items, total } = await listDocuments({ ...listParams(request), tab, type });
  return apiList(items, total);
});

/**
 * POST /api/documents, the registration document record (docs/domain-model.md) {name,
 * type, kycType?, entityId, entityType, fileUrl, size, mimeType}: staff only
 * (docs/api.md); fileUrl names an upload from POST /api/objects/upload, which is
 * claimed and recorded. 201 with the document.
 */
export const action = apiAction({ method: 'POST', allow: ['GET', 'POST'], permission: 'create:document' }, async ({ actor, request, ip }) => {
  const input = await readJsonObject(request);
  return apiJson(await createRegistrationDocument({ actor, input, ip }), { status: 201 });
});
