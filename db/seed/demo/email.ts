import { randomUUID } from 'node:crypto';
import { REFERENCE_TEMPLATES, type ReferenceRowIds } from '../../reference-data.ts';
import { DAY, HOUR, MINUTE, type Row, date, money } from './plumbing.ts';
import type { ClientInfo, Context, InvoiceInfo } from './context.ts';
import { newestActive } from './documents.ts';

// ---- Email: templates, campaigns, logs ----------------------------------------------

/**
 * The book's templates: the four reference ones of the event triggers (first,
 * in this order), then the demo's own: two manual ones for campaigns and a
 * retired payment reminder.
 */
const TEMPLATES: ReadonlyArray<{ name: string; trigger: string; active: boolean; subject: string; body: string; reference?: true }> = [
  ...(['client_onboarding', 'invoice_verified', 'payment_due', 'payment_overdue'] as const).map((trigger) => ({
    ...REFERENCE_TEMPLATES.find((template) => template.trigger === trigger)!,
    active: true,
    reference: true as const,
  })),
  {
    name: 'Opća obavijest klijentima',
    trigger: 'manual',
    active: true,
    subject: 'Obavijest za {{company_name}}',
    body: signed(['Poštovani {{client_name}},', '', 'obavještavamo vas o novostima u poslovanju FinFlowa.']),
  },
  {
    name: 'Mjesečni pregled portfelja',
    trigger: 'manual',
    active: true,
    subject: 'Mjesečni pregled faktoringa – {{company_name}}',
    body: signed(['Poštovani {{client_name}},', '', 'u privitku je pregled financiranih i naplaćenih faktura tvrtke {{company_name}} za prethodni mjesec.']),
  },
  {
    name: 'Podsjetnik na dospijeće (stara verzija)',
    trigger: 'payment_due',
    active: false,
    subject: 'Faktura {{invoice_number}} dospijeva',
    body: signed(['Poštovani,', '', 'faktura {{invoice_number}} ({{amount}}) dospijeva uskoro.']),
  },
];
const [WELCOME, VERIFIED, DUE, OVERDUE, GENERAL, MONTHLY] = [0, 1, 2, 3, 4, 5];

function signed(body: string[]): string {
  return [...body, '', 'Srdačan pozdrav,', 'FinFlow tim'].join('\n');
}

export function buildEmail(ctx: Context, clients: ClientInfo[], invoices: InvoiceInfo[], reference: ReferenceRowIds) {
  const { random, clock } = ctx;
  const templateIds = TEMPLATES.map((template) => (template.reference ? reference.templates[template.trigger as keyof ReferenceRowIds['templates']] : randomUUID()));
  const usage = TEMPLATES.map(() => 0);
  const logs: Row[] = [];
  const send = (mail: { template: number; campaignId?: string; client: ClientInfo; at: number; invoice?: InvoiceInfo; failed?: boolean }) => {
    const template = TEMPLATES[mail.template];
    const status = mail.failed ? 'failed' : random.weighted(['sent', 15], ['delivered', 35], ['opened', 25], ['clicked', 15], ['failed', 10]);
    const openedAt = status === 'opened' || status === 'clicked' ? clock.past(mail.at + random.int(5, 2000) * MINUTE) : undefined;
    const clickedAt = status === 'clicked' ? clock.past(openedAt! + random.int(1, 30) * MINUTE) : undefined;
    const values: Record<string, string> = {
      company_name: mail.client.companyName,
      client_name: mail.client.contactPerson,
      invoice_number: mail.invoice?.number ?? '',
      amount: mail.invoice ? `${money(mail.invoice.amount).replace('.', ',')} EUR` : '',
    };
    logs.push({
      id: randomUUID(),
      template_id: templateIds[mail.template],
      campaign_id: mail.campaignId ?? null,
      client_id: mail.client.id,
      recipient: mail.client.email,
      subject: template.subject.replace(/\{\{(\w+)\}\}/g, (_, key: string) => values[key] ?? ''),
      status,
      message_id: status === 'failed' ? null : `<${randomUUID()}@finflow.local>`,
      error_message: status === 'failed' ? random.pick(['550 5.1.1 Mailbox unavailable', 'SMTP timeout nakon 30 s', '552 5.2.2 Mailbox full']) : null,
      attempts: status === 'failed' ? 3 : 1,
      sent_at: status === 'failed' ? null : date(mail.at),
      opened_at: openedAt === undefined ? null : date(openedAt),
      clicked_at: clickedAt === undefined ? null : date(clickedAt),
      created_at: date(mail.at - random.int(1, 60) * 1000),
      updated_at: date(clickedAt ?? openedAt ?? mail.at),
    });
    usage[mail.template] += 1;
  };

  // Triggered mail: welcome on onboarding, invoice verified, due and overdue reminders.
  for (const client of newestActive(clients)) send({ template: WELCOME, client, at: clock.past(client.createdAt + 3 * DAY) });
  const verified = invoices.filter((i) => i.row.verified_at).sort((a, b) => b.createdAt - a.createdAt);
  for (const invoice of verified.slice(0, 30)) {
    const at = clock.past((invoice.row.verified_at as Date).getTime() + MINUTE);
    send({ template: VERIFIED, client: invoice.client, invoice, at });
  }
  for (const invoice of invoices.filter((i) => i.status === 'financed').slice(0, 25)) {
    const due = Date.parse(invoice.dueDay);
    if (due < clock.midnight) send({ template: OVERDUE, client: invoice.client, invoice, at: clock.past(due + DAY + 8 * HOUR) });
    else if (due - 7 * DAY < clock.now) {
      send({ template: DUE, client: invoice.client, invoice, at: clock.past(due - 7 * DAY + 8 * HOUR) });
    }
  }

  // One campaign in each status; the sending one is halfway through its list.
  const active = clients.filter((client) => client.status === 'active');
  const onboarded = clients.filter((client) => client.status !== 'pending');
  const campaigns: Row[] = [];
  const CAMPAIGNS = [
    {
      name: 'Novogodišnja čestitka i radno vrijeme',
      template: GENERAL,
      recipients: 'all_clients',
      status: 'completed',
      daysAgo: 40,
    },
    {
      name: 'Mjesečni pregled portfelja',
      template: MONTHLY,
      recipients: 'active_clients',
      status: 'sending',
      daysAgo: 0,
    },
    { name: 'Novi uvjeti faktoringa', template: GENERAL, recipients: 'specific_clients', status: 'draft', daysAgo: 3 },
    {
      name: 'Podsjetnik za obnovu dokumentacije',
      template: GENERAL,
      recipients: 'active_clients',
      status: 'active',
      daysAgo: 2,
      scheduledIn: 5,
    },
    {
      name: 'Anketa o zadovoljstvu klijenata',
      template: GENERAL,
      recipients: 'all_clients',
      status: 'failed',
      daysAgo: 15,
    },
  ];
  for (const spec of CAMPAIGNS) {
    const id = randomUUID();
    const createdAt = clock.at(spec.daysAgo + (spec.status === 'draft' ? 0 : 1), random);
    const started = ['sending', 'completed', 'failed'].includes(spec.status);
    const startedAt = started ? clock.past(createdAt + HOUR) : undefined;
    const audience = spec.recipients === 'all_clients' ? onboarded : spec.recipients === 'active_clients' ? active : random.shuffle(active).slice(0, 4);
    let completedAt: number | undefined;
    if (startedAt !== undefined) {
      const reached = spec.status === 'completed' ? audience : spec.status === 'sending' ? audience.slice(0, Math.ceil(audience.length / 2)) : audience.slice(0, 3);
      reached.forEach((client, index) => {
        send({
          template: spec.template,
          campaignId: id,
          client,
          at: clock.past(startedAt + index * 2000),
          failed: spec.status === 'failed',
        });
      });
      if (spec.status === 'completed') completedAt = clock.past(startedAt + audience.length * 2000 + MINUTE);
    }
    const creator = ctx.decider();
    campaigns.push({
      id,
      name: spec.name,
      template_id: templateIds[spec.template],
      recipients: spec.recipients,
      specific_client_ids: spec.recipients === 'specific_clients' ? audience.map((client) => client.id) : [],
      status: spec.status,
      scheduled_at: spec.scheduledIn === undefined ? null : date(clock.midnight + spec.scheduledIn * DAY + 8 * HOUR),
      started_at: startedAt === undefined ? null : date(startedAt),
      completed_at: completedAt === undefined ? null : date(completedAt),
      total_recipients: startedAt === undefined ? null : audience.length,
      created_by: creator.id,
      created_at: date(createdAt),
      updated_at: date(completedAt ?? startedAt ?? createdAt),
    });
    ctx.event(createdAt, 'email_campaign_created', 'email_campaign', id, creator.id, {
      name: spec.name,
      recipients: spec.recipients,
    });
  }

  const referenceTemplates: Row[] = [];
  const newTemplates: Row[] = [];
  TEMPLATES.forEach((template, index) => {
    const at = clock.at(random.int(300, 700), random);
    const history = {
      id: templateIds[index],
      // The number of emails sent with it, as the logs show.
      usage_count: usage[index],
      created_by: ctx.decider().id,
      created_at: date(at),
      updated_at: date(clock.past(at + random.int(0, 200) * DAY)),
    };
    if (template.reference) referenceTemplates.push(history);
    else {
      newTemplates.push({
        ...history,
        name: template.name,
        trigger: template.trigger,
        subject: template.subject,
        body: template.body,
        is_active: template.active,
      });
    }
  });
  logs.sort((a, b) => (a.created_at as Date).getTime() - (b.created_at as Date).getTime());
  return { referenceTemplates, newTemplates, campaigns, logs };
}
