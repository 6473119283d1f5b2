import { describe, expect, it } from 'vitest';
import { readXlsx } from './test-helpers.server.ts';
import { buildXlsx, columnName, excelDate, XLSX_NUMBER_FORMATS } from './xlsx.server.ts';

describe('the XLSX writer', () => {
  it('escapes every string, keeps blanks and Croatian letters, drops characters XML cannot carry', () => {
    const nasty = `  <Tvrtka & "Sinovi"> d.o.o. 'čćđšž'\u0001  `;
    const workbook = readXlsx(buildXlsx([{ name: `A&B <"list">`, rows: [[nasty, { header: 'x<y' }]] }]));
    expect(workbook.sheets[0].name).toBe(`A&B <"list">`);
    expect(workbook.sheets[0].cells.get('A1')!.value).toBe(`  <Tvrtka & "Sinovi"> d.o.o. 'čćđšž'  `);
    expect(workbook.sheets[0].cells.get('B1')!.value).toBe('x<y');
    expect(workbook.sheets[0].xml).not.toContain('<Tvrtka');
  });

  it('writes numbers as numeric cells with their format, and days as date serials', () => {
    const workbook = readXlsx(
      buildXlsx([
        { name: 'S', rows: [[{ number: 1234567.89, format: 'eur' }, { number: 12.5, format: 'percent' }, { date: '2026-01-01' }, null, { number: 7, format: 'integer' }]] },
      ]),
    );
    const cells = workbook.sheets[0].cells;
    expect(cells.get('A1')).toMatchObject({ value: 1234567.89, format: XLSX_NUMBER_FORMATS.eur });
    expect(cells.get('B1')).toMatchObject({ value: 12.5, format: XLSX_NUMBER_FORMATS.percent });
    expect(cells.get('C1')).toMatchObject({ value: 46023, format: XLSX_NUMBER_FORMATS.date });
    expect(cells.has('D1')).toBe(false);
    expect(cells.get('E1')).toMatchObject({ value: 7, format: '#,##0' });
  });

  it('names columns and dates like Excel', () => {
    expect([0, 25, 26, 27, 701, 702].map(columnName)).toEqual(['A', 'Z', 'AA', 'AB', 'ZZ', 'AAA']);
    expect(excelDate('1900-03-01')).toBe(61);
    expect(excelDate('2026-11-22')).toBe(46348);
    expect(() => excelDate('22.11.2026')).toThrow();
  });

  it('refuses sheet names Excel refuses, and numbers that are not finite', () => {
    expect(() => buildXlsx([{ name: 'a/b', rows: [] }])).toThrow(/invalid sheet name/);
    expect(() => buildXlsx([{ name: 'x'.repeat(32), rows: [] }])).toThrow(/invalid sheet name/);
    expect(() =>
      buildXlsx([
        { name: 'Same', rows: [] },
        { name: 'same', rows: [] },
      ]),
    ).toThrow(/duplicate/);
    expect(() => buildXlsx([{ name: 'S', rows: [[{ number: Number.NaN, format: 'eur' }]] }])).toThrow(/finite/);
  });
});
