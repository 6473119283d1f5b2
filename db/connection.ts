import pg from 'pg';
import { Sequelize } from 'sequelize';

// DATE columns stay 'YYYY-MM-DD' strings: a due date is a calendar day, not an instant.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
// int8 (counts) as numbers: every count here fits easily in 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
// NUMERIC stays a string, so money is never rounded through a float on the way in.

export function createSequelize(databaseUrl: string, options: { poolMax?: number; logging?: boolean } = {}) {
  return new Sequelize(databaseUrl, {
    dialect: 'postgres',
    dialectModule: pg,
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
