import { createHash, randomUUID } from 'node:crypto';
import { DAY, date } from './plumbing.ts';
import { ADVANCE_RATES, BLOCKAGE_REASONS, CITIES, CLIENT_COMPANIES, CUSTOMER_ROOTS, CUSTOMER_TRADES, FEE_RATES, LEGAL_FORMS, asciiSlug } from './croatia.ts';
import { type AgreementInfo, type ClientInfo, type Context, type CustomerInfo, cityOf } from './context.ts';
import type { Row } from './plumbing.ts';

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
      agreements: [],
      contactPerson,
      customers: [],
      row: {},
    };
    // Drawn in this order so that the rest of the book stays as it was.
    const advanceRate = random.pick(ADVANCE_RATES);
    const feeRate = random.pick(FEE_RATES);
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
    const recourse = random.chance(0.8);
    const signedAt = onboarded ? createdAt + random.int(1, 6) * DAY : null;
    if (signedAt !== null) client.agreements = buildAgreements(ctx, client, { index, advanceRate, feeRate, recourse, signedAt, creator: creator.id });
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

const FEE_MODELS = ['discount_30', 'interest_365', 'interest_360'] as const;

/** An id derived from the client's, not drawn: the agreements came after the book, and drawing would move every later id. */
function derivedUuid(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A KYC-approved client's agreement: signed version 1 from a few days after it joined, and for
 * some long-standing clients a renegotiated version 2 effective 120 days ago. The terms vary
 * by the client's place in the list (no draws from the PRNG, so the rest of the book is as it
 * was): the three fee models (interest is a yearly rate, six times the discount's monthly
 * one), minimum and admin fees, recourse or not, disclosed or not, concentration limits.
 */
function buildAgreements(
  ctx: Context,
  client: ClientInfo,
  terms: { index: number; advanceRate: string; feeRate: string; recourse: boolean; signedAt: number; creator: string },
): AgreementInfo[] {
  const { clock, staff } = ctx;
  const { index } = terms;
  const number = `UF-${new Date(client.createdAt).getUTCFullYear()}-${String(index + 1).padStart(4, '0')}`;
  const signedOn = clock.day(terms.signedAt);
  const signer = staff.deciders[index % staff.deciders.length];
  const version = (
    v: number,
    values: { effectiveFrom: string; signedOn: string; advanceRate: string; feeModel: AgreementInfo['feeModel']; feeRate: string; at: number },
  ): AgreementInfo => {
    const minimumFee = ['50.00', '25.00', '0.00', '0.00'][(index + v) % 4];
    const adminFee = ['15.00', '0.00', '10.00', '0.00', '0.00'][index % 5];
    const id = derivedUuid(`${client.id}/agreement/${v}`);
    const row: Row = {
      id,
      client_id: client.id,
      number,
      version: v,
      effective_from: values.effectiveFrom,
      valid_from: signedOn,
      valid_until: null,
      advance_rate: values.advanceRate,
      fee_model: values.feeModel,
      fee_rate: values.feeRate,
      minimum_fee: minimumFee,
      admin_fee: adminFee,
      documentation_fee: '0.00',
      recourse: terms.recourse,
      recourse_days: terms.recourse ? [60, 90][index % 2] : null,
      max_tenor_days: [180, 120, 150][index % 3],
      disclosed: index % 4 !== 3,
      concentration_limit: ['30.00', '40.00', '25.00'][index % 3],
      concentration_threshold: index % 3 === 2 ? '50000.00' : '0.00',
      signature_status: 'signed',
      signed_on: values.signedOn,
      signed_by: signer.id,
      document_id: null,
      created_by: v === 1 ? terms.creator : signer.id,
      created_at: date(values.at),
      updated_at: date(values.at),
    };
    ctx.event(values.at, v === 1 ? 'agreement_created' : 'agreement_revised', 'agreement', id, row.created_by as string, { clientId: client.id, number, version: v });
    ctx.event(values.at, 'agreement_signed', 'agreement', id, signer.id, { clientId: client.id, number, version: v, signedOn: values.signedOn, via: 'manual' });
    return {
      id,
      version: v,
      number,
      effectiveFrom: values.effectiveFrom,
      advanceRate: values.advanceRate,
      feeModel: values.feeModel,
      feeRate: values.feeRate,
      minimumFee,
      adminFee,
      recourse: terms.recourse,
      row,
    };
  };
  const feeModel = FEE_MODELS[index % 3];
  const yearly = (monthly: string) => (Number(monthly) * 6).toFixed(4);
  const first = version(1, {
    effectiveFrom: signedOn,
    signedOn,
    advanceRate: terms.advanceRate,
    feeModel,
    feeRate: feeModel === 'discount_30' ? terms.feeRate : yearly(terms.feeRate),
    at: terms.signedAt,
  });
  const renegotiatedAt = clock.midnight - 120 * DAY;
  if (index % 6 !== 1 || terms.signedAt > renegotiatedAt - 60 * DAY) return [first];
  const advanceRate = Number(terms.advanceRate) >= 85 ? '80.00' : (Number(terms.advanceRate) + 5).toFixed(2);
  const model = FEE_MODELS[(index + 1) % 3];
  const feeRate = model === 'discount_30' ? '1.2500' : yearly('1.25');
  return [
    first,
    version(2, { effectiveFrom: clock.day(renegotiatedAt), signedOn: clock.day(renegotiatedAt - 5 * DAY), advanceRate, feeModel: model, feeRate, at: renegotiatedAt - 5 * DAY }),
  ];
}

/** The client's agreement version in force on a business day, if any. */
export function agreementOn(client: ClientInfo, day: string): AgreementInfo | undefined {
  return client.agreements.filter((agreement) => agreement.effectiveFrom <= day).at(-1);
}
