import { describe, expect, it } from 'vitest';
import { createSequelize } from '../../db/connection.ts';
import { freePort } from '../../tests/support/free-port.ts';
import { isDatabaseUnavailable, isLockNotAvailable, isRefusedValue, selectOne } from '../db.server.ts';
import { readApiError, unexpectedErrorResponse } from './api.server.ts';
import { finishResponse } from './unexpected-response.server.ts';

/** What the web process answers for an error no route turned into a refusal (server.ts). */
async function realErrors() {
  const closed = createSequelize(`postgres://nobody:x@127.0.0.1:${await freePort()}/none`);
  const refused = await closed.query('SELECT 1').catch((error: unknown) => error);
  await closed.close();
  const badUuid = await selectOne(`SELECT id FROM clients WHERE id = :id`, { id: 'not-a-uuid' }).catch((error: unknown) => error);
  const badDate = await selectOne(`SELECT CAST(:day AS date) AS day`, { day: '2026-02-30' }).catch((error: unknown) => error);
  return { refused, badUuid, badDate };
}

/** What a statement of the web process meets when another transaction holds the lock it needs past the bound. */
async function lockWaitPastBound() {
  const holder = createSequelize(process.env.DATABASE_URL!, { poolMax: 1 });
  const bounded = createSequelize(process.env.DATABASE_URL!, { poolMax: 1, lockTimeoutMs: 50 });
  try {
    return await holder.transaction(async (transaction) => {
      await holder.query('SELECT pg_advisory_xact_lock(4242)', { transaction });
      return bounded.query('SELECT pg_advisory_xact_lock(4242)').catch((error: unknown) => error);
    });
  } finally {
    await Promise.all([holder.close(), bounded.close()]);
  }
}

describe('classifying an unexpected error', () => {
  it('tells a database that cannot be reached from a value it refused, from a bug', async () => {
    const { refused, badUuid, badDate } = await realErrors();
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(isRefusedValue(refused)).toBe(false);
    for (const error of [badUuid, badDate]) {
      expect(isRefusedValue(error)).toBe(true);
      expect(isDatabaseUnavailable(error)).toBe(false);
    }
    // What node-postgres and PostgreSQL say during a restart or failover.
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable({ name: 'SequelizeDatabaseError', parent: { code: '57P01', message: 'terminating connection due to administrator command' } })).toBe(true);
    expect(isDatabaseUnavailable({ name: 'SequelizeConnectionAcquireTimeoutError' })).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('the database system is starting up'), { code: '57P03' }))).toBe(true);
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
  });

  it('tells a lock held past the bound apart, and answers it as busy: 503 with Retry-After', async () => {
    const busy = await lockWaitPastBound();
    expect(isLockNotAvailable(busy)).toBe(true);
    expect(isDatabaseUnavailable(busy)).toBe(false);
    expect(isRefusedValue(busy)).toBe(false);
    const answer = unexpectedErrorResponse(busy);
    expect(answer.status).toBe(503);
    expect(answer.headers.get('Retry-After')).toBe('5');
    expect(await answer.json()).toEqual({
      message: 'Another change to the same record is still in progress and nothing was changed; please try again in a moment',
      code: 'errors.api.busy',
      params: {},
    });
    // A page action reads it as a refusal of its form (the typed values stay), not as an error.
    expect(await readApiError(busy)).toMatchObject({ status: 503, code: 'errors.api.busy', params: {} });
    expect(await readApiError(new TypeError('oops'))).toBeNull();
  });

  it('answers each in the JSON error shape: 503 with Retry-After, 400, 500', async () => {
    const { refused, badUuid } = await realErrors();
    const unavailable = unexpectedErrorResponse(refused);
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get('Retry-After')).toBe('5');
    expect(await unavailable.json()).toMatchObject({ code: 'errors.api.unavailable', message: 'Service temporarily unavailable, please try again shortly' });
    expect(unexpectedErrorResponse(badUuid).status).toBe(400);
    const bug = unexpectedErrorResponse(new TypeError('oops'));
    expect(bug.status).toBe(500);
    expect(await bug.json()).toEqual({ message: 'Internal Server Error', code: 'errors.api.internal', params: {} });
  });
});

describe('finishResponse', () => {
  const remix500 = () => new Response('Unexpected Server Error', { status: 500, headers: { 'Content-Type': 'text/plain' } });
  const api = new Request('http://localhost/api/clients');
  const page = new Request('http://localhost/clients', { headers: { Cookie: 'finflow-language=hr' } });

  it('replaces Remix’s plain-text 500 under /api with the JSON shape, and leaves other answers alone', async () => {
    const { refused } = await realErrors();
    const answered = finishResponse(api, remix500(), refused);
    expect(answered.status).toBe(503);
    expect(answered.headers.get('Content-Type')).toMatch(/^application\/json/);
    const noError = finishResponse(api, remix500(), undefined);
    expect(noError.status).toBe(500);
    expect(await noError.json()).toEqual({ message: 'Internal Server Error', code: 'errors.api.internal', params: {} });
    const ok = new Response('{}', { status: 200 });
    expect(finishResponse(api, ok, refused)).toBe(ok);
    const routeOwn = new Response(JSON.stringify({ message: 'Stored file does not match its checksum' }), { status: 500, headers: { 'Content-Type': 'application/json' } });
    expect(finishResponse(api, routeOwn, undefined)).toBe(routeOwn);
    // Remix's own 405 for a route without an action names no server error.
    const remix405 = new Response(JSON.stringify({ message: 'Unexpected Server Error' }), { status: 405, headers: { 'Content-Type': 'application/json', 'X-Remix-Error': 'yes' } });
    const notServed = finishResponse(api, remix405, undefined);
    expect(notServed.status).toBe(405);
    expect(await notServed.json()).toEqual({ message: 'Method Not Allowed', code: 'errors.api.httpStatus', params: { status: 405, reason: 'Method Not Allowed' } });
  });

  /** A 503 page to come back to: Retry-After, one main landmark and one h1 saying `title`; its HTML. */
  async function retryPage(answered: Response, title: string): Promise<string> {
    expect(answered.status).toBe(503);
    expect(answered.headers.get('Retry-After')).toBe('5');
    const html = await answered.text();
    expect(html).toContain(`<main><h1>${title}</h1>`);
    expect(html.match(/<main[\s>]/g)).toHaveLength(1);
    expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
    return html;
  }

  it('answers a page with a 503 page while the database is away, and a 400 page for a refused value, in the visitor’s language', async () => {
    const { refused, badUuid } = await realErrors();
    const html = await retryPage(finishResponse(page, remix500(), refused), 'Usluga je privremeno nedostupna');
    expect(html).toContain('<html lang="hr">');
    const refusedPage = finishResponse(page, remix500(), badUuid);
    expect(refusedPage.status).toBe(400);
    expect(await refusedPage.text()).toContain('<h1>Zahtjev nije moguće obraditi</h1>');
    const bug = remix500();
    expect(finishResponse(page, bug, new TypeError('oops'))).toBe(bug);
  });

  it('answers a page whose change found its record busy with a 503 page saying nothing was changed', async () => {
    const busy = await lockWaitPastBound();
    expect(await retryPage(finishResponse(page, remix500(), busy), 'Zapis je zauzet')).toContain('ništa nije promijenjeno');
    await retryPage(finishResponse(new Request('http://localhost/invoices', { method: 'POST' }), remix500(), busy), 'The record is busy');
  });
});
