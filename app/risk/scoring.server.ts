import type { Transaction } from 'sequelize';
import { selectOne } from '../db.server.ts';
import { apiError } from '../utils/api.server.ts';
import { computeScore, type ScoreResult } from './scoring.ts';
import { SQL_BUSINESS_TODAY, sqlBusinessLocal } from '../utils/business-time.ts';
import { dilutionOf } from '../dilution/rate.server.ts';

/**
 * The risk scoring engine (docs/domain-model.md): a documented, deterministic
 * function of named factors. Each factor scores its entity 0–100 (100 = no
 * risk seen) from inputs computed in SQL over the book; the automatic score is
 * round(Σ weight × factor score). Every assessment stores, per factor,
 * `{ score, weight, value, explanation }`, so its score can be recomputed by
 * hand from the row alone (computeScore).
 *
 * Book terms used below:
 * - "open book": financed invoices not yet paid (status 'financed'); an
 *   invoice's open amount is amount − paid_amount (confirmed collections)
 *   − credited_amount (credit notes).
 * - "due invoices": invoices whose payment has fallen due — paid ones,
 *   financed ones past their due date, and those closed unpaid (charged back
 *   or written off, docs/collections.md#recourse-and-write-off), which count
 *   as never paid on time: they leave the open book, not the payment record.
 * - "today" is the calendar day in Croatia (Europe/Zagreb).
 */
export { computeScore, categoryOf, clampScore, type ScoreResult } from './scoring.ts';

export type RiskEntityType = 'client' | 'customer';

export const RISK_FACTOR_NAMES = ['paymentHistory', 'daysPastDue', 'accountBlockages', 'concentration', 'companyAge', 'creditUsage', 'dilution'] as const;
export type RiskFactorName = (typeof RISK_FACTOR_NAMES)[number];

/** A customer whose open exposure reaches this amount scores 0 on creditUsage. */
export const CUSTOMER_EXPOSURE_THRESHOLD_EUR = 100_000;
/** A company this many full years old or older scores 100 on companyAge. */
export const MATURE_COMPANY_YEARS = 10;
/** A dilution rate of this many percent or more scores 0 on dilution (10 points per percent). */
export const DILUTION_ZERO_AT_PERCENT = 10;
/** Factor score when the book holds no evidence yet (a new entity): neither good nor bad. */
export const NO_HISTORY_SCORE = 60;

/**
 * The factor table: names are stable (they key the stored jsonb), weights sum
 * to 1. 'financials' of older (seeded) assessments was replaced by
 * creditUsage, which the book can actually measure; dilution took 0.05 of
 * paymentHistory and of creditUsage when credit notes came. Old rows still
 * recompute because each stored factor carries its own weight.
 */
export const RISK_FACTORS: ReadonlyArray<{ name: RiskFactorName; weight: number; description: string }> = [
  {
    name: 'paymentHistory',
    weight: 0.25,
    description: 'Share of due invoices paid on or before their due date (paid in full on time ÷ paid, past due, charged back or written off), × 100. No due invoice yet: 60.',
  },
  {
    name: 'daysPastDue',
    weight: 0.2,
    description: 'Average days past due of the open book, weighted by open amount; 100 − 2 × days, floored at 0 (0 days = 100, 50+ days = 0). No open book: 100.',
  },
  {
    name: 'accountBlockages',
    weight: 0.15,
    description: 'Customer: 0 if its account is blocked now (FINA), else 100. Client: 100 × (1 − share of its open book owed by blocked customers). No open book: 100.',
  },
  {
    name: 'concentration',
    weight: 0.1,
    description:
      "Client: 100 × (1 − the largest customer's share of its open book). Customer: 100 × (1 − 4 × its share of the factor's whole open book), floored at 0. No open book: 100.",
  },
  {
    name: 'companyAge',
    weight: 0.1,
    description: 'Full years since founding × 10, capped at 100 (10+ years = 100). Founding date unknown: 50.',
  },
  {
    name: 'creditUsage',
    weight: 0.1,
    description:
      'Client: 100 × (1 − used credit ÷ credit limit), floored at 0; no limit: 100 if nothing is used, else 0. Customer: 100 × (1 − open exposure ÷ 100,000 EUR), floored at 0.',
  },
  {
    name: 'dilution',
    weight: 0.1,
    description:
      'Dilution rate of the last 12 months (credit notes issued ÷ amount of the invoices financed, percent): 100 − 10 × rate, floored at 0 (0 % = 100, 10 %+ = 0). Nothing financed in the 12 months: 100.',
  },
];

export interface StoredFactor {
  score: number;
  weight: number;
  /** The measured input (a share 0–1, days, years, or 1/0 for yes/no); null when there is nothing to measure. */
  value: number | null;
  explanation: string;
}
export type StoredFactors = Record<string, StoredFactor>;

/** The raw inputs of one entity, straight from SQL (shares and averages as decimals). */
export interface RiskInputs {
  entityType: RiskEntityType;
  dueInvoices: number;
  paidOnTime: number;
  openCents: number;
  /** Open-amount-weighted average days past due of the open book (1 decimal); null without an open book. */
  averageDaysPastDue: number | null;
  /** Customer: blocked now. */
  accountBlocked: boolean;
  /** Client: share of the open book owed by blocked customers (0–1); null without an open book. */
  blockedShare: number | null;
  /** Client: the largest customer's share of its open book; customer: its share of the factor's whole open book. */
  concentrationShare: number | null;
  /** Full years since founded_on; null when unknown. */
  ageYears: number | null;
  /** Client: used ÷ limit (null when there is no limit); customer: open ÷ threshold. */
  creditUsage: number | null;
  usedCents: number;
  limitCents: number | null;
  /** Credit notes ÷ financed amount over the last 12 months, percent with two decimals; null when nothing was financed. */
  dilutionRate: number | null;
}

const WEIGHTS = Object.fromEntries(RISK_FACTORS.map((factor) => [factor.name, factor.weight])) as Record<RiskFactorName, number>;

const pct = (share: number) => `${(Math.round(share * 1000) / 10).toFixed(1)} %`;
const eur = (cents: number) => `${(cents / 100).toFixed(2)} EUR`;
const whole = (value: number) => Math.min(100, Math.max(0, Math.round(value)));

/** The factor scores of one entity from its inputs: pure, so each formula is tested on hand-made numbers. */
export function scoreFactors(inputs: RiskInputs): StoredFactors {
  const factors = {} as Record<RiskFactorName, Omit<StoredFactor, 'weight'>>;

  if (inputs.dueInvoices === 0) {
    factors.paymentHistory = { score: NO_HISTORY_SCORE, value: null, explanation: 'No invoice has fallen due yet.' };
  } else {
    const share = inputs.paidOnTime / inputs.dueInvoices;
    factors.paymentHistory = {
      score: whole(share * 100),
      value: round4(share),
      explanation: `${inputs.paidOnTime} of ${inputs.dueInvoices} due invoices paid on time (${pct(share)}).`,
    };
  }

  if (inputs.averageDaysPastDue === null) {
    factors.daysPastDue = { score: 100, value: null, explanation: 'No open financed invoices.' };
  } else {
    const days = inputs.averageDaysPastDue;
    factors.daysPastDue = {
      score: whole(100 - 2 * days),
      value: days,
      explanation: `Open book of ${eur(inputs.openCents)} is on average ${days.toFixed(1)} days past due (100 − 2 × ${days.toFixed(1)}).`,
    };
  }

  if (inputs.entityType === 'customer') {
    factors.accountBlockages = inputs.accountBlocked
      ? { score: 0, value: 1, explanation: 'The account is blocked (FINA).' }
      : { score: 100, value: 0, explanation: 'The account is not blocked.' };
  } else if (inputs.blockedShare === null) {
    factors.accountBlockages = { score: 100, value: null, explanation: 'No open financed invoices.' };
  } else {
    factors.accountBlockages = {
      score: whole(100 * (1 - inputs.blockedShare)),
      value: inputs.blockedShare,
      explanation: `${pct(inputs.blockedShare)} of the open book is owed by customers with blocked accounts.`,
    };
  }

  if (inputs.concentrationShare === null) {
    factors.concentration = { score: 100, value: null, explanation: 'No open financed invoices.' };
  } else if (inputs.entityType === 'client') {
    factors.concentration = {
      score: whole(100 * (1 - inputs.concentrationShare)),
      value: inputs.concentrationShare,
      explanation: `The largest customer holds ${pct(inputs.concentrationShare)} of the open book.`,
    };
  } else {
    factors.concentration = {
      score: whole(100 * (1 - 4 * inputs.concentrationShare)),
      value: inputs.concentrationShare,
      explanation: `This customer owes ${pct(inputs.concentrationShare)} of the factor's whole open book (1 − 4 × share).`,
    };
  }

  factors.companyAge =
    inputs.ageYears === null
      ? { score: 50, value: null, explanation: 'Founding date unknown.' }
      : {
          score: whole((100 / MATURE_COMPANY_YEARS) * inputs.ageYears),
          value: inputs.ageYears,
          explanation: `Founded ${inputs.ageYears} full year(s) ago.`,
        };

  if (inputs.entityType === 'client') {
    if (inputs.creditUsage === null) {
      factors.creditUsage =
        inputs.usedCents === 0
          ? { score: 100, value: null, explanation: 'No credit limit and nothing used.' }
          : { score: 0, value: null, explanation: `No credit limit but ${eur(inputs.usedCents)} used.` };
    } else {
      factors.creditUsage = {
        score: whole(100 * (1 - inputs.creditUsage)),
        value: inputs.creditUsage,
        explanation: `${eur(inputs.usedCents)} used of a ${eur(inputs.limitCents ?? 0)} limit (${pct(inputs.creditUsage)}).`,
      };
    }
  } else {
    const usage = inputs.creditUsage ?? 0;
    factors.creditUsage = {
      score: whole(100 * (1 - usage)),
      value: usage,
      explanation: `Open exposure ${eur(inputs.openCents)} of the ${eur(CUSTOMER_EXPOSURE_THRESHOLD_EUR * 100)} threshold (${pct(usage)}).`,
    };
  }

  factors.dilution =
    inputs.dilutionRate === null
      ? { score: 100, value: null, explanation: 'Nothing financed in the last 12 months.' }
      : {
          score: whole(100 - (100 / DILUTION_ZERO_AT_PERCENT) * inputs.dilutionRate),
          // Stored as a share, as the other factors (the page shows it in percent).
          value: round4(inputs.dilutionRate / 100),
          explanation: `Credit notes of the last 12 months are ${inputs.dilutionRate.toFixed(2)} % of the amount financed (100 − 10 × ${inputs.dilutionRate.toFixed(2)}).`,
        };

  // The table's order, so "the first 4 factors" are always the same four.
  const stored: StoredFactors = {};
  for (const name of RISK_FACTOR_NAMES) stored[name] = { ...factors[name], weight: WEIGHTS[name] };
  return stored;
}

function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

const num = (value: string | number | null | undefined): number | null => (value === null || value === undefined ? null : Number(value));

/** SQL for "today in Croatia", unless the caller pins the day (tests, reruns). */
const TODAY = `coalesce(CAST(:asOf AS date), ${SQL_BUSINESS_TODAY})`;

/**
 * Every input of one entity, computed in SQL (sums and shares in NUMERIC, so
 * nothing is loaded row by row). Throws 404 for an unknown entity.
 */
export async function gatherInputs(entityType: RiskEntityType, entityId: string, options: { asOf?: string | null; transaction?: Transaction | null } = {}): Promise<RiskInputs> {
  const own = entityType === 'client' ? 'client_id' : 'customer_id';
  const table = entityType === 'client' ? 'clients' : 'customers';
  const row = await selectOne<{
    found: boolean;
    account_blocked: boolean | null;
    age_years: number | null;
    used_cents: string | null;
    limit_cents: string | null;
    due_invoices: number;
    paid_on_time: number;
    open_cents: string;
    average_days: string | null;
    blocked_share: string | null;
    top_share: string | null;
    book_share: string | null;
  }>(
    `WITH entity AS (SELECT * FROM ${table} WHERE id = :entityId),
          book AS (
            SELECT i.customer_id, i.status, i.due_date, i.paid_at, i.amount - i.paid_amount - i.credited_amount AS open_amount, cu.account_blocked
              FROM invoices i JOIN customers cu ON cu.id = i.customer_id
             WHERE i.${own} = :entityId AND i.status IN ('financed', 'paid', 'charged_back', 'written_off')
          ),
          totals AS (
            SELECT count(*) FILTER (WHERE status IN ('paid', 'charged_back', 'written_off') OR due_date < ${TODAY})::int AS due_invoices,
                   count(*) FILTER (WHERE status = 'paid' AND ${sqlBusinessLocal('paid_at')}::date <= due_date)::int AS paid_on_time,
                   coalesce(sum(open_amount) FILTER (WHERE status = 'financed'), 0) AS open_amount,
                   sum(open_amount * greatest(0, ${TODAY} - due_date)) FILTER (WHERE status = 'financed') AS open_amount_days,
                   coalesce(sum(open_amount) FILTER (WHERE status = 'financed' AND account_blocked), 0) AS blocked_amount
              FROM book
          ),
          top_customer AS (
            SELECT coalesce(max(amount), 0) AS amount
              FROM (SELECT sum(open_amount) AS amount FROM book WHERE status = 'financed' GROUP BY customer_id) per_customer
          ),
          whole_book AS (SELECT coalesce(sum(amount - paid_amount - credited_amount), 0) AS amount FROM invoices WHERE status = 'financed')
     SELECT EXISTS (SELECT 1 FROM entity) AS found,
            ${entityType === 'customer' ? '(SELECT account_blocked FROM entity)' : 'NULL::boolean'} AS account_blocked,
            (SELECT extract(year FROM age(${TODAY}, founded_on))::int FROM entity) AS age_years,
            ${entityType === 'client' ? '(SELECT (used_credit * 100)::bigint FROM entity)' : 'NULL::bigint'} AS used_cents,
            ${entityType === 'client' ? '(SELECT (credit_limit * 100)::bigint FROM entity)' : 'NULL::bigint'} AS limit_cents,
            t.due_invoices, t.paid_on_time,
            (t.open_amount * 100)::bigint AS open_cents,
            CASE WHEN t.open_amount > 0 THEN round(t.open_amount_days / t.open_amount, 1) END AS average_days,
            CASE WHEN t.open_amount > 0 THEN round(t.blocked_amount / t.open_amount, 4) END AS blocked_share,
            CASE WHEN t.open_amount > 0 THEN round(tc.amount / t.open_amount, 4) END AS top_share,
            CASE WHEN w.amount > 0 AND t.open_amount > 0 THEN round(t.open_amount / w.amount, 4) END AS book_share
       FROM totals t, top_customer tc, whole_book w`,
    { entityId, asOf: options.asOf ?? null },
    { transaction: options.transaction },
  );
  if (!row?.found) throw apiError(404, entityType === 'client' ? 'errors.parties.clientNotFound' : 'errors.parties.customerNotFound');
  const openCents = Number(row.open_cents);
  const usedCents = Number(row.used_cents ?? 0);
  const limitCents = num(row.limit_cents);
  let creditUsage: number | null;
  if (entityType === 'client') {
    creditUsage = limitCents === null ? null : limitCents === 0 ? (usedCents === 0 ? 0 : 1) : round4(usedCents / limitCents);
  } else {
    creditUsage = round4(openCents / (CUSTOMER_EXPOSURE_THRESHOLD_EUR * 100));
  }
  return {
    entityType,
    dueInvoices: row.due_invoices,
    paidOnTime: row.paid_on_time,
    openCents,
    averageDaysPastDue: num(row.average_days),
    accountBlocked: row.account_blocked === true,
    blockedShare: entityType === 'client' ? num(row.blocked_share) : null,
    concentrationShare: entityType === 'client' ? num(row.top_share) : num(row.book_share),
    ageYears: row.age_years === null ? null : Math.max(0, row.age_years),
    creditUsage,
    usedCents,
    limitCents,
    dilutionRate: (await dilutionOf({ kind: entityType, id: entityId }, options)).rate,
  };
}

/** Inputs → factors → score, for one entity as the book stands now (or on `asOf`). */
export async function scoreEntity(
  entityType: RiskEntityType,
  entityId: string,
  options: { asOf?: string | null; transaction?: Transaction | null } = {},
): Promise<{ inputs: RiskInputs; factors: StoredFactors } & ScoreResult> {
  const inputs = await gatherInputs(entityType, entityId, options);
  const factors = scoreFactors(inputs);
  return { inputs, factors, ...computeScore(factors) };
}
