import { sendJob } from '../jobs/boss.server.ts';
import { logActivity } from '../activity-log.server.ts';
import { assertCan } from '../auth/permissions.server.ts';
import { execute, inTransaction, selectOne, selectPage, selectRows } from '../db.server.ts';
import { apiError, zodRefusal } from '../utils/api.server.ts';
import { renderEmail } from './render.server.ts';
import { campaignCreateSchema, EMAIL_ERRORS, type CampaignRecipients } from './schemas.ts';
import { clientVariables, completeCampaignIfDone, enqueueAfterCommit } from './send.server.ts';
import type { Actor } from './templates.server.ts';
import { sqlFromBusinessLocal } from '../utils/business-time.ts';
import { iso } from '../utils/api-values.ts';
import type { Client, EmailCampaign, EmailTemplate } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';

/**
 * Campaigns (docs/domain-model.md, docs/lifecycle.md#other-records). Created as a draft whose fan-out job
 * runs now, or 'active' (scheduled) with the job starting at scheduledAt. The
 * fan-out writes one queued log per recipient in one transaction (unique per
 * campaign and recipient, ON CONFLICT DO NOTHING) and then one 'email-send'
 * job per queued log; running it again after a crash adds nobody twice and
 * re-sends only what is still queued. Counts come from the logs.
 */

export interface CampaignDto {
  id: string;
  name: string;
  templateId: string;
  templateName: string | null;
  recipients: CampaignRecipients;
  status: string;
  totalRecipients: number | null;
  sentCount: number;
  openCount: number;
  clickCount: number;
  failedCount: number;
  queuedCount: number;
  scheduledAt: string | null;
  createdAt: string;
}

type CampaignRow = RowOf<typeof EmailCampaign, 'id' | 'name' | 'template_id' | 'recipients' | 'status' | 'total_recipients' | 'scheduled_at' | 'created_at'> & {
  template_name: RowOf<typeof EmailTemplate>['name'] | null;
  sent_count: number;
  open_count: number;
  click_count: number;
  failed_count: number;
  queued_count: number;
};

function toCampaignDto(row: CampaignRow): CampaignDto {
  return {
    id: row.id,
    name: row.name,
    templateId: row.template_id,
    templateName: row.template_name,
    recipients: row.recipients,
    status: row.status,
    totalRecipients: row.total_recipients,
    sentCount: Number(row.sent_count),
    openCount: Number(row.open_count),
    clickCount: Number(row.click_count),
    failedCount: Number(row.failed_count),
    queuedCount: Number(row.queued_count),
    scheduledAt: iso(row.scheduled_at),
    createdAt: iso(row.created_at),
  };
}

const CAMPAIGN_SELECT = `
  SELECT c.id, c.name, c.template_id, t.name AS template_name, c.recipients, c.status, c.total_recipients, c.scheduled_at, c.created_at,
         coalesce(s.sent, 0)::int AS sent_count, coalesce(s.opened, 0)::int AS open_count, coalesce(s.clicked, 0)::int AS click_count,
         coalesce(s.failed, 0)::int AS failed_count, coalesce(s.queued, 0)::int AS queued_count
    FROM email_campaigns c
    LEFT JOIN email_templates t ON t.id = c.template_id
    LEFT JOIN LATERAL (
      SELECT count(*) FILTER (WHERE l.sent_at IS NOT NULL) AS sent, count(*) FILTER (WHERE l.opened_at IS NOT NULL) AS opened,
             count(*) FILTER (WHERE l.clicked_at IS NOT NULL) AS clicked, count(*) FILTER (WHERE l.status = 'failed') AS failed,
             count(*) FILTER (WHERE l.status = 'queued') AS queued
        FROM email_logs l WHERE l.campaign_id = c.id
    ) s ON true`;

export async function listCampaigns({ limit = 100, offset = 0 }: { limit?: number; offset?: number } = {}) {
  const { rows, total } = await selectPage<CampaignRow>(
    `${CAMPAIGN_SELECT} ORDER BY c.created_at DESC, c.id DESC LIMIT :limit OFFSET :offset`,
    'SELECT count(*)::int AS total FROM email_campaigns',
    { limit, offset },
  );
  return { campaigns: rows.map(toCampaignDto), total };
}

export async function getCampaign(id: string): Promise<CampaignDto | null> {
  const row = await selectOne<CampaignRow>(`${CAMPAIGN_SELECT} WHERE c.id = :id`, { id });
  return row ? toCampaignDto(row) : null;
}

const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/** POST /api/email/campaigns: only an active template; a future scheduledAt (Croatian time when it has no offset) queues it for then. */
export async function createCampaign({ actor, input, ip }: { actor: Actor; input: unknown; ip?: string | null }): Promise<CampaignDto> {
  assertCan(actor, 'edit:email_campaign');
  const parsed = campaignCreateSchema.safeParse(input);
  if (!parsed.success) throw zodRefusal(parsed.error);
  const data = parsed.data;
  const id = await inTransaction(async (transaction) => {
    const template = await selectOne<RowOf<typeof EmailTemplate, 'is_active' | 'name'>>(
      'SELECT is_active, name FROM email_templates WHERE id = :id',
      { id: data.templateId },
      { transaction },
    );
    if (!template) throw apiError(400, EMAIL_ERRORS.templateRequired, { errors: { templateId: [EMAIL_ERRORS.templateRequired] } });
    if (!template.is_active) throw apiError(409, EMAIL_ERRORS.templateInactive, { errors: { templateId: [EMAIL_ERRORS.templateInactive] } });
    const scheduled = data.scheduledAt ?? null;
    const { rows } = await execute<RowOf<typeof EmailCampaign, 'id' | 'scheduled_at'> & { future: boolean }>(
      `WITH s AS (SELECT CASE WHEN CAST(:scheduled AS text) IS NULL THEN NULL
                              WHEN :local THEN ${sqlFromBusinessLocal('CAST(:scheduled AS timestamp)')}
                              ELSE CAST(:scheduled AS timestamptz) END AS at)
       INSERT INTO email_campaigns (name, template_id, recipients, specific_client_ids, status, scheduled_at, created_by)
       SELECT :name, :templateId, :recipients, CAST(:clientIds AS uuid[]), CASE WHEN s.at > now() THEN 'active' ELSE 'draft' END, s.at, :actorId FROM s
       RETURNING id, scheduled_at, scheduled_at > now() AS future`,
      {
        name: data.name,
        templateId: data.templateId,
        recipients: data.recipients,
        clientIds: `{${data.recipients === 'specific_clients' ? data.clientIds.join(',') : ''}}`,
        scheduled,
        local: scheduled !== null && LOCAL_DATE_TIME.test(scheduled),
        actorId: actor.id,
      },
      { transaction },
    );
    const row = rows[0];
    await logActivity(
      {
        action: 'email_campaign_created',
        userId: actor.id,
        entityType: 'email_campaign',
        entityId: row.id,
        ipAddress: ip,
        details: { name: data.name, templateName: template.name, recipients: data.recipients, scheduledAt: iso(row.scheduled_at) },
      },
      transaction,
    );
    const start = row.future && row.scheduled_at ? new Date(row.scheduled_at) : null;
    transaction.afterCommit(async () => {
      try {
        await sendJob('email-campaign', { campaignId: row.id }, { singletonKey: row.id, ...(start ? { startAfter: start } : {}) });
      } catch (error) {
        console.error(`email: could not enqueue campaign ${row.id}`, error);
      }
    });
    return row.id;
  });
  return (await getCampaign(id))!;
}

/**
 * The 'email-campaign' job: fans the campaign out (idempotent). Returns how
 * many logs it added and how many send jobs it queued (all still-queued logs,
 * so a resumed campaign re-sends what a crash left behind; each job is
 * idempotent on its log row).
 */
export async function fanOutCampaign(campaignId: string): Promise<{ added: number; queued: number; status: string }> {
  return inTransaction(async (transaction) => {
    const campaign = await selectOne<{
      id: string;
      status: string;
      recipients: CampaignRecipients;
      specific_client_ids: string[] | string;
      template_id: string;
      subject: string;
      body: string;
    }>(
      `SELECT c.id, c.status, c.recipients, c.specific_client_ids, c.template_id, t.subject, t.body
         FROM email_campaigns c JOIN email_templates t ON t.id = c.template_id WHERE c.id = :id FOR UPDATE OF c`,
      { id: campaignId },
      { transaction },
    );
    if (!campaign) return { added: 0, queued: 0, status: 'missing' };
    if (campaign.status === 'completed' || campaign.status === 'failed') return { added: 0, queued: 0, status: campaign.status };

    const filter = campaign.recipients === 'active_clients' ? `AND status = 'active'` : campaign.recipients === 'specific_clients' ? `AND id = ANY (CAST(:ids AS uuid[]))` : '';
    const ids = Array.isArray(campaign.specific_client_ids) ? `{${campaign.specific_client_ids.join(',')}}` : campaign.specific_client_ids;
    const clients = await selectRows<RowOf<typeof Client, 'id' | 'company_name' | 'contact_person'> & { email: string }>(
      `SELECT DISTINCT ON (lower(btrim(email))) id, lower(btrim(email)) AS email, company_name, contact_person
         FROM clients WHERE email IS NOT NULL AND btrim(email) <> '' ${filter}
        ORDER BY lower(btrim(email)), created_at`,
      { ids },
      { transaction },
    );
    let added = 0;
    if (clients.length > 0) {
      const subjects = clients.map((client) => renderEmail(campaign, clientVariables(client)).subject);
      const { count } = await execute(
        `INSERT INTO email_logs (template_id, campaign_id, client_id, recipient, subject, status)
         SELECT :templateId, :campaignId, r.client_id, r.recipient, r.subject, 'queued'
           FROM unnest(CAST(:clientIds AS uuid[]), CAST(:recipients AS text[]), CAST(:subjects AS text[])) AS r (client_id, recipient, subject)
         ON CONFLICT (campaign_id, recipient) WHERE campaign_id IS NOT NULL DO NOTHING`,
        {
          templateId: campaign.template_id,
          campaignId: campaign.id,
          clientIds: pgArray(clients.map((client) => client.id)),
          recipients: pgArray(clients.map((client) => client.email.slice(0, 255))),
          subjects: pgArray(subjects),
        },
        { transaction },
      );
      added = count;
    }
    await execute(
      `UPDATE email_campaigns SET status = 'sending', started_at = coalesce(started_at, now()),
              total_recipients = (SELECT count(*) FROM email_logs WHERE campaign_id = :id)
        WHERE id = :id`,
      { id: campaign.id },
      { transaction },
    );
    const queued = await selectRows<{ id: string }>(
      `SELECT id FROM email_logs WHERE campaign_id = :id AND status = 'queued' ORDER BY created_at, id`,
      { id: campaign.id },
      { transaction },
    );
    for (const log of queued) enqueueAfterCommit(transaction, log.id);
    // Nobody to send to (or everything already done): completed now.
    await completeCampaignIfDone(campaign.id, transaction);
    const status = (await selectOne<RowOf<typeof EmailCampaign, 'status'>>('SELECT status FROM email_campaigns WHERE id = :id', { id: campaign.id }, { transaction }))!.status;
    return { added, queued: queued.length, status };
  });
}

/** A PostgreSQL array literal of text values (quoted and escaped), for CAST(:x AS text[]). */
function pgArray(values: string[]): string {
  return `{${values.map((value) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
}
