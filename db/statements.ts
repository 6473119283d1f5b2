import { createRequire } from 'node:module';
import type pg from 'pg';
import type { Sequelize } from 'sequelize';
import type * as SqlUtils from 'sequelize/lib/utils/sql';

// Sequelize's placeholder scanner, from its CommonJS build (Node's ESM import sees no named exports in it).
const { injectReplacements } = createRequire(import.meta.url)('sequelize/lib/utils/sql') as typeof SqlUtils;

/**
 * Reads outside a transaction as parameterised statements, prepared once per
 * pooled connection (docs/decisions/018-request-cost.md). Sequelize formats
 * every replacement into the SQL text, so PostgreSQL parses and plans each
 * request anew: the session lookup costs it ~115 µs that way and ~40 µs as a
 * prepared statement, a list page 1,065 → 765 µs.
 *
 * The SQL is the same text the callers write for Sequelize (`:name`
 * replacements), and a statement means exactly what Sequelize's literal would:
 * - the placeholders are found by Sequelize's own scanner (strings, quoted
 *   names, comments and `::` casts skipped), each name replaced by a marker;
 * - a number or boolean gets the type its literal has (`5` is int4, `5000000000`
 *   int8, `2.5` numeric, `true` boolean); a string or null stays untyped, as a
 *   quoted literal is, and PostgreSQL types it from where it stands;
 * - a NUL in a string becomes `\0`, as Sequelize writes it;
 * - a list (`IN (:ids)`) is one parameter per item, as Sequelize writes one
 *   literal per item;
 * - anything else (dates, objects, buffers, an empty list) and any statement
 *   PostgreSQL cannot type as a parameter (`SELECT :x`) goes Sequelize's way.
 * Statements that match patterns (LIKE, ~, %) are not prepared: a generic plan
 * cannot know how selective a pattern is, so each runs with its own plan.
 */

type Replacements = Record<string, unknown>;
interface Statement {
  text: string;
  /** Where $1, $2, … come from: a replacement's name and, for a list, the item. */
  sources: Array<{ key: string; item: number | null }>;
  /** The prepared statement's name, or undefined for an unnamed (planned each time) one. */
  name: string | undefined;
}

const INT4 = 2 ** 31;
/** What a value's literal would be typed as: the cast, '' for untyped, or null for a value only Sequelize writes. */
function castOf(value: unknown): string | null {
  if (value === null || typeof value === 'string') return '';
  if (typeof value === 'boolean') return '::boolean';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    if (!Number.isInteger(value)) return '::numeric';
    return value >= -INT4 && value < INT4 ? '::int4' : Number.isSafeInteger(value) ? '::int8' : '::numeric';
  }
  if (typeof value === 'bigint') return value >= -BigInt(INT4) && value < BigInt(INT4) ? '::int4' : '::numeric';
  return null;
}

/** A replacement's casts: one for a value, one per item for a list (Sequelize writes `IN (:ids)` as `IN ('a', 'b')`); null for what only Sequelize writes. */
function castsOf(value: unknown): string[] | null {
  if (!Array.isArray(value)) {
    const cast = castOf(value);
    return cast === null ? null : [cast];
  }
  // An empty list is Sequelize's to refuse (`IN ()`); a list of lists is its row syntax.
  if (value.length === 0) return null;
  const casts: string[] = [];
  for (const item of value) {
    const cast = Array.isArray(item) ? null : castOf(item);
    if (cast === null) return null;
    casts.push(cast);
  }
  return casts;
}

const parameterValue = (value: unknown): unknown =>
  typeof value === 'string' ? (value.includes('\0') ? value.replace(/\0/g, '\\0') : value) : typeof value === 'bigint' ? String(value) : value;

/** Statements by SQL text, then by the replacements' names and casts; null: this SQL goes Sequelize's way. */
const statements = new Map<string, Map<string, Statement | null> | null>();
/** Distinct prepared statements at most (each lives in every pooled connection); beyond, statements run unnamed. */
const MAX_PREPARED = 2000;
/** Distinct SQL texts remembered at most: SQL built with values in its text would otherwise grow the map for ever. */
const MAX_TEXTS = 5000;
let prepared = 0;
/** Sequelize's PostgreSQL dialect, which its scanner reads (quoting, escapes); the instance has it, its typings do not say so. */
type Dialect = Parameters<typeof injectReplacements>[1];
/** A marker Sequelize wrote as a quoted literal: the replacement's index and, for a list, the item's. */
const MARKER = /'\uE000(\d+)(?:\.(\d+))?\uE000'/g;
const PATTERN_MATCHING = /\blike\b|\bsimilar\b|~|%/i;

function compile(dialect: Dialect, sql: string, keys: string[], lists: boolean[], casts: string[][]): Statement | null {
  const markers: Replacements = {};
  keys.forEach((key, index) => {
    markers[key] = lists[index] ? casts[index].map((_cast, item) => `\uE000${index}.${item}\uE000`) : `\uE000${index}\uE000`;
  });
  let marked: string;
  try {
    marked = injectReplacements(sql, dialect, markers);
  } catch {
    return null; // a missing replacement: Sequelize's way throws its own error for it
  }
  const sources: Statement['sources'] = [];
  const text = marked.replace(MARKER, (_whole, index: string, item: string | undefined) => {
    const key = keys[Number(index)];
    const itemIndex = item === undefined ? null : Number(item);
    let position = sources.findIndex((source) => source.key === key && source.item === itemIndex) + 1;
    if (position === 0) position = sources.push({ key, item: itemIndex });
    return `$${position}${casts[Number(index)][itemIndex ?? 0]}`;
  });
  if (text.includes('\uE000')) return null;
  const name = prepared < MAX_PREPARED && !PATTERN_MATCHING.test(text) ? `ff_${++prepared}` : undefined;
  return { text, sources, name };
}

function statementFor(dialect: Dialect, sql: string, replacements: Replacements): Statement | null {
  let bySignature = statements.get(sql);
  if (bySignature === null) return null;
  const keys: string[] = [];
  const lists: boolean[] = [];
  const casts: string[][] = [];
  let signature = '';
  for (const key in replacements) {
    const value = replacements[key];
    const valueCasts = castsOf(value);
    if (valueCasts === null) return null;
    keys.push(key);
    lists.push(Array.isArray(value));
    casts.push(valueCasts);
    signature += Array.isArray(value) ? `${key}[${valueCasts.join(',')}],` : `${key}${valueCasts[0]},`;
  }
  if (!bySignature) {
    if (statements.size >= MAX_TEXTS) statements.clear();
    bySignature = new Map();
    statements.set(sql, bySignature);
  }
  let statement = bySignature.get(signature);
  if (statement === undefined) {
    statement = compile(dialect, sql, keys, lists, casts);
    bySignature.set(signature, statement);
  }
  return statement;
}

/** SQLSTATE classes after which the statement runs again Sequelize's way: 42 (a parameter PostgreSQL cannot type), 22 (data), 0A and 26 (a prepared statement gone stale). */
const RETRY_CLASSES = new Set(['42', '22', '0A', '26']);

interface PooledClient extends pg.Client {
  _invalid?: boolean;
}

/**
 * The rows of a read, through a prepared statement when it can be one; null
 * when this SQL and these replacements are Sequelize's to run (the caller then
 * runs them that way). A PostgreSQL error of the kinds above also answers null,
 * so the statement is retried the way it always ran and fails, if it does,
 * with Sequelize's own error.
 */
export async function readPrepared<T>(sequelize: Sequelize, sql: string, replacements: Replacements): Promise<T[] | null> {
  const statement = statementFor((sequelize as unknown as { dialect: Dialect }).dialect, sql, replacements);
  if (!statement) return null;
  const values = statement.sources.map(({ key, item }) => parameterValue(item === null ? replacements[key] : (replacements[key] as unknown[])[item]));
  const manager = sequelize.connectionManager as unknown as { getConnection(options: { type: string }): Promise<PooledClient>; releaseConnection(client: PooledClient): void };
  const client = await manager.getConnection({ type: 'SELECT' });
  try {
    const result = await client.query<T & pg.QueryResultRow>(statement.name ? { name: statement.name, text: statement.text, values } : { text: statement.text, values });
    return result.rows;
  } catch (error) {
    const code = String((error as { code?: unknown }).code ?? '');
    if (!RETRY_CLASSES.has(code.slice(0, 2))) throw error;
    // PostgreSQL could not type a parameter where a literal has a type (`SELECT :x`): this SQL stays Sequelize's.
    if (code.startsWith('42')) statements.set(sql, null);
    // A stale prepared statement stays in this connection: the pool drops it.
    if (code.startsWith('0A') || code.startsWith('26')) client._invalid = true;
    return null;
  } finally {
    manager.releaseConnection(client);
  }
}
