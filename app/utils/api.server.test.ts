import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiError, apiJson, parseJsonBody, readApiError } from './api.server.ts';

const schema = z.object({ name: z.string().min(1, 'Name is required'), items: z.array(z.object({ qty: z.number('Quantity must be a number') })) });

const post = (body: string, type = 'application/json') =>
  new Request('http://localhost/api/x', { method: 'POST', headers: { 'Content-Type': type }, body });

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Response) return { status: error.status, body: await error.json() };
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('apiError / apiJson', () => {
  it('produces the { message, errors } shape', async () => {
    const response = apiError(429, 'Too many', undefined, { headers: { 'Retry-After': '60' } });
    expect(response.status).toBe(429);
    expect(response.headers.get('Retry-After')).toBe('60');
    expect(response.headers.get('Content-Type')).toMatch(/application\/json/);
    expect(await response.json()).toEqual({ message: 'Too many' });
    expect(await apiError(400, 'Bad', { name: ['Name is required'] }).json()).toEqual({ message: 'Bad', errors: { name: ['Name is required'] } });
    expect(await apiJson({ ok: 1 }, { status: 201 }).json()).toEqual({ ok: 1 });
  });

  it('reads a thrown API error back for a page action', async () => {
    expect(await readApiError(apiError(409, 'Taken', { email: ['Taken'] }))).toEqual({ status: 409, message: 'Taken', errors: { email: ['Taken'] } });
    expect(await readApiError(new Error('x'))).toBeNull();
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
      body: { message: 'Name is required', errors: { name: ['Name is required'], 'items[0].qty': ['Quantity must be a number'] } },
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
