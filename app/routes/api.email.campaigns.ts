import { createCampaign, listCampaigns } from '~/email/campaigns.server.ts';
import { campaignCreateSchema } from '~/email/schemas.ts';
import { listParams } from '~/utils/api.server.ts';
import { apiCreate, apiList, apiLoader } from '~/utils/api-route.server.ts';

/** GET /api/email/campaigns: newest first with sentCount, openCount, clickCount from the logs; X-Total-Count. */
export const loader = apiLoader('read:all', async ({ request }) => {
  const { limit, offset } = listParams(request);
  const { campaigns, total } = await listCampaigns({ limit, offset });
  return apiList(campaigns, total);
});

/** POST /api/email/campaigns {name, templateId, recipients, clientIds?, scheduledAt?} → 201; sent now, or queued for scheduledAt. */
export const action = apiCreate('edit:email_campaign', campaignCreateSchema, createCampaign);
