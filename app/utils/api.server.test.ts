import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createInstance } from 'i18next';
import { i18nConfig } from '../i18n.ts';
import { apiError, apiJson, jsonBytes, parseJsonBody, readApiError } from './api.server.ts';
import { encodeRefusal, refusalText } from './refusals.ts';

const schema = z.object({ name: z.string().min(1, 'Name is required'), items: z.array(z.object({ qty: z.number('Quantity must be a number') })) });

const post = (body: string, type = 'application/json') => new Request('http://localhost/api/x', { method: 'POST', headers: { 'Content-Type': type }, body });

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Response) return { status: error.status, body: await error.json() };
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('jsonBytes', () => {
  it("writes exactly JSON.stringify's UTF-8, a list item by item included", () => {
    const invoice = (number: number) => ({ invoiceNumber: `R-2025-${number}`, customerName: 'Čakovečki mlinovi d.d. — Đakovo, Šibenik, Žminj', amount: '1.00', note: 'emoji 😀' });
    const values: unknown[] = [
      [],
      [invoice(1)],
      Array.from({ length: 20 }, (_, index) => invoice(index)),
      // What JSON.stringify does with an element that has no JSON, a hole, a Date, nesting and plain values.
      // eslint-disable-next-line no-sparse-arrays
      [undefined, () => 1, , new Date(Date.UTC(2026, 10, 28)), [1, [2, 'č']], 'a"b\\c\n', null, 0, true],
      { items: [invoice(2)], total: 1 },
      'plain ascii',
      12.5,
      null,
    ];
    for (const value of values) {
      expect(jsonBytes(value).equals(Buffer.from(JSON.stringify(value), 'utf8')), JSON.stringify(value)).toBe(true);
    }
  });
});

describe('apiError / apiJson', () => {
  it('answers { message, code, params, errors, errorCodes }: the message and field texts are the en texts of the codes', async () => {
    const response = apiError(429, 'errors.auth.tooManyAttempts', { headers: { 'Retry-After': '60' } });
    expect(response.status).toBe(429);
    expect(response.headers.get('Retry-After')).toBe('60');
    expect(response.headers.get('Content-Type')).toMatch(/application\/json/);
    expect(await response.json()).toEqual({ message: 'Too many attempts. Try again later.', code: 'errors.auth.tooManyAttempts', params: {} });
    expect(await apiError(400, 'limits.validation.clientRequired', { errors: { clientId: ['limits.validation.clientRequired'] } }).json()).toEqual({
      message: 'Client is required',
      code: 'limits.validation.clientRequired',
      params: {},
      errors: { clientId: ['Client is required'] },
      errorCodes: { clientId: [{ code: 'limits.validation.clientRequired' }] },
    });
    expect(await apiJson({ ok: 1 }, { status: 201 }).json()).toEqual({ ok: 1 });
  });

  it('renders figures into the English text, the same bytes as before codes', async () => {
    const params = { used: '120000.00', advance: '40000.00', limit: '150000.00' };
    expect(await apiError(409, 'invoices.refusals.limitExceeded', { params }).json()).toEqual({
      message: 'Credit limit exceeded: used credit 120000.00 + advance 40000.00 > limit 150000.00 EUR',
      code: 'invoices.refusals.limitExceeded',
      params,
    });
  });

  it('reads a thrown API error back for a page action as codes, which the page shows in hr', async () => {
    const problem = await readApiError(
      apiError(409, 'invoices.refusals.limitExceeded', { params: { used: '1.00', advance: '2.00', limit: '3.00' }, errors: { email: ['errors.auth.duplicateEmail'] } }),
    );
    expect(problem).toMatchObject({ status: 409, code: 'invoices.refusals.limitExceeded', errors: { email: ['errors.auth.duplicateEmail'] } });
    const hr = createInstance({ ...i18nConfig, lng: 'hr', initImmediate: false, saveMissing: false });
    await hr.init();
    const text = (value: string) => refusalText(hr.t, (key) => hr.exists(key), value);
    expect(text(problem!.message)).toBe('Kreditni limit prekoračen: iskorišteno 1.00 + predujam 2.00 > limit 3.00 EUR');
    expect(text(problem!.errors!.email[0])).toBe('Korisnik s ovom email adresom već postoji');
    expect(await readApiError(new Error('x'))).toBeNull();
  });

  it("gives an enum param its label in the reader's language beside the raw value", () => {
    const t = (key: string, options?: Record<string, unknown>) => (key === 'invoices.status.financed' ? 'Financirana' : `${key} ${JSON.stringify(options)}`);
    expect(refusalText(t, () => true, encodeRefusal('invoices.refusals.duplicate', { number: 'R-1', status: 'financed' }))).toBe(
      'invoices.refusals.duplicate {"number":"R-1","status":"financed","statusLabel":"Financirana"}',
    );
    expect(refusalText(t, () => false, 'An English text from elsewhere')).toBe('An English text from elsewhere');
  });
});

describe('parseJsonBody', () => {
  it('returns the parsed value', async () => {
    expect(await parseJsonBody(post('{"name":"a","items":[{"qty":1}]}'), schema)).toEqual({ name: 'a', items: [{ qty: 1 }] });
    expect(await parseJsonBody(post('{"name":"a","items":[]}', 'application/json; charset=utf-8'), schema)).toMatchObject({ name: 'a' });
  });

  it('reports every issue per field, conform-style paths', async () => {
    expect(await failure(parseJsonBody(post('{"name":"","items":[{"qty":"x"}]}'), schema))).toEqual({
      status: 400,
      body: expect.objectContaining({ message: 'Name is required', errors: { name: ['Name is required'], 'items[0].qty': ['Quantity must be a number'] } }),
    });
  });

  it('treats an empty body as {} so each field gets its message', async () => {
    const { status, body } = await failure(parseJsonBody(post(''), schema));
    expect(status).toBe(400);
    expect(Object.keys(body.errors)).toEqual(['name', 'items']);
  });

  it('answers malformed JSON with 400, another content type with 415, a huge body with 413', async () => {
    expect((await failure(parseJsonBody(post('{nope'), schema))).status).toBe(400);
    expect((await failure(parseJsonBody(post('name=a', 'application/x-www-form-urlencoded'), schema))).status).toBe(415);
    expect((await failure(parseJsonBody(post(JSON.stringify({ name: 'x'.repeat(2000) })), schema, { maxBytes: 1000 }))).status).toBe(413);
  });
});
