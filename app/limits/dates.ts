/**
 * Calendar days of credit limits. A limit's validUntil is a date (docs/lifecycle.md#credit-limits)
 * and "today" is the day in Croatia, where the staff and the clients are, not
 * the server's zone. Shared by browser and server (pure Intl).
 */
const zagrebDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Zagreb', year: 'numeric', month: '2-digit', day: '2-digit' });

/** 'YYYY-MM-DD' of `now` in Europe/Zagreb. */
export function zagrebToday(now: Date = new Date()): string {
  return zagrebDay.format(now);
}

/** `day` + `days` calendar days ('2026-02-28' + 1 → '2026-03-01'). */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
