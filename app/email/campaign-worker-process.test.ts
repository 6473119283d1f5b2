import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestSmtp, mailParts, type TestSmtp } from '../../tests/support/smtp.ts';
import { failJobsOfDeadWorker, killStartedWorkers, startWorkerProcess, waitFor } from '../../tests/support/worker-process.ts';
import { stopSender } from '../jobs/boss.server.ts';
import { execute, selectOne, selectRows } from '../db.server.ts';
import { resetEnvCache } from '../env.server.ts';
import { oibCheckDigit } from '../utils/validation.ts';
import { createCampaign, getCampaign } from './campaigns.server.ts';
import { resetMailer } from './mailer.server.ts';
import { createTemplate } from './templates.server.ts';
import { createTestUser } from '../../tests/factories.ts';

/**
 * A campaign survives a killed worker: a campaign to 200 active clients over a real SMTP
 * server, sent by the real worker process, which is SIGKILLed half-way and
 * started again: exactly 200 messages, each the rendered MJML with the
 * variables filled and escaped.
 */
const RECIPIENTS = 200;
const HALF = 100;
const APP_URL = 'http://finflow.test';
let smtp: TestSmtp;

beforeAll(async () => {
  smtp = await startTestSmtp();
  // The test process only queues (createCampaign); the worker processes send.
  process.env.APP_URL = APP_URL;
  resetEnvCache();
  resetMailer();
});
afterEach(killStartedWorkers);
afterAll(async () => {
  await stopSender();
  await smtp.close();
});

async function insertActiveClients() {
  const names = Array.from({ length: RECIPIENTS }, (_, i) => (i === 7 ? `<script>alert("x")</script> & Sinovi d.o.o.` : `Primatelj ${i} d.o.o.`));
  const oibs = names.map((_, i) => {
    const base = String(4_200_000_000 + i);
    return `${base}${oibCheckDigit(base)}`;
  });
  const emails = names.map((_, i) => `primatelj${i}@example.hr`);
  for (const [i, name] of names.entries()) {
    await execute(`INSERT INTO clients (company_name, oib, email, contact_person, status) VALUES (:name, :oib, :email, :contact, 'active')`, {
      name,
      oib: oibs[i],
      email: emails[i],
      contact: i === 7 ? name : null,
    });
  }
  // Not an active client: must not receive the campaign.
  await execute(`INSERT INTO clients (company_name, oib, email, status) VALUES ('Neaktivan d.o.o.', :oib, 'neaktivan@example.hr', 'inactive')`, {
    oib: `4299999999${oibCheckDigit('4299999999')}`,
  });
  return emails;
}

const sentInDatabase = async (campaignId: string) =>
  (await selectOne<{ n: number }>(`SELECT count(*)::int AS n FROM email_logs WHERE campaign_id = :campaignId AND sent_at IS NOT NULL`, { campaignId }))!.n;

describe('a campaign sent by the worker process', () => {
  it('delivers exactly 200 rendered, escaped messages although the worker is killed half-way', { timeout: 150_000 }, async () => {
    const emails = await insertActiveClients();
    const user = await createTestUser({ role: 'manager' });
    const actor = { id: user.id as string, role: 'manager' as const };
    const template = await createTemplate({
      actor,
      input: {
        name: 'Studeni novosti',
        subject: 'Novosti za {{company_name}}',
        body: 'Poštovani {{client_name}},\nza {{company_name}} pripremili smo novosti: https://finflow.hr/novosti',
      },
    });

    smtp.acceptLimit = HALF;
    const workerEnv = { SMTP_URL: smtp.url, APP_URL };
    const first = startWorkerProcess({ env: workerEnv });
    const campaign = await createCampaign({ actor, input: { name: 'Studeni', templateId: template.id } });

    // Half accepted and recorded, the next message waiting for the server's answer: kill.
    await waitFor(
      async () => smtp.held > 0 && (await sentInDatabase(campaign.id)) === HALF,
      90_000,
      () => `100 sent (stderr: ${first.output.stderr})`,
    );
    const active = await selectRows<{ id: string }>(`SELECT id FROM pgboss.job WHERE name = 'email-send' AND state = 'active'`);
    await first.kill();
    expect(smtp.received).toHaveLength(HALF);
    expect((await getCampaign(campaign.id))!.status).toBe('sending');

    // Restart: the dead worker's jobs are retried (as on their expiry), the rest were waiting in the queue.
    smtp.acceptLimit = Infinity;
    await failJobsOfDeadWorker(
      'email-send',
      active.map((job) => job.id),
    );
    const second = startWorkerProcess({ env: workerEnv });
    await waitFor(
      async () => (await getCampaign(campaign.id))!.status === 'completed',
      100_000,
      () => `completion (stderr: ${second.output.stderr})`,
    );

    expect(smtp.received).toHaveLength(RECIPIENTS);
    expect(smtp.received.map((mail) => mail.to).sort()).toEqual([...emails].sort());
    expect(await getCampaign(campaign.id)).toMatchObject({ status: 'completed', sentCount: RECIPIENTS, failedCount: 0, queuedCount: 0 });
    const messageIds = smtp.received.map((mail) => /^Message-ID: (.+)$/im.exec(mail.raw)?.[1]);
    expect(new Set(messageIds).size).toBe(RECIPIENTS);

    // The rendered MJML layout, with the variables filled and escaped.
    const { text, html } = mailParts(smtp.received.find((mail) => mail.to === 'primatelj7@example.hr')!.raw);
    expect(html).toMatch(/<!doctype html>/i);
    expect(html).toContain('Faktoring za hrvatske tvrtke'); // the layout's header
    expect(html).toContain('Odjavite se'); // and its footer
    expect(html).toContain('Poštovani &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Sinovi d.o.o.,');
    expect(html).not.toContain('<script>alert');
    expect(html).toMatch(/<a href="http:\/\/finflow\.test\/email\/click\/[0-9a-f]+\/0"/);
    expect(html).toContain('http://finflow.test/email/open/');
    expect(text).toContain('Poštovani <script>alert("x")</script> & Sinovi d.o.o.,');
    const other = mailParts(smtp.received.find((mail) => mail.to === 'primatelj3@example.hr')!.raw);
    expect(other.html).toContain('Poštovani Primatelj 3 d.o.o.,');
    expect(/^Subject: (.+)$/im.exec(smtp.received.find((mail) => mail.to === 'primatelj3@example.hr')!.raw)?.[1]).toBe('Novosti za Primatelj 3 d.o.o.');
  });
});
