import fs from 'node:fs/promises';
import path from 'node:path';
import { execute, selectOne, selectRows } from '../db.server.ts';
import { outboxDir } from './mailer.server.ts';
import { iso } from '../utils/api-values.ts';
import type { EmailLog, EmailTemplate } from '../../db/models/index.ts';
import type { RowOf } from '../../db/models/rows.ts';

/** The delivery log (docs/domain-model.md Email log), the page's five summary cards, and the local outbox (README.md). */

export interface EmailLogDto {
  id: string;
  subject: string;
  recipient: string;
  templateName: string | null;
  campaignId: string | null;
  status: string;
  sentAt: string | null;
  openedAt: string | null;
  clickedAt: string | null;
  errorMessage: string | null;
  attempts: number;
  createdAt: string;
}

type LogRow = RowOf<
  typeof EmailLog,
  'id' | 'subject' | 'recipient' | 'campaign_id' | 'status' | 'sent_at' | 'opened_at' | 'clicked_at' | 'error_message' | 'attempts' | 'created_at'
> & { template_name: RowOf<typeof EmailTemplate>['name'] | null };

export async function listLogs({ limit = 100, offset = 0, campaignId }: { limit?: number; offset?: number; campaignId?: string } = {}) {
  const where = campaignId ? 'WHERE l.campaign_id = :campaignId' : '';
  const [rows, count] = await Promise.all([
    selectRows<LogRow>(
      `SELECT l.id, l.subject, l.recipient, t.name AS template_name, l.campaign_id, l.status, l.sent_at, l.opened_at, l.clicked_at,
              l.error_message, l.attempts, l.created_at
         FROM email_logs l LEFT JOIN email_templates t ON t.id = l.template_id
         ${where}
        ORDER BY l.created_at DESC, l.id DESC LIMIT :limit OFFSET :offset`,
      { limit, offset, campaignId },
    ),
    // The totals the database keeps (db/migrations/2026.11.29T10.00.00.email-log-totals.ts), not a count of the log.
    selectOne<{ n: number }>(`SELECT coalesce(sum(logs), 0)::int AS n FROM email_log_deltas ${campaignId ? 'WHERE campaign_id = :campaignId' : ''}`, { campaignId }),
  ]);
  const logs: EmailLogDto[] = rows.map((row) => ({
    id: row.id,
    subject: row.subject,
    recipient: row.recipient,
    templateName: row.template_name,
    campaignId: row.campaign_id,
    status: row.status,
    sentAt: iso(row.sent_at),
    openedAt: iso(row.opened_at),
    clickedAt: iso(row.clicked_at),
    errorMessage: row.error_message,
    attempts: Number(row.attempts),
    createdAt: iso(row.created_at),
  }));
  return { logs, total: count?.n ?? 0 };
}

export interface EmailSummary {
  totalSent: number;
  opened: number;
  openedPercent: number;
  clicked: number;
  clickedPercent: number;
  activeTemplates: number;
  campaignsInProgress: number;
}

/** docs/screens.md: total = log entries; opened/clicked with their share of the total to one decimal (0 when there is none). */
export async function emailSummary(): Promise<EmailSummary> {
  const row = (await selectOne<{ total: number; opened: number; clicked: number; active_templates: number; sending: number; opened_pct: string; clicked_pct: string }>(
    `SELECT l.total, l.opened, l.clicked,
            CASE WHEN l.total = 0 THEN 0 ELSE round(l.opened * 100.0 / l.total, 1) END AS opened_pct,
            CASE WHEN l.total = 0 THEN 0 ELSE round(l.clicked * 100.0 / l.total, 1) END AS clicked_pct,
            (SELECT count(*)::int FROM email_templates WHERE is_active) AS active_templates,
            (SELECT count(*)::int FROM email_campaigns WHERE status = 'sending') AS sending
       FROM (SELECT coalesce(sum(logs), 0)::int AS total, coalesce(sum(opened), 0)::int AS opened, coalesce(sum(clicked), 0)::int AS clicked FROM email_log_deltas) l`,
  ))!;
  return {
    totalSent: row.total,
    opened: row.opened,
    openedPercent: Number(row.opened_pct),
    clicked: row.clicked,
    clickedPercent: Number(row.clicked_pct),
    activeTemplates: row.active_templates,
    campaignsInProgress: row.sending,
  };
}

/** Folds the delivery log's deltas into one row per campaign (the hourly housekeeping), so the sums stay short. */
export async function compactEmailLogTotals(): Promise<void> {
  await execute('SELECT compact_email_log_totals()');
}

/** The newest .eml files of the local outbox (used when SMTP_URL is unset). */
export async function listOutbox(limit = 50): Promise<{ name: string; size: number }[]> {
  const names = await fs.readdir(outboxDir()).catch(() => [] as string[]);
  const files = names
    .filter((name) => /^[\w.-]+\.eml$/.test(name))
    .sort()
    .reverse()
    .slice(0, limit);
  return Promise.all(files.map(async (name) => ({ name, size: (await fs.stat(path.join(outboxDir(), name))).size })));
}

/** One outbox message's raw source; null for a name that is not a plain .eml file name there (no path traversal). */
export async function readOutboxMessage(name: string): Promise<string | null> {
  if (!/^[\w-][\w.-]*\.eml$/.test(name)) return null;
  return fs.readFile(path.join(outboxDir(), name), 'utf8').catch(() => null);
}

/** The HTML part the outbox keeps beside an .eml file, if any. */
export async function readOutboxHtml(name: string): Promise<string | null> {
  if (!/^[\w-][\w.-]*\.eml$/.test(name)) return null;
  return fs.readFile(path.join(outboxDir(), name.replace(/\.eml$/, '.html')), 'utf8').catch(() => null);
}
