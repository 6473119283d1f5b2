import { spreadsheetText } from '../exports/cell-text.ts';
import type { Analytics } from './analytics.server.ts';

/**
 * GET /api/analytics/export.csv: the figures /analytics shows for a period,
 * as one CSV file for Excel in Croatia:
 * - UTF-8 with a byte-order mark, so Excel reads č, ć, đ, š, ž right;
 * - semicolon as the separator and a decimal comma (no thousands separator),
 *   which is what Excel expects under the Croatian list and number settings;
 * - CRLF line ends; a field with ; " or a line break is quoted, quotes doubled.
 * Rows are `section;item;value;detail`; the section and item names are stable
 * English identifiers (the same as the JSON field names), amounts in EUR with
 * two decimals, rates in percent with one decimal, an empty value for "none".
 */
export const CSV_SEPARATOR = ';';
export const CSV_BOM = '\uFEFF';

/** Quoted where needed; a text a spreadsheet would run as a formula (a client named '=HYPERLINK(…)') gets a leading apostrophe. */
const quote = (cell: string) => {
  const value = spreadsheetText(cell);
  return /[;"\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
};
/** EUR with two decimals and a decimal comma, no grouping, so a spreadsheet sums it. */
export const csvMoney = (value: number) => value.toFixed(2).replace('.', ',');
const money = csvMoney;
const decimal = (value: number | null) => (value === null ? '' : value.toFixed(1).replace('.', ','));

export function analyticsFileName(data: Analytics): string {
  return `finflow-analytics-${data.period}-${data.to}.csv`;
}

export function analyticsCsv(data: Analytics): string {
  const rows: string[][] = [['section', 'item', 'value', 'detail']];
  const add = (...cells: string[]) => rows.push(cells);
  add('period', 'period', data.period, '');
  add('period', 'from', data.from, '');
  add('period', 'to', data.to, '');
  add('figures', 'financingVolume', money(data.financingVolume), 'EUR');
  add('figures', 'turnover', money(data.turnover), 'EUR');
  add('figures', 'feeIncome', money(data.feeIncome), 'EUR');
  add('figures', 'financedCount', String(data.financedCount), '');
  add('figures', 'dso', decimal(data.dso), 'days');
  add('figures', 'paidCount', String(data.paidCount), '');
  add('figures', 'openFinanced', money(data.openFinanced), 'EUR');
  add('figures', 'overdueAmount', money(data.overdueAmount), 'EUR');
  add('figures', 'overdueRate', decimal(data.overdueRate), '%');
  add('figures', 'defaultAmount', money(data.defaultAmount), 'EUR');
  add('figures', 'defaultRate', decimal(data.defaultRate), '%');
  for (const row of data.riskDistribution) {
    add('riskDistribution', `${row.category}.clients`, String(row.clients), '');
    add('riskDistribution', `${row.category}.exposure`, money(row.exposure), 'EUR');
  }
  for (const [kind, value] of Object.entries(data.concentration)) {
    add('concentration', `${kind}.totalExposure`, money(value.total), 'EUR');
    add('concentration', `${kind}.largestShare`, decimal(value.largestShare), '%');
    add('concentration', `${kind}.hhi`, decimal(value.hhi), '');
  }
  for (const row of data.topClients) add('topClients', row.companyName, money(row.exposure), `${decimal(row.share)} %`);
  for (const row of data.topCustomers) add('topCustomers', row.companyName, money(row.exposure), `${decimal(row.share)} %`);
  for (const point of data.series) add('series', point.start, money(point.volume), String(point.count));
  return csvDocument(rows);
}

/** The file: BOM, quoted cells separated by semicolons, CRLF after every row. */
export function csvDocument(rows: string[][]): string {
  return CSV_BOM + rows.map((cells) => cells.map(quote).join(CSV_SEPARATOR)).join('\r\n') + '\r\n';
}
