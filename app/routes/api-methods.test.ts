import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * A method an /api route does not serve is a 405 with an `Allow` header
 * naming the ones it does (docs/decisions/004-api-errors-and-lists.md), never
 * Remix's 'Unexpected Server Error' nor a silent run of another method's code.
 * Walks every module app/routes/api.*.ts: PATCH (served by none) to its
 * action, and GET to the loader of a route that only writes.
 */

const routesDir = path.dirname(new URL(import.meta.url).pathname);
const modules = fs
  .readdirSync(routesDir)
  .filter((name) => /^api\..+\.ts$/.test(name) && !name.endsWith('.test.ts') && name !== 'api.$.ts')
  .sort();

const ANY_ID = '00000000-0000-4000-8000-000000000000';

/** Path segments that name an operation rather than a record; every other `$param` gets an id no record has. */
const OPERATION_PARAMS: Record<string, string> = { control: 'pause' };

function paramsOf(file: string): Record<string, string> {
  return Object.fromEntries(Array.from(file.matchAll(/\$(\w+)/g), ([, name]) => [name, OPERATION_PARAMS[name] ?? ANY_ID]));
}

type Handler = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => Promise<Response> | Response;

async function answer(handler: Handler, request: Request, params: Record<string, string>): Promise<Response> {
  try {
    return await handler({ request, params, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

describe('methods an /api route does not serve', () => {
  it('covers the API', () => {
    expect(modules.length).toBeGreaterThan(70);
  });

  for (const file of modules) {
    it(`${file}: PATCH is 405 with Allow`, async () => {
      const module = (await import(/* @vite-ignore */ `./${file}`)) as { action?: Handler; loader?: Handler };
      expect(module.action, `${file} exports no action: POST/PUT/DELETE would reach Remix's own refusal`).toBeTypeOf('function');
      const response = await answer(module.action!, new Request(`http://localhost/api/x`, { method: 'PATCH' }), paramsOf(file));
      expect(response.status).toBe(405);
      const allow = response.headers.get('Allow') ?? '';
      expect(allow).toMatch(/^(GET|POST|PUT|DELETE)(, (GET|POST|PUT|DELETE))*$/);
      expect((await response.json()) as { message?: string }).toMatchObject({ message: expect.any(String) });
    });

    const source = fs.readFileSync(path.join(routesDir, file), 'utf8');
    if (/export const loader = \(\) => methodNotAllowed\(/.test(source)) {
      it(`${file}: GET is 405 with Allow`, async () => {
        const module = (await import(/* @vite-ignore */ `./${file}`)) as { loader: Handler };
        const response = await answer(module.loader, new Request('http://localhost/api/x'), paramsOf(file));
        expect(response.status).toBe(405);
        expect(response.headers.get('Allow')).not.toContain('GET');
      });
    }
  }
});
