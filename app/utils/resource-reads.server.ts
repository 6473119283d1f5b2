import type { LoaderFunction, ServerBuild } from '@remix-run/node';

/**
 * The short path of `GET /api/…` (server.ts): the route's own loader called
 * straight, as Remix's resource-route handling would, without Remix ranking
 * all ~150 routes of the app (compiling a regular expression per route) two
 * or three times per request. The loader does its permission check and work
 * exactly as before; the answers, refusals and error handling are Remix's:
 * a thrown Response is the answer (marked X-Remix-Catch), anything else goes
 * to entry.server.tsx's handleError and a plain 500 that server.ts turns into
 * the JSON error shape. Whatever this matcher is not sure of (an encoded or
 * odd path, two routes ranking equal) is left to Remix (docs/benchmarks.md).
 */

interface ResourceRead {
  id: string;
  /** Lower-cased literal segments, or null where the route takes a parameter (its name in `params`). */
  literals: (string | null)[];
  params: (string | null)[];
  /** Remix's own rank (static 10, parameter 3, plus the number of segments). */
  score: number;
  loader: LoaderFunction;
}

export interface ResourceReadMatch {
  id: string;
  params: Record<string, string>;
  loader: LoaderFunction;
}

type BuildRoute = ServerBuild['routes'][string];

function fullPath(routes: ServerBuild['routes'], route: BuildRoute): string {
  const parts: string[] = [];
  for (let current: BuildRoute | undefined = route; current; current = current.parentId ? routes[current.parentId] : undefined) {
    if (current.path) parts.unshift(current.path);
  }
  return parts.join('/');
}

/** The resource routes under `/<prefix>/` with a loader, ready to match without regular expressions. */
export function resourceReads(build: ServerBuild, prefix = 'api'): { match(pathname: string): ResourceReadMatch | null } {
  const reads: ResourceRead[] = [];
  for (const route of Object.values(build.routes)) {
    const module = route.module as { loader?: LoaderFunction; default?: unknown; ErrorBoundary?: unknown };
    if (!module.loader || module.default || module.ErrorBoundary || route.index) continue;
    const segments = fullPath(build.routes, route).split('/');
    if (segments[0] !== prefix) continue;
    // Splats, optional segments and anything but plain words and parameters stay with Remix.
    if (segments.some((segment) => segment === '' || segment === '*' || segment.endsWith('?') || (segment.startsWith(':') && !/^:[\w-]+$/.test(segment)))) continue;
    reads.push({
      id: route.id,
      literals: segments.map((segment) => (segment.startsWith(':') ? null : segment.toLowerCase())),
      params: segments.map((segment) => (segment.startsWith(':') ? segment.slice(1) : null)),
      score: segments.length + segments.reduce((sum, segment) => sum + (segment.startsWith(':') ? 3 : 10), 0),
      loader: module.loader,
    });
  }

  return {
    match(pathname) {
      // Encoded characters and empty segments are decoded and normalised by Remix's matcher: leave them to it.
      if (pathname.includes('%')) return null;
      const segments = pathname.replace(/^\/+/, '').replace(/\/$/, '').split('/');
      if (segments.some((segment) => segment === '')) return null;
      const lower = segments.map((segment) => segment.toLowerCase());
      let best: ResourceRead | null = null;
      let tied = false;
      for (const read of reads) {
        if (read.literals.length !== segments.length) continue;
        if (!read.literals.every((literal, index) => literal === null || literal === lower[index])) continue;
        if (!best || read.score > best.score) {
          best = read;
          tied = false;
        } else if (read.score === best.score) {
          tied = true;
        }
      }
      if (!best || tied) return null;
      const params: Record<string, string> = {};
      best.params.forEach((name, index) => {
        if (name) params[name] = segments[index]!;
      });
      return { id: best.id, params, loader: best.loader };
    },
  };
}

/**
 * Runs the matched loader as Remix runs a resource route's: its Response as
 * the answer, a thrown Response too (with X-Remix-Catch, as Remix marks it),
 * any other error reported to `handleError` and answered with Remix's plain 500.
 */
export async function serveResourceRead(
  match: ResourceReadMatch,
  request: Request,
  context: Record<string, unknown>,
  handleError: ServerBuild['entry']['module']['handleError'],
): Promise<Response> {
  try {
    const result: unknown = await match.loader({ request, params: match.params, context });
    if (result instanceof Response) return result;
    return new Response(JSON.stringify(result ?? null), { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
  } catch (error) {
    if (error instanceof Response) return markedCaught(error);
    handleError?.(error, { request, params: match.params, context });
    return new Response('Unexpected Server Error', { status: 500, headers: { 'X-Remix-Error': 'yes' } });
  }
}

function markedCaught(response: Response): Response {
  try {
    response.headers.set('X-Remix-Catch', 'yes');
    return response;
  } catch {
    // Headers of a Response.error() or a fetched Response are immutable: a copy carries the mark.
    const copy = new Response(response.body, { status: response.status, statusText: response.statusText, headers: new Headers(response.headers) });
    copy.headers.set('X-Remix-Catch', 'yes');
    return copy;
  }
}
