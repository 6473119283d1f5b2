import * as z from 'zod';
import { describeDatabaseError, isDatabaseUnavailable, isLockNotAvailable, isRefusedValue } from '../db.server.ts';
import { encodeRefusal, englishText, type Refusal, type RefusalParams } from './refusals.ts';
import { INPUT_ERRORS, isMultiLineText, isSingleLineText, isUuid } from './validation.ts';

/**
 * The API's one error shape (docs/api.md#errors, docs/decisions/013-error-codes.md):
 * `{ message, code, params, errors?, errorCodes? }`. `code` is the refusal's
 * i18n key and `message` its `en` text with `params`; `errors` maps a field to
 * its English texts and `errorCodes` the same fields to their codes. Domain
 * modules throw these Responses; Remix sends a thrown Response from a
 * resource route as is.
 */
/** The refusals of the API layer itself (app/locales/en/errors.json). */
export const API_ERRORS = {
  invalidInput: 'errors.api.invalidInput',
  jsonContentType: 'errors.api.jsonContentType',
  tooLarge: 'errors.api.tooLarge',
  malformedJson: 'errors.api.malformedJson',
  jsonObject: 'errors.api.jsonObject',
  tooDeep: 'errors.api.tooDeep',
  methodNotAllowed: 'errors.api.methodNotAllowed',
  notFound: 'errors.api.notFound',
  unavailable: 'errors.api.unavailable',
  busy: 'errors.api.busy',
  internal: 'errors.api.internal',
  upstream: 'errors.api.upstream',
} as const;

export type FieldErrors = Record<string, string[]>;
/** Field → refusals as the domain throws them: a code, or a code with params. */
export type FieldRefusals = Record<string, Array<string | Refusal>>;
interface ApiErrorBody {
  message: string;
  code: string;
  params: RefusalParams;
  errors?: FieldErrors;
  errorCodes?: Record<string, Refusal[]>;
}

interface ApiErrorOptions {
  params?: RefusalParams;
  errors?: FieldRefusals;
  headers?: HeadersInit;
}

export function apiError(status: number, code: string, options: ApiErrorOptions = {}): Response {
  const headers = new Headers(options.headers);
  headers.set('Content-Type', 'application/json; charset=utf-8');
  headers.set('Cache-Control', 'no-store');
  const params = options.params ?? {};
  const body: ApiErrorBody = { message: englishText(code, params), code, params };
  const fields = Object.entries(options.errors ?? {});
  if (fields.length > 0) {
    const codes = fields.map(([field, list]) => [field, list.map((item) => (typeof item === 'string' ? { code: item } : item))] as const);
    body.errors = Object.fromEntries(codes.map(([field, list]) => [field, list.map((item) => englishText(item.code, item.params))]));
    body.errorCodes = Object.fromEntries(codes);
  }
  return new Response(JSON.stringify(body), { status, headers });
}

/**
 * `JSON.stringify(data)` as UTF-8 bytes, a list one item at a time. V8 builds a long JSON text as a chain of
 * parts and flattens it to encode it; once the text holds a letter beyond Latin-1 (č, ć, đ, š, ž: most
 * Croatian names) every character takes two bytes and that costs about three times as much as encoding the
 * items' short texts one by one (a page of 20 invoices: 1.2 ms against 0.45 ms; a text of plain ASCII
 * 0.21 against 0.26 ms, docs/benchmarks.md).
 */
export function jsonBytes(data: unknown): Buffer<ArrayBuffer> {
  if (!Array.isArray(data) || data.length < 2) return Buffer.from(JSON.stringify(data), 'utf8');
  // As JSON.stringify writes an element that has no JSON (undefined, a function, a hole, which map would skip): null.
  const items = Array.from(data as unknown[], (item) => (JSON.stringify(item) as string | undefined) ?? 'null');
  let size = items.length + 1; // the brackets and the commas
  for (const item of items) size += Buffer.byteLength(item, 'utf8');
  const bytes = Buffer.allocUnsafe(size);
  let at = bytes.write('[', 0);
  items.forEach((item, index) => {
    if (index > 0) at += bytes.write(',', at);
    at += bytes.write(item, at, 'utf8');
  });
  bytes.write(']', at);
  return bytes;
}

/** A JSON success response; `init.headers` usually carries the Set-Cookie of a session change. */
export function apiJson(data: unknown, init: { status?: number; headers?: HeadersInit } = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('Content-Type', 'application/json; charset=utf-8');
  headers.set('Cache-Control', 'no-store');
  // Bytes with their length: a string body is scanned for lone surrogates (JSON.stringify never leaves one) and
  // encoded later anyway, and a known length goes out in one write instead of chunked with a closing write.
  const body = jsonBytes(data);
  headers.set('Content-Length', String(body.byteLength));
  return new Response(body, { status: init.status ?? 200, headers });
}

/** A thrown refusal as a page action sees it. */
export interface PageRefusal {
  status: number;
  code: string;
  params: RefusalParams;
  /** The refusal encoded for the page (`encodeRefusal`): shown in the reader's language by `refusalText`. */
  message: string;
  /** Field → encoded refusals, the strings conform keeps per field. */
  errors?: FieldErrors;
}

/**
 * For page actions that call the same domain functions: turns a thrown API
 * error back into its code, params and field codes, encoded as the strings
 * a form keeps (`message`, `errors`), or null when `error` is something else
 * (rethrow it). A lock held past the web process's bound (the change rolled
 * back) reads as the busy refusal, 503. The page translates them by code,
 * never by their English text.
 */
export async function readApiError(error: unknown): Promise<PageRefusal | null> {
  // A change that found its record busy past the web process's bound was rolled back: the form says so and keeps what was typed.
  if (isLockNotAvailable(error)) return { status: 503, code: API_ERRORS.busy, params: {}, message: encodeRefusal(API_ERRORS.busy, {}) };
  if (!(error instanceof Response) || error.status < 400) return null;
  const type = error.headers.get('Content-Type') ?? '';
  const fallback = { status: error.status, code: 'errors.api.httpStatus', params: { status: error.status, reason: error.statusText || String(error.status) } };
  if (!type.includes('application/json')) return { ...fallback, message: encodeRefusal(fallback.code, fallback.params) };
  try {
    const body = (await error.clone().json()) as Partial<ApiErrorBody>;
    if (typeof body.code !== 'string') return { ...fallback, message: body.message ?? encodeRefusal(fallback.code, fallback.params) };
    const params = body.params ?? {};
    const errors = body.errorCodes
      ? Object.fromEntries(Object.entries(body.errorCodes).map(([field, list]) => [field, list.map((item) => encodeRefusal(item.code, item.params))]))
      : undefined;
    return { status: error.status, code: body.code, params, message: encodeRefusal(body.code, params), ...(errors ? { errors } : {}) };
  } catch {
    return { ...fallback, message: encodeRefusal(fallback.code, fallback.params) };
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

/** Every issue, grouped per field ('' for whole-object issues); a schema's messages are refusal codes. */
export function zodFieldErrors(error: z.ZodError): FieldRefusals {
  const errors: FieldRefusals = {};
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
  if (!result.success) throw zodRefusal(result.error);
  return result.data;
}

/** 400 with every issue per field; the refusal is the first issue's. */
export function zodRefusal(error: z.ZodError): Response {
  return apiError(400, error.issues[0]?.message ?? API_ERRORS.invalidInput, { errors: zodFieldErrors(error) });
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
function unsafeStrings(value: unknown): { code: string; errors: FieldRefusals } | null {
  const errors: FieldRefusals = {};
  let tooDeep = false;
  const visit = (node: unknown, path: PropertyKey[]) => {
    if (tooDeep) return;
    if (path.length > MAX_JSON_DEPTH) {
      tooDeep = true;
      return;
    }
    if (typeof node === 'string') {
      if (!isMultiLineText(node)) (errors[issuePath(path)] ??= []).push(INPUT_ERRORS.invalidCharacters);
    } else if (Array.isArray(node)) {
      node.forEach((item, index) => visit(item, [...path, index]));
    } else if (node !== null && typeof node === 'object') {
      for (const [key, item] of Object.entries(node)) {
        if (!isMultiLineText(key)) (errors[issuePath([...path, key])] ??= []).push(INPUT_ERRORS.invalidCharacters);
        else visit(item, [...path, key]);
      }
    }
  };
  visit(value, []);
  if (tooDeep) return { code: API_ERRORS.tooDeep, errors: { '': [API_ERRORS.tooDeep] } };
  return Object.keys(errors).length ? { code: INPUT_ERRORS.invalidCharacters, errors } : null;
}

/**
 * Reads a JSON body and validates it with `schema`. Throws 415 for another
 * content type, 413 past `maxBytes`, 400 for malformed JSON, and 400 with
 * every zod issue per field (message = the first issue's text). An empty body
 * counts as `{}`, so missing fields get their own messages.
 */
export async function parseJsonBody<S extends z.ZodType>(request: Request, schema: S, options: { maxBytes?: number } = {}): Promise<z.output<S>> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const type = (request.headers.get('Content-Type') ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw apiError(415, API_ERRORS.jsonContentType);
  }
  const declared = Number(request.headers.get('Content-Length') ?? '0');
  if (declared > maxBytes) throw apiError(413, API_ERRORS.tooLarge);
  const text = await request.text();
  if (Buffer.byteLength(text, 'utf8') > maxBytes) throw apiError(413, API_ERRORS.tooLarge);
  let value: unknown = {};
  if (text.trim() !== '') {
    try {
      value = JSON.parse(text);
    } catch {
      throw apiError(400, API_ERRORS.malformedJson);
    }
  }
  const unsafe = unsafeStrings(value);
  if (unsafe) throw apiError(400, unsafe.code, { errors: unsafe.errors });
  const result = await schema.safeParseAsync(value);
  if (!result.success) throw zodRefusal(result.error);
  return result.data;
}

/** 405 with the Allow header, for a resource route called with a method it does not serve. */
export function methodNotAllowed(allowed: string[]): Response {
  return apiError(405, API_ERRORS.methodNotAllowed, { headers: { Allow: allowed.join(', ') } });
}

/**
 * A JSON object body for calls whose domain function validates the fields
 * itself (sign-in): 415 for another content type, 400 for malformed JSON or a
 * non-object. An empty body counts as `{}`.
 */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  return parseJsonBody(request, z.record(z.string(), z.unknown(), API_ERRORS.jsonObject));
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
  if (q && !isSingleLineText(q)) throw apiError(400, INPUT_ERRORS.invalidCharacters, { errors: { q: [INPUT_ERRORS.invalidCharacters] } });
  const parsed = listQuerySchema.parse({
    q: params.get('q')?.slice(0, 255) || undefined,
    limit: params.get('limit') ?? undefined,
    offset: params.get('offset') ?? undefined,
  });
  return { q: parsed.q || undefined, limit: parsed.limit, offset: parsed.offset };
}

/** An id from the URL: anything that is not a UUID cannot exist, so it is a 404, not a SQL error. */
export function requireUuidParam(value: string | undefined): string {
  if (!value || !isUuid(value)) throw apiError(404, API_ERRORS.notFound);
  return value.toLowerCase();
}

/** Seconds a client should wait before retrying while the database is away (a restart or failover takes a few). */
export const RETRY_AFTER_SECONDS = 5;

/**
 * The one answer for an error no route turned into a refusal (the JSON error
 * shape of docs/decisions/004-api-errors-and-lists.md, never a stack): 503 with Retry-After while the database
 * cannot be reached or a lock the request needed stayed held past the web process's bound, 400 when PostgreSQL
 * refused a value a schema let through, 500 otherwise. server.ts sends it for every /api request whose error Remix
 * would have answered with its plain-text 500.
 */
export function unexpectedErrorResponse(error: unknown): Response {
  if (isDatabaseUnavailable(error)) {
    return apiError(503, API_ERRORS.unavailable, { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } });
  }
  // Another transaction held a lock the request needed for longer than the web process waits: nothing was changed.
  if (isLockNotAvailable(error)) return apiError(503, API_ERRORS.busy, { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } });
  if (isRefusedValue(error)) return apiError(400, API_ERRORS.invalidInput);
  return apiError(500, API_ERRORS.internal);
}

/**
 * How an unexpected error is logged (entry.server.tsx handleError): a
 * database outage is one line per failed request — during a restart every
 * request fails the same way, and thousands of identical stacks would bury
 * the log — and so are a lock wait past its bound and a refused value; anything else is a bug, logged whole.
 */
export function logUnexpectedError(error: unknown, request: Request): void {
  const where = `${request.method} ${new URL(request.url).pathname}`;
  if (isDatabaseUnavailable(error)) console.error(`database unavailable: ${where}: ${describeDatabaseError(error)}`);
  else if (isLockNotAvailable(error)) console.error(`lock wait bound reached: ${where}: ${describeDatabaseError(error)}`);
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
