/**
 * FinFlow's business time: the factor, its staff, clients and debtors are in
 * Croatia, so "today", a due date's end, a month and a scheduled job are
 * Croatian calendar days and hours, whatever zone the server runs in
 * (docs/CONVENTIONS.md, "Time"). Every zone-dependent rule names this module:
 * in TypeScript through the helpers, in SQL through the fragments. Shared by
 * browser and server (pure Intl).
 */

export const BUSINESS_TIME_ZONE = 'Europe/Zagreb';

const calendarDay = new Intl.DateTimeFormat('en-CA', { timeZone: BUSINESS_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/** 'YYYY-MM-DD' of `instant` in Croatia. */
export function businessDay(instant: Date | number | string = new Date()): string {
  return calendarDay.format(instant instanceof Date ? instant : new Date(instant));
}

/** `day` + `days` calendar days ('2026-02-28' + 1 → '2026-03-01'). */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

const offsetName = new Intl.DateTimeFormat('en-US', { timeZone: BUSINESS_TIME_ZONE, timeZoneName: 'shortOffset' });

/** Croatia's offset from UTC at `instant`, in minutes (60 in winter, 120 in summer). */
export function businessOffsetMinutes(instant: number): number {
  const name = offsetName.formatToParts(instant).find((part) => part.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d{1,2})(?::(\d{2}))?/.exec(name ?? '');
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === '-' ? -minutes : minutes;
}

/** SQL: a timestamptz expression as Croatian local time (a timestamp without zone). */
export const sqlBusinessLocal = (timestamptz: string) => `(${timestamptz} AT TIME ZONE '${BUSINESS_TIME_ZONE}')`;

/** SQL: a local timestamp (without zone) read as Croatian time, giving a timestamptz. */
export const sqlFromBusinessLocal = (timestamp: string) => `(${timestamp} AT TIME ZONE '${BUSINESS_TIME_ZONE}')`;

/**
 * SQL: today's date in Croatia. A transaction may fix the day it books on
 * with `SELECT set_config('finflow.business_day', 'YYYY-MM-DD', true)`: the
 * money tests do, to finance on day 0 and settle on day 45 without waiting
 * (tests/support/business-day.ts). Unset, as in production, it is the clock's day.
 */
export const SQL_BUSINESS_TODAY = `coalesce(nullif(current_setting('finflow.business_day', true), '')::date, ${sqlBusinessLocal('now()')}::date)`;
