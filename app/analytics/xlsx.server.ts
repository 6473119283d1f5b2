import { buildXlsx, type XlsxCell, type XlsxSheet } from '../exports/xlsx.server.ts';
import type { Analytics } from './analytics.server.ts';

/**
 * GET /api/analytics/export.xlsx: the same figures and sections as the CSV
 * (csv.server.ts), as a workbook of one sheet per section, labelled in the
 * reader's language. Amounts are numeric cells in EUR, rates numeric percent
 * cells, counts integers, days dates, so Excel can sum and chart them.
 */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

export const eur = (value: number): XlsxCell => ({ number: value, format: 'eur' });
export const integer = (value: number): XlsxCell => ({ number: value, format: 'integer' });
const decimal = (value: number | null): XlsxCell => (value === null ? null : { number: value, format: 'decimal' });
const percent = (value: number | null): XlsxCell => (value === null ? null : { number: value, format: 'percent' });
export const header = (text: string): XlsxCell => ({ header: text });

export function analyticsXlsxFileName(data: Analytics): string {
  return `finflow-analytics-${data.period}-${data.to}.xlsx`;
}

export function analyticsXlsxSheets(data: Analytics, t: Translate): XlsxSheet[] {
  const summary: XlsxSheet = {
    name: t('analytics.xlsx.sheets.summary'),
    widths: [40, 20],
    rows: [
      [header(t('analytics.title'))],
      [t('analytics.xlsx.period'), t(`analytics.periods.${data.period}`)],
      [t('analytics.xlsx.from'), { date: data.from }],
      [t('analytics.xlsx.to'), { date: data.to }],
      [],
      [header(t('analytics.xlsx.figure')), header(t('analytics.xlsx.value'))],
      [t('analytics.cards.financingVolume'), eur(data.financingVolume)],
      [t('analytics.cards.turnover'), eur(data.turnover)],
      [t('analytics.cards.feeIncome'), eur(data.feeIncome)],
      [t('analytics.xlsx.financedCount'), integer(data.financedCount)],
      [t('analytics.cards.dso'), decimal(data.dso)],
      [t('analytics.xlsx.paidCount'), integer(data.paidCount)],
      [t('analytics.financial.openFinanced'), eur(data.openFinanced)],
      [t('analytics.financial.overdueAmount'), eur(data.overdueAmount)],
      [t('analytics.cards.overdueRate'), percent(data.overdueRate)],
      [t('analytics.financial.defaultAmount'), eur(data.defaultAmount)],
      [t('analytics.cards.defaultRate'), percent(data.defaultRate)],
    ],
  };
  const risk: XlsxSheet = {
    name: t('analytics.xlsx.sheets.risk'),
    widths: [24, 12, 20],
    rows: [
      [header(t('analytics.risk.category')), header(t('analytics.risk.clients')), header(t('analytics.risk.exposure'))],
      ...data.riskDistribution.map((row) => [t(`analytics.risk.${row.category}`), integer(row.clients), eur(row.exposure)]),
    ],
  };
  const { clients, customers } = data.concentration;
  const concentration: XlsxSheet = {
    name: t('analytics.xlsx.sheets.concentration'),
    widths: [34, 20, 20],
    rows: [
      [null, header(t('analytics.concentration.clients')), header(t('analytics.concentration.customers'))],
      [t('analytics.concentration.total'), eur(clients.total), eur(customers.total)],
      [t('analytics.concentration.largestShare'), percent(clients.largestShare), percent(customers.largestShare)],
      [t('analytics.concentration.hhi'), decimal(clients.hhi), decimal(customers.hhi)],
    ],
  };
  const top = (name: string, rows: Analytics['topClients']): XlsxSheet => ({
    name,
    widths: [40, 10, 20, 10],
    rows: [
      [header(t('analytics.top.name')), header(t('analytics.top.invoices')), header(t('analytics.top.exposure')), header(t('analytics.top.share'))],
      ...rows.map((row) => [row.companyName, integer(row.invoices), eur(row.exposure), percent(row.share)]),
    ],
  });
  const series: XlsxSheet = {
    name: t('analytics.xlsx.sheets.series'),
    widths: [14, 20, 10],
    rows: [
      [header(t('analytics.performance.start')), header(t('analytics.performance.volume')), header(t('analytics.performance.count'))],
      ...data.series.map((point) => [{ date: point.start }, eur(point.volume), integer(point.count)]),
    ],
  };
  return [summary, risk, concentration, top(t('analytics.xlsx.sheets.topClients'), data.topClients), top(t('analytics.xlsx.sheets.topCustomers'), data.topCustomers), series];
}

export function analyticsXlsx(data: Analytics, t: Translate): Uint8Array<ArrayBuffer> {
  return buildXlsx(analyticsXlsxSheets(data, t));
}
