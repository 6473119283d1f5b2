import { listParams } from '~/utils/api.server.ts';
import { createDefinition, listDefinitions } from '~/workflows/definitions.server.ts';
import { definitionSchema } from '~/workflows/schemas.ts';
import { apiCreate, apiList, apiLoader } from '~/utils/api-route.server.ts';

/** GET /api/workflows: the definitions (active first), ?limit, ?offset; X-Total-Count. */
export const loader = apiLoader('read:all', async ({ request }) => {
  const { limit, offset } = listParams(request);
  const { items, total } = await listDefinitions({ limit, offset });
  return apiList(items, total);
});

/** POST /api/workflows {name, type, description?, steps} → 201, inactive until activated ('edit:workflow'). */
export const action = apiCreate('edit:workflow', definitionSchema, createDefinition);
