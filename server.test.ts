import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerBuild } from '@remix-run/node';
import { resetEnvCache } from './app/env.server.ts';
import { createApp } from './server.ts';
import { sendResponse } from './app/utils/node-http.server.ts';

/**
 * How the web process writes Remix's responses: a streamed body waits for the
 * client (a slow download of the book export must not pile up in memory), and
 * every header, each Set-Cookie on its own, reaches the client.
 */
let server: http.Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(null)));
  server = undefined;
});

async function serve(makeResponse: () => Response): Promise<number> {
  const app = express();
  app.get('*', (_req, res, next) => sendResponse(res, makeResponse()).catch(next));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server!.once('listening', resolve));
  return (server!.address() as AddressInfo).port;
}

describe('sendResponse', () => {
  it('pulls a streamed body only as fast as the client reads it', async () => {
    const CHUNK = 64 * 1024;
    const TOTAL_CHUNKS = 1024; // 64 MiB
    let pulled = 0;
    const port = await serve(
      () =>
        new Response(
          new ReadableStream<Uint8Array>({
            pull(controller) {
              if (pulled === TOTAL_CHUNKS) return controller.close();
              pulled += 1;
              controller.enqueue(new Uint8Array(CHUNK));
            },
          }),
          { headers: { 'Content-Type': 'application/zip' } },
        ),
    );
    const received = await new Promise<number>((resolve, reject) => {
      http
        .get({ port, host: '127.0.0.1', path: '/export' }, (res) => {
          res.pause();
          // A client that does not read for a while: the server must stop pulling.
          setTimeout(() => {
            expect(pulled * CHUNK).toBeLessThan(16 * 1024 * 1024);
            let bytes = 0;
            res.on('data', (chunk: Buffer) => (bytes += chunk.length));
            res.on('end', () => resolve(bytes));
            res.resume();
          }, 500);
        })
        .on('error', reject);
    });
    expect(received).toBe(CHUNK * TOTAL_CHUNKS);
  });

  it('keeps the status and every header, each Set-Cookie separately', async () => {
    const port = await serve(() => {
      const headers = new Headers({ 'Content-Type': 'application/json', 'X-Total-Count': '7' });
      headers.append('Set-Cookie', 'a=1; Path=/');
      headers.append('Set-Cookie', 'b=2; Path=/');
      return new Response('{"ok":true}', { status: 201, headers });
    });
    const response = await fetch(`http://127.0.0.1:${port}/x`);
    expect(response.status).toBe(201);
    expect(response.headers.get('X-Total-Count')).toBe('7');
    expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(await response.json()).toEqual({ ok: true });
  });
});

/**
 * The short path of `GET /api/…` (server.ts) answers exactly as the same
 * request through Express: status, every header, the body, and what the
 * loader sees (URL and client address under `trust proxy`, headers).
 */
describe('the short path of GET /api/… reads', () => {
  interface Seen {
    url: string;
    clientIp: unknown;
    cookie: string | null;
  }
  let seen: Seen[] = [];
  const servers: http.Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((one) => new Promise((resolve) => one.close(resolve))));
    seen = [];
  });

  const loaders: Record<string, (args: { request: Request; context: Record<string, unknown>; params: Record<string, string> }) => unknown> = {
    'api/things': ({ request, context }) => {
      seen.push({ url: request.url, clientIp: context.clientIp, cookie: request.headers.get('cookie') });
      const url = new URL(request.url);
      if (url.searchParams.has('missing')) throw new Response(JSON.stringify({ message: 'Not found' }), { status: 404, headers: { 'Content-Type': 'application/json' } });
      if (url.searchParams.has('broken')) throw new Error('the database went away');
      const things = Array.from({ length: Number(url.searchParams.get('n') ?? 3) }, (_, index) => ({ id: index, name: `Thing ${index}` }));
      const headers = new Headers({ 'Content-Type': 'application/json', 'X-Total-Count': String(things.length) });
      headers.append('Set-Cookie', 'a=1; Path=/');
      headers.append('Set-Cookie', 'b=2; Path=/');
      return new Response(JSON.stringify(things), { headers });
    },
    'api/things/:id': ({ params }) => ({ id: params.id }),
  };
  const build = {
    routes: {
      root: { id: 'root', path: '', module: { default: () => null } },
      ...Object.fromEntries(
        Object.entries(loaders).map(([routePath, loader]) => [`routes/${routePath}`, { id: `routes/${routePath}`, parentId: 'root', path: routePath, module: { loader } }]),
      ),
    },
    entry: { module: { default: () => new Response('document', { status: 500 }), handleError: () => undefined } },
    assets: { routes: {}, entry: { module: '', imports: [] }, url: '', version: 'test' },
    future: {},
    publicPath: '/build/',
    assetsBuildDirectory: 'public/build',
    mode: 'production',
    isSpaMode: false,
  } as unknown as ServerBuild;

  async function listen(shortReads: boolean): Promise<string> {
    const server = http.createServer(await createApp({ build, shortReads }));
    servers.push(server);
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async function answer(base: string, path: string, headers: Record<string, string> = {}) {
    const response = await new Promise<http.IncomingMessage & { body: Buffer }>((resolve, reject) => {
      http
        .get(`${base}${path}`, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve(Object.assign(res, { body: Buffer.concat(chunks) })));
        })
        .on('error', reject);
    });
    const { date: _date, ...rest } = response.headers;
    return { status: response.statusCode, statusMessage: response.statusMessage, headers: rest, body: response.body.toString('base64') };
  }

  it.each([
    ['a list with its headers, each Set-Cookie separately', '/api/things?n=3', {}],
    ['a parameter', '/api/things/42', {}],
    ['a thrown Response', '/api/things?missing=1', {}],
    ['an unexpected error, in the API error shape', '/api/things?broken=1', {}],
    [
      'a proxied request: the forwarded address, protocol and host',
      '/api/things',
      { 'X-Forwarded-For': '203.0.113.9', 'X-Forwarded-Proto': 'https, http', 'X-Forwarded-Host': 'finflow.example:8443' },
    ],
    ['a body compressed for a client that asks', '/api/things?n=200', { 'Accept-Encoding': 'gzip' }],
    ['a body left alone for a client that does not', '/api/things?n=200', { 'Accept-Encoding': 'identity' }],
  ])('%s', async (_name, path, headers) => {
    const [short, express] = [await listen(true), await listen(false)];
    const sent = { Cookie: 'finflow_session=abc', ...headers };
    const viaShort = await answer(short, path, sent);
    const seenShort = seen.splice(0);
    const viaExpress = await answer(express, path, sent);
    const seenExpress = seen.splice(0);
    expect(viaShort).toEqual(viaExpress);
    expect(seenShort.map((one) => ({ ...one, url: one.url.replace(short.split(':')[2]!, 'PORT') }))).toEqual(
      seenExpress.map((one) => ({ ...one, url: one.url.replace(express.split(':')[2]!, 'PORT') })),
    );
    expect(viaShort.headers['x-content-type-options']).toBe('nosniff');
  });

  it("gives the forwarded facts only from a trusted proxy, and the socket's otherwise", async () => {
    const base = await listen(true);
    await answer(base, '/api/things', { 'X-Forwarded-For': '203.0.113.9', 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'finflow.example:8443' });
    expect(seen[0]).toMatchObject({ url: 'https://finflow.example:8443/api/things', clientIp: '203.0.113.9' });
    process.env.TRUST_PROXY = '10.0.0.1';
    resetEnvCache();
    try {
      const untrusting = await listen(true);
      await answer(untrusting, '/api/things', { 'X-Forwarded-For': '203.0.113.9', 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'finflow.example:8443' });
      expect(seen[1]).toMatchObject({ url: `${untrusting}/api/things`, clientIp: '127.0.0.1' });
    } finally {
      delete process.env.TRUST_PROXY;
      resetEnvCache();
    }
  });
});
