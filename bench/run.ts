import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { createSequelize } from '../db/connection.ts';
import { startEmbeddedDatabase } from '../db/embedded.ts';
import { migrateUp } from '../db/migrate.ts';
import { addDays, businessDay } from '../app/utils/business-time.ts';
import { ensureBuild, WEB_ENTRY, WORKER_ENTRY } from '../scripts/build.ts';
import { nodeFlagsFor } from '../scripts/node-flags.ts';
import { freePort } from '../tests/support/free-port.ts';
import { sameAnswer, startBaseline } from './baseline.ts';
import { BENCH_USER, bookSize, foldMaintainedTotals, loadBook, markOverdueHandled } from './load-book.ts';
import { clusterCpuMs, processCpuMs } from './cpu.ts';
import { monotonicMicros, printTargetProfile, profileTargets, readProfile, type ProfileWindow, type TargetProfile } from './profile.ts';
import { checkTargets, growthRows, printChecks, printGrowth, type GrowthRow, type Row, type TargetKind } from './targets.ts';
import { measureWrites, prepareFinanceable, type WriteRow } from './writes.ts';

/**
 * `npm run bench`: a fresh embedded database with a large book, the
 * production build of FinFlow (web + worker) against it, and autocannon at
 * concurrency 1, 10 and 50 on the lists, the dashboard metrics and the pages,
 * next to a bare node:http + pg baseline of the invoice list (measured again
 * just before each list, whose share of its throughput is taken against that
 * run), with the server CPU each request cost (web process and PostgreSQL,
 * bench/cpu.ts). Prints a table
 * and writes bench/results/<time>.json. BENCH_SCALE (default 1) shrinks the
 * book for a quick trial. Each figure is the median of BENCH_ROUNDS rounds
 * (default 3) of BENCH_DURATION seconds (default 6); a list's rounds
 * alternate with the baseline's, so its share is taken round by round
 * (this machine's speed drifts by a third within minutes, docs/benchmarks.md).
 * BENCH_DATA_DIR keeps the database in that folder and reuses a book loaded
 * there before (migrations still run), so tuning can re-measure in minutes.
 * BENCH_TARGETS (comma-separated parts of target names, e.g. `q=,payable`)
 * runs only those targets, beside the baseline. The money writes (financing
 * and the settling payment confirmation, bench/writes.ts) run on BENCH_WRITES
 * prepared invoices (default 200) at concurrency 10, when no target filter is
 * given or it names `finance` or `confirm`.
 *
 * BENCH_PROFILE=1 starts the web process with a V8 CPU profile and prints,
 * per target, the top frames by self time (bench/profile.ts); the profile's
 * sampling costs the web process some throughput, so compare profiled runs
 * with profiled runs. Each target first gets BENCH_WARMUP seconds (default 5)
 * of unmeasured requests, so the figures are those of a server that has been
 * running (V8 optimises a code path only after it has run a while; the cold
 * figures were 20–40 % higher on the pages). BENCH_SCALES (e.g. `0.1,1`) runs the same targets on
 * each book in turn (each in `BENCH_DATA_DIR-<scale>` when BENCH_DATA_DIR is
 * set) and prints the cost per request side by side, flagged where it grows
 * by more than 20 % (bench/targets.ts). Every run ends with the table of the
 * targets of docs/benchmarks.md and whether each holds, also in the JSON.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const scales = (process.env.BENCH_SCALES ?? process.env.BENCH_SCALE ?? '1').split(',').map(Number);
const profiling = process.env.BENCH_PROFILE === '1';
const duration = Number(process.env.BENCH_DURATION ?? 6);
/** Rounds per figure, the median reported (BENCH_ROUNDS). */
const roundCount = Math.max(1, Math.floor(Number(process.env.BENCH_ROUNDS ?? 3)));
/** The web process's and the baseline's: the baseline checks the same signed session cookie. */
const sessionSecret = 'bench-session-secret-bench-session-secret';
/** Seconds of requests at concurrency 10 before each target's timed runs, not counted (BENCH_WARMUP, 0 for none). */
const warmup = Number(process.env.BENCH_WARMUP ?? 5);
/** Invoices financed and then settled by the timed money writes (each once). */
const writeCount = Number(process.env.BENCH_WRITES ?? 200);
const concurrencies = (process.env.BENCH_CONCURRENCY ?? '1,10,50').split(',').map(Number);
const only = (process.env.BENCH_TARGETS ?? '')
  .split(',')
  .map((part) => part.trim())
  .filter(Boolean);
const log = (line: string) => console.log(`[bench] ${line}`);

interface Target {
  name: string;
  path: string;
  kind: TargetKind;
}

/** An /api target, named by its method and path unless the path holds a value that changes (a day). */
const apiTarget = (path: string, kind: TargetKind, name = `GET ${path}`): Target => ({ name, path, kind });
/** A page target, named `page <path>`. */
const pageTarget = (path: string): Target => ({ name: `page ${path}`, path, kind: 'page' });

function peakMemoryMb(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
    return hwm ? Math.round(Number(hwm[1]) / 1024) : null;
  } catch {
    return null;
  }
}

function spawnApp(entry: string, env: NodeJS.ProcessEnv, extraFlags: string[] = []): ChildProcess {
  // The same flags as npm start (scripts/node-flags.ts).
  const child = spawn(process.execPath, [...nodeFlagsFor(entry), ...extraFlags, path.join(root, entry)], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.on('data', (chunk) => process.stderr.write(`[${path.basename(entry)}] ${chunk}`));
  return child;
}

async function waitHealthy(url: string, timeoutMs: number) {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    try {
      if ((await fetch(`${url}/healthz`, { headers: { Connection: 'close' } })).ok) return Date.now() - started;
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('FinFlow did not become healthy');
}

async function signIn(url: string): Promise<string> {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(BENCH_USER),
  });
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith('finflow_session='));
  if (!response.ok || !cookie) throw new Error(`bench sign-in failed: ${response.status} ${await response.text()}`);
  return cookie.split(';')[0];
}

/** One timed run of a target, with the baseline measured just before it (a list) and the server's CPU during it. */
interface Round {
  result: autocannon.Result;
  baselineRps: number | null;
  webCpuMs: number | null;
  pgCpuMs: number;
  workerCpuMs: number;
  workerBusy: string[];
}

/** The middle value (the mean of the two middle ones for an even count). */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** A target's figures: each the median of its rounds (the share too, round by round); errors summed; the worker's jobs of any round. */
function rowOf(target: Target, connections: number, rounds: Round[]): Row {
  const of = (pick: (round: Round) => number) => median(rounds.map(pick));
  const ratios = rounds.filter((round) => round.baselineRps).map((round) => round.result.requests.average / round.baselineRps!);
  const seconds = of((round) => round.result.duration);
  return {
    target: target.name,
    kind: target.kind,
    concurrency: connections,
    rounds: rounds.length,
    requestsPerSecond: Math.round(of((round) => round.result.requests.average)),
    p50: of((round) => round.result.latency.p50),
    p99: of((round) => round.result.latency.p99),
    errors: rounds.reduce((sum, round) => sum + round.result.errors + round.result.timeouts, 0),
    non2xx: rounds.reduce((sum, round) => sum + round.result.non2xx, 0),
    ratioToBaseline: ratios.length ? median(ratios) : null,
    baselineRequestsPerSecond: ratios.length ? Math.round(of((round) => round.baselineRps ?? 0)) : null,
    webCpuMs: target.kind === 'baseline' ? null : Math.round(of((round) => round.webCpuMs ?? 0) * 100) / 100,
    pgCpuMs: Math.round(of((round) => round.pgCpuMs) * 100) / 100,
    workerCpuPercent: Math.round(of((round) => round.workerCpuMs) / seconds / 10),
    workerBusy: [...new Set(rounds.flatMap((round) => round.workerBusy))].sort(),
  };
}

function measure(url: string, connections: number, cookie: string, seconds = duration): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, headers: { cookie } }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

type BookReport = Awaited<ReturnType<typeof measureBook>>;

/** Loads (or reuses) the book of `scale` in `keptDir` (a temporary folder when none) and measures every target on it. */
async function measureBook(scale: number, keptDir: string | undefined) {
  const dataDir = keptDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'finflow-bench-'));
  const loadedMarker = path.join(dataDir, `book-loaded-scale-${scale}`);
  const reuseBook = keptDir !== undefined && fs.existsSync(loadedMarker);
  const size = bookSize(scale);
  log(`book (scale ${scale}): ${JSON.stringify(size)}`);

  const database = await startEmbeddedDatabase({ dataDir, port: await freePort(), persistent: keptDir !== undefined });
  const children: ChildProcess[] = [];
  let baseline: { close(): Promise<void> } | undefined;
  try {
    const sequelize = createSequelize(database.url, { poolMax: 2 });
    await migrateUp(sequelize);
    const loadStarted = Date.now();
    if (reuseBook) {
      log(`reusing the book loaded in ${dataDir}`);
      await markOverdueHandled(sequelize, log);
      await foldMaintainedTotals(sequelize, log);
      await sequelize.query('ANALYZE');
    } else {
      log('loading the book…');
      await loadBook(sequelize, size, log);
      if (keptDir) fs.writeFileSync(loadedMarker, new Date().toISOString());
    }
    const loadSeconds = reuseBook ? null : (Date.now() - loadStarted) / 1000;
    if (loadSeconds !== null) log(`loaded in ${loadSeconds.toFixed(0)} s`);
    const wantWrites = only.length === 0 || only.some((part) => 'finance confirm'.includes(part));
    const financeable = wantWrites ? await prepareFinanceable(sequelize, writeCount) : [];
    await sequelize.close();

    await ensureBuild(log);
    const port = await freePort();
    const url = `http://localhost:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production' as const,
      PORT: String(port),
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      APP_URL: url,
      SESSION_SECRET: sessionSecret,
    };
    // The profile is written when the web process exits (server.ts exits on SIGTERM once its requests are answered).
    const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'finflow-bench-profile-'));
    const web = spawnApp(WEB_ENTRY, env, profiling ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []);
    const worker = spawnApp(WORKER_ENTRY, env);
    children.push(web, worker);
    const startToHealthyMs = await waitHealthy(url, 60_000);
    log(`web healthy ${startToHealthyMs} ms after start`);
    const cookie = await signIn(url);

    const basePort = await freePort();
    baseline = await startBaseline(database.url, basePort, sessionSecret);
    const comparison = await sameAnswer(`${url}/api/invoices`, `http://127.0.0.1:${basePort}/api/invoices`, cookie);
    if (!comparison.same) throw new Error(`the baseline no longer answers what GET /api/invoices answers: ${comparison.detail} (bench/baseline.ts)`);
    log(`baseline answers what GET /api/invoices answers (${comparison.detail})`);
    const prefix = 'R-2025-000';
    // A fragment from inside the numbers (R-YYYY-NNNNNNN): 'R-2025-0004213' holds it, and so do 1 in 1,000 of the others.
    const fragment = '0042';
    const allTargets: Target[] = [
      { name: 'baseline GET /api/invoices (node:http + pg)', path: `http://127.0.0.1:${basePort}/api/invoices`, kind: 'baseline' },
      apiTarget('/api/invoices', 'list'),
      apiTarget(`/api/invoices?q=${prefix}`, 'list'),
      apiTarget(`/api/invoices?q=${fragment}`, 'list'),
      apiTarget('/api/invoices/payable', 'list'),
      apiTarget('/api/invoices?status=approved', 'list'),
      apiTarget('/api/clients', 'list'),
      apiTarget('/api/dashboard/metrics', 'metrics'),
      apiTarget('/api/email/logs', 'list'),
      // The ageing report (docs/collections.md#ageing): today by client and by customer, and 30 days and a year back, which subtract the open book's years, months and days since.
      apiTarget('/api/analytics/ageing', 'report'),
      apiTarget('/api/analytics/ageing?by=customer', 'report'),
      apiTarget(`/api/analytics/ageing?asOf=${addDays(businessDay(), -30)}`, 'report', 'GET /api/analytics/ageing?asOf=(30 days ago)'),
      apiTarget(`/api/analytics/ageing?asOf=${addDays(businessDay(), -365)}`, 'report', 'GET /api/analytics/ageing?asOf=(a year ago)'),
      pageTarget('/'),
      pageTarget('/invoices'),
      pageTarget('/clients'),
    ];
    const targets = only.length ? allTargets.filter((target) => target.kind === 'baseline' || only.some((part) => target.name.includes(part))) : allTargets;

    const rows: Row[] = [];
    const windows: ProfileWindow[] = [];
    /** The latest baseline throughput per concurrency: the list measured next is compared with it. */
    const baselineRps = new Map<number, number>();
    const baselineTarget = targets.find((target) => target.kind === 'baseline');
    const jobs = new pg.Client({ connectionString: database.url });
    await jobs.connect();
    // The worker's jobs that run while a target is measured: its daily runs (FINA checks of every customer, at 05:45
    // Zagreb time) take PostgreSQL's CPU for many minutes, and a run that meets one says so beside each figure.
    const workerJobs = async (): Promise<string[]> => {
      // pg-boss creates its schema when the worker first starts, which may be after the web is up.
      const { rows: schema } = await jobs.query<{ ready: boolean }>(`SELECT to_regclass('pgboss.job') IS NOT NULL AS ready`);
      if (!schema[0]?.ready) return [];
      const { rows: active } = await jobs.query<{ name: string }>(`SELECT DISTINCT name FROM pgboss.job WHERE state = 'active' AND name NOT LIKE '\\_\\_pgboss%' ORDER BY name`);
      return active.map((row) => row.name);
    };
    try {
      for (const target of targets) {
        const full = target.kind === 'baseline' ? target.path : `${url}${target.path}`;
        const probe = await fetch(full, { headers: { cookie, Connection: 'close' } });
        if (probe.status === 404) {
          log(`${target.name}: not built yet (404), skipped`);
          continue;
        }
        // Unmeasured: the first requests of a code path run before V8 has optimised it and while the heap is still growing.
        if (warmup > 0) await measure(full, 10, cookie, warmup);
        const windowStart = monotonicMicros();
        for (const connections of concurrencies) {
          const rounds: Round[] = [];
          for (let round = 0; round < roundCount; round++) {
            // A list's share of the baseline's throughput is taken against the baseline measured just before it, at the
            // same concurrency, round by round: this machine's speed drifts by a third over a run, and a baseline measured
            // minutes earlier would put that drift into the share (docs/benchmarks.md).
            const adjacentRps = target.kind === 'list' && baselineTarget ? (await measure(baselineTarget.path, connections, cookie)).requests.average : null;
            const busyBefore = await workerJobs();
            const cpuBefore = { web: processCpuMs(web.pid), pg: clusterCpuMs(database.pgDir), worker: processCpuMs(worker.pid) };
            const result = await measure(full, connections, cookie);
            const served = Math.max(result.requests.total, 1);
            const perRequest = (before: number, after: number) => Math.round(((after - before) / served) * 100) / 100;
            rounds.push({
              result,
              baselineRps: target.kind === 'baseline' ? null : (adjacentRps ?? baselineRps.get(connections) ?? null),
              webCpuMs: target.kind === 'baseline' ? null : perRequest(cpuBefore.web, processCpuMs(web.pid)),
              pgCpuMs: perRequest(cpuBefore.pg, clusterCpuMs(database.pgDir)),
              workerCpuMs: processCpuMs(worker.pid) - cpuBefore.worker,
              workerBusy: [...new Set([...busyBefore, ...(await workerJobs())])],
            });
          }
          const row = rowOf(target, connections, rounds);
          if (target.kind === 'baseline') baselineRps.set(connections, row.requestsPerSecond);
          rows.push(row);
          const p99s = rounds.map((round) => round.result.latency.p99);
          log(
            `${target.name.padEnd(44)} c=${String(connections).padStart(2)}  ${String(row.requestsPerSecond).padStart(6)} req/s  p50 ${String(row.p50).padStart(4)} ms  p99 ${String(row.p99).padStart(4)} ms${rounds.length > 1 ? ` (${Math.min(...p99s)}–${Math.max(...p99s)})` : ''}  errors ${row.errors + row.non2xx}  cpu/req web ${row.webCpuMs ?? '–'} ms pg ${row.pgCpuMs} ms${row.ratioToBaseline === null ? '' : `  ${(row.ratioToBaseline * 100).toFixed(0)} % of baseline (${row.baselineRequestsPerSecond} req/s)`}${row.workerCpuPercent >= 1 || row.workerBusy.length ? `  worker ${row.workerCpuPercent} % of a core${row.workerBusy.length ? `: ${row.workerBusy.join(', ')}` : ''}` : ''}`,
          );
        }
        // The baseline runs in this process, not in the profiled web process.
        if (target.kind !== 'baseline') windows.push({ target: target.name, startUs: windowStart, endUs: monotonicMicros() });
      }
    } finally {
      await jobs.end();
    }
    const writes: WriteRow[] = [];
    if (wantWrites && financeable.length === 0) log('money writes: no approved invoice to finance in this book, not measured');
    if (financeable.length > 0) {
      const concurrency = Math.max(...concurrencies.filter((value) => value <= 10), 1);
      writes.push(...(await measureWrites(url, cookie, financeable, concurrency)));
      for (const row of writes) {
        log(
          `${row.target.padEnd(44)} c=${String(row.concurrency).padStart(2)}  ${String(row.operationsPerSecond).padStart(6)} op/s  p50 ${String(row.p50).padStart(4)} ms  p99 ${String(row.p99).padStart(4)} ms  errors ${row.errors} of ${row.operations}`,
        );
      }
    }
    const memory = { webPeakMb: peakMemoryMb(web.pid), workerPeakMb: peakMemoryMb(worker.pid) };
    log(`peak memory: web ${memory.webPeakMb} MB, worker ${memory.workerPeakMb} MB`);
    console.table(rows.map((row) => ({ ...row, ratioToBaseline: row.ratioToBaseline === null ? '' : `${(row.ratioToBaseline * 100).toFixed(0)} %` })));
    if (writes.length > 0) console.table(writes);

    let profiles: TargetProfile[] = [];
    if (profiling) {
      await stopChildren(children);
      // Each thread writes its own (tsx's module hooks run on one besides the main thread): the main thread's is thread 0.
      const file = fs.readdirSync(profileDir).find((name) => name.includes(`.${web.pid}.0.`));
      if (file) {
        profiles = profileTargets(readProfile(path.join(profileDir, file)), windows);
        for (const entry of profiles) printTargetProfile(entry, log);
      } else {
        log(`no CPU profile was written in ${profileDir}`);
      }
    }
    if (process.env.BENCH_PROFILE_KEEP === '1') log(`profile kept in ${profileDir}`);
    else fs.rmSync(profileDir, { recursive: true, force: true });
    return { scale, book: size, loadSeconds, startToHealthyMs, rows, writes, memory, profiles };
  } finally {
    await baseline?.close();
    await stopChildren(children);
    await database.stop();
    if (!keptDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** As `npm start` stops them (scripts/start.ts): SIGTERM, then SIGKILL after the same grace, so a long job cannot hold the run. */
const STOP_GRACE_MS = 25_000;

async function stopChildren(children: ChildProcess[]) {
  const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
  for (const child of running) child.kill('SIGTERM');
  await Promise.all(
    running.map(
      (child) =>
        new Promise((resolve) => {
          const timer = setTimeout(() => {
            log(`${child.pid} still running ${STOP_GRACE_MS / 1000} s after SIGTERM: killed`);
            child.kill('SIGKILL');
          }, STOP_GRACE_MS);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve(null);
          });
        }),
    ),
  );
}

async function main() {
  log(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`);
  const keptDir = process.env.BENCH_DATA_DIR ? path.resolve(process.env.BENCH_DATA_DIR) : undefined;
  const books: BookReport[] = [];
  for (const scale of scales) {
    // Several books each keep their own folder: BENCH_DATA_DIR-<scale>.
    books.push(await measureBook(scale, keptDir && scales.length > 1 ? `${keptDir}-${scale}` : keptDir));
  }
  const largest = books.reduce((a, b) => (b.scale > a.scale ? b : a));
  const smallest = books.reduce((a, b) => (b.scale < a.scale ? b : a));
  const growth: GrowthRow[] = books.length > 1 ? growthRows(smallest, largest) : [];
  printGrowth(growth, log);
  const writeErrors = largest.writes.reduce((sum, row) => sum + row.errors, 0);
  const checks = checkTargets(largest.rows, { webPeakMb: largest.memory.webPeakMb, startToHealthyMs: largest.startToHealthyMs, growth, writeErrors });
  printChecks(checks, log);

  const report = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version },
    loadAverage: os.loadavg(),
    durationSeconds: duration,
    rounds: roundCount,
    profiled: profiling,
    // The largest book's figures at the top level, as before BENCH_SCALES; every book's under `books`.
    ...largest,
    books: books.length > 1 ? books : undefined,
    growth,
    checks,
  };
  const resultsDir = path.join(root, 'bench/results');
  fs.mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `${report.date.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, JSON.stringify(report, null, 2));
  log(`written ${path.relative(root, file)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
