import { randomUUID } from 'node:crypto';
import { DAY, date } from './plumbing.ts';
import { ADVANCE_RATES, BLOCKAGE_REASONS, CITIES, CLIENT_COMPANIES, CUSTOMER_ROOTS, CUSTOMER_TRADES, FEE_RATES, LEGAL_FORMS, asciiSlug } from './croatia.ts';
import { type ClientInfo, type Context, type CustomerInfo, cityOf } from './context.ts';

// ---- Clients and customers --------------------------------------------------

export function buildClients(ctx: Context): ClientInfo[] {
  const { random, clock } = ctx;
  // 33 active, 5 pending (in onboarding, registered in the last weeks), 2 inactive.
  const statuses = random.shuffle<ClientInfo['status']>([
    ...Array<ClientInfo['status']>(33).fill('active'),
    ...Array<ClientInfo['status']>(5).fill('pending'),
    ...Array<ClientInfo['status']>(2).fill('inactive'),
  ]);
  return CLIENT_COMPANIES.map(([companyName, cityName], index) => {
    const status = statuses[index];
    const createdDaysAgo =
      status === 'pending' ? random.int(2, 25) : status === 'inactive' ? random.int(650, 760) : random.weighted([random.int(400, 760), 7], [random.int(60, 399), 3]);
    const contactPerson = ctx.person();
    const domain = `${asciiSlug(companyName)}.hr`;
    const [first, last] = contactPerson.split(' ');
    const creator = ctx.anyone();
    const createdAt = clock.at(createdDaysAgo, random);
    const client: ClientInfo = {
      id: randomUUID(),
      companyName,
      oib: ctx.oib(),
      email: random.chance(0.5) ? `${asciiSlug(first)}.${asciiSlug(last)}@${domain}` : `info@${domain}`,
      iban: ctx.iban(),
      createdAt,
      foundedYear: random.int(1991, 2019),
      riskScore: null,
      status,
      size: random.weighted<0 | 1 | 2>([0, 4], [1, 4], [2, 2]),
      advanceRate: random.pick(ADVANCE_RATES),
      feeRate: random.pick(FEE_RATES),
      contactPerson,
      customers: [],
      row: {},
    };
    const onboarded = status !== 'pending';
    client.row = {
      id: client.id,
      company_name: companyName,
      oib: client.oib,
      address: ctx.address(cityName),
      city: cityName,
      postal_code: cityOf(cityName)[1],
      country: 'Croatia',
      contact_person: contactPerson,
      email: client.email,
      phone: ctx.phone(cityName),
      iban: client.iban,
      registration_number: ctx.registrationNumber(),
      status,
      advance_rate: client.advanceRate,
      fee_rate: client.feeRate,
      recourse: random.chance(0.8),
      agreement_number: onboarded ? `UGF-${new Date(createdAt).getUTCFullYear()}-${String(index + 1).padStart(4, '0')}` : null,
      agreement_signed_on: onboarded ? clock.day(createdAt + random.int(1, 6) * DAY) : null,
      founded_on: ctx.foundedOn(client.foundedYear),
      onboarding_status: onboarded ? 'completed' : 'in_progress',
      // Applicants register themselves in the public wizard.
      created_by: onboarded ? creator.id : null,
      created_at: date(createdAt),
      updated_at: date(createdAt),
    };
    ctx.event(createdAt, 'client_created', 'client', client.id, onboarded ? creator.id : null, {
      companyName,
      oib: client.oib,
      ...(onboarded ? {} : { source: 'onboarding' }),
    });
    return client;
  });
}

export function buildCustomers(ctx: Context, clients: ClientInfo[]): CustomerInfo[] {
  const { random, clock } = ctx;
  const names = random
    .shuffle(CUSTOMER_ROOTS.flatMap((root) => CUSTOMER_TRADES.map((trade) => `${root} ${trade}`)))
    .slice(0, 120)
    .map((name) => `${name} ${random.pick(LEGAL_FORMS)}`);
  const customers = names.map((companyName, index) => {
    const [cityName] = random.pick(CITIES);
    const blocked = index % 20 === 7; // six blocked customers
    const customer: CustomerInfo = {
      id: randomUUID(),
      companyName,
      oib: ctx.oib(),
      email: `${random.pick(['racunovodstvo', 'financije', 'info', 'nabava'])}@${asciiSlug(companyName)}.hr`,
      iban: ctx.iban(),
      // Moved before the customer's first invoice once invoices exist (buildInvoices).
      createdAt: clock.at(random.int(30, 780), random),
      foundedYear: random.int(1990, 2021),
      riskScore: null,
      blocked,
      row: {},
    };
    customer.row = {
      id: customer.id,
      company_name: companyName,
      oib: customer.oib,
      address: ctx.address(cityName),
      city: cityName,
      postal_code: cityOf(cityName)[1],
      country: 'Croatia',
      email: customer.email,
      phone: ctx.phone(cityName),
      iban: customer.iban,
      registration_number: ctx.registrationNumber(),
      account_blocked: blocked,
      blockage_reason: blocked ? random.pick(BLOCKAGE_REASONS) : null,
      last_fina_check: blocked || random.chance(0.85) ? date(clock.at(random.int(0, 20), random)) : null,
      founded_on: ctx.foundedOn(customer.foundedYear),
      created_by: ctx.anyone().id,
    };
    return customer;
  });
  // Each client sells to a handful of customers; customers may buy from several clients.
  for (const client of clients) client.customers = random.shuffle(customers).slice(0, random.int(3, 7));
  return customers;
}
