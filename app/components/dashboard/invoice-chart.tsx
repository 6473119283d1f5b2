import { useTranslation } from 'react-i18next';
import { escapeHtml } from '~/components/kit/light.tsx';
import { chartPlot, SvgChart } from '~/components/kit/svg-chart.tsx';

export interface ChartPoint {
  date: string;
  received: number;
  processed: number;
  approved: number;
}

export const SERIES = [
  { key: 'received', color: 'var(--blue-9)' },
  { key: 'processed', color: 'var(--amber-9)' },
  { key: 'approved', color: 'var(--green-9)' },
] as const;

/** 'DD.MM.' of a YYYY-MM-DD day, the same on server and browser. */
const dayLabel = (date: string) => `${date.slice(8, 10)}.${date.slice(5, 7)}.`;

/**
 * A series' line and, up to a month, a dot per day with its figure as a tooltip — written as one string
 * of SVG: a month's three series are ~180 elements, which React would render one by one on every
 * dashboard (invoice-chart.test.tsx compares it with the same markup written as elements).
 */
export function seriesMarkup(series: (typeof SERIES)[number], data: ChartPoint[], x: (index: number) => number, y: (value: number) => number, name: string): string {
  const points = data.map((point, index) => `${x(index).toFixed(1)},${y(point[series.key]).toFixed(1)}`).join(' ');
  let markup = `<polyline fill="none" stroke="${series.color}" stroke-width="2" stroke-linejoin="round" points="${points}"></polyline>`;
  if (data.length <= 31) {
    data.forEach((point, index) => {
      const title = escapeHtml(`${dayLabel(point.date)} ${name}: ${point[series.key]}`);
      markup += `<circle cx="${x(index)}" cy="${y(point[series.key])}" r="2.5" fill="${series.color}"><title>${title}</title></circle>`;
    });
  }
  return markup;
}

/** Invoice processing flow (docs/screens.md): three series per day, as lines. */
export function InvoiceChart({ data }: { data: ChartPoint[] }) {
  const { t } = useTranslation();
  const plot = chartPlot(Math.max(1, ...data.flatMap((point) => [point.received, point.processed, point.approved])), 36);
  const { y } = plot;
  const x = (index: number) => plot.pad.left + (data.length <= 1 ? plot.plotWidth / 2 : (index * plot.plotWidth) / (data.length - 1));
  const labelEvery = Math.max(1, Math.ceil(data.length / 7));
  const totals = SERIES.map((series) => data.reduce((sum, point) => sum + point[series.key], 0));
  const summary = t('dashboard.chart.summary', { days: data.length, received: totals[0], processed: totals[1], approved: totals[2] });

  return (
    <SvgChart
      plot={plot}
      summary={summary}
      testId="invoice-chart"
      data={{ 'data-days': data.length }}
      tickLabel={(tick) => (Number.isInteger(tick) ? String(tick) : tick.toFixed(1))}
      caption={
        <figcaption style={{ display: 'flex', gap: 16, flexWrap: 'wrap', fontSize: 12, marginTop: 4 }}>
          {SERIES.map((series, index) => (
            <span key={series.key} data-testid={`chart-total-${series.key}`} data-total={totals[index]}>
              <span aria-hidden style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 2, background: series.color, marginRight: 4 }} />
              {t(`dashboard.chart.${series.key}`)}: {totals[index]}
            </span>
          ))}
        </figcaption>
      }
    >
      {data.map((point, index) =>
        index % labelEvery === 0 || index === data.length - 1 ? (
          <text key={point.date} x={x(index)} y={plot.labelY} textAnchor="middle" fontSize="10" fill="var(--gray-11)">
            {dayLabel(point.date)}
          </text>
        ) : null,
      )}
      {SERIES.map((series) => (
        <g key={series.key} data-series={series.key} dangerouslySetInnerHTML={{ __html: seriesMarkup(series, data, x, y, t(`dashboard.chart.${series.key}`)) }} />
      ))}
    </SvgChart>
  );
}
