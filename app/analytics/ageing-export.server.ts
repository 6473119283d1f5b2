import { buildXlsx, type XlsxSheet } from '../exports/xlsx.server.ts';
import type { AgeingAmounts, AgeingReport } from './ageing.server.ts';
import { AGEING_BUCKETS } from './ageing.ts';
import { csvDocument, csvMoney } from './csv.server.ts';
import { eur, header, integer, type Translate } from './xlsx.server.ts';

/**
 * The ageing report as files (GET /api/analytics/ageing/export.csv|xlsx): every
 * row of the report, not one page, the buckets as columns, the totals last.
 * The CSV is the analytics CSV's format (csv.server.ts: BOM, semicolons,
 * decimal comma, stable English column names); the workbook one sheet in the
 * reader's language with numeric EUR cells, so Excel sums them to the cent.
 */

export function ageingFileName(report: AgeingReport, extension: 'csv' | 'xlsx'): string {
  return `finflow-ageing-${report.by}-${report.asOf}.${extension}`;
}

const amountCells = (amounts: AgeingAmounts) => [...AGEING_BUCKETS.map((bucket) => amounts[bucket]), amounts.total];

export function ageingCsv(report: AgeingReport): string {
  const rows: string[][] = [['asOf', 'by', 'id', 'name', 'oib', ...AGEING_BUCKETS, 'total', 'invoices']];
  for (const row of report.rows) rows.push([report.asOf, report.by, row.id, row.name, row.oib, ...amountCells(row).map(csvMoney), String(row.invoices)]);
  rows.push([report.asOf, report.by, '', 'total', '', ...amountCells(report.totals).map(csvMoney), String(report.totals.invoices)]);
  return csvDocument(rows);
}

export function ageingXlsx(report: AgeingReport, t: Translate): Uint8Array<ArrayBuffer> {
  const sheet: XlsxSheet = {
    name: t('analytics.ageing.title'),
    widths: [40, 14, ...AGEING_BUCKETS.map(() => 18), 20, 10],
    rows: [
      [header(t('analytics.ageing.title'))],
      [t('analytics.ageing.asOf'), { date: report.asOf }],
      [t('analytics.ageing.byLabel'), t(`analytics.ageing.by.${report.by}`)],
      [],
      [
        header(t(`analytics.ageing.party.${report.by}`)),
        header(t('analytics.ageing.oib')),
        ...AGEING_BUCKETS.map((bucket) => header(t(`analytics.ageing.buckets.${bucket}`))),
        header(t('analytics.ageing.total')),
        header(t('analytics.ageing.invoices')),
      ],
      ...report.rows.map((row) => [row.name, row.oib, ...amountCells(row).map(eur), integer(row.invoices)]),
      [header(t('analytics.ageing.totalRow')), null, ...amountCells(report.totals).map(eur), integer(report.totals.invoices)],
    ],
  };
  return buildXlsx([sheet]);
}
