/**
 * The performance targets (docs/benchmarks.md, "The targets"), checked
 * against a bench run: every figure at concurrency 10 on the book measured
 * (the ageing report's at concurrency 1, the time one user waits),
 * "server CPU" being the web process's CPU per request (bench/cpu.ts; the
 * bare baseline answers a list for 2–3 ms of its own). `holds` is null when
 * the run did not measure the figure (a target left out by BENCH_TARGETS, or
 * no c=10 run).
 */

export type TargetKind = 'list' | 'metrics' | 'page' | 'baseline' | 'report';

export interface Row {
  target: string;
  kind: TargetKind;
  concurrency: number;
  /** Timed rounds; every figure below is their median (BENCH_ROUNDS). */
  rounds: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  ratioToBaseline: number | null;
  /** The baseline's throughput the ratio was taken against (for a list, measured just before it). */
  baselineRequestsPerSecond: number | null;
  /** Server CPU per request, ms (bench/cpu.ts): the web process (null for the baseline, which runs in the bench's process) and PostgreSQL. */
  webCpuMs: number | null;
  pgCpuMs: number;
  /** The worker's CPU while the figure was taken, % of one core: it shares the two cores with the web process and PostgreSQL. */
  workerCpuPercent: number;
  /** The worker's jobs that were running while the figure was taken (their PostgreSQL time is in pgCpuMs). */
  workerBusy: string[];
}

export interface TargetCheck {
  target: string;
  figure: string;
  limit: string;
  holds: boolean | null;
}

/** One target's cost per request on the smaller and the larger book (BENCH_SCALES). */
export interface GrowthRow {
  target: string;
  concurrency: number;
  small: { scale: number; webCpuMs: number | null; pgCpuMs: number };
  large: { scale: number; webCpuMs: number | null; pgCpuMs: number };
  /** Server CPU per request (web + PostgreSQL) on the larger book over the smaller, two decimals. */
  ratio: number | null;
  /** It grew by more than GROWTH_LIMIT. */
  flagged: boolean;
}

export const CHECK_CONCURRENCY = 10;
/** The ageing report answers one user in under 300 ms (docs/collections.md#ageing): its p99 at concurrency 1. */
export const REPORT_CONCURRENCY = 1;
export const REPORT_P99_MS = 300;
/** How much a target's CPU per request may grow when the book grows (docs/benchmarks.md, "The targets"). */
export const GROWTH_LIMIT = 1.2;

const ms = (value: number | null) => (value === null ? '–' : `${value} ms`);
const check = (target: string, value: number | null, figure: string, limit: string, holds: (value: number) => boolean): TargetCheck => ({
  target,
  figure: value === null ? 'not measured' : figure,
  limit,
  holds: value === null ? null : holds(value),
});

/** Server CPU per request: the web process and PostgreSQL (the baseline's web part is not measured). */
export const serverCpuMs = (row: { webCpuMs: number | null; pgCpuMs: number }) => Math.round(((row.webCpuMs ?? 0) + row.pgCpuMs) * 100) / 100;

export function growthRows(small: { scale: number; rows: Row[] }, large: { scale: number; rows: Row[] }): GrowthRow[] {
  return large.rows.flatMap((row) => {
    const before = small.rows.find((candidate) => candidate.target === row.target && candidate.concurrency === row.concurrency);
    if (!before) return [];
    const ratio = serverCpuMs(before) > 0 ? Math.round((100 * serverCpuMs(row)) / serverCpuMs(before)) / 100 : null;
    return [
      {
        target: row.target,
        concurrency: row.concurrency,
        small: { scale: small.scale, webCpuMs: before.webCpuMs, pgCpuMs: before.pgCpuMs },
        large: { scale: large.scale, webCpuMs: row.webCpuMs, pgCpuMs: row.pgCpuMs },
        ratio,
        flagged: ratio !== null && ratio > GROWTH_LIMIT,
      },
    ];
  });
}

export function checkTargets(
  rows: Row[],
  run: { webPeakMb: number | null; startToHealthyMs: number; growth?: GrowthRow[]; /** Refused or failed money writes. */ writeErrors?: number },
): TargetCheck[] {
  const atCheck = rows.filter((row) => row.concurrency === CHECK_CONCURRENCY);
  const checks: TargetCheck[] = [];
  for (const row of atCheck) {
    if (row.kind === 'list') {
      const search = row.target.includes('?q=');
      const share = search ? 0.5 : 0.7;
      checks.push(check(`${row.target}: web CPU per request`, row.webCpuMs, ms(row.webCpuMs), '≤ 4 ms', (value) => value <= 4));
      checks.push(check(`${row.target}: throughput of the baseline's`, row.ratioToBaseline, `${(row.ratioToBaseline ?? 0).toFixed(2)}×`, `≥ ${share}×`, (value) => value >= share));
      checks.push(check(`${row.target}: p99`, row.p99, ms(row.p99), '≤ 60 ms', (value) => value <= 60));
    } else if (row.kind === 'metrics' && row.target === 'GET /api/dashboard/metrics') {
      checks.push(check(`${row.target}: p99`, row.p99, ms(row.p99), '≤ 100 ms', (value) => value <= 100));
    } else if (row.kind === 'page') {
      checks.push(check(`${row.target}: web CPU per page`, row.webCpuMs, ms(row.webCpuMs), '≤ 10 ms', (value) => value <= 10));
      checks.push(check(`${row.target}: pages per second`, row.requestsPerSecond, `${row.requestsPerSecond}/s`, '≥ 80/s', (value) => value >= 80));
      checks.push(check(`${row.target}: p99`, row.p99, ms(row.p99), '≤ 150 ms', (value) => value <= 150));
    }
  }
  for (const row of rows.filter((candidate) => candidate.kind === 'report' && candidate.concurrency === REPORT_CONCURRENCY)) {
    checks.push(check(`${row.target}: p99, one user`, row.p99, ms(row.p99), `≤ ${REPORT_P99_MS} ms`, (value) => value <= REPORT_P99_MS));
  }
  const failures = rows.reduce((sum, row) => sum + row.errors + row.non2xx, 0) + (run.writeErrors ?? 0);
  checks.push(check('errors and non-2xx answers, every run (the money writes too)', failures, String(failures), '0', (value) => value === 0));
  checks.push(check('web peak memory', run.webPeakMb, `${run.webPeakMb} MB`, '≤ 300 MB', (value) => value <= 300));
  checks.push(check('start to /healthz', run.startToHealthyMs, `${(run.startToHealthyMs / 1000).toFixed(1)} s`, '≤ 5 s', (value) => value <= 5000));
  for (const row of run.growth ?? []) {
    if (row.concurrency !== CHECK_CONCURRENCY || row.target.startsWith('baseline')) continue;
    checks.push(
      check(
        `${row.target}: CPU per request, book ×${Math.round(row.large.scale / row.small.scale)}`,
        row.ratio,
        `${row.ratio}×`,
        `≤ ${GROWTH_LIMIT}×`,
        (value) => value <= GROWTH_LIMIT,
      ),
    );
  }
  return checks;
}

export function printChecks(checks: TargetCheck[], log: (line: string) => void) {
  log(`targets (c=${CHECK_CONCURRENCY} unless the target says one user):`);
  for (const entry of checks) {
    const verdict = entry.holds === null ? '–' : entry.holds ? 'holds' : 'DOES NOT HOLD';
    log(`  ${entry.target.padEnd(64)} ${entry.figure.padStart(12)}  target ${entry.limit.padEnd(9)} ${verdict}`);
  }
}

export function printGrowth(rows: GrowthRow[], log: (line: string) => void) {
  if (rows.length === 0) return;
  const { small, large } = rows[0];
  log(`cost per request, book at scale ${small.scale} → ${large.scale} (web / PostgreSQL CPU ms):`);
  for (const row of rows) {
    log(
      `  ${row.target.padEnd(44)} c=${String(row.concurrency).padStart(2)}  ${ms(row.small.webCpuMs).padStart(9)} / ${ms(row.small.pgCpuMs).padStart(9)}` +
        `  →  ${ms(row.large.webCpuMs).padStart(9)} / ${ms(row.large.pgCpuMs).padStart(9)}  ×${row.ratio ?? '–'}${row.flagged ? `  GROWS MORE THAN ${Math.round((GROWTH_LIMIT - 1) * 100)} %` : ''}`,
    );
  }
}
