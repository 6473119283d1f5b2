import type { NextFunction, Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { rejectCrossSiteWrites } from './origin-check.server.ts';

function run(method: string, headers: Record<string, string>) {
  const check = rejectCrossSiteWrites('https://finflow.example.hr');
  let passed = false;
  let status = 0;
  const req = { method, protocol: 'https', get: (name: string) => (name === 'host' ? 'finflow.example.hr' : headers[name.toLowerCase()]) };
  const res = { status: (code: number) => ((status = code), { json: () => undefined }) };
  check(req as unknown as Request, res as unknown as Response, (() => (passed = true)) as NextFunction);
  return passed ? 'passed' : status;
}

describe('the cross-site write check (docs/api.md)', () => {
  it('lets reads through whatever their origin', () => {
    expect(run('GET', { origin: 'https://evil.example' })).toBe('passed');
  });
  it('lets same-origin writes and writes without an Origin (no browser cookies involved) through', () => {
    expect(run('POST', { origin: 'https://finflow.example.hr', 'sec-fetch-site': 'same-origin' })).toBe('passed');
    expect(run('POST', { origin: 'null', 'sec-fetch-site': 'same-origin' })).toBe('passed');
    expect(run('PUT', {})).toBe('passed');
  });
  it('refuses writes from another site', () => {
    expect(run('POST', { origin: 'https://evil.example' })).toBe(403);
    expect(run('POST', { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })).toBe(403);
    expect(run('DELETE', { 'sec-fetch-site': 'cross-site' })).toBe(403);
    expect(run('POST', { origin: 'null' })).toBe(403);
  });
});
