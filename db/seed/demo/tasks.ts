import { randomUUID } from 'node:crypto';
import { DAY, HOUR, type Row, date } from './plumbing.ts';
import type { Staff } from './staff.ts';
import type { ClientInfo, Context, CustomerInfo, InvoiceInfo } from './context.ts';
import type { Credit } from './credit.ts';
import { newestActive } from './documents.ts';

// ---- Tasks ----------------------------------------------------------------------------

interface TaskSpec {
  title: string;
  description: string;
  type: string;
  priority: string;
  status: 'pending' | 'in_progress' | 'completed' | 'cancelled';
  entity: [string, string] | null;
  createdAt: number;
  /** Days after creation; an open task past it shows as late. */
  dueInDays: number;
  completedAt?: number;
  /** undefined: someone at random, or nobody (unassigned). */
  assignee?: Staff | null;
  /** null: opened by a workflow. */
  createdBy?: string | null;
  workflow?: [instanceId: string, step: number];
  notes?: string;
}

export class TaskBook {
  readonly rows: Row[] = [];
  constructor(private readonly ctx: Context) {}

  open(task: TaskSpec): string {
    const { random, clock } = this.ctx;
    const id = randomUUID();
    const assignee = task.assignee === undefined ? (random.chance(0.8) ? this.ctx.anyone() : null) : task.assignee;
    const createdBy = task.createdBy === undefined ? this.ctx.anyone().id : task.createdBy;
    this.rows.push({
      id,
      title: task.title,
      description: task.description,
      type: task.type,
      priority: task.priority,
      status: task.status,
      assigned_to: assignee?.id ?? null,
      // 15:00 UTC (16:00 or 17:00 in Zagreb) on the due day.
      due_date: date(Math.floor(task.createdAt / DAY) * DAY + task.dueInDays * DAY + 15 * HOUR),
      entity_type: task.entity?.[0] ?? null,
      entity_id: task.entity?.[1] ?? null,
      notes: task.notes ?? null,
      workflow_instance_id: task.workflow?.[0] ?? null,
      workflow_step: task.workflow?.[1] ?? null,
      created_by: createdBy,
      created_at: date(task.createdAt),
      completed_at: task.completedAt === undefined ? null : date(task.completedAt),
      updated_at: date(task.completedAt ?? task.createdAt),
    });
    const details = { title: task.title, type: task.type };
    this.ctx.event(task.createdAt, 'task_created', 'task', id, createdBy, details);
    if (task.completedAt !== undefined) {
      this.ctx.event(task.completedAt, 'task_completed', 'task', id, assignee?.id ?? null, details);
    } else if (task.status !== 'pending') {
      const at = clock.past(task.createdAt + 3 * HOUR);
      this.ctx.event(at, 'task_updated', 'task', id, assignee?.id ?? null, { ...details, status: task.status });
    }
    return id;
  }
}

/** Day-to-day tasks: every type, priority and status, linked to what they are about. */
export function buildDailyTasks(
  ctx: Context,
  tasks: TaskBook,
  book: { clients: ClientInfo[]; customers: CustomerInfo[]; invoices: InvoiceInfo[]; documents: Row[]; credit: Credit },
) {
  const { random, clock } = ctx;
  const TYPES = ['kyc_verification', 'risk_assessment', 'manual_review', 'document_review', 'customer_contact', 'limit_approval'];
  const PRIORITIES = ['urgent', 'high', 'medium', 'normal', 'low'];
  const STATUSES = ['pending', 'in_progress', 'completed', 'cancelled'] as const;
  const pending = book.clients.filter((client) => client.status === 'pending');
  const active = book.clients.filter((client) => client.status === 'active');
  const overdue = book.invoices.filter((i) => i.status === 'financed' && Date.parse(i.dueDay) < clock.midnight);

  for (let i = 0; i < 48; i++) {
    const type = TYPES[i % TYPES.length];
    const status = STATUSES[Math.floor(i / 3) % STATUSES.length];
    const open = status === 'pending' || status === 'in_progress';
    const createdAt = clock.at(open ? random.int(0, 10) : random.int(5, 90), random);
    let title: string;
    let description: string;
    let entity: [string, string];
    if (type === 'kyc_verification') {
      const client = random.pick([...pending, ...newestActive(book.clients)]);
      title = `KYC provjera – ${client.companyName}`;
      description = 'Provjeriti stvarne vlasnike i usporediti izvadak iz sudskog registra s podacima iz registracije.';
      entity = ['client', client.id];
    } else if (type === 'risk_assessment') {
      const customer = random.pick(book.customers);
      title = `Revizija procjene rizika – ${customer.companyName}`;
      description = 'Ažurirati procjenu rizika nakon nove FINA provjere.';
      entity = ['customer', customer.id];
    } else if (type === 'manual_review') {
      const invoice = random.pick(book.invoices);
      title = `Ručna provjera fakture ${invoice.number} – ${invoice.client.companyName}`;
      description = 'Usporediti fakturu s otpremnicom i narudžbenicom kupca.';
      entity = ['invoice', invoice.id];
    } else if (type === 'document_review') {
      const document = random.pick(book.documents);
      title = `Pregled dokumenta: ${document.name}`;
      description = 'Provjeriti potpunost i valjanost dokumenta.';
      entity = ['document', document.id as string];
    } else if (type === 'customer_contact') {
      const invoice = overdue.length ? random.pick(overdue) : random.pick(book.invoices);
      title = `Kontaktirati kupca ${invoice.customer.companyName} – faktura ${invoice.number}`;
      description = 'Faktura je dospjela, a uplata nije zaprimljena. Dogovoriti rok plaćanja.';
      entity = ['customer', invoice.customer.id];
    } else {
      const request = book.credit.pending.length ? random.pick(book.credit.pending) : undefined;
      const client = request?.client ?? random.pick(active);
      title = `Odobrenje kreditnog limita – ${client.companyName}`;
      description = 'Pregledati financijske pokazatelje i odlučiti o zahtjevu za limit.';
      entity = request ? ['credit_limit_request', request.id] : ['client', client.id];
    }
    tasks.open({
      title,
      description,
      type,
      priority: PRIORITIES[i % PRIORITIES.length],
      status,
      // A few general tasks are about nothing in particular.
      entity: i % 16 === 15 ? null : entity,
      createdAt,
      dueInDays: random.int(1, 10),
      completedAt: status === 'completed' ? clock.past(clock.office(createdAt + random.int(2, 72) * HOUR)) : undefined,
      notes: status === 'cancelled' ? 'Otkazano: zadatak više nije potreban.' : status === 'completed' ? 'Riješeno.' : undefined,
    });
  }
}
