import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequestHandler, type ServerBuild } from '@remix-run/node';
import compression from 'compression';
import express, { type Response as ExpressResponse } from 'express';
import { getEnv } from './app/env.server.ts';
import { checkHealth } from './app/health.server.ts';
import { logUnexpectedError, unexpectedErrorOf } from './app/utils/api.server.ts';
import { finishResponse } from './app/utils/unexpected-response.server.ts';
import { rejectCrossSiteWrites } from './app/utils/origin-check.server.ts';
import { closeSequelize } from './db/connection.ts';
import { resourceReads, serveResourceRead } from './app/utils/resource-reads.server.ts';

// The adapter's own request builder (host, port under trust proxy, abort on close), which its 2.17.5
// package entry does not re-export: taken from the module that defines it.
const { createRemixRequest } = createRequire(import.meta.url)('@remix-run/express/dist/server.js') as {
  createRemixRequest(req: express.Request, res: ExpressResponse): Request;
};

/**
 * The web process: Express serving the Remix build, its static assets and
 * /healthz. It holds no state of its own (sessions and jobs live in
 * PostgreSQL), so any number of replicas can run behind a load balancer.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
// server.ts runs from the repository root, and compiled as build/server.js (scripts/build-server.ts) from build/.
const root = fs.existsSync(path.join(here, 'package.json')) ? here : path.dirname(here);

export async function createApp() {
  const env = getEnv();
  const build = (await import(pathToFileURL(path.join(root, 'build/index.js')).href)) as ServerBuild;
  const app = express();
  app.disable('x-powered-by');
  // Behind docker/nginx the client address arrives in X-Forwarded-For.
  app.set('trust proxy', process.env.TRUST_PROXY ?? 'loopback');
  app.use(compression());
  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('X-Frame-Options', 'DENY');
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
  app.all('*', async (req, res, next) => {
    try {
      // The client address for throttling and the activity log (honours `trust proxy`).
      const context = { clientIp: req.ip ?? null };
      const request = createRemixRequest(req, res);
      // `GET /api/…` goes straight to its route's loader (app/utils/resource-reads.server.ts); everything else through Remix.
      const read = req.method === 'GET' && !('_data' in req.query) ? reads.match(req.path) : null;
      const response = read ? await serveResourceRead(read, request, context, build.entry.module.handleError) : await handle(request, context);
      // An error no route answered (kept by entry.server.tsx's handleError): the API's JSON shape, or the 503 page.
      await sendResponse(res, finishResponse(request, response, unexpectedErrorOf(context)));
    } catch (error) {
      next(error);
    }
  });
  // Whatever failed outside Remix (reading the request, writing the response) gets the same answers.
  app.use((error: unknown, req: express.Request, res: ExpressResponse, next: express.NextFunction) => {
    if (res.headersSent) return next(error);
    const request = new Request(new URL(req.originalUrl, 'http://localhost'), { method: req.method });
    logUnexpectedError(error, request);
    sendResponse(res, finishResponse(request, new Response('Internal Server Error', { status: 500 }), error)).catch(() => res.destroy());
  });
  return app;
}

/**
 * Remix's own Express adapter writes a streamed body without waiting for the
 * client, so a 150 MB book export to a slow client would pile up in memory.
 * Here each chunk waits for the socket to drain, and a client that goes away
 * cancels the stream (the export stops reading the database).
 */
export async function sendResponse(res: ExpressResponse, response: Response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (/text\/event-stream/i.test(response.headers.get('Content-Type') ?? '')) res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          const settle = () => {
            res.off('drain', settle);
            res.off('close', settle);
            resolve();
          };
          res.on('drain', settle);
          res.on('close', settle);
        });
      }
      // The client went away: stop reading (cancels the source, e.g. the export's database cursor).
      if (res.destroyed) {
        await reader.cancel();
        return;
      }
    }
    res.end();
  } catch (error) {
    res.destroy(error as Error);
    throw error;
  }
}

async function main() {
  const env = getEnv();
  const app = await createApp();
  const server = app.listen(env.PORT, () => console.log(`web listening on http://localhost:${env.PORT}`));
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
