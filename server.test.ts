import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { sendResponse } from './server.ts';

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
