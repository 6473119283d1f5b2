import { describe, expect, it } from 'vitest';
import { addDays, businessDay, businessOffsetMinutes } from './business-time.ts';

describe('business time (Croatia)', () => {
  it('"today" is the Croatian calendar day, not the server’s', () => {
    // 23:30 UTC on 31 December is already 1 January in Zagreb (UTC+1).
    expect(businessDay(new Date('2026-12-31T23:30:00Z'))).toBe('2027-01-01');
    // 22:30 UTC on 30 June is 00:30 on 1 July in summer time (UTC+2).
    expect(businessDay('2026-06-30T22:30:00Z')).toBe('2026-07-01');
    expect(businessDay(Date.parse('2026-06-30T21:59:00Z'))).toBe('2026-06-30');
  });

  it('knows the offset on each side of a daylight-saving change', () => {
    expect(businessOffsetMinutes(Date.parse('2026-03-29T00:59:00Z'))).toBe(60);
    expect(businessOffsetMinutes(Date.parse('2026-03-29T01:00:00Z'))).toBe(120);
    expect(businessOffsetMinutes(Date.parse('2026-10-25T00:59:00Z'))).toBe(120);
    expect(businessOffsetMinutes(Date.parse('2026-10-25T01:00:00Z'))).toBe(60);
  });

  it('adds calendar days across months and leap days', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
  });
});
