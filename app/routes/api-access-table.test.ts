import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROTECTED_ROUTES } from '../../tests/support/protected-routes.ts';

/**
 * The 401/403 table of the end-to-end suite (tests/support/protected-routes/*,
 * run by tests/e2e/api-access.test.ts) lists every method of every /api route
 * module, except the few that are public by design (below). A new route, or a
 * new method on one, fails here until it is in the table or on that list.
 */

const routesDir = path.dirname(new URL(import.meta.url).pathname);

/** Public by design: signing in and recovering an account, the applicant's uploads, the login redirect. */
const PUBLIC: ReadonlySet<string> = new Set([
  'GET /api/login',
  'POST /api/auth/login',
  'POST /api/auth/verify-otp',
  'POST /api/auth/totp/setup',
  'POST /api/auth/totp/verify-setup',
  'POST /api/auth/forgot-password',
  'POST /api/auth/reset-password',
  'POST /api/auth/logout',
  'POST /api/objects/upload',
  'PUT /api/objects/upload/:param',
]);

/** 'api.clients.$clientId.kyc-decision.ts' → '/api/clients/:param/kyc-decision'; 'api.analytics.export[.]csv.ts' → '/api/analytics/export.csv'. */
function pathOf(file: string): string {
  // Remix escapes with brackets: '[.]' is a dot inside a segment, '[test]' the word test.
  const segments = file
    .replace(/\.ts$/, '')
    .replace(/\[([^\]]*)\]/g, (_, escaped: string) => escaped.replaceAll('.', '\u0000'))
    .split('.')
    .map((segment) => (segment.startsWith('$') ? ':param' : segment.replaceAll('\u0000', '.')));
  return `/${segments.join('/')}`;
}

/** A table path with its ids and operation names as ':param', the way pathOf writes a module's. */
function patternOf(route: string, modulePaths: string[]): string | null {
  const segments = route.split('?')[0].split('/');
  const params = (candidate: string) => candidate.split('/').filter((part) => part === ':param').length;
  // A literal segment wins over a parameter ('/api/invoices/payable' is not '/api/invoices/:param').
  const matching = modulePaths.filter((candidate) => {
    const parts = candidate.split('/');
    return parts.length === segments.length && parts.every((part, index) => part === ':param' || part === segments[index]);
  });
  return matching.sort((a, b) => params(a) - params(b))[0] ?? null;
}

type Handler = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => Promise<Response> | Response;

/** The methods a module serves: what its 405 names in Allow (api-methods.test.ts holds every module to answering one). */
async function methodsOf(file: string): Promise<string[]> {
  const module = (await import(/* @vite-ignore */ `./${file}`)) as { action?: Handler };
  const params = Object.fromEntries(Array.from(file.matchAll(/\$(\w+)/g), ([, name]) => [name, name === 'control' ? 'pause' : '00000000-0000-4000-8000-000000000000']));
  let response: Response;
  try {
    response = await module.action!({ request: new Request('http://localhost/api/x', { method: 'PATCH' }), params, context: {} });
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    response = thrown;
  }
  return (response.headers.get('Allow') ?? '')
    .split(',')
    .map((method) => method.trim())
    .filter(Boolean);
}

describe('the 401/403 table', () => {
  it('names every method of every /api route that is not public by design', async () => {
    const files = fs.readdirSync(routesDir).filter((name) => /^api\..+\.ts$/.test(name) && !name.endsWith('.test.ts') && name !== 'api.$.ts');
    const served: string[] = [];
    for (const file of files) for (const method of await methodsOf(file)) served.push(`${method} ${pathOf(file)}`);
    expect(served.length).toBeGreaterThan(100);

    const modulePaths = files.map(pathOf);
    const listed = new Set(
      PROTECTED_ROUTES.map((route) => {
        const pattern = patternOf(route.path, modulePaths);
        expect(pattern, `${route.method} ${route.path} in the table matches no route module`).not.toBeNull();
        return `${route.method} ${pattern}`;
      }),
    );
    const missing = served.filter((entry) => !listed.has(entry) && !PUBLIC.has(entry));
    expect(missing, 'add these to tests/support/protected-routes/<area>.ts (or, if public by design, to PUBLIC here)').toEqual([]);
    const stale = [...PUBLIC].filter((entry) => !served.includes(entry));
    expect(stale, 'public entries that no route serves any more').toEqual([]);
  });
});
