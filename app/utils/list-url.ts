import * as z from 'zod';
import { isUuid } from './validation.ts';

/**
 * The one reader of a list page's URL state: the search (`?q`), the tab
 * (`?tab`, one zod schema per page), the 1-based page (`?page`) and the
 * common extras (`?new=1`, a second pager, a record id of an open panel).
 * The URL is typed by people and old links, so it is forgiving: an unknown
 * tab is the page's default, a missing or bad page is 1, an id that is no
 * UUID is no id. Server and client safe (no server imports).
 */
export const MAX_PAGE = 100_000;
export const MAX_QUERY_LENGTH = 255;

type Source = Request | URL | URLSearchParams;

function searchParamsOf(source: Source): URLSearchParams {
  if (source instanceof URLSearchParams) return source;
  return source instanceof URL ? source.searchParams : new URL(source.url).searchParams;
}

/** A page's tabs: the listed values, anything else (or none) read as `fallback`. */
export function tabSchema<const Values extends readonly [string, ...string[]]>(values: Values, fallback: Values[number]) {
  return z.enum(values).catch(fallback);
}

/** A filter that is absent unless it names one of `values` (risk's category, for one). */
export function optionalChoiceSchema<const Values extends readonly [string, ...string[]]>(values: Values) {
  return z.enum(values).nullable().catch(null);
}

/** 1…MAX_PAGE; anything that is no number (or below 1) is page 1, a fraction is cut to its whole pages. */
export const pageSchema = z.unknown().transform((value) => Math.min(Math.max(Math.trunc(Number(value ?? 1)) || 1, 1), MAX_PAGE));

export interface ListUrl {
  params: URLSearchParams;
  /** The search, trimmed and capped; '' without one. */
  q: string;
  page: number;
  /** `?new=1`: the create panel (the page without JavaScript). */
  showNew: boolean;
  /** The value of `name` read by a page's schema (a tab or filter schema). */
  read<T>(schema: z.ZodType<T>, name?: string): T;
  /** Another 1-based page parameter (a second pager on the same page). */
  pageOf(name: string): number;
  /** A record id parameter, or null when absent or no id. */
  id(name: string): string | null;
}

export function readListUrl(source: Source): ListUrl {
  const params = searchParamsOf(source);
  const pageOf = (name: string) => pageSchema.parse(params.get(name));
  return {
    params,
    q: (params.get('q') ?? '').trim().slice(0, MAX_QUERY_LENGTH),
    page: pageOf('page'),
    showNew: params.get('new') === '1',
    read: <T>(schema: z.ZodType<T>, name = 'tab') => schema.parse(params.get(name) ?? undefined),
    pageOf,
    // The one id check of app/utils/validation.ts; lower case like PostgreSQL prints ids.
    id: (name: string) => {
      const value = params.get(name);
      return isUuid(value) ? value.toLowerCase() : null;
    },
  };
}

/** The rows to skip for a 1-based page. */
export function pageOffset(page: number, pageSize: number): number {
  return (page - 1) * pageSize;
}

/** How many pages `total` rows fill (at least one, so an empty list is page 1 of 1). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** The window a domain list reads: limit 1–1000 (default 100), offset ≥ 0, whole numbers (docs/api.md lists). */
export function pageBounds(options: { limit?: number; offset?: number }): { limit: number; offset: number } {
  return {
    limit: Math.min(Math.max(Math.trunc(options.limit ?? 100), 1), 1000),
    offset: Math.max(Math.trunc(options.offset ?? 0), 0),
  };
}

/**
 * The writer of the same URL: `path` with each of `state` in its order unless
 * empty or at its default (`defaults`: a tab 'all', page 1), then `extra`
 * (`new=1`, an open panel); the bare path when nothing is left.
 */
export function listHref(path: string, state: Record<string, string | number | undefined>, defaults: Record<string, string | number>, extra: Record<string, string> = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(state)) {
    if (value !== undefined && value !== '' && value !== defaults[name]) search.set(name, String(value));
  }
  for (const [key, value] of Object.entries(extra)) search.set(key, value);
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}
