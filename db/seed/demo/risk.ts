import { randomUUID } from 'node:crypto';
import { DAY, HOUR, type Row, clamp, date, json } from './plumbing.ts';
import { RISK_FACTORS, riskCategory } from './croatia.ts';
import type { ClientInfo, Context, CustomerInfo, Party } from './context.ts';

// ---- Risk assessments ---------------------------------------------------------------

/** Assessments by weighted factors; an entity's current score is its latest one. */
export class RiskBook {
  readonly rows: Row[] = [];
  constructor(private readonly ctx: Context) {}

  /** A target score for a healthy book: mostly low risk, some medium, a few high. */
  target(): number {
    const { random } = this.ctx;
    return random.weighted([random.int(82, 95), 6], [random.int(63, 77), 3], [random.int(40, 56), 1]);
  }

  assessHistory(clients: ClientInfo[], customers: CustomerInfo[]) {
    // Applicants are assessed by their onboarding workflow (buildWorkflows).
    for (const client of clients) if (client.status !== 'pending') this.history('client', client, false, this.ctx.random.int(1, 3));
    for (const customer of customers) this.history('customer', customer, customer.blocked, this.ctx.random.int(1, 2));
  }

  private history(entityType: 'client' | 'customer', party: Party, blocked: boolean, count: number) {
    const { random, clock } = this.ctx;
    const target = blocked ? random.int(25, 50) : this.target();
    const span = Math.max(2, Math.floor((clock.now - party.createdAt) / DAY) - 1);
    for (let n = 0; n < count; n++) {
      const daysAgo = Math.floor((span * (count - n)) / (count + 1));
      const latest = n === count - 1;
      this.assess(entityType, party, clamp(target + random.int(-6, 6), 0, 100), clock.at(daysAgo, random), {
        blocked: blocked && latest,
        adjust: latest && random.chance(0.2),
        withData: random.chance(0.7) || latest,
      });
    }
  }

  assess(entityType: 'client' | 'customer', party: Party, target: number, at: number, options: { blocked?: boolean; adjust?: boolean; withData?: boolean }) {
    const { random, clock } = this.ctx;
    const factors: Record<string, { score: number; weight: number }> = {};
    let weighted = 0;
    for (const [name, weight] of RISK_FACTORS) {
      let score = clamp(target + random.int(-12, 12), 0, 100);
      if (name === 'accountBlockages') {
        score = options.blocked ? random.int(0, 15) : random.weighted([100, 8], [random.int(70, 90), 2]);
      }
      if (name === 'companyAge') score = clamp(40 + (new Date(at).getUTCFullYear() - party.foundedYear) * 3, 0, 100);
      factors[name] = { score, weight: weight / 100 };
      weighted += score * weight;
    }
    const automatic = clamp(Math.round(weighted / 100), 0, 100);
    const adjustment = options.adjust ? random.pick([-10, -8, -5, 5, 6, 10]) : 0;
    const score = clamp(automatic + adjustment, 0, 100);
    // A manual adjustment is recorded with who made it; otherwise the system assessed it.
    const adjuster = options.adjust ? this.ctx.decider() : undefined;
    const checkedAt = new Date(at).toISOString();
    const id = randomUUID();
    this.rows.push({
      id,
      entity_type: entityType,
      entity_id: party.id,
      category: riskCategory(score),
      score,
      automatic_score: automatic,
      manual_adjustment: adjustment,
      assessed_by: adjuster?.id ?? null,
      adjusted_by: adjuster?.id ?? null,
      adjusted_at: adjuster ? date(clock.past(at + random.int(1, 48) * HOUR)) : null,
      factors: json(factors),
      notes: !adjuster
        ? 'Automatska procjena na temelju podataka FINA-e i povijesti plaćanja.'
        : adjustment > 0
          ? 'Korekcija naviše: dugogodišnja uredna suradnja i osigurani ugovori s kupcima.'
          : 'Korekcija naniže: koncentracija na jednog kupca i pad prihoda u zadnjem kvartalu.',
      hanfa_data: options.withData ? json({ source: 'sandbox', supervisedEntity: false, supervisoryMeasures: [], checkedAt }) : null,
      fina_data: options.withData
        ? json({
            source: 'sandbox',
            accountBlocked: Boolean(options.blocked),
            blockedDaysLast12Months: options.blocked ? random.int(20, 120) : 0,
            lastAnnualReportYear: new Date(at).getUTCFullYear() - 1,
            employees: random.int(4, 250),
            checkedAt,
          })
        : null,
      created_at: date(at),
      updated_at: date(at),
    });
    this.ctx.event(at, 'risk_assessment_created', 'risk_assessment', id, adjuster?.id ?? null, {
      entityType,
      companyName: party.companyName,
      score,
      category: riskCategory(score),
    });
    party.riskScore = score;
  }
}
