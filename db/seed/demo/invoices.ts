import { randomUUID } from 'node:crypto';
import { invoiceFee } from '../../../app/agreements/fees.ts';
import { feeTermsOf } from '../../../app/agreements/in-force.server.ts';
import { FEE_VAT } from '../../../app/einvoices/outgoing.server.ts';
import { centsToNumber, percentOfCents, sumCents } from '../../../app/utils/money.ts';
import { DAY, HOUR, MINUTE, type Random, type Row, date, money } from './plumbing.ts';
import { LINE_ITEMS, MONTHS, REJECTION_REASONS } from './croatia.ts';
import type { Staff } from './staff.ts';
import { agreementOn } from './parties.ts';
import type { ClientInfo, Context, CustomerInfo, InvoiceInfo } from './context.ts';

// ---- Invoices, lines, payments, payouts ---------------------------------------

export interface Ledger {
  invoices: InvoiceInfo[];
  lines: Row[];
  payments: Row[];
  payouts: Row[];
}

// Invoice amounts in EUR by client size: [range, weight].
const AMOUNT_RANGES: ReadonlyArray<ReadonlyArray<readonly [readonly [number, number], number]>> = [
  [
    [[500, 3_000], 5],
    [[3_000, 12_000], 4],
    [[12_000, 30_000], 1],
  ],
  [
    [[2_000, 8_000], 3],
    [[8_000, 30_000], 5],
    [[30_000, 70_000], 2],
  ],
  [
    [[5_000, 20_000], 3],
    [[20_000, 60_000], 5],
    [[60_000, 150_000], 2],
  ],
];

const DESCRIPTIONS: ReadonlyArray<(n: string, month: string, year: number) => string> = [
  (n) => `Isporuka robe prema narudžbenici br. ${n}`,
  (_, month, year) => `Usluge prijevoza za ${month} ${year}.`,
  (n) => `Građevinski radovi – privremena situacija br. ${(Number(n.slice(-2)) % 9) + 1}`,
  (_, month, year) => `Održavanje informatičkog sustava za ${month} ${year}.`,
  (n) => `Isporuka ambalaže – otpremnica ${n}`,
  (n) => `Konzultantske usluge prema ugovoru ${n}`,
  (_, month, year) => `Najam opreme za ${month} ${year}.`,
  (n) => `Isporuka materijala za gradilište, narudžba ${n}`,
];

const STAGE: Record<string, number> = { pending: 0, rejected: 0, verified: 1, approved: 2, financed: 3, paid: 3 };

export function buildInvoices(ctx: Context, clients: ClientInfo[], customers: CustomerInfo[]): Ledger {
  const { random, clock } = ctx;
  const ledger: Ledger = { invoices: [], lines: [], payments: [], payouts: [] };
  const bankEntries = { next: 0 };

  for (const client of clients) {
    if (client.status === 'pending') continue;
    const clientAgeDays = Math.floor((clock.midnight - client.createdAt) / DAY) + 1;
    // About eighteen months of invoices; inactive clients stopped about seven months ago.
    const newest = client.status === 'inactive' ? 210 : 0;
    const oldest = Math.min(540, clientAgeDays - 7);
    const perMonth = [0.9, 1.3, 1.6][client.size];
    const count = Math.max(2, Math.round(((oldest - newest) / 30) * perMonth));
    const issueDaysAgo = Array.from({ length: count }, () => random.int(newest, oldest)).sort((a, b) => b - a);
    const sequenceByYear = new Map<number, number>();
    for (const issueAgo of issueDaysAgo) {
      const year = new Date(clock.midnight - issueAgo * DAY).getUTCFullYear();
      const sequence = (sequenceByYear.get(year) ?? 0) + 1;
      sequenceByYear.set(year, sequence);
      ledger.invoices.push(buildInvoice(ctx, ledger, client, issueAgo, `R-${year}-${String(sequence).padStart(4, '0')}`, bankEntries));
    }
  }

  // Customers existed before their first invoice.
  for (const customer of customers) {
    const first = Math.min(...ledger.invoices.filter((invoice) => invoice.customer === customer).map((invoice) => invoice.createdAt));
    if (first < customer.createdAt) customer.createdAt = first - random.int(1, 30) * DAY;
    Object.assign(customer.row, { created_at: date(customer.createdAt), updated_at: date(customer.createdAt) });
  }
  return ledger;
}

/** The status an invoice issued `issueAgo` days ago, due `dueAgo` days ago (negative: not yet), would have by now. */
function lifecycleStatus(random: Random, issueAgo: number, dueAgo: number): string {
  if (issueAgo < 3) return random.weighted(['pending', 8], ['verified', 2]);
  if (dueAgo < 0 && issueAgo < 6) return random.weighted(['pending', 4], ['verified', 3], ['approved', 2], ['rejected', 1]);
  if (dueAgo < 0) {
    // Not due yet: most are financed, the rest still on their way (or refused).
    return random.weighted(['financed', 55], ['pending', 10], ['verified', 10], ['approved', 10], ['rejected', 8], ['paid', 7]);
  }
  // Due: mostly collected by now; a few financed ones are overdue, but only recently.
  if (dueAgo < 70) return random.weighted(['financed', 12], ['paid', 78], ['rejected', 10]);
  return random.weighted(['paid', 88], ['rejected', 12]);
}

/** One invoice, taken as far along its lifecycle as an invoice of its age would be by now. */
function buildInvoice(ctx: Context, ledger: Ledger, client: ClientInfo, issueAgo: number, number: string, bankEntries: { next: number }): InvoiceInfo {
  const { random, clock } = ctx;
  const issueMs = clock.midnight - issueAgo * DAY;
  const termDays = random.pick([30, 30, 45, 60, 60, 90]);
  const dueAgo = issueAgo - termDays;
  const dueDay = clock.dayAgo(dueAgo);
  const customer = random.pick(client.customers);
  const id = randomUUID();

  // Lines for about a quarter of the invoices; the amount is then their net plus 25 % VAT.
  let amount: number;
  if (random.chance(0.25)) {
    const nets: number[] = [];
    const lineCount = random.int(1, 4);
    for (let lineNumber = 1; lineNumber <= lineCount; lineNumber++) {
      const [description, kpd, unit, minPrice, maxPrice] = random.pick(LINE_ITEMS);
      const quantity = random.int(1, unit === 'KMT' ? 1800 : unit === 'KGM' ? 20_000 : 120);
      const unitPrice = random.int(minPrice, maxPrice);
      nets.push(quantity * unitPrice);
      ledger.lines.push({
        id: randomUUID(),
        invoice_id: id,
        line_number: lineNumber,
        description,
        quantity: `${quantity}.0000`,
        unit_code: unit,
        unit_price: `${money(unitPrice)}00`,
        net_amount: money(quantity * unitPrice),
        vat_category: 'S',
        vat_rate: '25.00',
        kpd_code: kpd,
      });
    }
    const net = sumCents(nets);
    amount = net + percentOfCents(net, '25');
  } else {
    const [min, max] = random.weighted(...AMOUNT_RANGES[client.size]);
    amount = random.int(min * 100, max * 100);
  }

  let status = lifecycleStatus(random, issueAgo, dueAgo);
  // Financing is refused for a blocked customer: most of theirs wait, approved.
  if (customer.blocked && status === 'financed' && dueAgo < 0 && random.chance(0.7)) status = 'approved';

  const creator = ctx.anyone();
  const createdAt = clock.at(issueAgo - random.int(0, 1), random);
  const row: Row = {
    id,
    client_id: client.id,
    customer_id: customer.id,
    invoice_number: number,
    status,
    verification_status: 'pending',
    amount: money(amount),
    currency: 'EUR',
    issue_date: clock.day(issueMs),
    due_date: dueDay,
    description: random.pick(DESCRIPTIONS)(String(random.int(1000, 9999)), MONTHS[new Date(issueMs).getUTCMonth()], new Date(issueMs).getUTCFullYear()),
    agreement_id: null,
    factor_amount: null,
    factor_fee: null,
    paid_amount: '0.00',
    created_by: creator.id,
    created_at: date(createdAt),
  };
  const invoice: InvoiceInfo = { id, number, client, customer, status, amount, dueDay, createdAt, row };
  const details = { invoiceNumber: number, clientName: client.companyName, amount: centsToNumber(amount) };
  ctx.event(createdAt, 'invoice_created', 'invoice', id, creator.id, details);

  // Each step a few office hours after the previous one; never later than now.
  let cursor = createdAt;
  const step = () => (cursor = clock.past(clock.office(cursor + random.int(2, 30) * HOUR)));
  const rejectedStage = status === 'rejected' ? random.weighted([0, 5], [1, 3], [2, 2]) : 0;
  const reaches = (stage: number) => STAGE[status] >= stage || rejectedStage >= stage;

  let verifier: Staff | undefined;
  if (reaches(1)) {
    verifier = ctx.decider();
    Object.assign(row, { verification_status: 'verified', verified_by: verifier.id, verified_at: date(step()) });
    ctx.event(cursor, 'invoice_verified', 'invoice', id, verifier.id, details);
  } else if (status === 'pending' && random.chance(0.08)) {
    row.verification_status = 'failed';
  }
  if (reaches(2)) {
    // Four eyes: whoever verified does not approve.
    const approver = ctx.decider(verifier);
    Object.assign(row, { approved_by: approver.id, approved_at: date(step()) });
    ctx.event(cursor, 'invoice_approved', 'invoice', id, approver.id, details);
  }
  if (status === 'rejected') {
    const rejecter = ctx.decider();
    const reason = customer.blocked ? REJECTION_REASONS[3] : random.pick(REJECTION_REASONS);
    Object.assign(row, { rejected_by: rejecter.id, rejected_at: date(step()), rejection_reason: reason });
    if (rejectedStage === 0 && random.chance(0.5)) row.verification_status = 'failed';
    ctx.event(cursor, 'invoice_rejected', 'invoice', id, rejecter.id, { ...details, reason });
  }
  if (status === 'financed' || status === 'paid') {
    const financer = ctx.decider();
    const financedAt = step();
    // The version in force on the financing day sets the advance and the fee expected to the due date (docs/money.md#the-agreement);
    // for the discount model without minimum or admin fee that is amount × rate × started 30-day periods, as before.
    const agreement = agreementOn(client, clock.day(financedAt)) ?? client.agreements[0];
    const factorAmount = percentOfCents(amount, agreement.advanceRate);
    const factorFee = invoiceFee(feeTermsOf({ fee_model: agreement.feeModel, fee_rate: agreement.feeRate, minimum_fee: agreement.minimumFee, admin_fee: agreement.adminFee }), {
      amountCents: amount,
      advanceCents: factorAmount,
      financedOn: clock.day(financedAt),
      until: dueDay,
    }).totalCents;
    Object.assign(invoice, { financedAt, factorAmount, factorFee });
    Object.assign(row, {
      agreement_id: agreement.id,
      financed_by: financer.id,
      financed_at: date(financedAt),
      factor_amount: money(factorAmount),
      factor_fee: money(factorFee),
    });
    ctx.event(financedAt, 'invoice_financed', 'invoice', id, financer.id, {
      ...details,
      factorAmount: centsToNumber(factorAmount),
      factorFee: centsToNumber(factorFee),
    });
    ledger.payouts.push(payout(ctx, invoice, 'advance', factorAmount, financedAt, financer));
    const confirmed = collect(ctx, ledger, invoice, bankEntries);
    row.paid_amount = money(confirmed);
    if (invoice.paidAt !== undefined) {
      row.paid_at = date(invoice.paidAt);
      ctx.event(invoice.paidAt, 'invoice_paid', 'invoice', id, null, details);
      // The reserve goes back to the client once the customer has paid, less the fee and its VAT
      // (docs/money.md#the-clients-account), so the settled invoice's ledger entries sum to zero. A minimum
      // fee may take the whole reserve of a small invoice: nothing then goes back and the client owes the rest.
      const reserve = amount - factorAmount - factorFee - percentOfCents(factorFee, FEE_VAT.rate);
      const releaser = ctx.decider();
      if (reserve > 0) ledger.payouts.push(payout(ctx, invoice, 'reserve_release', reserve, invoice.paidAt, releaser));
    }
  }
  row.updated_at = date(Math.max(cursor, invoice.paidAt ?? 0));
  return invoice;
}

/** A payout to the client's IBAN, exported in the next day's SEPA batch and paid soon after. */
function payout(ctx: Context, invoice: InvoiceInfo, kind: 'advance' | 'reserve_release', amount: number, at: number, by: Staff): Row {
  const age = ctx.clock.now - at;
  const exported = age > 2 * DAY;
  return {
    id: randomUUID(),
    client_id: invoice.client.id,
    invoice_id: invoice.id,
    kind,
    amount: money(amount),
    currency: 'EUR',
    iban: invoice.client.iban,
    status: age > 4 * DAY ? 'paid' : exported ? 'exported' : 'pending',
    export_batch_id: exported ? `SEPA-${ctx.clock.day(at + DAY)}` : null,
    exported_at: exported ? date(at + DAY) : null,
    created_by: by.id,
    created_at: date(at),
    updated_at: date(exported ? at + DAY : at),
  };
}

/**
 * The customer's payments on a financed invoice. A paid invoice's confirmed
 * payments add up to its amount (sets `invoice.paidAt`); an open one may have
 * a pending, failed or partial payment. Returns the confirmed total.
 */
function collect(ctx: Context, ledger: Ledger, invoice: InvoiceInfo, bankEntries: { next: number }): number {
  const { random, clock } = ctx;
  const { amount, number } = invoice;
  const financedAt = invoice.financedAt!;
  const confirmed: number[] = [];
  const add = (amountCents: number, status: 'pending' | 'confirmed' | 'failed' | 'refunded', at: number, notes?: string) => {
    // Most settled payments come in with the bank statement import; the rest are typed in.
    const fromBank = status !== 'pending' && random.chance(0.6);
    const recorder = ctx.anyone();
    const processor = ctx.decider();
    const createdAt = fromBank ? at - random.int(5, 120) * MINUTE : at - random.int(1, 48) * HOUR;
    const id = randomUUID();
    ledger.payments.push({
      id,
      invoice_id: invoice.id,
      amount: money(amountCents),
      currency: 'EUR',
      payment_method: fromBank ? 'bank_transfer' : random.weighted(['bank_transfer', 85], ['card', 6], ['check', 5], ['cash', 4]),
      status,
      reference: `HR00 ${number.replace(/\D/g, '')}`,
      notes: notes ?? null,
      source: fromBank ? 'bank_statement' : 'manual',
      bank_entry_ref: fromBank ? `IZV-${clock.day(at).replace(/-/g, '')}-${String(++bankEntries.next).padStart(5, '0')}` : null,
      recorded_by: fromBank ? null : recorder.id,
      processed_by: status === 'pending' ? null : processor.id,
      processed_at: status === 'pending' ? null : date(at),
      created_at: date(Math.max(createdAt, financedAt + MINUTE)),
      updated_at: date(at),
    });
    const details = { invoiceNumber: number, amount: centsToNumber(amountCents) };
    if (status === 'confirmed') confirmed.push(amountCents);
    if (status === 'pending') ctx.event(at, 'payment_recorded', 'payment', id, recorder.id, details);
    else ctx.event(at, `payment_${status}`, 'payment', id, processor.id, details);
  };

  if (invoice.status === 'paid') {
    const dueMs = Date.parse(invoice.dueDay);
    const paidAt = clock.past(Math.max(financedAt + random.int(1, 5) * DAY, dueMs + random.int(-12, 20) * DAY + random.int(8, 15) * HOUR));
    const earlier = (maxDays: number, minDays = 2) => Math.max(financedAt + HOUR, paidAt - random.int(minDays, maxDays) * DAY);
    if (random.chance(0.06)) add(amount, 'failed', earlier(6), 'Banka odbila nalog: nedovoljno sredstava na računu platitelja.');
    if (random.chance(0.15)) {
      const first = Math.floor((amount * random.int(3, 6)) / 10);
      add(first, 'confirmed', earlier(20, 5), 'Djelomična uplata.');
      add(amount - first, 'confirmed', paidAt);
    } else {
      add(amount, 'confirmed', paidAt);
    }
    if (random.chance(0.04)) {
      add(amount, 'refunded', clock.past(paidAt + random.int(2, 6) * DAY), 'Dvostruka uplata – iznos vraćen kupcu.');
    }
    invoice.paidAt = paidAt;
  } else {
    const kind = random.weighted(['none', 66], ['pending', 16], ['partial', 10], ['failed', 8]);
    const recent = (daysBack: number) => clock.past(Math.max(financedAt + HOUR, clock.at(random.int(0, daysBack), random)));
    if (kind === 'partial') {
      const part = Math.floor((amount * random.int(2, 5)) / 10);
      add(part, 'confirmed', recent(20), 'Djelomična uplata po dogovoru o obročnoj otplati.');
      if (random.chance(0.5)) add(amount - part, 'pending', recent(3));
    } else if (kind === 'pending') {
      add(amount, 'pending', recent(6));
    } else if (kind === 'failed') {
      const reason = random.pick(['Povrat od banke: neispravan IBAN primatelja.', 'Banka odbila nalog: račun platitelja je blokiran.']);
      add(amount, 'failed', recent(25), reason);
    }
  }
  return sumCents(confirmed);
}
