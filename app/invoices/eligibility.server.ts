import type { Transaction } from 'sequelize';
import { inTransaction, selectOne } from '../db.server.ts';
import { agreementInForce, feeTermsOf, financedUnderAgreementSql, type AgreementRow } from '../agreements/in-force.server.ts';
import { daysBetween, invoiceFee, type FeeBreakdown } from '../agreements/fees.ts';
import { apiError } from '../utils/api.server.ts';
import { SQL_BUSINESS_TODAY } from '../utils/business-time.ts';
import { centsToDecimalString, percentOfCents, toCents } from '../utils/money.ts';
import type { RefusalParams } from '../utils/refusals.ts';
import { blockedRefusal } from './invoice-transition.server.ts';
import { INVOICE_MESSAGES, INVOICE_REFUSALS } from './schemas.ts';
import { ELIGIBILITY_TEXTS, type EligibilityCheckName, type EligibilityCheckView } from './eligibility.ts';
import type { Client, Customer, Invoice } from '../../db/models/index.ts';
import { disputedRefusal } from '../debtors/disputes.server.ts';
import type { RowOf } from '../../db/models/rows.ts';

/**
 * Whether an approved invoice may be financed today (docs/money.md#eligibility,
 * docs/lifecycle.md#financing): every check in order with its figures.
 * Financing calls it in its transaction with `lock` (the invoice, then the
 * client, then the customer row FOR UPDATE, the order of
 * app/ledger/ledger.server.ts), so two financings on one client or one debtor
 * queue and cannot together pass a limit; the invoice page calls it without
 * locks for the panel.
 */

/** Days past due after which a debtor's financed invoice counts as aged for cross-ageing. */
const AGED_AFTER_DAYS = 90;
/** The share (percent) of a debtor's open financed amount on aged invoices above which none of its invoices is eligible. */
const CROSS_AGEING_LIMIT = '25.00';

/** A check with what the refusal needs: the API refusal (null when it passed or could not be evaluated). */
interface EligibilityCheck extends EligibilityCheckView {
  refusal: (() => Response) | null;
}

/** What financing books, from the agreement version in force (docs/money.md#the-factoring-figures). */
export interface FinancingFigures {
  today: string;
  /** The day the fee runs until: the due date, or today for an invoice due today. */
  until: string;
  amountCents: number;
  advanceCents: number;
  fee: FeeBreakdown;
  /** The agreement's one-off documentation fee, when this is its first financing for the client. */
  documentationFeeCents: number;
  /** fee.totalCents + documentationFeeCents: invoices.factor_fee. */
  factorFeeCents: number;
}

export interface Eligibility {
  eligible: boolean;
  checks: EligibilityCheck[];
  agreement: AgreementRow | null;
  figures: FinancingFigures | null;
  client: RowOf<typeof Client, 'company_name' | 'iban' | 'credit_limit' | 'used_credit' | 'onboarding_status'>;
  invoice: RowOf<typeof Invoice, 'id' | 'client_id' | 'customer_id' | 'invoice_number' | 'amount' | 'currency' | 'issue_date' | 'due_date' | 'disputed' | 'dispute_reason'>;
}

const money = (cents: number) => centsToDecimalString(cents);

/** `part` / `whole` as a percent with two decimals, rounded half-up ('37.50'); '0.00' of nothing. */
function shareOf(part: number, whole: number): string {
  if (whole <= 0) return '0.00';
  return money(Number((BigInt(part) * 20000n + BigInt(whole)) / (2n * BigInt(whole))));
}

/** part / whole ≤ percent % in exact integers (percent as NUMERIC(5,2) gives it). */
function withinShare(part: number, whole: number, percent: string): boolean {
  return BigInt(part) * 10000n <= BigInt(whole) * BigInt(toCents(percent));
}

/**
 * The figures of a financing on `today` under `agreement`: advance = amount ×
 * advance rate % half-up; the fee of invoiceFee from today until the due
 * date (today for an invoice due today or earlier: the minimum or one
 * period applies) plus the documentation fee on the agreement's first
 * financing.
 */
export function financingFigures(agreement: AgreementRow, input: { amountCents: number; dueDate: string; today: string; firstUnderAgreement: boolean }): FinancingFigures {
  const advanceCents = percentOfCents(input.amountCents, agreement.advance_rate);
  const until = input.dueDate > input.today ? input.dueDate : input.today;
  const fee = invoiceFee(feeTermsOf(agreement), { amountCents: input.amountCents, advanceCents, financedOn: input.today, until });
  const documentationFeeCents = input.firstUnderAgreement ? toCents(agreement.documentation_fee) : 0;
  return { today: input.today, until, amountCents: input.amountCents, advanceCents, fee, documentationFeeCents, factorFeeCents: fee.totalCents + documentationFeeCents };
}

/** Whether the client has had no financing yet under the agreement's number (any version): the documentation fee is due once. */
export async function firstUnderAgreement(agreement: Pick<AgreementRow, 'client_id' | 'number'>, invoiceId: string, transaction?: Transaction): Promise<boolean> {
  const row = await selectOne<{ financed: boolean }>(
    `SELECT ${financedUnderAgreementSql('a', 'CAST(:invoiceId AS uuid)')} AS financed FROM (SELECT CAST(:clientId AS uuid) AS client_id, CAST(:number AS text) AS number) a`,
    { clientId: agreement.client_id, number: agreement.number, invoiceId },
    { transaction },
  );
  return !row!.financed;
}

/**
 * The client's open funded amount on this debtor (the outstanding advances of
 * its financed invoices, from the ledger), through the (client_id,
 * customer_id) index of financed invoices and the ledger's invoice index.
 */
async function clientOpenOnDebtor(clientId: string, customerId: string, transaction?: Transaction): Promise<number> {
  const row = await selectOne<{ open: string }>(
    `SELECT coalesce(sum(o.outstanding), 0) AS open FROM (
       SELECT greatest(0, sum(l.amount)) AS outstanding
         FROM invoices i JOIN client_ledger l ON l.invoice_id = i.id AND l.kind IN ('advance', 'collection')
        WHERE i.client_id = :clientId AND i.customer_id = :customerId AND i.status = 'financed'
        GROUP BY i.id) o`,
    { clientId, customerId },
    { transaction },
  );
  return toCents(row!.open);
}

/** The debtor's open financed amount across all clients and the part of it on invoices more than 90 days past due. */
async function debtorAgeing(customerId: string, today: string, transaction?: Transaction): Promise<{ openCents: number; agedCents: number }> {
  const row = await selectOne<{ open: string; aged: string }>(
    `SELECT coalesce(sum(o.outstanding), 0) AS open,
            coalesce(sum(o.outstanding) FILTER (WHERE o.due_date < CAST(:today AS date) - ${AGED_AFTER_DAYS}), 0) AS aged
       FROM (SELECT i.due_date, greatest(0, sum(l.amount)) AS outstanding
               FROM invoices i JOIN client_ledger l ON l.invoice_id = i.id AND l.kind IN ('advance', 'collection')
              WHERE i.customer_id = :customerId AND i.status = 'financed'
              GROUP BY i.id) o`,
    { customerId, today },
    { transaction },
  );
  return { openCents: toCents(row!.open), agedCents: toCents(row!.aged) };
}

/**
 * Every check of docs/money.md#eligibility, in order, for invoice `invoiceId`
 * (404 when there is none). With `lock`, inside the caller's transaction, the
 * invoice, client and customer rows stay locked until it ends.
 */
export async function invoiceEligibility(invoiceId: string, options: { transaction?: Transaction; lock?: boolean } = {}): Promise<Eligibility> {
  return inTransaction(async (transaction) => {
    const forUpdate = options.lock ? 'FOR UPDATE' : '';
    const invoice = await selectOne<Eligibility['invoice']>(
      `SELECT id, client_id, customer_id, invoice_number, amount, currency, issue_date, due_date, disputed, dispute_reason FROM invoices WHERE id = :invoiceId ${forUpdate}`,
      { invoiceId },
      { transaction },
    );
    if (!invoice) throw apiError(404, INVOICE_MESSAGES.notFound);
    const client = (await selectOne<Eligibility['client']>(
      `SELECT company_name, iban, credit_limit, used_credit, onboarding_status FROM clients WHERE id = :clientId ${forUpdate}`,
      { clientId: invoice.client_id },
      { transaction },
    ))!;
    const customer = (await selectOne<RowOf<typeof Customer, 'company_name' | 'account_blocked' | 'blockage_reason' | 'credit_limit' | 'used_credit'>>(
      `SELECT company_name, account_blocked, blockage_reason, credit_limit, used_credit FROM customers WHERE id = :customerId ${forUpdate}`,
      { customerId: invoice.customer_id },
      { transaction },
    ))!;

    // The SQL day, not the process clock's: a transaction that fixed its business day (tests, replays) finances on it.
    const { today } = (await selectOne<{ today: string }>(`SELECT to_char(${SQL_BUSINESS_TODAY}, 'YYYY-MM-DD') AS today`, {}, { transaction }))!;
    const amountCents = toCents(invoice.amount);
    const agreement = await agreementInForce(invoice.client_id, today, { transaction });
    const figures = agreement
      ? financingFigures(agreement, { amountCents, dueDate: invoice.due_date, today, firstUnderAgreement: await firstUnderAgreement(agreement, invoice.id, transaction) })
      : null;
    const advance = figures?.advanceCents ?? null;

    const checks: EligibilityCheck[] = [];
    const add = (name: EligibilityCheckName, passed: boolean | null, text: string, params: RefusalParams, refusal?: () => Response) =>
      checks.push({ name, passed, text, params, refusal: passed === false && refusal ? refusal : null });
    const notEvaluated = (name: EligibilityCheckName) => add(name, null, ELIGIBILITY_TEXTS.needsAgreement, {});

    add('kyc', client.onboarding_status === 'completed', ELIGIBILITY_TEXTS.kyc, { status: client.onboarding_status }, () =>
      apiError(409, INVOICE_MESSAGES.kycNotApproved, { errors: { clientId: [INVOICE_MESSAGES.kycNotApproved] } }),
    );
    if (agreement) {
      add('agreement', true, ELIGIBILITY_TEXTS.agreement, { number: agreement.number, version: agreement.version, effectiveFrom: agreement.effective_from });
    } else {
      add('agreement', false, ELIGIBILITY_TEXTS.noAgreement, { name: client.company_name, date: today }, () =>
        apiError(409, INVOICE_REFUSALS.noAgreement, { params: { name: client.company_name, date: today } }),
      );
    }
    add(
      'debtor_blocked',
      !customer.account_blocked,
      customer.account_blocked ? ELIGIBILITY_TEXTS.debtorBlocked : ELIGIBILITY_TEXTS.debtorActive,
      { name: customer.company_name },
      () => blockedRefusal(customer, 'finance'),
    );
    add(
      'dispute',
      !invoice.disputed,
      invoice.disputed ? ELIGIBILITY_TEXTS.disputed : ELIGIBILITY_TEXTS.notDisputed,
      { number: invoice.invoice_number, reason: invoice.dispute_reason ?? '' },
      () => disputedRefusal(invoice),
    );
    add('currency', invoice.currency === 'EUR', ELIGIBILITY_TEXTS.currency, { currency: invoice.currency }, () =>
      apiError(409, INVOICE_REFUSALS.notEur, { params: { currency: invoice.currency } }),
    );
    add('iban', Boolean(client.iban), client.iban ? ELIGIBILITY_TEXTS.iban : ELIGIBILITY_TEXTS.noIban, { iban: client.iban ?? '' }, () =>
      apiError(409, INVOICE_REFUSALS.noIban, { params: { name: client.company_name } }),
    );

    const tenorDays = daysBetween(invoice.issue_date, invoice.due_date);
    if (agreement) {
      const params = { days: tenorDays, maxDays: agreement.max_tenor_days };
      add('tenor', tenorDays <= agreement.max_tenor_days, ELIGIBILITY_TEXTS.tenor, params, () => apiError(409, INVOICE_REFUSALS.tenorTooLong, { params }));
    } else notEvaluated('tenor');
    {
      const params = { dueDate: invoice.due_date, today };
      add('past_due', invoice.due_date >= today, ELIGIBILITY_TEXTS.pastDue, params, () => apiError(409, INVOICE_REFUSALS.pastDue, { params }));
    }

    if (client.credit_limit === null) {
      add('client_limit', false, ELIGIBILITY_TEXTS.clientNoLimit, { name: client.company_name }, () =>
        apiError(409, INVOICE_REFUSALS.noLimit, { params: { name: client.company_name } }),
      );
    } else if (advance === null) notEvaluated('client_limit');
    else {
      const used = toCents(client.used_credit);
      const limit = toCents(client.credit_limit);
      const params = { used: money(used), advance: money(advance), limit: money(limit) };
      add('client_limit', used + advance <= limit, ELIGIBILITY_TEXTS.clientLimit, params, () => apiError(409, INVOICE_REFUSALS.limitExceeded, { params }));
    }

    if (customer.credit_limit === null) {
      add('debtor_limit', false, ELIGIBILITY_TEXTS.debtorNoLimit, { name: customer.company_name }, () =>
        apiError(409, INVOICE_REFUSALS.debtorNoLimit, { params: { name: customer.company_name } }),
      );
    } else if (advance === null) notEvaluated('debtor_limit');
    else {
      const used = toCents(customer.used_credit);
      const limit = toCents(customer.credit_limit);
      const params = { name: customer.company_name, used: money(used), advance: money(advance), limit: money(limit) };
      add('debtor_limit', used + advance <= limit, ELIGIBILITY_TEXTS.debtorLimit, params, () => apiError(409, INVOICE_REFUSALS.debtorLimitExceeded, { params }));
    }

    if (!agreement || advance === null) notEvaluated('concentration');
    else {
      // The client's open funded amount is its used credit (the ledger's sum, app/ledger/ledger.server.ts).
      const total = toCents(client.used_credit) + advance;
      const onDebtor = (await clientOpenOnDebtor(invoice.client_id, invoice.customer_id, transaction)) + advance;
      const threshold = toCents(agreement.concentration_threshold);
      const params = {
        name: customer.company_name,
        onDebtor: money(onDebtor),
        total: money(total),
        share: shareOf(onDebtor, total),
        maxShare: agreement.concentration_limit,
        threshold: money(threshold),
      };
      if (total <= threshold) add('concentration', true, ELIGIBILITY_TEXTS.concentrationNotApplied, params);
      else
        add('concentration', withinShare(onDebtor, total, agreement.concentration_limit), ELIGIBILITY_TEXTS.concentration, params, () =>
          apiError(409, INVOICE_REFUSALS.concentrationExceeded, { params }),
        );
    }

    {
      const { openCents, agedCents } = await debtorAgeing(invoice.customer_id, today, transaction);
      const params = { name: customer.company_name, aged: money(agedCents), open: money(openCents), share: shareOf(agedCents, openCents), maxShare: CROSS_AGEING_LIMIT };
      add('cross_ageing', withinShare(agedCents, openCents, CROSS_AGEING_LIMIT), ELIGIBILITY_TEXTS.crossAgeing, params, () =>
        apiError(409, INVOICE_REFUSALS.crossAgeing, { params }),
      );
    }

    if (!figures) notEvaluated('fee_within_amount');
    else {
      const params = { advance: money(figures.advanceCents), fee: money(figures.factorFeeCents), amount: money(amountCents) };
      add('fee_within_amount', figures.advanceCents + figures.factorFeeCents <= amountCents, ELIGIBILITY_TEXTS.feeWithinAmount, params, () =>
        apiError(409, INVOICE_REFUSALS.feeExceedsAmount, { params }),
      );
    }

    return { eligible: checks.every((check) => check.passed === true), checks, agreement, figures, client, invoice };
  }, options.transaction);
}

/** The refusal of the first failing check (409, its code naming it), or null when every check passed. */
export function firstRefusal(eligibility: Eligibility): Response | null {
  const failing = eligibility.checks.find((check) => check.passed !== true);
  if (!failing) return null;
  // A check is left unevaluated only when the agreement check failed before it.
  return failing.refusal?.() ?? eligibility.checks.find((check) => check.name === 'agreement')!.refusal!();
}

/** The checks as the page shows them (no refusal closures). */
export function eligibilityView(eligibility: Eligibility): EligibilityCheckView[] {
  return eligibility.checks.map(({ name, passed, text, params }) => ({ name, passed, text, params }));
}
