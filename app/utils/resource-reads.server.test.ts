import path from 'node:path';
import { fileURLToPath } from 'node:url';
// The module itself rather than the package entry, which loads Vite.
import { flatRoutes } from '@remix-run/dev/dist/config/flat-routes.js';
import type { ServerBuild } from '@remix-run/node';
import { matchRoutes } from '@remix-run/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import remixConfig from '../../remix.config.js';
import { resourceReads, serveResourceRead, type ResourceReadMatch } from './resource-reads.server.ts';

/**
 * The short path of GET /api/… must pick the route Remix would pick, for
 * every route of the app: the routes as Remix reads them from app/routes,
 * the API modules as they are, and Remix's own matcher as the judge.
 */
const appDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let build: ServerBuild;
let remixTree: Parameters<typeof matchRoutes>[0];

beforeAll(async () => {
  const manifest = flatRoutes(appDirectory, remixConfig.ignoredRouteFiles);
  const routes: ServerBuild['routes'] = {
    root: { id: 'root', path: '', module: { default: () => null } } as unknown as ServerBuild['routes'][string],
  };
  for (const route of Object.values(manifest)) {
    const module = route.id.startsWith('routes/api.') ? await import(path.join(appDirectory, route.file)) : { default: () => null };
    routes[route.id] = { ...route, module } as unknown as ServerBuild['routes'][string];
  }
  build = { routes } as ServerBuild;
  interface Branch {
    id: string;
    path?: string;
    index?: boolean;
    caseSensitive?: boolean;
    children?: Branch[];
  }
  const tree = (parentId: string | undefined): Branch[] =>
    Object.values(routes)
      .filter((route) => route.parentId === parentId)
      .map((route) => ({ id: route.id, path: route.path, index: route.index, caseSensitive: route.caseSensitive, children: route.index ? undefined : tree(route.id) }));
  remixTree = tree(undefined) as typeof remixTree;
}, 120_000);

/** What Remix's request handler does with a GET of `pathname`: the leaf route when it is a resource route with a loader. */
function remixResourceRead(pathname: string): string | null {
  const leaf = matchRoutes(remixTree, pathname)?.at(-1)?.route.id;
  if (!leaf) return null;
  const module = build.routes[leaf]!.module as { default?: unknown; ErrorBoundary?: unknown; loader?: unknown };
  return module.default || module.ErrorBoundary || !module.loader ? null : leaf;
}

/** A path of every API route with its parameters filled in. */
function samplePaths(): string[] {
  const paths: string[] = [];
  for (const route of Object.values(build.routes)) {
    if (!route.id.startsWith('routes/api.')) continue;
    const parts: string[] = [];
    for (let current: typeof route | undefined = route; current; current = current.parentId ? build.routes[current.parentId] : undefined) {
      if (current.path) parts.unshift(current.path);
    }
    const filled = parts.join('/').replace(/:[\w-]+/g, (name) => `${name.slice(1)}-1`);
    paths.push(`/${filled}`);
  }
  return paths;
}

describe('resourceReads', () => {
  it('matches every API path to the route Remix would run, with its parameters', () => {
    const reads = resourceReads(build);
    const paths = samplePaths();
    expect(paths.length).toBeGreaterThan(100);
    let matched = 0;
    for (const pathname of paths) {
      const expected = remixResourceRead(pathname);
      const actual = reads.match(pathname);
      // null leaves the request to Remix itself, which is always right; a match must be Remix's own choice.
      if (actual) {
        expect(actual.id, pathname).toBe(expected);
        matched += 1;
      } else {
        expect(expected === null || pathname.includes('*'), `${pathname} should take the short path to ${expected}`).toBe(true);
      }
    }
    expect(matched).toBeGreaterThan(90);
    expect(reads.match('/api/invoices/0b9f1d3e-5c1a-4e55-9a57-4e1d1b7c2a10')).toMatchObject({
      id: 'routes/api.invoices.$invoiceId',
      params: { invoiceId: '0b9f1d3e-5c1a-4e55-9a57-4e1d1b7c2a10' },
    });
    // A literal segment outranks a parameter, as in Remix.
    expect(reads.match('/api/invoices/payable')?.id).toBe('routes/api.invoices.payable');
  });

  it('agrees with Remix on case, a trailing slash and unknown paths, and leaves odd paths to Remix', () => {
    const reads = resourceReads(build);
    for (const pathname of ['/API/Invoices', '/api/invoices/', '/api/clients/abc/statement', '/api/no-such-thing', '/api', '/api/invoices/x/y/z', '/invoices']) {
      expect(reads.match(pathname)?.id ?? null, pathname).toBe(remixResourceRead(pathname) === 'routes/api.$' ? null : remixResourceRead(pathname));
    }
    // Encoded characters and empty segments are Remix's to decode and normalise.
    expect(reads.match('/api/invoices/%41')).toBeNull();
    expect(reads.match('/api//invoices')).toBeNull();
    // The API's catch-all (api.$.ts) is a splat: always Remix's.
    expect(reads.match('/api/no/such/route/here/at/all')).toBeNull();
  });
});

describe('serveResourceRead', () => {
  const request = new Request('http://localhost/api/things');
  const matchOf = (loader: ResourceReadMatch['loader']): ResourceReadMatch => ({ id: 'routes/api.things', params: { id: '1' }, loader });

  it("answers with the loader's Response, and passes it the request, parameters and context", async () => {
    const loader = vi.fn(async () => new Response('{"ok":true}', { headers: { 'Content-Type': 'application/json' } }));
    const context = { clientIp: '10.0.0.1' };
    const response = await serveResourceRead(matchOf(loader), request, context, undefined);
    expect(await response.json()).toEqual({ ok: true });
    expect(loader).toHaveBeenCalledWith({ request, params: { id: '1' }, context });
  });

  it('answers a thrown Response (a refusal) as it is, marked as Remix marks it', async () => {
    const handleError = vi.fn();
    const response = await serveResourceRead(
      matchOf(async () => {
        throw new Response('{"error":"nope"}', { status: 403 });
      }),
      request,
      {},
      handleError,
    );
    expect(response.status).toBe(403);
    expect(response.headers.get('X-Remix-Catch')).toBe('yes');
    expect(await response.text()).toBe('{"error":"nope"}');
    expect(handleError).not.toHaveBeenCalled();
  });

  it("reports any other error to the entry's handleError and answers Remix's plain 500", async () => {
    const handleError = vi.fn();
    const failure = new Error('database went away');
    const context = {};
    const response = await serveResourceRead(
      matchOf(async () => {
        throw failure;
      }),
      request,
      context,
      handleError,
    );
    expect(response.status).toBe(500);
    expect(response.headers.get('X-Remix-Error')).toBe('yes');
    expect(handleError).toHaveBeenCalledWith(failure, { request, params: { id: '1' }, context });
  });

  it('turns a plain value into JSON, as Remix does for a loader that returns data', async () => {
    const response = await serveResourceRead(matchOf((async () => ({ a: 1 })) as unknown as ResourceReadMatch['loader']), request, {}, undefined);
    expect(response.headers.get('Content-Type')).toMatch(/application\/json/);
    expect(await response.json()).toEqual({ a: 1 });
  });
});
