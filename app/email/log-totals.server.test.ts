import { describe, expect, it } from 'vitest';
import { execute, inTransaction, selectOne, selectRows } from '../db.server.ts';
import { compactEmailLogTotals, emailSummary, listLogs } from './logs.server.ts';
import { recordClick, recordOpen } from './send.server.ts';

/**
 * The delivery log's total and the email page's summary come from totals the
 * database keeps per campaign (db/migrations/2026.11.29T10.00.00.email-log-totals.ts).
 * They must equal counting the log itself, whatever statements changed it:
 * single and bulk inserts, sends, opens and clicks, a campaign deleted under
 * its messages, deletes, rolled-back transactions, compaction and writers at once.
 */

/** The figures counted from the log, as the page and the list read them before the totals. */
async function countedFromTheLog(campaignIds: string[]) {
  const all = await selectOne<{ total: number; opened: number; clicked: number }>(
    'SELECT count(*)::int AS total, count(opened_at)::int AS opened, count(clicked_at)::int AS clicked FROM email_logs',
  );
  const perCampaign = await selectRows<{ id: string; n: number }>(
    'SELECT c.id, count(l.id)::int AS n FROM email_campaigns c LEFT JOIN email_logs l ON l.campaign_id = c.id WHERE c.id IN (:campaignIds) GROUP BY c.id',
    { campaignIds },
  );
  return { ...all!, perCampaign: Object.fromEntries(perCampaign.map((row) => [row.id, row.n])) };
}

async function expectFiguresMatchTheLog(campaignIds: string[]) {
  const counted = await countedFromTheLog(campaignIds);
  const summary = await emailSummary();
  expect({ total: summary.totalSent, opened: summary.opened, clicked: summary.clicked }).toEqual({ total: counted.total, opened: counted.opened, clicked: counted.clicked });
  expect((await listLogs({ limit: 1 })).total).toBe(counted.total);
  const listed = await Promise.all(campaignIds.map(async (id) => [id, (await listLogs({ limit: 1, campaignId: id })).total]));
  expect(Object.fromEntries(listed)).toEqual(counted.perCampaign);
}

const deltaRows = async () => (await selectOne<{ n: number }>('SELECT count(*)::int AS n FROM email_log_deltas'))!.n;

async function campaign(name: string): Promise<string> {
  const { rows } = await execute<{ id: string }>(
    `WITH template AS (
       INSERT INTO email_templates (name, subject, body, trigger, is_active) VALUES (:name, 'Obavijest', '<p>Poštovani,</p>', 'manual', true) RETURNING id
     )
     INSERT INTO email_campaigns (name, template_id, status) SELECT :name, id, 'sending' FROM template RETURNING id`,
    { name },
  );
  return rows[0].id;
}

/** `count` messages, of `campaignId` when given, queued unless `sent`. */
const queueMessages = (count: number, { campaignId = null as string | null, sent = false, prefix = 'primatelj' } = {}) =>
  execute(
    `INSERT INTO email_logs (campaign_id, recipient, subject, status, sent_at)
     SELECT :campaignId, :prefix || g || '@primjer.hr', 'Obavijest', CASE WHEN :sent THEN 'sent' ELSE 'queued' END, CASE WHEN :sent THEN now() END
       FROM generate_series(1, :count) g`,
    { campaignId, count, sent, prefix },
  );

describe("the delivery log's totals", () => {
  it('are zero on an empty book', async () => {
    expect(await emailSummary()).toMatchObject({ totalSent: 0, opened: 0, openedPercent: 0, clicked: 0, clickedPercent: 0 });
    expect(await listLogs()).toEqual({ logs: [], total: 0 });
    expect(await deltaRows()).toBe(0);
  });

  it('equal the log after inserts, sends, opens, clicks, a deleted campaign, deletes, rollbacks and compaction', async () => {
    const spring = await campaign('Proljetna obavijest');
    const autumn = await campaign('Jesenska obavijest');
    const campaigns = [spring, autumn];
    await queueMessages(1);
    await queueMessages(30, { campaignId: spring });
    await queueMessages(12, { campaignId: autumn, sent: true });
    await expectFiguresMatchTheLog(campaigns);

    // A send changes no figure and adds no delta row.
    const before = await deltaRows();
    await execute(`UPDATE email_logs SET status = 'sent', sent_at = now(), attempts = attempts + 1 WHERE campaign_id = :spring`, { spring });
    expect(await deltaRows()).toBe(before);

    // Opens and clicks through the tracking links, once each however often they come.
    const tokens = await selectRows<{ tracking_token: string }>('SELECT tracking_token FROM email_logs WHERE campaign_id = :spring ORDER BY recipient LIMIT 5', { spring });
    await execute(`UPDATE email_logs SET links = '["https://primjer.hr/"]'::jsonb WHERE campaign_id = :spring`, { spring });
    for (const { tracking_token: token } of tokens) {
      await recordOpen(token);
      await recordOpen(token);
    }
    expect(await recordClick(tokens[0].tracking_token, 0)).toBe('https://primjer.hr/');
    await recordClick(tokens[0].tracking_token, 0);
    // A click without an open counts as both.
    const [unopened] = await selectRows<{ tracking_token: string }>('SELECT tracking_token FROM email_logs WHERE campaign_id = :spring AND opened_at IS NULL LIMIT 1', { spring });
    await recordClick(unopened.tracking_token, 0);
    await expectFiguresMatchTheLog(campaigns);
    expect(await emailSummary()).toMatchObject({ totalSent: 43, opened: 6, clicked: 2 });

    // A deleted campaign leaves its messages in the log, without it.
    await execute('DELETE FROM email_campaigns WHERE id = :autumn', { autumn });
    expect(await selectOne<{ n: number }>('SELECT coalesce(sum(logs), 0)::int AS n FROM email_log_deltas WHERE campaign_id IS NULL')).toEqual({ n: 13 });
    await expectFiguresMatchTheLog([spring]);

    // Rolled back: as if never written.
    await expect(
      inTransaction(async (transaction) => {
        await execute(`INSERT INTO email_logs (recipient, subject) VALUES ('vracen@primjer.hr', 'Vraćeno')`, {}, { transaction });
        await execute(`UPDATE email_logs SET opened_at = now() WHERE opened_at IS NULL`, {}, { transaction });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await expectFiguresMatchTheLog([spring]);

    await execute(`DELETE FROM email_logs WHERE campaign_id = :spring AND opened_at IS NOT NULL AND clicked_at IS NULL`, { spring });
    await expectFiguresMatchTheLog([spring]);
    expect(await emailSummary()).toMatchObject({ totalSent: 39, opened: 2, clicked: 2, openedPercent: 5.1, clickedPercent: 5.1 });

    // Compaction folds each campaign's rows into one and changes no figure.
    expect(await deltaRows()).toBeGreaterThan(2);
    await compactEmailLogTotals();
    expect(await deltaRows()).toBe(2);
    await expectFiguresMatchTheLog([spring]);

    // A campaign whose messages are all gone leaves no row after the next fold.
    await execute('DELETE FROM email_logs WHERE campaign_id = :spring', { spring });
    await compactEmailLogTotals();
    expect(await deltaRows()).toBe(1);
    await expectFiguresMatchTheLog([spring]);

    await execute('TRUNCATE email_logs CASCADE');
    expect(await deltaRows()).toBe(0);
    await expectFiguresMatchTheLog([spring]);
  });

  it('stay exact with writers and compactions at the same time', async () => {
    const busy = await campaign('Istodobna obavijest');
    await Promise.all([
      ...Array.from({ length: 6 }, (_, writer) => queueMessages(25, { campaignId: busy, prefix: `pisac${writer}-` })),
      ...Array.from({ length: 6 }, (_, writer) => queueMessages(10, { sent: true, prefix: `sam${writer}-` })),
      compactEmailLogTotals(),
      execute(`UPDATE email_logs SET opened_at = now() WHERE sent_at IS NOT NULL AND opened_at IS NULL`),
      compactEmailLogTotals(),
      execute(`DELETE FROM email_logs WHERE recipient LIKE 'pisac0-%'`),
    ]);
    await compactEmailLogTotals();
    await expectFiguresMatchTheLog([busy]);
  });
});
