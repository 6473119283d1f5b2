import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../db/seed/demo.ts';
import { getSequelize } from '../../db/connection.ts';
import { getRequest, signedInCookie } from '../auth/test-helpers.server.ts';
import { dayOfSerial, readXlsx, type ReadSheet } from '../exports/test-helpers.server.ts';
import { XLSX_CONTENT_TYPE, XLSX_NUMBER_FORMATS } from '../exports/xlsx.server.ts';
import { LANGUAGE_KEY } from '../i18n.ts';
import { loader as xlsxLoader } from '../routes/api.analytics.export[.]xlsx.ts';
import { analyticsFor, type Analytics } from './analytics.server.ts';
import { createTestUser } from '../../tests/factories.ts';

/**
 * The workbook is read back independently (unzipped, XML parsed) and every
 * cell compared with the figures of GET /api/analytics for the same period.
 */
const now = new Date();
let cookie: string;

beforeAll(async () => {
  await seedDemo(getSequelize(), { now });
  cookie = await signedInCookie((await createTestUser({ role: 'user' })).id);
}, 180_000);

async function download(period: string, extraCookie = '') {
  const response = await xlsxLoader({ request: getRequest(`/api/analytics/export.xlsx?period=${period}`, `${cookie}${extraCookie}`), params: {}, context: {} });
  return { response, workbook: readXlsx(new Uint8Array(await response.arrayBuffer())) };
}

const EUR = XLSX_NUMBER_FORMATS.eur;
const text = (sheet: ReadSheet, ref: string) => sheet.cells.get(ref)?.value;
const number = (sheet: ReadSheet, ref: string, format: string) => {
  const cell = sheet.cells.get(ref);
  expect(cell, `${sheet.name}!${ref}`).toBeDefined();
  expect(cell!.format, `${sheet.name}!${ref} format`).toBe(format);
  expect(typeof cell!.value, `${sheet.name}!${ref} is numeric`).toBe('number');
  return cell!.value;
};

describe.each(['7d', '90d'])('GET /api/analytics/export.xlsx?period=%s', (period) => {
  let data: Analytics;
  let workbook: ReturnType<typeof readXlsx>;
  let response: Response;

  beforeAll(async () => {
    ({ response, workbook } = await download(period));
    data = await analyticsFor({ period: period as Analytics['period'], now: new Date() });
  });

  it('is an XLSX download named after the period, with the six section sheets', () => {
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe(XLSX_CONTENT_TYPE);
    expect(response.headers.get('Content-Disposition')).toBe(`attachment; filename="finflow-analytics-${period}-${data.to}.xlsx"`);
    expect(workbook.files).toEqual(
      expect.arrayContaining(['[Content_Types].xml', '_rels/.rels', 'xl/workbook.xml', 'xl/_rels/workbook.xml.rels', 'xl/styles.xml', 'xl/worksheets/sheet1.xml']),
    );
    expect(workbook.sheets.map((sheet) => sheet.name)).toEqual(['Summary', 'Risk', 'Concentration', 'Top clients', 'Top customers', 'Financing']);
  });

  it('the summary has the period as dates and every figure as a numeric cell', () => {
    const summary = workbook.sheets[0];
    expect(text(summary, 'B2')).toBe(period === '7d' ? '7 days' : '90 days');
    expect(summary.cells.get('B3')!.format).toBe(XLSX_NUMBER_FORMATS.date);
    expect(dayOfSerial(number(summary, 'B3', XLSX_NUMBER_FORMATS.date) as number)).toBe(data.from);
    expect(dayOfSerial(number(summary, 'B4', XLSX_NUMBER_FORMATS.date) as number)).toBe(data.to);
    const rows: Array<[label: string, value: number | null, format: string]> = [
      ['Financing volume', data.financingVolume, EUR],
      ['Turnover', data.turnover, EUR],
      ['Fee income', data.feeIncome, EUR],
      ['Invoices financed', data.financedCount, XLSX_NUMBER_FORMATS.integer],
      ['Average days to payment (DSO)', data.dso, XLSX_NUMBER_FORMATS.decimal],
      ['Invoices paid', data.paidCount, XLSX_NUMBER_FORMATS.integer],
      ['Open advances', data.openFinanced, EUR],
      ['Overdue advances', data.overdueAmount, EUR],
      ['Overdue rate', data.overdueRate, XLSX_NUMBER_FORMATS.percent],
      ['Defaulted advances', data.defaultAmount, EUR],
      ['Default rate', data.defaultRate, XLSX_NUMBER_FORMATS.percent],
    ];
    expect(data.financingVolume).toBeGreaterThan(0);
    rows.forEach(([label, value, format], index) => {
      const row = 7 + index;
      expect(text(summary, `A${row}`)).toBe(label);
      if (value === null) expect(summary.cells.has(`B${row}`)).toBe(false);
      else expect(number(summary, `B${row}`, format)).toBe(value);
    });
  });

  it('risk, concentration and the top lists equal their figures', () => {
    const [, risk, concentration, topClients, topCustomers] = workbook.sheets;
    data.riskDistribution.forEach((row, index) => {
      expect(number(risk, `B${index + 2}`, XLSX_NUMBER_FORMATS.integer)).toBe(row.clients);
      expect(number(risk, `C${index + 2}`, EUR)).toBe(row.exposure);
    });
    expect(text(risk, 'A2')).toBe('Low risk');
    expect(number(concentration, 'B2', EUR)).toBe(data.concentration.clients.total);
    expect(number(concentration, 'C2', EUR)).toBe(data.concentration.customers.total);
    expect(number(concentration, 'B3', XLSX_NUMBER_FORMATS.percent)).toBe(data.concentration.clients.largestShare);
    expect(number(concentration, 'C4', XLSX_NUMBER_FORMATS.decimal)).toBe(data.concentration.customers.hhi);
    for (const [sheet, rows] of [
      [topClients, data.topClients],
      [topCustomers, data.topCustomers],
    ] as const) {
      expect(rows.length).toBeGreaterThan(0);
      expect(sheet.cells.has(`A${rows.length + 2}`)).toBe(false);
      rows.forEach((row, index) => {
        expect(text(sheet, `A${index + 2}`)).toBe(row.companyName);
        expect(number(sheet, `B${index + 2}`, XLSX_NUMBER_FORMATS.integer)).toBe(row.invoices);
        expect(number(sheet, `C${index + 2}`, EUR)).toBe(row.exposure);
        expect(number(sheet, `D${index + 2}`, XLSX_NUMBER_FORMATS.percent)).toBe(row.share);
      });
    }
  });

  it('the series sheet has one dated row per chart point, adding up to the volume', () => {
    const series = workbook.sheets[5];
    expect(data.series.length).toBeGreaterThan(0);
    expect(series.cells.has(`A${data.series.length + 2}`)).toBe(false);
    let cents = 0;
    data.series.forEach((point, index) => {
      expect(dayOfSerial(number(series, `A${index + 2}`, XLSX_NUMBER_FORMATS.date) as number)).toBe(point.start);
      const volume = number(series, `B${index + 2}`, EUR) as number;
      expect(volume).toBe(point.volume);
      cents += Math.round(volume * 100);
      expect(number(series, `C${index + 2}`, XLSX_NUMBER_FORMATS.integer)).toBe(point.count);
    });
    expect(cents).toBe(Math.round(data.financingVolume * 100));
  });
});

describe('the XLSX export', () => {
  it('is labelled in Croatian for a reader who chose it', async () => {
    const { workbook } = await download('30d', `; ${LANGUAGE_KEY}=hr`);
    expect(workbook.sheets.map((sheet) => sheet.name)).toEqual(['Sažetak', 'Rizik', 'Koncentracija', 'Najveći klijenti', 'Najveći kupci', 'Financiranje']);
    expect(text(workbook.sheets[0], 'A7')).toBe('Volumen financiranja');
  });

  it('refuses an unknown period and a visitor who is not signed in', async () => {
    const bad = await xlsxLoader({ request: getRequest('/api/analytics/export.xlsx?period=2y', cookie), params: {}, context: {} }).catch((error: unknown) => error as Response);
    expect(bad.status).toBe(400);
    const anonymous = await xlsxLoader({ request: getRequest('/api/analytics/export.xlsx?period=30d'), params: {}, context: {} }).catch((error: unknown) => error as Response);
    expect(anonymous.status).toBe(401);
  });
});
