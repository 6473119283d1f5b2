import fs from 'node:fs';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequestHandler, type ServerBuild } from '@remix-run/node';
import compression from 'compression';
import express from 'express';
import { getEnv } from './app/env.server.ts';
import { checkHealth } from './app/health.server.ts';
import { logUnexpectedError, unexpectedErrorOf } from './app/utils/api.server.ts';
import { clientAddress, fetchRequestOf, sendResponse, type TrustProxy } from './app/utils/node-http.server.ts';
import { finishResponse } from './app/utils/unexpected-response.server.ts';
import { rejectCrossSiteWrites } from './app/utils/origin-check.server.ts';
import { boundLockWaits, closeSequelize } from './db/connection.ts';
import { resourceReads, serveResourceRead, type ResourceReadMatch } from './app/utils/resource-reads.server.ts';

/**
 * The web process: Express serving the Remix build, its static assets and
 * /healthz. It holds no state of its own (sessions and jobs live in
 * PostgreSQL), so any number of replicas can run behind a load balancer.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
// server.ts runs from the repository root, and compiled as build/server.js (scripts/build.ts) from build/.
const root = fs.existsSync(path.join(here, 'package.json')) ? here : path.dirname(here);

function securityHeaders(res: ServerResponse) {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('X-Frame-Options', 'DENY');
}

/**
 * The request listener of the web process. `build` is the Remix build (the
 * compiled app by default); `shortReads: false` sends `GET /api/…` through
 * Express as well (the tests compare the two paths).
 */
export async function createApp(options: { build?: ServerBuild; shortReads?: boolean } = {}): Promise<RequestListener> {
  const env = getEnv();
  // Before the first query: a request waits at most this long for another transaction's lock (decision 018).
  boundLockWaits(env.DB_LOCK_TIMEOUT_MS);
  const build = options.build ?? ((await import(pathToFileURL(path.join(root, 'build/index.js')).href)) as ServerBuild);
  const app = express();
  app.disable('x-powered-by');
  // Behind docker/nginx the client address arrives in X-Forwarded-For.
  app.set('trust proxy', env.TRUST_PROXY);
  const trust = app.get('trust proxy fn') as TrustProxy;
  const compress = compression();
  app.use(compress);
  app.use((_req, res, next) => {
    securityHeaders(res);
    next();
  });

  app.get('/healthz', async (_req, res) => {
    const health = await checkHealth();
    res.status(health.ok ? 200 : 503).json({ status: health.ok ? 'ok' : 'unavailable', ...(health.ok ? {} : { reason: health.reason }) });
  });

  // Fingerprinted bundles never change; everything else in public/ may.
  app.use('/build', express.static(path.join(root, 'public/build'), { immutable: true, maxAge: '1y' }));
  // Only paths that name a file (favicon.svg …): every other request would pay a failed stat.
  const publicFiles = express.static(path.join(root, 'public'), { maxAge: '1h' });
  app.use((req, res, next) => (/\.[a-z0-9]+$/i.test(req.path) ? publicFiles(req, res, next) : next()));

  app.use(rejectCrossSiteWrites(env.APP_URL));
  const handle = createRequestHandler(build, env.NODE_ENV === 'production' ? 'production' : 'development');
  const reads = resourceReads(build);

  /** Remix's answer to a request (or the matched `/api` loader's), as the client gets it. */
  async function answer(req: IncomingMessage, res: ServerResponse, read: ResourceReadMatch | null) {
    // The client address for throttling and the activity log (honours `trust proxy`).
    const context = { clientIp: clientAddress(req, trust) };
    const request = fetchRequestOf(req, res, trust);
    const response = read ? await serveResourceRead(read, request, context, build.entry.module.handleError) : await handle(request, context);
    // An error no route answered (kept by entry.server.tsx's handleError): the API's JSON shape, or the 503 page.
    await sendResponse(res, finishResponse(request, response, unexpectedErrorOf(context)));
  }

  /** Whatever failed outside Remix (reading the request, writing the response) gets the same answers. */
  function failed(req: IncomingMessage, res: ServerResponse, error: unknown) {
    if (res.headersSent) {
      // As Express ends a response that broke half-way: the client sees it cut, not complete.
      req.socket.destroy();
      return;
    }
    const request = new Request(new URL(req.url ?? '/', 'http://localhost'), { method: req.method });
    logUnexpectedError(error, request);
    sendResponse(res, finishResponse(request, new Response('Internal Server Error', { status: 500 }), error)).catch(() => res.destroy());
  }

  app.all('*', (req, res, next) => {
    // `?_data=` asks Remix for a route's data: never the short path.
    const read = req.method === 'GET' && !('_data' in req.query) ? reads.match(req.path) : null;
    answer(req, res, read).catch(next);
  });
  app.use((error: unknown, req: express.Request, res: express.Response, next: express.NextFunction) => {
    if (res.headersSent) return next(error);
    failed(req, res, error);
  });

  /**
   * `GET /api/…` that names a resource route's loader skips Express: its
   * routing, request decoration and per-request middleware cost more than the
   * read itself on a list (docs/benchmarks.md). What Express did for these
   * requests is done here the same way: compression for clients that ask for
   * it (the same middleware), the security headers, the client address and
   * URL under `trust proxy`, the same error answers. Anything else (a query
   * naming `_data`, a path the matcher is unsure of) goes to Express.
   */
  const shortRead = (req: IncomingMessage): ResourceReadMatch | null => {
    const url = req.url ?? '';
    if (options.shortReads === false || req.method !== 'GET' || !url.startsWith('/api/') || url.includes('_data')) return null;
    const query = url.indexOf('?');
    return reads.match(query === -1 ? url : url.slice(0, query));
  };
  return (req, res) => {
    const read = shortRead(req);
    if (!read) {
      app(req, res);
      return;
    }
    compress(req as express.Request, res as express.Response, () => {
      securityHeaders(res);
      answer(req, res, read).catch((error: unknown) => failed(req, res, error));
    });
  };
}

async function main() {
  const env = getEnv();
  const server = http.createServer(await createApp());
  server.listen(env.PORT, () => console.log(`web listening on http://localhost:${env.PORT}`));
  const shutdown = () => {
    server.close(async () => {
      await closeSequelize();
      process.exit(0);
    });
    // Idle keep-alive sockets would hold close() open; busy ones finish their response first.
    server.closeIdleConnections();
    // A request that never finishes must not block the stop forever.
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
