import { describe, expect, it } from 'vitest';
import { formatBytes, formatDate, formatDateTime, formatEur } from './format.ts';

// What Node 20's ICU prints for hr-HR: a no-break space before €, U+2212 for minus.
const NBSP = '\u00a0';

describe('formatEur', () => {
  it('formats with 2 decimals by default', () => {
    expect(formatEur(1234.5)).toBe(`1.234,50${NBSP}€`);
    expect(formatEur(0)).toBe(`0,00${NBSP}€`);
    expect(formatEur('1234.50')).toBe(`1.234,50${NBSP}€`);
    expect(formatEur(-1234.5)).toBe(`\u22121.234,50${NBSP}€`);
    // A decimal string beyond float precision is still exact.
    expect(formatEur('9999999999999.99')).toBe(`9.999.999.999.999,99${NBSP}€`);
  });

  it('formats with 0 decimals for the dashboard and limits', () => {
    expect(formatEur(1234567.5, { decimals: 0 })).toBe(`1.234.568${NBSP}€`);
    expect(formatEur(50000, { decimals: 0 })).toBe(`50.000${NBSP}€`);
  });

  it('is empty for missing amounts', () => {
    expect(formatEur(null)).toBe('');
    expect(formatEur(undefined)).toBe('');
  });
});

describe('dates', () => {
  it('formats calendar days without time-zone shifts', () => {
    expect(formatDate('2025-03-05')).toBe('05. 03. 2025.');
    expect(formatDate('2025-12-31')).toBe('31. 12. 2025.');
  });

  it('formats instants in Croatian time', () => {
    // 23:30 UTC on 31 Dec is already 1 Jan in Zagreb (CET, UTC+1).
    expect(formatDate('2025-12-31T23:30:00Z')).toBe('01. 01. 2026.');
    expect(formatDateTime('2025-03-05T10:04:00Z')).toBe('05. 03. 2025. 11:04');
    // Summer time (CEST, UTC+2).
    expect(formatDateTime(new Date('2025-07-01T08:00:00Z'))).toBe('01. 07. 2025. 10:00');
  });

  it('is empty for missing or invalid input', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate('not a date')).toBe('');
    expect(formatDateTime(undefined)).toBe('');
    expect(formatDateTime('')).toBe('');
  });
});

describe('formatBytes', () => {
  it('uses B, KB, MB, GB', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1,5 KB');
    expect(formatBytes(10485760)).toBe('10 MB');
    expect(formatBytes(1048575)).toBe('1 MB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3 GB');
    expect(formatBytes(2048 * 1024 ** 3)).toBe('2.048 GB');
    expect(formatBytes(-1)).toBe('');
    expect(formatBytes(null)).toBe('');
  });
});
