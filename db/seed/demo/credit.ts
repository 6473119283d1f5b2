import { randomUUID } from 'node:crypto';
import { centsToNumber, sumCents, toCents } from '../../../app/utils/money.ts';
import { DAY, HOUR, Random, type Row, date, money } from './plumbing.ts';
import type { Staff } from './staff.ts';
import type { ClientInfo, Context, CustomerInfo, InvoiceInfo } from './context.ts';

// ---- Credit limits ----------------------------------------------------------------

export interface Credit {
  rows: Row[];
  /** Open requests, for the limit-approval tasks. */
  pending: Array<{ id: string; client: ClientInfo }>;
}

export function buildCredit(ctx: Context, clients: ClientInfo[], invoices: InvoiceInfo[], customers: CustomerInfo[]): Credit {
  const { random, clock } = ctx;
  const credit: Credit = { rows: [], pending: [] };
  const request = (fields: Row, requester: Staff | null, requestedAt: number, clientName: string, requested: number) => {
    const id = randomUUID();
    credit.rows.push({
      id,
      requested_by: requester?.id ?? null,
      requested_at: date(requestedAt),
      valid_until: clock.day(requestedAt + 365 * DAY),
      requested_limit: money(requested),
      created_at: date(requestedAt),
      updated_at: date(requestedAt),
      ...fields,
    });
    if (requester) {
      ctx.event(requestedAt, 'credit_limit_requested', 'credit_limit_request', id, requester.id, {
        clientName,
        requestedLimit: centsToNumber(requested),
      });
    }
    return id;
  };

  // A debtor's exposure is the same sum over its invoices, so the backfill finds it already right.
  const exposure = new Map<Row, number>(customers.map((customer) => [customer.row, 0]));
  for (const invoice of invoices.filter((i) => i.status === 'financed')) {
    const open = Math.max(0, invoice.factorAmount! - toCents(String(invoice.row.paid_amount)));
    exposure.set(invoice.customer.row, (exposure.get(invoice.customer.row) ?? 0) + open);
  }
  for (const [row, used] of exposure) row.used_credit = money(used);

  for (const client of clients) {
    // docs/money.md#the-clients-account: used credit is the advances still outstanding, each less the collections on its
    // invoice (never below zero), as the ledger the seed writes afterwards sums them (db/seed/demo/ledger.ts sets it again).
    const used = sumCents(invoices.filter((i) => i.client === client && i.status === 'financed').map((i) => Math.max(0, i.factorAmount! - toCents(String(i.row.paid_amount)))));
    client.row.used_credit = money(used);
    if (client.status === 'pending') {
      client.row.credit_limit = null;
      continue;
    }
    // A limit that leaves 5–80 % headroom, in steps of 10,000 EUR, so usage bars show green, amber and red.
    const utilisation = random.weighted([random.int(20, 60), 6], [random.int(61, 89), 3], [random.int(90, 95), 1]);
    const floor = [20_000, 50_000, 100_000][client.size] * 100;
    const limit = client.status === 'inactive' ? null : Math.max(floor, Math.ceil((used * 100) / utilisation / 1_000_000) * 1_000_000);
    client.row.credit_limit = limit === null ? null : money(limit);

    // The history: approved at onboarding, renewed yearly; all but the current one have expired.
    const approvals: number[] = [];
    for (let at = client.createdAt + random.int(2, 6) * DAY; at < clock.now; at += random.int(350, 364) * DAY) approvals.push(at);
    let previous: number | null = null;
    approvals.forEach((approvedAt, index) => {
      const current = index === approvals.length - 1;
      const granted = current && limit !== null ? limit : Math.max(floor, (limit ?? floor) - random.int(1, 5) * 2_500_000);
      const requester = ctx.anyone();
      const approver = ctx.decider(requester);
      const requestedAt = clock.past(Math.max(client.createdAt, approvedAt - random.int(1, 3) * DAY));
      const decidedAt = clock.past(approvedAt);
      const id = request(
        {
          client_id: client.id,
          previous_limit: previous === null ? null : money(previous),
          approved_limit: money(granted),
          reason: index === 0 ? 'Početni limit po sklapanju ugovora o faktoringu.' : 'Godišnja obnova limita na temelju financijskih izvještaja.',
          valid_until: clock.day(approvedAt + 365 * DAY),
          status: current && client.status === 'active' ? 'approved' : 'expired',
          decided_by: approver.id,
          decided_at: date(decidedAt),
          updated_at: date(decidedAt),
        },
        requester,
        requestedAt,
        client.companyName,
        granted,
      );
      ctx.event(decidedAt, 'credit_limit_approved', 'credit_limit_request', id, approver.id, {
        clientName: client.companyName,
        approvedLimit: centsToNumber(granted),
      });
      previous = granted;
    });
  }

  // Requests for an increase: eight open, six refused (four eyes: the decider never asked).
  const active = clients.filter((client) => client.status === 'active');
  for (const [index, client] of random.shuffle(active).slice(0, 14).entries()) {
    const current = client.row.credit_limit === null ? 0 : toCents(client.row.credit_limit as string);
    const requested = current + random.int(2, 20) * 2_500_000;
    const requester = ctx.anyone();
    const requestedAt = clock.at(index < 8 ? random.int(0, 12) : random.int(20, 200), random);
    const rejected = index >= 8;
    const decider = rejected ? ctx.decider(requester) : undefined;
    const decidedAt = rejected ? clock.past(requestedAt + random.int(1, 4) * DAY) : undefined;
    const reason = random.pick([
      'Povećanje prometa s postojećim kupcima.',
      'Novi ugovor s velikim kupcem, očekivani rast fakturiranja.',
      'Sezonski porast prodaje.',
      'Proširenje suradnje na nove kupce u regiji.',
    ]);
    const id = request(
      {
        client_id: client.id,
        previous_limit: money(current),
        approved_limit: null,
        reason,
        status: rejected ? 'rejected' : 'pending',
        decided_by: decider?.id ?? null,
        decided_at: decidedAt === undefined ? null : date(decidedAt),
        // docs/lifecycle.md#credit-limits: the fixed reason of a rejection.
        rejection_reason: rejected ? 'Odbijeno od strane administratora' : null,
        updated_at: date(decidedAt ?? requestedAt),
      },
      requester,
      requestedAt,
      client.companyName,
      requested,
    );
    if (rejected) {
      ctx.event(decidedAt!, 'credit_limit_rejected', 'credit_limit_request', id, decider!.id, {
        clientName: client.companyName,
        reason: 'Odbijeno od strane administratora',
      });
    } else credit.pending.push({ id, client });
  }

  // Applicants asked for a limit in the wizard: a pending request without a requesting user.
  for (const client of clients.filter((c) => c.status === 'pending').slice(0, 3)) {
    const requested = random.pick([50_000, 75_000, 100_000, 150_000]) * 100;
    const id = request(
      {
        client_id: client.id,
        previous_limit: null,
        approved_limit: null,
        reason: 'Željeni kreditni limit iz registracije klijenta.',
        status: 'pending',
      },
      null,
      client.createdAt,
      client.companyName,
      requested,
    );
    credit.pending.push({ id, client });
  }
  return credit;
}

// ---- Debtor limits ----------------------------------------------------------------

/**
 * The debtors' (customers') limits: customers.used_credit is the outstanding
 * advances of their financed invoices across all clients (docs/money.md; the
 * ledger's rows, once the demo has them, give the same sums), and most
 * debtors have an approved limit above it, with the same four-eyes history as
 * the clients: a few open requests, one refused, one lapsed before its
 * renewal, and some debtors without a limit. Drawn from a PRNG of its own and
 * built after the rest of the book, so the other tables keep their draws.
 */
export function buildDebtorLimits(ctx: Context, customers: CustomerInfo[], invoices: InvoiceInfo[], credit: Credit): void {
  const { clock } = ctx;
  const random = new Random(0x64656274);
  const pickRequester = () => random.pick(ctx.staff.all);
  const pickDecider = (except: Staff) => random.pick(ctx.staff.deciders.filter((user) => user !== except));
  const exposure = new Map<CustomerInfo, number>();
  for (const invoice of invoices) {
    if (invoice.status === 'financed') exposure.set(invoice.customer, (exposure.get(invoice.customer) ?? 0) + invoice.factorAmount!);
  }
  const request = (customer: CustomerInfo, fields: Row, requester: Staff, requestedAt: number, requested: number, previous: number | null) => {
    const id = randomUUID();
    credit.rows.push({
      id,
      customer_id: customer.id,
      previous_limit: previous === null ? null : money(previous),
      requested_by: requester.id,
      requested_at: date(requestedAt),
      valid_until: clock.day(requestedAt + 365 * DAY),
      requested_limit: money(requested),
      approved_limit: null,
      decided_by: null,
      decided_at: null,
      rejection_reason: null,
      created_at: date(requestedAt),
      updated_at: date(requestedAt),
      ...fields,
    });
    ctx.event(requestedAt, 'credit_limit_requested', 'credit_limit_request', id, requester.id, {
      customerName: customer.companyName,
      requestedLimit: centsToNumber(requested),
    });
    return id;
  };
  const approve = (customer: CustomerInfo, at: number, granted: number, previous: number | null, reason: string, validUntil: string, status: 'approved' | 'expired') => {
    const requester = pickRequester();
    const decider = pickDecider(requester);
    const requestedAt = clock.past(Math.max(customer.createdAt + DAY, at - random.int(1, 3) * DAY));
    const decidedAt = clock.past(Math.max(requestedAt + HOUR, at));
    const id = request(
      customer,
      { approved_limit: money(granted), reason, status, valid_until: validUntil, decided_by: decider.id, decided_at: date(decidedAt), updated_at: date(decidedAt) },
      requester,
      requestedAt,
      granted,
      previous,
    );
    ctx.event(decidedAt, 'credit_limit_approved', 'credit_limit_request', id, decider.id, { customerName: customer.companyName, approvedLimit: centsToNumber(granted) });
  };

  const order = random.shuffle(customers);
  const withoutLimit = new Set(order.slice(0, 12));
  const limits = new Map<CustomerInfo, number>();
  for (const customer of customers) {
    const used = exposure.get(customer) ?? 0;
    customer.row.used_credit = money(used);
    if (withoutLimit.has(customer)) {
      customer.row.credit_limit = null;
      continue;
    }
    // Above the exposure with 15–75 % headroom, in steps of 10,000 EUR, at least 30,000 EUR.
    const utilisation = random.int(25, 85);
    const limit = Math.max(3_000_000, Math.ceil((used * 100) / utilisation / 1_000_000) * 1_000_000);
    customer.row.credit_limit = money(limit);
    limits.set(customer, limit);
    const approvedAt = clock.at(random.int(5, 300), random);
    approve(customer, approvedAt, limit, null, 'Limit dužnika na temelju financijskih izvještaja i povijesti plaćanja.', clock.day(approvedAt + 365 * DAY), 'approved');
  }

  // One limit lapsed a year on, before the current one was approved: its row says 'expired'.
  const lapsed = order.slice(12).find((customer) => customer.createdAt < clock.now - 500 * DAY);
  if (lapsed) {
    const grantedAt = clock.at(430, random);
    const earlier = Math.max(3_000_000, limits.get(lapsed)! - 1_000_000);
    approve(lapsed, grantedAt, earlier, null, 'Početni limit dužnika.', clock.day(grantedAt + 365 * DAY), 'expired');
  }

  // Open requests: increases for some debtors, first limits for two without one; one increase refused (four eyes: the decider never asked).
  const reasons = ['Novi klijent fakturira ovom dužniku.', 'Rast prometa dužnika s više klijenata.', 'Sezonski porast isporuka dužniku.'];
  const open = [...order.slice(12, 18), ...order.slice(0, 2)];
  for (const [index, customer] of open.entries()) {
    const current = limits.get(customer) ?? null;
    const requested = (current ?? 2_000_000) + random.int(2, 10) * 1_000_000;
    request(customer, { reason: random.pick(reasons), status: 'pending' }, pickRequester(), clock.at(random.int(0, 10) + index, random), requested, current);
  }
  const refused = order[18];
  const refusedRequester = pickRequester();
  const refusedDecider = pickDecider(refusedRequester);
  const refusedAt = clock.at(random.int(20, 60), random);
  const refusedDecidedAt = clock.past(refusedAt + 2 * DAY);
  const refusedId = request(
    refused,
    {
      reason: 'Povećanje limita za novi ugovor.',
      status: 'rejected',
      decided_by: refusedDecider.id,
      decided_at: date(refusedDecidedAt),
      // docs/lifecycle.md#credit-limits: the fixed reason of a rejection.
      rejection_reason: 'Odbijeno od strane administratora',
      updated_at: date(refusedDecidedAt),
    },
    refusedRequester,
    refusedAt,
    limits.get(refused)! * 2,
    limits.get(refused)!,
  );
  ctx.event(refusedDecidedAt, 'credit_limit_rejected', 'credit_limit_request', refusedId, refusedDecider.id, {
    customerName: refused.companyName,
    reason: 'Odbijeno od strane administratora',
  });
}
