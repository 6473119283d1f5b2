import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { clientIp } from '../auth/login.server.ts';
import { requirePermission, type Permission } from '../auth/permissions.server.ts';
import type { PublicUser } from '../auth/user-record.server.ts';
import type * as z from 'zod';
import { apiJson, methodNotAllowed, parseJsonBody, requireUuidParam } from './api.server.ts';

/**
 * The frame every signed-in /api route module repeats (docs/decisions/004-api-errors-and-lists.md):
 * a method it does not serve is a 405 naming `allow` before anyone is asked to sign in
 * (app/routes/api-methods.test.ts sends PATCH without a cookie), then 401/403 from the
 * permission, then the route's own work. Ids and bodies stay in the route, in its own order.
 */

type ApiMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface ApiArgs {
  actor: PublicUser;
  request: Request;
  params: LoaderFunctionArgs['params'];
  /** The caller's address for the activity log (clientIp of app/auth/login.server.ts). */
  ip: string | null;
}

export function apiAction(
  frame: { method: ApiMethod; allow: ApiMethod[]; permission: Permission },
  handle: (args: ApiArgs) => Promise<Response>,
): (args: ActionFunctionArgs) => Promise<Response> {
  return async ({ request, params, context }) => {
    if (request.method !== frame.method) return methodNotAllowed(frame.allow);
    const actor = await requirePermission(request, frame.permission, { api: true });
    return handle({ actor, request, params, ip: clientIp(context) });
  };
}

export function apiLoader(permission: Permission, handle: (args: ApiArgs) => Promise<Response>): (args: LoaderFunctionArgs) => Promise<Response> {
  return async ({ request, params, context }) => {
    const actor = await requirePermission(request, permission, { api: true });
    return handle({ actor, request, params, ip: clientIp(context) });
  };
}

/** One page of a list with the size of the whole in X-Total-Count (docs/decisions/004-api-errors-and-lists.md). */
export function apiList(rows: unknown, total: number): Response {
  return apiJson(rows, { headers: { 'X-Total-Count': String(total) } });
}

/**
 * POST to a collection (/api/clients, /api/tasks, …): the JSON body read by the area's
 * schema, handed to its create function with the caller and their address, and the stored
 * object answered 201. GET is the collection's list (its loader), so both are allowed.
 */
export function apiCreate<Schema extends z.ZodType>(
  permission: Permission,
  schema: Schema,
  create: (args: { actor: PublicUser; input: z.output<Schema>; ip: string | null }) => Promise<unknown>,
  options: { maxBytes?: number } = {},
): (args: ActionFunctionArgs) => Promise<Response> {
  return apiAction({ method: 'POST', allow: ['GET', 'POST'], permission }, async ({ actor, request, ip }) => {
    const input = await parseJsonBody(request, schema, options);
    return apiJson(await create({ actor, input, ip }), { status: 201 });
  });
}

/**
 * PUT to a record the same path's GET reads (/api/clients/{id}, /api/tasks/{taskId}): the id from
 * the path parameter `param` (404 unless a UUID), the JSON body read by the area's schema, handed to
 * its update function, and the stored record answered 200.
 */
export function apiUpdate<Schema extends z.ZodType>(
  { permission, param }: { permission: Permission; param: string },
  schema: Schema,
  update: (args: { actor: PublicUser; id: string; input: z.output<Schema>; ip: string | null }) => Promise<unknown>,
): (args: ActionFunctionArgs) => Promise<Response> {
  return apiAction({ method: 'PUT', allow: ['GET', 'PUT'], permission }, async ({ actor, request, params, ip }) => {
    const id = requireUuidParam(params[param]);
    const input = await parseJsonBody(request, schema);
    return apiJson(await update({ actor, id, input, ip }));
  });
}
