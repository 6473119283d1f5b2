import type { Sequelize, Transaction } from 'sequelize';
import { centsToDecimalString } from '../../../app/utils/money.ts';

// ---------------------------------------------------------------------------
// Plumbing

export type Row = Record<string, unknown>;

/** Multi-row INSERTs with bind parameters, chunked below PostgreSQL's 65,535-parameter limit. */
export async function insertRows(sequelize: Sequelize, transaction: Transaction, table: string, rows: Row[]) {
  if (rows.length === 0) return;
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const perChunk = Math.max(1, Math.floor(30_000 / columns.length));
  for (let start = 0; start < rows.length; start += perChunk) {
    const values: unknown[] = [];
    const tuples = rows.slice(start, start + perChunk).map((row) => {
      const placeholders = columns.map((column) => {
        const value = row[column];
        values.push(value === undefined ? null : value);
        return `$${values.length}`;
      });
      return `(${placeholders.join(', ')})`;
    });
    await sequelize.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, {
      bind: values,
      transaction,
    });
  }
}

/**
 * Gives existing rows (the reference data) the book's history. The
 * set_updated_at trigger would stamp them with today; it is off for these few
 * statements, inside the seed's transaction.
 */
export async function updateRows(sequelize: Sequelize, transaction: Transaction, table: string, rows: Row[]) {
  await sequelize.query(`ALTER TABLE ${table} DISABLE TRIGGER ${table}_set_updated_at`, { transaction });
  for (const { id, ...values } of rows) {
    const columns = Object.keys(values);
    await sequelize.query(`UPDATE ${table} SET ${columns.map((column, index) => `${column} = $${index + 1}`).join(', ')} WHERE id = $${columns.length + 1}`, {
      bind: [...columns.map((column) => (values[column] === undefined ? null : values[column])), id],
      transaction,
    });
  }
  await sequelize.query(`ALTER TABLE ${table} ENABLE TRIGGER ${table}_set_updated_at`, { transaction });
}

/** mulberry32: small, fast and the same on every platform, which is all a demo book needs. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }
  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(probability: number): boolean {
    return this.next() < probability;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  /** A value by weight: weighted(['a', 3], ['b', 1]) is 'a' three times in four. */
  weighted<T>(...entries: ReadonlyArray<readonly [T, number]>): T {
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let draw = this.next() * total;
    for (const [value, weight] of entries) {
      draw -= weight;
      if (draw < 0) return value;
    }
    return entries[entries.length - 1][0];
  }
  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy;
  }
  digits(count: number): string {
    let text = '';
    for (let i = 0; i < count; i++) text += String(this.int(0, 9));
    return text;
  }
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** Whole days back from today's UTC midnight; nothing that happened is ever later than now. */
export class Clock {
  readonly now: number;
  readonly midnight: number;
  constructor(now: Date) {
    this.now = now.getTime();
    this.midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  }
  /** A moment `daysAgo` days back, during Croatian office hours. */
  at(daysAgo: number, random: Random): number {
    return this.past(this.midnight - daysAgo * DAY + random.int(7 * 60, 16 * 60) * MINUTE);
  }
  past(ms: number): number {
    return Math.min(ms, this.now - MINUTE);
  }
  /** Staff act in office hours (07:00–16:00 UTC): a moment outside them moves to the next morning. */
  office(ms: number): number {
    const midnight = Math.floor(ms / DAY) * DAY;
    const minutes = Math.floor((ms - midnight) / MINUTE);
    if (minutes < 7 * 60) return midnight + 7 * HOUR + (minutes % 60) * MINUTE;
    if (minutes > 16 * 60) return midnight + DAY + 7 * HOUR + (minutes % 60) * MINUTE;
    return ms;
  }
  /** The calendar day ('YYYY-MM-DD') of a moment. */
  day(ms: number): string {
    return new Date(ms).toISOString().slice(0, 10);
  }
  /** The calendar day `daysAgo` back (negative: ahead). */
  dayAgo(daysAgo: number): string {
    return this.day(this.midnight - daysAgo * DAY);
  }
}

export const date = (ms: number) => new Date(ms);
export const json = (value: unknown) => JSON.stringify(value);
export const money = centsToDecimalString;
export const clamp = (value: number, min: number, max: number) => Math.max(min, Math.min(max, value));
