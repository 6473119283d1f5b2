import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectOne, selectRows } from '../app/db.server.ts';
import { closeSequelize, getSequelize } from './connection.ts';

/**
 * A read outside a transaction runs as a prepared statement (db/statements.ts):
 * whatever it runs as, it answers what Sequelize's literal SQL answers, and
 * refuses what that refuses.
 */
const literal = <T extends object>(sql: string, replacements: Record<string, unknown>) => getSequelize().query<T>(sql, { replacements, type: QueryTypes.SELECT });

/** The statements PostgreSQL holds prepared for this database, over all connections of the pool (each asks its own). */
async function preparedTexts(): Promise<string[]> {
  const texts = new Set<string>();
  const manager = getSequelize().connectionManager as unknown as {
    getConnection(o: object): Promise<{ query(q: string): Promise<{ rows: Array<{ statement: string }> }> }>;
    releaseConnection(c: unknown): void;
  };
  const client = await manager.getConnection({ type: 'SELECT' });
  try {
    for (const row of (await client.query('SELECT statement FROM pg_prepared_statements')).rows) texts.add(row.statement);
  } finally {
    manager.releaseConnection(client);
  }
  return [...texts];
}

describe('reads as prepared statements', () => {
  beforeAll(async () => {
    // One connection, so that what it has prepared is what every read used.
    await closeSequelize();
    process.env.DB_POOL_MAX = '1';
  });
  afterAll(async () => {
    await closeSequelize();
    delete process.env.DB_POOL_MAX;
  });

  it('answers what the literal SQL answers, value for value and type for type', async () => {
    const sql = `SELECT :small AS small, :large AS large, :fraction AS fraction, :flag AS flag, :small + 1 AS next, :fraction * 2 AS doubled,
                        CASE WHEN :flag THEN :small ELSE 0 END AS chosen, length(:text || 'x') AS text_length, :text = 'a''b' AS quoted,
                        coalesce(:nothing, 'none') AS fallback, CAST(:day AS date) AS day, ':notAName' AS in_string, 7::int AS cast_kept -- :comment
                 WHERE :small = :small`;
    const replacements = { small: 41, large: 5_000_000_000, fraction: 2.5, flag: true, text: "a'b", nothing: null, day: '2026-11-29', comment: 'unused' };
    const prepared = await selectRows(sql, replacements);
    expect(prepared).toEqual(await literal(sql, replacements));
    expect(prepared[0]).toMatchObject({ small: 41, large: 5_000_000_000, fraction: '2.5', flag: true, next: 42, doubled: '5.0', chosen: 41, text_length: 4, quoted: true });
    expect(prepared[0]).toMatchObject({ fallback: 'none', day: '2026-11-29', in_string: ':notAName', cast_kept: 7 });
  });

  it('prepares a statement once and uses it again; a pattern search is not prepared', async () => {
    const sql = 'SELECT id, email FROM users WHERE email = :email AND is_active = :active';
    expect(await selectRows(sql, { email: 'nobody@example.test', active: true })).toEqual([]);
    expect(await selectOne(sql, { email: 'nobody@example.test', active: true })).toBeNull();
    const like = "SELECT id FROM users WHERE email ILIKE '%' || :q || '%'";
    expect(await selectRows(like, { q: 'nobody' })).toEqual([]);
    const texts = await preparedTexts();
    expect(texts.filter((text) => text.startsWith('SELECT id, email FROM users WHERE email = $1 AND is_active = $2::boolean'))).toHaveLength(1);
    expect(texts.some((text) => text.includes('ILIKE'))).toBe(false);
  });

  it('writes a NUL in a string as Sequelize does, instead of failing', async () => {
    const sql = 'SELECT :text AS text, length(:text) AS n WHERE :text IS NOT NULL';
    expect(await selectRows(sql, { text: 'a\u0000b' })).toEqual(await literal(sql, { text: 'a\u0000b' }));
    expect((await selectOne<{ text: string }>('SELECT CAST(:text AS text) AS text', { text: 'a\u0000b' }))?.text).toBe('a\\0b');
  });

  it('reads a list as one parameter per item, as Sequelize writes one literal per item', async () => {
    const sql = 'SELECT x FROM unnest(ARRAY[1, 2, 3]) AS x WHERE x IN (:xs) AND x::text IN (:texts) ORDER BY x';
    expect(await selectRows(sql, { xs: [1, 3], texts: ['1', '2', '3'] })).toEqual([{ x: 1 }, { x: 3 }]);
    expect(await selectRows(sql, { xs: [2], texts: ['2'] })).toEqual([{ x: 2 }]);
    expect((await preparedTexts()).filter((text) => text.startsWith('SELECT x FROM unnest'))).toEqual(
      expect.arrayContaining([
        'SELECT x FROM unnest(ARRAY[1, 2, 3]) AS x WHERE x IN ($1::int4, $2::int4) AND x::text IN ($3, $4, $5) ORDER BY x',
        'SELECT x FROM unnest(ARRAY[1, 2, 3]) AS x WHERE x IN ($1::int4) AND x::text IN ($2) ORDER BY x',
      ]),
    );
    // An empty list is refused as Sequelize refuses it (`IN ()`).
    await expect(selectRows(sql, { xs: [], texts: ['1'] })).rejects.toMatchObject({ name: 'SequelizeDatabaseError', parent: { code: '42601' } });
  });

  it('leaves to Sequelize what a parameter cannot carry: dates, a parameter PostgreSQL cannot type', async () => {
    const at = new Date('2026-11-29T10:00:00Z');
    expect(await selectOne('SELECT CAST(:at AS timestamptz) = :at AS same', { at })).toEqual({ same: true });
    // Untyped, `:label` is a parameter PostgreSQL cannot type; as a literal it is text. Twice: the second time goes straight to Sequelize.
    for (let i = 0; i < 2; i++) expect(await selectOne('SELECT :label AS label', { label: 'abc' })).toEqual({ label: 'abc' });
  });

  it("refuses what the literal SQL refuses, with Sequelize's error", async () => {
    await expect(selectRows('SELECT id FROM users WHERE id = :id', { id: 'not-a-uuid' })).rejects.toMatchObject({ name: 'SequelizeDatabaseError', parent: { code: '22P02' } });
    await expect(selectRows('SELECT id FROM users WHERE id = :id', {})).rejects.toThrow(/:id/);
    await expect(selectRows('SELECT no_such_column FROM users WHERE id = :id', { id: '00000000-0000-0000-0000-000000000000' })).rejects.toMatchObject({
      name: 'SequelizeDatabaseError',
      parent: { code: '42703' },
    });
  });
});
