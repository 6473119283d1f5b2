import os from 'node:os';
import pg from 'pg';
import { Sequelize } from 'sequelize';

// DATE columns stay 'YYYY-MM-DD' strings: a due date is a calendar day, not an instant.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
// int8 (counts) as numbers: every count here fits easily in 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
// NUMERIC stays a string, so money is never rounded through a float on the way in.

/**
 * pg's Client with an 'error' listener from birth. Sequelize adds its own (which drops the
 * connection) only after connecting, and a server going away can send its FATAL in the same
 * packet as the end of the handshake: without a listener that error would kill the process.
 * A connection that failed this way refuses its first query, which the API answers as 503.
 */
class GuardedClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on('error', () => {});
  }
}
const guardedPg = Object.assign(Object.create(pg) as typeof pg, { Client: GuardedClient });

export function createSequelize(databaseUrl: string, options: { poolMax?: number; logging?: boolean; lockTimeoutMs?: number } = {}) {
  return new Sequelize(databaseUrl, {
    dialect: 'postgres',
    dialectModule: guardedPg,
    // Sent when each connection starts (PostgreSQL's lock_timeout): no statement of this pool waits longer for a lock.
    ...(options.lockTimeoutMs ? { dialectOptions: { lock_timeout: options.lockTimeoutMs } } : {}),
    logging: options.logging ? (sql) => console.log(sql) : false,
    pool: { max: options.poolMax ?? 10, min: 0, idle: 10_000, acquire: 30_000 },
    define: { underscored: true, timestamps: true },
    timezone: '+00:00',
  });
}

/**
 * Connections per process unless DB_POOL_MAX says otherwise: twice the machine's cores, at least 4. PostgreSQL runs
 * each connection's statement on one core, so more statements at once than the cores can run only take turns, each
 * slower, while the web process waits for all of them; on two cores 4 connections answered lists and the dashboard
 * faster than 10, with a lower p99 (docs/benchmarks.md). A database on a larger machine of its own may want more.
 */
export function poolSize(): number {
  return process.env.DB_POOL_MAX ? Number(process.env.DB_POOL_MAX) : Math.max(4, 2 * os.availableParallelism());
}

let shared: Sequelize | undefined;
/** The lock-wait bound `shared` was opened with. */
let sharedBound: number | undefined;

// On the process, not in this module: server.ts and the Remix build each load a copy of this module of their own.
const LOCK_WAIT_BOUND = Symbol.for('finflow.lockWaitBoundMs');
const processBound = () => (globalThis as { [LOCK_WAIT_BOUND]?: number })[LOCK_WAIT_BOUND];

/**
 * The web process bounds how long its statements wait for a lock (server.ts; decision 018): a transaction waiting
 * for another's row lock keeps its connection, and with a few connections per process a handful of writes queued
 * behind one long transaction would hold every request of the process with them. Past the bound the statement
 * fails, its transaction rolls back, and the user is asked to try again. The worker leaves it unset: its jobs wait.
 * A pool opened before with another bound is replaced at its next use.
 */
export function boundLockWaits(ms: number | undefined): void {
  (globalThis as { [LOCK_WAIT_BOUND]?: number })[LOCK_WAIT_BOUND] = ms;
}

/** The process-wide connection pool, created from DATABASE_URL on first use. */
export function getSequelize(): Sequelize {
  const bound = processBound();
  if (shared && sharedBound !== bound) {
    const previous = shared;
    shared = undefined;
    void previous.close().catch(() => {});
  }
  if (!shared) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is not set; start FinFlow with `npm start`, which provides it.');
    shared = createSequelize(url, { poolMax: poolSize(), lockTimeoutMs: bound });
    sharedBound = bound;
  }
  return shared;
}

export async function closeSequelize() {
  if (shared) {
    const closing = shared;
    shared = undefined;
    await closing.close();
  }
}
