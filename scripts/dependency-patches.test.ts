import { createRequire } from 'node:module';
import path from 'node:path';
import type * as Router from '@remix-run/router';
import type { AgnosticRouteObject, StaticHandlerContext } from '@remix-run/router';
import type * as StaticRouter from 'react-router-dom/server';
import { describe, expect, it } from 'vitest';

/**
 * The patches in patches/ (applied by `npm install`) keep the route tree's
 * derived structures between requests instead of rebuilding them on every
 * page (docs/decisions/020-route-tree-once.md). These check that they are in
 * place and that matching answers exactly as before.
 */

// Loaded as the server loads them: through require, which picks the packages' CommonJS builds (the patched
// files); an ES import here would pick their ES builds, which only the browser bundle uses.
const require = createRequire(import.meta.url);
const { matchPath, matchRoutes } = require('@remix-run/router') as typeof Router;
const { createStaticRouter } = require('react-router-dom/server') as typeof StaticRouter;
type CreateServerRoutes = (manifest: object, routeModules: object, future: object, isSpaMode: boolean) => unknown[];
const { createServerRoutes } = require(path.join(path.dirname(require.resolve('@remix-run/react')), 'routes.js')) as {
  createServerRoutes: CreateServerRoutes;
};

const tree = (): AgnosticRouteObject[] => [
  {
    id: 'root',
    path: '/',
    children: [
      { id: 'home', index: true },
      {
        id: 'invoices',
        path: 'invoices',
        children: [
          { id: 'invoices-index', index: true },
          { id: 'invoice', path: ':invoiceId' },
        ],
      },
      { id: 'invoice-new', path: 'invoices/new' },
      { id: 'Reports', path: 'Reports', caseSensitive: true },
      { id: 'files', path: 'files/*' },
      { id: 'optional', path: ':lang?/about' },
    ],
  },
];

const idsOf = (routes: AgnosticRouteObject[], pathname: string) => matchRoutes(routes, pathname)?.map((match) => match.route.id) ?? null;

describe('route matching, kept per route tree', () => {
  it('matches every kind of path the same on the first and every later call', () => {
    const routes = tree();
    const expected: Record<string, string[] | null> = {
      '/': ['root', 'home'],
      '/invoices': ['root', 'invoices', 'invoices-index'],
      '/invoices/new': ['root', 'invoice-new'],
      '/invoices/7f3a': ['root', 'invoices', 'invoice'],
      '/Reports': ['root', 'Reports'],
      '/reports': null,
      '/files/a/b.pdf': ['root', 'files'],
      '/about': ['root', 'optional'],
      '/hr/about': ['root', 'optional'],
      '/nowhere': null,
    };
    for (let round = 0; round < 3; round++) {
      for (const [pathname, ids] of Object.entries(expected)) expect(idsOf(routes, pathname), `${pathname}, round ${round}`).toEqual(ids);
    }
    expect(matchRoutes(routes, '/invoices/7f3a')?.at(-1)?.params).toEqual({ invoiceId: '7f3a' });
  });

  it('answers for each tree on its own, even with the same paths', () => {
    const first = tree();
    expect(idsOf(first, '/invoices/new')).toEqual(['root', 'invoice-new']);
    const second: AgnosticRouteObject[] = [{ id: 'other', path: '/invoices/:invoiceId' }];
    expect(idsOf(second, '/invoices/new')).toEqual(['other']);
    expect(idsOf(first, '/invoices/new')).toEqual(['root', 'invoice-new']);
  });

  it('keeps a pattern apart by case sensitivity and by whether it must match to the end', () => {
    expect(matchPath({ path: '/invoices/:id', end: false }, '/invoices/1/edit')?.pathnameBase).toBe('/invoices/1');
    expect(matchPath({ path: '/invoices/:id', end: true }, '/invoices/1/edit')).toBeNull();
    expect(matchPath({ path: '/Invoices', caseSensitive: true }, '/invoices')).toBeNull();
    expect(matchPath({ path: '/Invoices', caseSensitive: false }, '/invoices')?.pathname).toBe('/invoices');
    expect(matchPath({ path: '/Invoices', caseSensitive: true }, '/invoices')).toBeNull();
  });
});

describe('remembered matches', () => {
  it('gives each caller its own matches, one params object per answer as a fresh match has', () => {
    const routes = tree();
    const first = matchRoutes(routes, '/invoices/7f3a')!;
    expect(first[1]!.params).toBe(first[2]!.params);
    (first[2]!.params as Record<string, string>).invoiceId = 'changed';
    first.pop();
    const second = matchRoutes(routes, '/invoices/7f3a')!;
    expect(second.map((match) => match.route.id)).toEqual(['root', 'invoices', 'invoice']);
    expect(second[2]!.params).toEqual({ invoiceId: '7f3a' });
    expect(second[0]!.params).toBe(second[2]!.params);
    expect(second[2]!.pathname).toBe('/invoices/7f3a');
  });

  it('still answers after many different paths', () => {
    const routes = tree();
    for (let n = 0; n < 1200; n++) expect(matchRoutes(routes, `/invoices/${n}`)?.at(-1)?.params).toEqual({ invoiceId: String(n) });
    expect(idsOf(routes, '/invoices/0')).toEqual(['root', 'invoices', 'invoice']);
  });
});

describe('a loader’s request', () => {
  const { callRouteLoader } = require(path.join(path.dirname(require.resolve('@remix-run/server-runtime')), 'data.js')) as {
    callRouteLoader: (args: {
      loadContext: object;
      loader: (args: { request: Request }) => unknown;
      params: object;
      request: Request;
      routeId: string;
      singleFetch: boolean;
    }) => Promise<unknown>;
  };
  const requestSeenBy = async (request: Request) => {
    let seen: Request | undefined;
    await callRouteLoader({ loadContext: {}, params: {}, request, routeId: 'routes/x', singleFetch: false, loader: ({ request }) => ((seen = request), null) });
    return seen!;
  };

  it('is the request itself when Remix has no parameter to strip from it', async () => {
    const request = new Request('http://localhost/invoices?q=R-1&page=2');
    expect(await requestSeenBy(request)).toBe(request);
  });

  it('is a copy without Remix’s own parameters when it has them', async () => {
    for (const url of ['http://localhost/invoices?index&q=R-1', 'http://localhost/invoices?_data=routes%2Fx&q=R-1']) {
      const request = new Request(url, { headers: { Cookie: 'a=b' } });
      const seen = await requestSeenBy(request);
      expect(seen).not.toBe(request);
      expect(seen.url).toBe('http://localhost/invoices?q=R-1');
      expect(seen.headers.get('Cookie')).toBe('a=b');
    }
  });
});

describe('the server route tree, built once', () => {
  it('gives the static router the same data routes for the same routes, with the request’s matches pointing into them', () => {
    const routes = tree();
    const context = (pathname: string) =>
      ({
        basename: '/',
        location: { pathname, search: '', hash: '', state: null, key: 'default' },
        matches: matchRoutes(routes, pathname)!,
        loaderData: {},
        actionData: null,
        errors: null,
        statusCode: 200,
        loaderHeaders: {},
        actionHeaders: {},
        activeDeferreds: null,
      }) as StaticHandlerContext;
    const first = createStaticRouter(routes, context('/invoices/1'));
    const second = createStaticRouter(routes, context('/invoices'));
    expect(second.routes).toBe(first.routes);
    expect(second.state.matches.map((match) => match.route.id)).toEqual(['root', 'invoices', 'invoices-index']);
    const invoices = first.routes[0]!.children!.find((route) => route.id === 'invoices');
    expect(second.state.matches[1]!.route).toBe(invoices);
    expect(createStaticRouter(tree(), context('/')).routes).not.toBe(first.routes);
  });

  it('reuses the Remix route tree while every route module is the same one, and builds it anew when one changes', () => {
    const manifest = {
      root: { id: 'root', path: '', hasLoader: true, hasClientLoader: false },
      'routes/_index': { id: 'routes/_index', parentId: 'root', index: true, hasLoader: false, hasClientLoader: false },
    };
    const modules = { root: { default: () => null }, 'routes/_index': { default: () => null } };
    const first = createServerRoutes(manifest, { ...modules }, {}, false);
    expect(createServerRoutes(manifest, { ...modules }, {}, false)).toBe(first);
    const rebuilt = createServerRoutes(manifest, { ...modules, 'routes/_index': { default: () => null } }, {}, false);
    expect(rebuilt).not.toBe(first);
    expect(rebuilt).toHaveLength(1);
  });
});
