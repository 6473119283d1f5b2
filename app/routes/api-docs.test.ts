import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROTECTED_ROUTES } from '../../tests/support/protected-routes.ts';

/**
 * docs/api.md's route table is the API: one row per method and path that a
 * module app/routes/api.*.ts serves, with the lowest role that may call it
 * (from tests/support/protected-routes/, which tests/e2e/api-access.test.ts
 * checks against the running app) or 'public'. A route added, removed or
 * given another method or role without its row fails here; the failure
 * prints the rows as they should read.
 */

const routesDir = path.dirname(new URL(import.meta.url).pathname);
const docPath = path.join(routesDir, '../../docs/api.md');
const modules = fs
  .readdirSync(routesDir)
  .filter((name) => /^api\..+\.ts$/.test(name) && !name.endsWith('.test.ts') && name !== 'api.$.ts')
  .sort();

/** api.invoices.$invoiceId.verify.ts → /api/invoices/{invoiceId}/verify; [.] and [name] are literal (Remix flat routes). */
export function urlPathOf(file: string): string {
  const segments = file
    .replace(/\.ts$/, '')
    .split(/(?<!\[)\.(?!\])/)
    .map((segment) =>
      segment
        .replace(/\[\.\]/g, '.')
        .replace(/^\[(.+)\]$/, '$1')
        .replace(/^\$(\w+)$/, '{$1}'),
    );
  return `/${segments.join('/')}`;
}

type Handler = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => Promise<Response> | Response;

/** The methods a module serves: the Allow of its 405 to PATCH (app/routes/api-methods.test.ts holds every module to that). */
async function methodsOf(file: string): Promise<string[]> {
  const module = (await import(/* @vite-ignore */ `./${file}`)) as { action: Handler };
  const params = Object.fromEntries(Array.from(file.matchAll(/\$(\w+)/g), ([, name]) => [name, name === 'control' ? 'pause' : '00000000-0000-4000-8000-000000000000']));
  let response: Response;
  try {
    response = await module.action({ request: new Request('http://localhost/api/x', { method: 'PATCH' }), params, context: {} });
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    response = thrown;
  }
  return (response.headers.get('Allow') ?? '').split(', ').filter(Boolean);
}

function roleOf(method: string, urlPath: string): string {
  const pattern = new RegExp(`^${urlPath.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}$`);
  const listed = PROTECTED_ROUTES.filter((route) => route.method === method && pattern.test(route.path.split('?')[0]));
  const roles = [...new Set(listed.map((route) => route.role))];
  return roles.length === 0 ? 'public' : roles.join(' / ');
}

/** The first three cells of each row of the table under '## Routes'. */
function documentedRows(): string[] {
  const text = fs.readFileSync(docPath, 'utf8');
  const section = text.slice(text.indexOf('\n## Routes'));
  return section
    .split('\n')
    .filter((line) => /^\| (GET|POST|PUT|DELETE) /.test(line))
    .map((line) =>
      line
        .split('|')
        .slice(1, 4)
        .map((cell) => cell.trim().replace(/`/g, ''))
        .join(' | '),
    );
}

describe('docs/api.md', () => {
  it('lists every route of app/routes/api.*.ts with its methods and lowest role, and no other', async () => {
    const expected: string[] = [];
    for (const file of modules) {
      const urlPath = urlPathOf(file);
      for (const method of await methodsOf(file)) expected.push(`${method} | ${urlPath} | ${roleOf(method, urlPath)}`);
    }
    expect(expected.length).toBeGreaterThan(90);
    expect(documentedRows().sort()).toEqual(expected.sort());
  });

  it('reads flat route file names as URL paths', () => {
    expect(urlPathOf('api.invoices.$invoiceId.verify.ts')).toBe('/api/invoices/{invoiceId}/verify');
    expect(urlPathOf('api.analytics.export[.]csv.ts')).toBe('/api/analytics/export.csv');
    expect(urlPathOf('api.integrations.$type.[test].ts')).toBe('/api/integrations/{type}/test');
  });
});
