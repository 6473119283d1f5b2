import { BUSINESS_TIME_ZONE } from './business-time.ts';
/**
 * Croatian (hr-HR) display formats (docs/croatian-formats.md). Shared by server render and
 * browser: every formatter names its time zone, so both print the same text
 * and hydration does not flicker. The output is whatever Intl gives for hr-HR
 * (e.g. '1.234,50 €' with a no-break space, '05. 03. 2025.'); tests pin it.
 */

const LOCALE = 'hr-HR';
/** Staff work in Croatia; timestamps are shown in its time. */
export const DISPLAY_TIME_ZONE = BUSINESS_TIME_ZONE;

const eurFormatters = {
  0: new Intl.NumberFormat(LOCALE, {
    style: 'currency',
    currency: 'EUR',
    minimumFractionDigits: 0,
    maximumFractionDigits: 0,
  }),
  2: new Intl.NumberFormat(LOCALE, {
    style: 'currency',
    currency: 'EUR',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }),
};

/**
 * EUR in hr-HR: 0 decimals on the dashboard and limits, 2 on invoices and
 * payments. Accepts a number (API JSON) or a decimal string (NUMERIC from the
 * database), which Intl formats exactly without a float in between.
 */
export function formatEur(amount: number | string | null | undefined, options: { decimals?: 0 | 2 } = {}): string {
  if (amount === null || amount === undefined || amount === '') return '';
  const formatter = eurFormatters[options.decimals ?? 2];
  // Intl.NumberFormat v3 takes decimal strings; the cast is for older lib typings.
  return formatter.format(amount as number);
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

const dateFormatter = new Intl.DateTimeFormat(LOCALE, {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  timeZone: DISPLAY_TIME_ZONE,
});
// A calendar day ('2025-03-05' from a DATE column) is the same day everywhere: format it in UTC.
const calendarDayFormatter = new Intl.DateTimeFormat(LOCALE, {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  timeZone: 'UTC',
});
const dateTimeFormatter = new Intl.DateTimeFormat(LOCALE, {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: DISPLAY_TIME_ZONE,
});

function toDate(value: string | Date | number): Date | undefined {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** '05. 03. 2025.'; a 'YYYY-MM-DD' calendar day never shifts by time zone. Empty for missing or invalid input. */
export function formatDate(value: string | Date | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'string' && DATE_ONLY.test(value)) {
    const day = toDate(`${value}T00:00:00Z`);
    return day ? calendarDayFormatter.format(day) : '';
  }
  const date = toDate(value);
  return date ? dateFormatter.format(date) : '';
}

/** '05. 03. 2025. 11:04' in Croatian time. Empty for missing or invalid input. */
export function formatDateTime(value: string | Date | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = toDate(value);
  return date ? dateTimeFormatter.format(date) : '';
}

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB'] as const;
const byteNumber = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 2 });

/** 0 B, 512 B, 1,5 KB, 10 MB (1024-based; docs/screens.md units B, KB, MB, GB; GB is the largest). */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return '';
  let unit = 0;
  let value = bytes;
  // Compare the value as printed (2 decimals), so 1048575 B reads '1 MB', not '1.024 KB'.
  while (Math.round(value * 100) / 100 >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${byteNumber.format(value)} ${BYTE_UNITS[unit]}`;
}
