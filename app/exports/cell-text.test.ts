import { beforeAll, describe, expect, it } from 'vitest';
import type { Analytics } from '../analytics/analytics.server.ts';
import { analyticsCsv } from '../analytics/csv.server.ts';
import { analyticsXlsx } from '../analytics/xlsx.server.ts';
import { getRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import { execute } from '../db.server.ts';
import { resources } from '../i18n.ts';
import { loader as bookLoader } from '../routes/api.exports.book[.]zip.ts';
import { spreadsheetText } from './cell-text.ts';
import { csvField } from './csv.ts';
import { readXlsx } from './test-helpers.server.ts';
import { strFromU8, unzipSync } from 'fflate';
import { createTestUser } from '../../tests/factories.ts';

/**
 * CSV injection (OWASP): every spreadsheet FinFlow writes shows a text that
 * starts like a formula as text, and keeps amounts numbers.
 */
const FORMULAS = ['=HYPERLINK("http://evil.example","klik")', "+cmd|' /C calc'!A0", '-2+3', '@SUM(A1:A9)', '\t=1+1', '\r=1+1'];

describe('spreadsheetText', () => {
  it('puts an apostrophe before a text that starts with =, +, -, @, tab or CR', () => {
    for (const value of FORMULAS) expect(spreadsheetText(value), JSON.stringify(value)).toBe(`'${value}`);
    expect(spreadsheetText('+385 1 2345 678')).toBe("'+385 1 2345 678");
  });

  it('leaves numbers, ordinary text and the empty string as they are', () => {
    for (const value of ['-1234.50', '+5', '-12,5', '1234', '0.00', 'Jadran d.o.o.', 'a=b', ' =x', '']) expect(spreadsheetText(value), value).toBe(value);
  });

  it('applies inside csvField before quoting', () => {
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('=HYPERLINK("a","b")')).toBe(`"'=HYPERLINK(""a"",""b"")"`);
    expect(csvField('-100.25')).toBe('-100.25');
    expect(csvField(null)).toBe('');
  });
});

function analytics(names: string[]): Analytics {
  const row = (companyName: string, index: number) => ({ id: `id-${index}`, companyName, exposure: 1000.5 + index, invoices: 1, share: 10 });
  return {
    period: '30d',
    from: '2026-01-01',
    to: '2026-01-30',
    financingVolume: 1234.5,
    turnover: 0,
    feeIncome: 12,
    financedCount: 1,
    dso: null,
    paidCount: 0,
    openFinanced: 1000,
    // A negative figure must stay a number, not become text.
    overdueAmount: -12.5,
    overdueRate: null,
    defaultAmount: 0,
    defaultRate: null,
    riskDistribution: [{ category: 'low', clients: 1, exposure: 1000 }],
    topClients: names.map(row),
    topCustomers: names.map(row),
    concentration: { clients: { total: 1000, largestShare: 100, hhi: 10000 }, customers: { total: 1000, largestShare: 100, hhi: 10000 } },
    series: [{ start: '2026-01-01', volume: 1000, count: 1 }],
  } as Analytics;
}

function translate(key: string): string {
  const value = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], resources.en.common);
  return typeof value === 'string' ? value : key;
}

describe('the analytics exports', () => {
  it('CSV: client and customer names that look like formulas are text; amounts stay numbers', () => {
    const lines = analyticsCsv(analytics(FORMULAS.slice(0, 4))).split('\r\n');
    expect(lines).toContain(`topClients;"'=HYPERLINK(""http://evil.example"",""klik"")";1000,50;10,0 %`);
    expect(lines).toContain(`topCustomers;'@SUM(A1:A9);1003,50;10,0 %`);
    expect(lines).toContain(`topClients;'-2+3;1002,50;10,0 %`);
    expect(lines).toContain('figures;overdueAmount;-12,50;EUR');
  });

  it('XLSX: the same names are neutralised text cells, amounts numeric cells', () => {
    const workbook = readXlsx(analyticsXlsx(analytics(FORMULAS.slice(0, 4)), translate));
    const texts = workbook.sheets.flatMap((sheet) => [...sheet.cells.values()].filter((cell) => typeof cell.value === 'string').map((cell) => String(cell.value)));
    for (const name of FORMULAS.slice(0, 4)) {
      expect(texts).toContain(`'${name}`);
      expect(texts).not.toContain(name);
    }
    const numbers = workbook.sheets.flatMap((sheet) => [...sheet.cells.values()].filter((cell) => typeof cell.value === 'number').map((cell) => cell.value));
    expect(numbers).toContain(-12.5);
    expect(numbers).toContain(1000.5);
  });
});

describe('the book export', () => {
  let cookie: string;
  beforeAll(async () => {
    cookie = await signedInCookie((await createTestUser({ role: 'admin' })).id);
    await execute(
      `INSERT INTO clients (company_name, oib, city, address, contact_person, phone)
       VALUES (:name, '69435151530', :city, :address, :contact, '+385 1 2345 678')`,
      { name: FORMULAS[0], city: FORMULAS[3], address: FORMULAS[2], contact: FORMULAS[1] },
    );
  });

  it('writes formula-like texts with an apostrophe, in the CSV of their table', async () => {
    const response = await bookLoader({ request: getRequest('/api/exports/book.zip', cookie), params: {}, context: { clientIp: '127.0.0.1' } });
    expect(response.status).toBe(200);
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    const clients = strFromU8(files['clients.csv']);
    expect(clients).toContain(`"'=HYPERLINK(""http://evil.example"",""klik"")"`);
    expect(clients).toContain(`,'@SUM(A1:A9),`);
    expect(clients).toContain(`,'-2+3,`);
    expect(clients).toContain(`,'+cmd|' /C calc'!A0,`);
    expect(clients).toContain(`,'+385 1 2345 678,`);
    // Nothing in any file starts a field with a formula character unless it is a number.
    for (const [name, bytes] of Object.entries(files)) {
      if (!name.endsWith('.csv')) continue;
      expect(strFromU8(bytes), name).not.toMatch(/(^|,|\r\n)"?[=@]/);
    }
  });
});
