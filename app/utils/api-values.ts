import { centsToNumber, toCents } from './money.ts';

/**
 * The row-to-API value mappers every DTO uses (docs/decisions/014-row-types-from-models.md):
 * a NUMERIC string as EUR (docs/CONVENTIONS.md, "API routes"), an instant as
 * its ISO string. The overloads keep a non-null column non-null in the DTO.
 */

/** EUR number with 2 decimals from a NUMERIC string (docs/money.md). */
export function money(value: string | number): number;
export function money(value: string | number | null): number | null;
export function money(value: string | number | null): number | null {
  return value === null ? null : centsToNumber(toCents(value));
}

/** An instant (TIMESTAMPTZ, a Date from the driver) as an ISO string. */
export function iso(value: Date | string): string;
export function iso(value: Date | string | null): string | null;
export function iso(value: Date | string | null): string | null {
  if (value === null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
