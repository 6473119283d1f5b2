import type { LoaderFunctionArgs } from '@remix-run/node';
import { requireUser } from '~/auth/permissions.server.ts';
import { apiJson, methodNotAllowed } from '~/utils/api.server.ts';

/** GET /api/auth/user: the signed-in user (401 until the second factor has passed). */
export async function loader({ request }: LoaderFunctionArgs) {
  return apiJson(await requireUser(request, { api: true }));
}

export const action = () => methodNotAllowed(['GET']);
