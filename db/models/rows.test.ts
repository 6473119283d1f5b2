import { QueryTypes, type Model, type ModelStatic } from 'sequelize';
import { describe, expect, it } from 'vitest';
import { getSequelize } from '../connection.ts';
import { getModels } from './index.ts';

/**
 * What RowOf (rows.ts) rests on, checked at run time: its keys are the
 * columns Sequelize names, and the driver gives the types the models declare.
 */
describe('row types', () => {
  it('names every column as the attribute in snake_case (the key RowOf derives)', () => {
    const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
    for (const model of Object.values(getModels()) as Array<ModelStatic<Model>>) {
      for (const [name, attribute] of Object.entries(model.getAttributes())) {
        expect(attribute.field, `${model.name}.${name}`).toBe(snakeCase(name));
      }
    }
  });

  it('reads NUMERIC and DATE as strings, INT8 and INT4 as numbers, TIMESTAMPTZ as a Date, JSONB parsed', async () => {
    const [row] = await getSequelize().query<Record<string, unknown>>(
      `SELECT 1234.50::numeric(15,2) AS money, '2024-03-01'::date AS day, 9007199254740991::int8 AS big, count(*) AS counted,
              7::int4 AS small, now() AS instant, '{"a":[1]}'::jsonb AS doc, ARRAY['x']::text[] AS list`,
      { type: QueryTypes.SELECT },
    );
    expect(row).toEqual({
      money: '1234.50',
      day: '2024-03-01',
      big: 9007199254740991,
      counted: 1,
      small: 7,
      instant: expect.any(Date),
      doc: { a: [1] },
      list: ['x'],
    });
  });
});
