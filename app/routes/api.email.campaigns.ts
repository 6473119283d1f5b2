import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { clientIp } from '~/auth/login.server.ts';
import { requirePermission } from '~/auth/permissions.server.ts';
import { createCampaign, listCampaigns } from '~/email/campaigns.server.ts';
import { campaignCreateSchema } from '~/email/schemas.ts';
import { apiJson, listParams, methodNotAllowed, parseJsonBody } from '~/utils/api.server.ts';

/** GET /api/email/campaigns: newest first with sentCount, openCount, clickCount from the logs; X-Total-Count. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePermission(request, 'read:all', { api: true });
  const { limit, offset } = listParams(request);
  const { campaigns, total } = await listCampaigns({ limit, offset });
  return apiJson(campaigns, { headers: { 'X-Total-Count': String(total) } });
}

/** POST /api/email/campaigns {name, templateId, recipients, clientIds?, scheduledAt?} → 201; sent now, or queued for scheduledAt. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const actor = await requirePermission(request, 'edit:email_campaign', { api: true });
  const input = await parseJsonBody(request, campaignCreateSchema);
  return apiJson(await createCampaign({ actor, input, ip: clientIp(context) }), { status: 201 });
}
