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

export function createSequelize(databaseUrl: string, options: { poolMax?: number; logging?: boolean } = {}) {
  return new Sequelize(databaseUrl, {
    dialect: 'postgres',
    dialectModule: guardedPg,
    logging: options.logging ? (sql) => console.log(sql) : false,
    pool: { max: options.poolMax ?? 10, min: 0, idle: 10_000, acquire: 30_000 },
    define: { underscored: true, timestamps: true },
    timezone: '+00:00',
  });
}

let shared: Sequelize | undefined;

/** The process-wide connection pool, created from DATABASE_URL on first use. */
export function getSequelize(): Sequelize {
  if (!shared) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is not set; start FinFlow with `npm start`, which provides it.');
    shared = createSequelize(url, { poolMax: Number(process.env.DB_POOL_MAX ?? 10) });
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
