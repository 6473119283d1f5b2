import { z } from 'zod';
import { describeDatabaseError, isDatabaseUnavailable, isRefusedValue } from '../db.server.ts';
import { INPUT_MESSAGES, isMultiLineText, isSingleLineText, isUuid } from './validation.ts';

/**
 * The API's one error shape (docs/api.md): `{ message, errors? }` where
 * `errors` maps a field to its messages. Domain modules throw these Responses;
 * Remix sends a thrown Response from a resource route as is.
 */
export type FieldErrors = Record<string, string[]>;
export interface ApiErrorBody {
  message: string;
  errors?: FieldErrors;
}

export function apiError(status: number, message: string, errors?: FieldErrors, init: { headers?: HeadersInit } = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('Content-Type', 'application/json; charset=utf-8');
  headers.set('Cache-Control', 'no-store');
  const body: ApiErrorBody = errors && Object.keys(errors).length > 0 ? { message, errors } : { message };
  return new Response(JSON.stringify(body), { status, headers });
}

/** A JSON success response; `init.headers` usually carries the Set-Cookie of a session change. */
export function apiJson(data: unknown, init: { status?: number; headers?: HeadersInit } = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('Content-Type', 'application/json; charset=utf-8');
  headers.set('Cache-Control', 'no-store');
  return new Response(JSON.stringify(data), { status: init.status ?? 200, headers });
}

/**
 * For page actions that call the same domain functions: turns a thrown API
 * error back into `{ status, message, errors }` to show in the form, or null
 * when `error` is something else (rethrow it).
 */
export async function readApiError(error: unknown): Promise<(ApiErrorBody & { status: number }) | null> {
  if (!(error instanceof Response) || error.status < 400) return null;
  const type = error.headers.get('Content-Type') ?? '';
  if (!type.includes('application/json')) return { status: error.status, message: error.statusText || String(error.status) };
  try {
    const body = (await error.clone().json()) as ApiErrorBody;
    return { status: error.status, message: body.message, ...(body.errors ? { errors: body.errors } : {}) };
  } catch {
    return { status: error.status, message: String(error.status) };
  }
}

/** `items[0].name`, the path notation conform uses, so errors land on the same fields. */
function issuePath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((out, key) => {
    if (typeof key === 'number') return `${out}[${key}]`;
    const name = String(key);
    return out ? `${out}.${name}` : name;
  }, '');
}

/** Every issue, grouped per field ('' for whole-object issues). */
export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issuePath(issue.path);
    (errors[key] ??= []).push(issue.message);
  }
  return errors;
}

/**
 * The one validation entry of the domain functions: they take `unknown` from
 * pages, /api routes and the worker alike and parse it here once, so a caller
 * that skipped the form's schema still cannot write bad data. 400 with every
 * issue per field; the message is the first issue's text.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw apiError(400, result.error.issues[0]?.message ?? 'Invalid input', zodFieldErrors(result.error));
  return result.data;
}

const DEFAULT_MAX_BYTES = 1024 * 1024;
/** No payload of this API nests deeper; a deeper one is an attack on the parser, not data. */
const MAX_JSON_DEPTH = 32;

/**
 * Every string (and key) of a JSON body checked before any schema sees it:
 * no NUL or other control character but tab and line breaks, no lone
 * surrogate. The schemas hold the exact rule per field (single-line fields
 * refuse line breaks too); this net makes sure that a field a schema passes
 * through unchecked still cannot reach PostgreSQL, which refuses NUL with an
 * error, or be stored as U+FFFD.
 */
function unsafeStrings(value: unknown): { message: string; errors: FieldErrors } | null {
  const errors: FieldErrors = {};
  let tooDeep = false;
  const visit = (node: unknown, path: PropertyKey[]) => {
    if (tooDeep) return;
    if (path.length > MAX_JSON_DEPTH) {
      tooDeep = true;
      return;
    }
    if (typeof node === 'string') {
      if (!isMultiLineText(node)) (errors[issuePath(path)] ??= []).push(INPUT_MESSAGES.invalidCharacters);
    } else if (Array.isArray(node)) {
      node.forEach((item, index) => visit(item, [...path, index]));
    } else if (node !== null && typeof node === 'object') {
      for (const [key, item] of Object.entries(node)) {
        if (!isMultiLineText(key)) (errors[issuePath([...path, key])] ??= []).push(INPUT_MESSAGES.invalidCharacters);
        else visit(item, [...path, key]);
      }
    }
  };
  visit(value, []);
  if (tooDeep) return { message: 'JSON body is nested too deeply', errors: { '': ['JSON body is nested too deeply'] } };
  return Object.keys(errors).length ? { message: INPUT_MESSAGES.invalidCharacters, errors } : null;
}

/**
 * Reads a JSON body and validates it with `schema`. Throws 415 for another
 * content type, 413 past `maxBytes`, 400 for malformed JSON, and 400 with
 * every zod issue per field (message = the first issue's text). An empty body
 * counts as `{}`, so missing fields get their own messages.
 */
export async function parseJsonBody<S extends z.ZodType>(
  request: Request,
  schema: S,
  options: { maxBytes?: number } = {},
): Promise<z.output<S>> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const type = (request.headers.get('Content-Type') ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw apiError(415, 'Content-Type must be application/json');
  }
  const declared = Number(request.headers.get('Content-Length') ?? '0');
  if (declared > maxBytes) throw apiError(413, 'Request body too large');
  const text = await request.text();
  if (Buffer.byteLength(text, 'utf8') > maxBytes) throw apiError(413, 'Request body too large');
  let value: unknown = {};
  if (text.trim() !== '') {
    try {
      value = JSON.parse(text);
    } catch {
      throw apiError(400, 'Malformed JSON body');
    }
  }
  const unsafe = unsafeStrings(value);
  if (unsafe) throw apiError(400, unsafe.message, unsafe.errors);
  const result = await schema.safeParseAsync(value);
  if (!result.success) {
    throw apiError(400, result.error.issues[0]?.message ?? 'Invalid input', zodFieldErrors(result.error));
  }
  return result.data;
}

/** 405 with the Allow header, for a resource route called with a method it does not serve. */
export function methodNotAllowed(allowed: string[]): Response {
  return apiError(405, 'Method Not Allowed', undefined, { headers: { Allow: allowed.join(', ') } });
}

/**
 * A JSON object body for calls whose domain function validates the fields
 * itself (sign-in): 415 for another content type, 400 for malformed JSON or a
 * non-object. An empty body counts as `{}`.
 */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  return parseJsonBody(request, z.record(z.string(), z.unknown(), 'Expected a JSON object'));
}

const listQuerySchema = z.object({
  q: z.string().trim().max(255).optional(),
  limit: z.coerce.number().int().min(1).max(1000).catch(100),
  offset: z.coerce.number().int().min(0).catch(0),
});

/** List parameters (docs/decisions/004-api-errors-and-lists.md): ?q=, ?limit= (default 100, max 1000), ?offset=; bad numbers fall back to the defaults, a ?q with control characters is a 400. */
export function listParams(request: Request): { q: string | undefined; limit: number; offset: number } {
  const params = new URL(request.url).searchParams;
  const q = params.get('q');
  if (q && !isSingleLineText(q)) throw apiError(400, INPUT_MESSAGES.invalidCharacters, { q: [INPUT_MESSAGES.invalidCharacters] });
  const parsed = listQuerySchema.parse({
    q: params.get('q')?.slice(0, 255) || undefined,
    limit: params.get('limit') ?? undefined,
    offset: params.get('offset') ?? undefined,
  });
  return { q: parsed.q || undefined, limit: parsed.limit, offset: parsed.offset };
}


/** An id from the URL: anything that is not a UUID cannot exist, so it is a 404, not a SQL error. */
export function requireUuidParam(value: string | undefined): string {
  if (!value || !isUuid(value)) throw apiError(404, 'Not Found');
  return value.toLowerCase();
}

export const UNAVAILABLE_MESSAGE = 'Service temporarily unavailable, please try again shortly';
/** Seconds a client should wait before retrying while the database is away (a restart or failover takes a few). */
export const RETRY_AFTER_SECONDS = 5;

/**
 * The one answer for an error no route turned into a refusal (the JSON error
 * shape of docs/decisions/004-api-errors-and-lists.md, never a stack): 503 with Retry-After while the database
 * cannot be reached, 400 when PostgreSQL refused a value a schema let through,
 * 500 otherwise. server.ts sends it for every /api request whose error Remix
 * would have answered with its plain-text 500.
 */
export function unexpectedErrorResponse(error: unknown): Response {
  if (isDatabaseUnavailable(error)) {
    return apiError(503, UNAVAILABLE_MESSAGE, undefined, { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } });
  }
  if (isRefusedValue(error)) return apiError(400, 'Invalid input');
  return apiError(500, 'Internal Server Error');
}

/**
 * How an unexpected error is logged (entry.server.tsx handleError): a
 * database outage is one line per failed request — during a restart every
 * request fails the same way, and thousands of identical stacks would bury
 * the log — and so is a refused value; anything else is a bug, logged whole.
 */
export function logUnexpectedError(error: unknown, request: Request): void {
  const where = `${request.method} ${new URL(request.url).pathname}`;
  if (isDatabaseUnavailable(error)) console.error(`database unavailable: ${where}: ${describeDatabaseError(error)}`);
  else if (isRefusedValue(error)) console.error(`value refused by the database: ${where}: ${describeDatabaseError(error)}`);
  else console.error(error);
}

// A symbol from the global registry: server.ts and the Remix build each hold their own copy of this module.
const UNEXPECTED_ERROR = Symbol.for('finflow.unexpectedError');

/** Keeps the first unexpected error of a request on its load context, for server.ts to answer it. */
export function rememberUnexpectedError(context: unknown, error: unknown): void {
  if (context && typeof context === 'object' && !(UNEXPECTED_ERROR in context)) {
    (context as Record<symbol, unknown>)[UNEXPECTED_ERROR] = error;
  }
}

export function unexpectedErrorOf(context: unknown): unknown {
  return context && typeof context === 'object' ? (context as Record<symbol, unknown>)[UNEXPECTED_ERROR] : undefined;
}
