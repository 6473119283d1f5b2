import { randomUUID } from 'node:crypto';
import { hashPassword } from '../app/auth/password.server.ts';
import type { Role } from '../app/auth/schemas.ts';
import type { UserRow } from '../app/auth/user-record.server.ts';
import type { Actor } from '../app/auth/users.server.ts';
import { execute, selectOne } from '../app/db.server.ts';
import { approveInvoice, verifyInvoice } from '../app/invoices/invoice-decisions.server.ts';
import { createInvoice } from '../app/invoices/invoice-create.server.ts';
import { financeInvoice } from '../app/invoices/financing.server.ts';
import { BUYER_OIB, SELLER_OIB } from '../app/invoices/test-fixtures.server.ts';
import { decideKyc } from '../app/onboarding/kyc-decision.server.ts';

/**
 * The test data of every test file: unique valid Croatian identifiers and rows
 * whose defaults pass the domain's validation, with overrides for what a test
 * cares about. `insert…` writes rows straight into SQL (fast, any state);
 * `newInvoice` and `financedInvoice` go through the real invoice modules.
 */

// One serial for every identifier: unique within a file (each has its own database), and the
// same on every run, so a search a test makes meets the same rows in any order.
let serial = 5_300_000_000;
const next = () => serial++;

/**
 * The MOD 11,10 check digit of an OIB's first ten digits, computed here and
 * not by the code under test (rule: docs/croatian-formats.md#identifiers).
 */
function oibCheckDigitOf(first10: string): number {
  let remainder = 10;
  for (const digit of first10) {
    remainder = (remainder + Number(digit)) % 10 || 10;
    remainder = (remainder * 2) % 11;
  }
  return (11 - remainder) % 10;
}

/** A valid OIB no other call of this file returns, or the one of the given first ten digits. */
export function newOib(first10 = String(next())): string {
  return `${first10}${oibCheckDigitOf(first10)}`;
}

/** A valid Croatian IBAN (MOD-97 check digits) no other call of this file returns. */
export function newIban(bankCode = '2484008'): string {
  const bban = `${bankCode}${next()}`;
  // ISO 13616: BBAN, then "HR" as 17 27, then check digits 00; 98 minus the remainder.
  let remainder = 0;
  for (const digit of `${bban}172700`) remainder = (remainder * 10 + Number(digit)) % 97;
  return `HR${String(98 - remainder).padStart(2, '0')}${bban}`;
}

/** 'YYYY-MM-DD' of today in Croatia plus `days`, computed without the code under test. */
export function zagrebDay(days = 0): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Zagreb', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  return new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export const TEST_PASSWORD = 'Correct-horse-9';
let testPasswordHash: Promise<string> | undefined;

export async function createTestUser(overrides: { email?: string; role?: Role; password?: string | null; otpEnabled?: boolean | null; isActive?: boolean } = {}): Promise<UserRow> {
  const password = overrides.password === undefined ? TEST_PASSWORD : overrides.password;
  // Hashing is slow on purpose: the test password is hashed once per file.
  const passwordHash = password === null ? null : password === TEST_PASSWORD ? await (testPasswordHash ??= hashPassword(TEST_PASSWORD)) : await hashPassword(password);
  const { rows } = await execute<UserRow>(
    `INSERT INTO users (email, first_name, last_name, role, is_active, password_hash, otp_enabled)
     VALUES (:email, 'Test', 'User', :role, :isActive, :passwordHash, :otpEnabled) RETURNING *`,
    {
      email: overrides.email ?? `user-${randomUUID().slice(0, 8)}@finflow.test`,
      role: overrides.role ?? 'user',
      isActive: overrides.isActive ?? true,
      passwordHash,
      otpEnabled: overrides.otpEnabled === undefined ? null : overrides.otpEnabled,
    },
  );
  return rows[0];
}

/** The actor a domain function takes, from a user row. */
export const actorOf = (row: { id: string; role: Role }): Actor => ({ id: row.id, role: row.role });

/** A new staff member of `role`, as an actor. */
export async function staff(role: Role = 'user'): Promise<Actor> {
  return actorOf(await createTestUser({ role }));
}

/** Two managers (four eyes) and a user: who takes an invoice from pending to financed. */
export interface Book {
  manager: Actor;
  manager2: Actor;
  user: Actor;
}

export async function book(): Promise<Book> {
  return { manager: await staff('manager'), manager2: await staff('manager'), user: await staff('user') };
}

export interface Party {
  id: string;
  name: string;
  oib: string;
  iban: string | null;
}

export interface ClientValues {
  name?: string;
  oib?: string;
  iban?: string | null;
  email?: string | null;
  /** Street, city and postal code, which an e-invoice to the client needs (app/einvoices/outgoing.server.ts). */
  address?: { address: string; city: string; postalCode: string } | null;
  status?: 'active' | 'inactive' | 'pending';
  onboardingStatus?: 'pending' | 'in_progress' | 'completed' | 'rejected';
  creditLimit?: string | null;
  usedCredit?: string;
  /** The terms of the signed agreement (discount model, in force since 2020) a KYC-approved client gets; they used to be client columns. */
  advanceRate?: string;
  feeRate?: string;
  foundedOn?: string | null;
  /** Approve the client's KYC through the real decision, as financing needs (app/invoices/financing.server.ts). */
  kycApproved?: boolean;
  /**
   * The signed agreement financing needs (app/invoices/eligibility.server.ts): by default one of
   * `createAgreement`'s defaults with the client's advance and fee rate; terms to change it, false for none.
   */
  agreement?: AgreementTerms | false;
}

/** An active client with a unique OIB and IBAN and no credit limit unless told. */
export async function insertClient(values: ClientValues = {}): Promise<Party> {
  const n = next();
  const { rows } = await execute<Party>(
    `INSERT INTO clients (company_name, oib, iban, email, address, city, postal_code, status, onboarding_status, credit_limit, used_credit, founded_on)
     VALUES (:name, :oib, :iban, :email, :street, :city, :postalCode, :status, :onboardingStatus, :creditLimit, :usedCredit, :foundedOn)
     RETURNING id, company_name AS name, oib, iban`,
    {
      name: values.name ?? `Klijent ${n} d.o.o.`,
      oib: values.oib ?? newOib(),
      iban: values.iban === undefined ? newIban() : values.iban,
      email: values.email ?? null,
      street: values.address?.address ?? null,
      city: values.address?.city ?? null,
      postalCode: values.address?.postalCode ?? null,
      status: values.status ?? 'active',
      onboardingStatus: values.onboardingStatus ?? 'pending',
      creditLimit: values.creditLimit ?? null,
      usedCredit: values.usedCredit ?? '0',
      foundedOn: values.foundedOn ?? null,
    },
  );
  if (values.kycApproved) await approveKyc(rows[0].id);
  if (values.agreement !== false) await createAgreement(rows[0].id, { advanceRate: values.advanceRate, feeRate: values.feeRate, ...values.agreement });
  return rows[0];
}

/** An agreement version's terms (db/migrations/2026.11.27T01.00.00.factoring-contract.ts); rates and amounts as NUMERIC text. */
export interface AgreementTerms {
  number?: string;
  version?: number;
  effectiveFrom?: string;
  validFrom?: string;
  validUntil?: string | null;
  advanceRate?: string;
  feeModel?: 'discount_30' | 'interest_360' | 'interest_365';
  feeRate?: string;
  minimumFee?: string;
  adminFee?: string;
  documentationFee?: string;
  /** Recourse days; null: without recourse. */
  recourseDays?: number | null;
  maxTenorDays?: number;
  concentrationLimit?: string;
  concentrationThreshold?: string;
  signed?: boolean;
  /** Disclosed (open) factoring unless told: the debtor gets the notice of assignment (docs/collections.md). */
  disclosed?: boolean;
  requiresDebtorConfirmation?: boolean;
}

/**
 * A signed agreement version for the client, in force from a year ago unless
 * told: discount 1.5 % per 30 days, 80 % advance, recourse after 60 days, a
 * 365-day tenor and a 100 % concentration limit, so it refuses nothing a test
 * did not ask for. The next version of the client's agreement (same number)
 * when it has one.
 */
export async function createAgreement(clientId: string, terms: AgreementTerms = {}): Promise<{ id: string; number: string; version: number }> {
  const last = await selectOne<{ number: string; version: number }>('SELECT number, version FROM agreements WHERE client_id = :clientId ORDER BY version DESC LIMIT 1', {
    clientId,
  });
  const validFrom = terms.validFrom ?? zagrebDay(-365);
  const signed = terms.signed ?? true;
  const recourseDays = terms.recourseDays === undefined ? 60 : terms.recourseDays;
  const { rows } = await execute<{ id: string; number: string; version: number }>(
    `INSERT INTO agreements (client_id, number, version, effective_from, valid_from, valid_until, advance_rate, fee_model, fee_rate, minimum_fee, admin_fee,
                             documentation_fee, recourse, recourse_days, max_tenor_days, concentration_limit, concentration_threshold, signature_status, signed_on,
                             disclosed, requires_debtor_confirmation)
     VALUES (:clientId, :number, :version, :effectiveFrom, :validFrom, :validUntil, :advanceRate, :feeModel, :feeRate, :minimumFee, :adminFee,
             :documentationFee, :recourse, :recourseDays, :maxTenorDays, :concentrationLimit, :concentrationThreshold, :status, :signedOn,
             :disclosed, :requiresDebtorConfirmation)
     RETURNING id, number, version`,
    {
      clientId,
      number: terms.number ?? last?.number ?? `UG-${next()}`,
      version: terms.version ?? (last?.version ?? 0) + 1,
      effectiveFrom: terms.effectiveFrom ?? validFrom,
      validFrom,
      validUntil: terms.validUntil ?? null,
      advanceRate: terms.advanceRate ?? '80.00',
      feeModel: terms.feeModel ?? 'discount_30',
      feeRate: terms.feeRate ?? '1.500',
      minimumFee: terms.minimumFee ?? '0',
      adminFee: terms.adminFee ?? '0',
      documentationFee: terms.documentationFee ?? '0',
      recourse: recourseDays !== null,
      recourseDays,
      maxTenorDays: terms.maxTenorDays ?? 365,
      concentrationLimit: terms.concentrationLimit ?? '100.00',
      concentrationThreshold: terms.concentrationThreshold ?? '0',
      status: signed ? 'signed' : 'unsigned',
      signedOn: signed ? validFrom : null,
      disclosed: terms.disclosed ?? true,
      requiresDebtorConfirmation: terms.requiresDebtorConfirmation ?? false,
    },
  );
  return rows[0];
}

/** A client that can be financed at once: KYC approved and a credit limit of 100 000 unless told. */
export function financeableClient(values: ClientValues = {}): Promise<Party> {
  return insertClient({ kycApproved: true, ...values, creditLimit: values.creditLimit === undefined ? '100000.00' : values.creditLimit });
}

/** The start of most financing tests: the staff (`book`), a financeable client and a debtor, created in that order. */
export async function financingParties(): Promise<{ b: Book; client: Party; customer: Party }> {
  const b = await book();
  const client = await financeableClient();
  const customer = await insertCustomer();
  return { b, client, customer };
}

/**
 * The e-invoice fixture's seller (app/einvoices/fixtures/valid-invoice.xml) as
 * this test's financeable client: an earlier client with its OIB, and an
 * earlier customer with the buyer's, get other OIBs.
 */
export async function sellerClient(values: ClientValues = {}): Promise<Party> {
  await execute('UPDATE clients SET oib = :oib WHERE oib = :seller', { oib: newOib(), seller: SELLER_OIB });
  await execute('UPDATE customers SET oib = :oib WHERE oib = :buyer', { oib: newOib(), buyer: BUYER_OIB });
  return financeableClient({ ...values, oib: SELLER_OIB });
}

/**
 * Approves a client's KYC through the real decision, as a manager (a new one
 * unless given), for clients inserted as rows.
 */
export async function approveKyc(clientId: string, actor?: Actor): Promise<void> {
  await decideKyc({ actor: actor ?? (await staff('manager')), clientId, input: { decision: 'approve' } });
}

/** A debtor, with a debtor limit of 10 000 000 EUR (large: financing's debtor check passes) unless told; null: none approved. */
export async function insertCustomer(
  values: { name?: string; oib?: string; iban?: string | null; email?: string | null; blocked?: boolean; foundedOn?: string | null; creditLimit?: string | null } = {},
): Promise<Party> {
  const { rows } = await execute<Party>(
    `INSERT INTO customers (company_name, oib, iban, email, founded_on, account_blocked, blockage_reason, credit_limit)
     VALUES (:name, :oib, :iban, :email, :foundedOn, :blocked, CASE WHEN :blocked THEN 'FINA: blokada računa' END, :creditLimit)
     RETURNING id, company_name AS name, oib, iban`,
    {
      name: values.name ?? `Kupac ${next()} d.d.`,
      oib: values.oib ?? newOib(),
      iban: values.iban ?? null,
      email: values.email ?? null,
      foundedOn: values.foundedOn ?? null,
      blocked: values.blocked ?? false,
      creditLimit: values.creditLimit === undefined ? '10000000.00' : values.creditLimit,
    },
  );
  return rows[0];
}

/** The registration wizard's fields (app/onboarding/schemas.ts), all valid, with a unique OIB and IBAN. */
export function wizardValues(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    companyName: 'Primjer d.o.o.',
    oib: newOib(),
    registrationNumber: '080123456',
    contactPerson: 'Ana Anić',
    email: 'ana@primjer.hr',
    phone: '+385 1 234 5678',
    address: 'Ilica 1',
    city: 'Zagreb',
    postalCode: '10000',
    country: 'Croatia',
    iban: newIban('2340009'),
    creditLimit: '75000',
    ...overrides,
  };
}

/** A unique invoice number. */
export const newInvoiceNumber = () => `R-${next()}/1/1`;

/** An invoice made by `actor` through the real module (pending), issued five days ago, due in 55, 1 000 EUR unless told. */
export async function newInvoice(
  actor: Actor,
  clientId: string,
  customerId: string,
  overrides: Partial<{ amount: number | string; issueDate: string; dueDate: string; invoiceNumber: string; description: string }> = {},
) {
  return createInvoice({
    actor,
    ip: '10.1.1.1',
    input: {
      clientId,
      customerId,
      invoiceNumber: overrides.invoiceNumber ?? newInvoiceNumber(),
      issueDate: overrides.issueDate ?? zagrebDay(-5),
      dueDate: overrides.dueDate ?? zagrebDay(55),
      amount: overrides.amount ?? 1000,
      description: overrides.description ?? 'Isporuka robe',
    },
  });
}

/**
 * An invoice taken pending → verified → approved → financed by two managers
 * (four eyes). A past due date (dueInDays < 0) cannot be financed
 * (docs/lifecycle.md#financing): such an invoice is financed due today, the
 * same fee of one period, and then its due date moves back, as if the days had passed.
 */
export async function financedInvoice(
  b: Book,
  values: { clientId: string; customerId: string; amount: string; invoiceNumber?: string; dueInDays?: number; issuedDaysAgo?: number },
) {
  const dueInDays = values.dueInDays ?? 40;
  const invoice = await newInvoice(b.user, values.clientId, values.customerId, {
    amount: values.amount,
    invoiceNumber: values.invoiceNumber,
    issueDate: zagrebDay(-(values.issuedDaysAgo ?? 5)),
    dueDate: zagrebDay(Math.max(0, dueInDays)),
  });
  await verifyInvoice({ actor: b.manager, id: invoice.id });
  await approveInvoice({ actor: b.manager2, id: invoice.id });
  await financeInvoice({ actor: b.manager, id: invoice.id });
  if (dueInDays < 0) await execute('UPDATE invoices SET due_date = :dueDate WHERE id = :id', { id: invoice.id, dueDate: zagrebDay(dueInDays) });
  return (await selectOne<{ id: string; invoice_number: string; amount: string; factor_amount: string; factor_fee: string; paid_amount: string; status: string }>(
    'SELECT id, invoice_number, amount, factor_amount, factor_fee, paid_amount, status FROM invoices WHERE id = :id',
    { id: invoice.id },
  ))!;
}

/**
 * An invoice row written straight into SQL: financed (advance 80 %, fee 1.5 %)
 * unless told, or paid in full at `paidAt`; issued 30 days before it is due.
 * `charged_back` and `written_off` were financed and closed at `closedAt`
 * (61 days after the due date unless told), without ledger entries.
 */
export async function insertInvoice(values: {
  clientId: string;
  customerId: string;
  amount: string;
  dueDate: string;
  paidAt?: string;
  status?: 'financed' | 'paid' | 'pending' | 'charged_back' | 'written_off';
  closedAt?: string;
  invoiceNumber?: string;
}): Promise<string> {
  const status = values.status ?? (values.paidAt ? 'paid' : 'financed');
  const { rows } = await execute<{ id: string }>(
    `INSERT INTO invoices (client_id, customer_id, invoice_number, status, amount, issue_date, due_date,
                           factor_amount, factor_fee, financed_at, paid_amount, paid_at, charged_back_at, written_off_at)
     VALUES (:clientId, :customerId, :number, :status, :amount, CAST(:dueDate AS date) - 30, :dueDate,
             CASE WHEN :financed THEN round(CAST(:amount AS numeric) * 0.8, 2) END,
             CASE WHEN :financed THEN round(CAST(:amount AS numeric) * 0.015, 2) END,
             CASE WHEN :financed THEN CAST(:dueDate AS date) - 29 END,
             CASE WHEN :status = 'paid' THEN CAST(:amount AS numeric) ELSE 0 END, :paidAt,
             CASE WHEN :status = 'charged_back' THEN coalesce(CAST(:closedAt AS timestamptz), CAST(:dueDate AS date) + 61) END,
             CASE WHEN :status = 'written_off' THEN coalesce(CAST(:closedAt AS timestamptz), CAST(:dueDate AS date) + 61) END)
     RETURNING id`,
    {
      clientId: values.clientId,
      customerId: values.customerId,
      number: values.invoiceNumber ?? newInvoiceNumber(),
      status,
      amount: values.amount,
      dueDate: values.dueDate,
      financed: status !== 'pending',
      paidAt: values.paidAt ?? null,
      closedAt: values.closedAt ?? null,
    },
  );
  return rows[0].id;
}

/** Empties the book (not the append-only activity log), so "the factor's whole book" is what a test made. */
export async function clearBook() {
  await execute(`DELETE FROM payments; DELETE FROM payouts; DELETE FROM invoices; DELETE FROM risk_assessments;`);
}
