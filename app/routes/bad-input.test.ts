import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { signedInCookie } from '../auth/test-helpers.server.ts';
import { selectOne, selectRows } from '../db.server.ts';
import { buildFixtures, type Fixtures } from '../../tests/support/bad-input-fixtures.ts';
import { NUL, Raw, Refused, SURROGATE, TABLE, type Body } from '../../tests/support/bad-input-table.ts';

/**
 * Bad input gets a 400 naming the field, never a 500, and changes nothing
 * (docs/decisions/004-api-errors-and-lists.md). For EVERY POST and PUT route under app/routes/api.*.ts this
 * test, from its table (tests/support/bad-input-table.ts), posts a NUL byte and a lone UTF-16 surrogate in each text field, and
 * an invalid value in each optional field (and in other fields a client could
 * get wrong), through the route module's own action with a real Request, and
 * checks: status 400, `errors` names the field, and no table gained or lost a
 * row and the edited row is unchanged. A route whose action serves POST or
 * PUT but is missing from the table fails the first test, so a new route
 * cannot skip this.
 */

/** Route files that are not one resource: the catch-all answers every method with 404. */
const NOT_A_RESOURCE = new Set(['api.$.ts']);

const modules = import.meta.glob<{ action?: (args: { request: Request; params: Record<string, string>; context: unknown }) => Promise<Response> | Response }>('./api.*.ts');

async function callAction(file: string, request: Request, params: Record<string, string> = {}): Promise<Response> {
  const module = await modules[`./${file}`]();
  try {
    return await module.action!({ request, params, context: { clientIp: '10.20.30.40' } });
  } catch (error) {
    // A route throws its refusals; anything else would have been a 500.
    if (error instanceof Response) return error;
    throw error;
  }
}

/** The methods a route's action serves: its answer to PATCH is a 405 with an Allow header. */
async function writeMethods(file: string): Promise<string[]> {
  const module = await modules[`./${file}`]();
  if (!module.action) return [];
  // A real value for the segments some routes check before the method (pause/resume/restart).
  const response = await callAction(file, new Request('http://localhost/api/x', { method: 'PATCH' }), { control: 'pause', type: 'hanfa' });
  expect(response.status, `${file} answers PATCH with 405 and an Allow header`).toBe(405);
  return (response.headers.get('Allow') ?? '').split(/,\s*/).filter((method) => method === 'POST' || method === 'PUT');
}

/** The URL of a route file: dots are slashes, '[.]' a literal dot, '[test]' the word, '$id' a parameter. */
function routePath(file: string, params: Record<string, string>): string {
  const segments = file
    .replace(/^api\./, '')
    .replace(/\.ts$/, '')
    .replaceAll('[.]', '~dot~')
    .split('.')
    .map((segment) => segment.replaceAll('~dot~', '.').replace(/^\[(.*)\]$/, '$1'))
    .map((segment) => (segment.startsWith('$') ? (params[segment.slice(1)] ?? randomUUID()) : segment));
  return `/api/${segments.join('/')}`;
}

function serialise(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (value instanceof Refused) return serialise(value.value);
  if (Array.isArray(value)) return `[${value.map(serialise).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}:${serialise(item)}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

function withField(body: Body, path: string, value: unknown): Body {
  const copy = structuredClone(body) as Body;
  const keys = path.split('.');
  let node: Record<string, unknown> = copy;
  for (const key of keys.slice(0, -1)) {
    node[key] ??= /^\d+$/.test(keys[keys.indexOf(key) + 1] ?? '') ? [] : {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys.at(-1)!] = value;
  return copy;
}

/** 'steps.0.name' → 'steps[0].name', the notation of the errors object. */
const errorKey = (path: string) => path.replace(/\.(\d+)(?=\.|$)/g, '[$1]');
const names = (errors: Record<string, string[]> | undefined, path: string) => {
  const key = errorKey(path);
  return Object.keys(errors ?? {}).some((field) => field === key || field.startsWith(`${key}.`) || field.startsWith(`${key}[`));
};

let tableCounts: string;
async function snapshot(row?: { table: string; id: string }) {
  const counts = await selectOne<{ counts: Record<string, number> }>(tableCounts);
  const edited = row
    ? await selectRows<{ hash: string }>(`SELECT md5(CAST(t AS text)) AS hash FROM ${row.table} t ${row.id ? 'WHERE id = :id' : ''} ORDER BY id`, { id: row.id })
    : null;
  return { counts: counts!.counts, edited };
}

let fx: Fixtures;
let cookie: string;
let files: string[];

beforeAll(async () => {
  fx = await buildFixtures();
  cookie = await signedInCookie(fx.admin.id);
  const tables = (await selectRows<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`)).map((row) => row.name);
  // Aggregated from rows: json_build_object takes at most 100 arguments, two per table, and the schema has more than 50 tables.
  tableCounts = `SELECT json_object_agg(name, count) AS counts FROM (${tables.map((table) => `SELECT '${table}' AS name, (SELECT count(*) FROM "${table}") AS count`).join(' UNION ALL ')}) t`;
  files = Object.keys(modules)
    .map((path) => path.slice(2))
    .filter((file) => !NOT_A_RESOURCE.has(file));
}, 120_000);

describe('the table of POST and PUT routes', () => {
  it('lists every POST and PUT route under app/routes/api.*.ts, and nothing else', async () => {
    const served: string[] = [];
    for (const file of files) for (const method of await writeMethods(file)) served.push(`${file} ${method}`);
    expect(served.length).toBeGreaterThan(40);
    expect(
      served.filter((key) => !(key in TABLE)),
      'POST/PUT routes missing from the bad-input table',
    ).toEqual([]);
    expect(
      Object.keys(TABLE).filter((key) => !served.includes(key)),
      'table rows without a route',
    ).toEqual([]);
  });
});

describe.each(Object.entries(TABLE))('%s', (key, entry) => {
  const [file, method] = key.split(' ');

  if ('noInput' in entry) {
    it(`takes no input: ${entry.noInput}`, () => {
      expect(entry.noInput.length).toBeGreaterThan(0);
    });
    return;
  }

  if ('custom' in entry) {
    it('refuses each bad part of the upload with 400 naming the field, and stores nothing', async () => {
      for (const probe of await entry.custom(fx, cookie)) {
        const before = await snapshot();
        const response = await callAction(file, probe.request, probe.params ?? {});
        const body = (await response.json()) as { message: string; errors?: Record<string, string[]> };
        expect(response.status, `${probe.label}: ${body.message}`).toBe(400);
        expect(names(body.errors, probe.field), `${probe.label} names ${probe.field}: ${JSON.stringify(body.errors)}`).toBe(true);
        expect(await snapshot(), `${probe.label} stored nothing`).toEqual(before);
      }
    });
    return;
  }

  const probe = async (label: string, path: string, body: Body, expected: { status: number; field: string } = { status: 400, field: path }) => {
    const params = entry.params?.(fx) ?? {};
    const row = entry.row?.(fx);
    const before = await snapshot(row);
    const request = new Request(`http://localhost${routePath(file, params)}`, { method, body: serialise(body), headers: { Cookie: cookie, 'Content-Type': 'application/json' } });
    const response = await callAction(file, request, params);
    const text = await response.text();
    expect(response.status, `${label}: ${text}`).toBe(expected.status);
    const parsed = JSON.parse(text) as { message: string; errors?: Record<string, string[]> };
    expect(typeof parsed.message).toBe('string');
    expect(names(parsed.errors, expected.field), `${label} names ${errorKey(expected.field)}: ${text}`).toBe(true);
    expect(await snapshot(row), `${label} changed nothing`).toEqual(before);
  };

  it.each(entry.text)('a NUL byte and a lone surrogate in %s are 400 on that field, and change nothing', async (path) => {
    await probe(`NUL in ${path}`, path, withField(entry.body(fx), path, NUL));
    await probe(`lone surrogate in ${path}`, path, withField(entry.body(fx), path, SURROGATE));
  });

  const invalid = Object.entries(entry.invalid ?? {});
  if (invalid.length) {
    it.each(invalid)('an invalid %s is refused on that field, not dropped, and changes nothing', async (path, values) => {
      for (const value of values) {
        if (value instanceof Refused) await probe(`${path} = ${serialise(value.value)}`, path, withField(entry.body(fx), path, value.value), value);
        else await probe(`${path} = ${serialise(value)}`, path, withField(entry.body(fx), path, value));
      }
    });
  }

  // Run last: it may succeed and change state. A refusal of the state (404, 409: the invoice was rejected meanwhile) is fine;
  // a 400 naming a field of the table would mean the probes above tested a body that was wrong to begin with.
  it('the base body is valid: sent as it is, no field is refused as invalid', async () => {
    const params = entry.params?.(fx) ?? {};
    const request = new Request(`http://localhost${routePath(file, params)}`, {
      method,
      body: serialise(entry.body(fx)),
      headers: { Cookie: cookie, 'Content-Type': 'application/json' },
    });
    const response = await callAction(file, request, params);
    const text = await response.text();
    expect(response.status, text).toBeLessThan(500);
    const errors = response.status === 400 && text.startsWith('{') ? (JSON.parse(text) as { errors?: Record<string, string[]> }).errors : undefined;
    const refused = [...entry.text, ...Object.keys(entry.invalid ?? {})].filter((path) => names(errors, path));
    expect(refused, text).toEqual([]);
  });
});
