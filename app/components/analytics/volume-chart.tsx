import { useTranslation } from 'react-i18next';
import type { SeriesPoint } from '~/analytics/analytics.server.ts';
import { chartPlot, SvgChart } from '~/components/kit/svg-chart.tsx';
import { formatEur } from '~/utils/format.ts';

/** 'DD.MM.' of a YYYY-MM-DD day, or 'MM.YYYY.' for a month bucket; the same on server and browser. */
const label = (start: string, unit: 'day' | 'week' | 'month') => (unit === 'month' ? `${start.slice(5, 7)}.${start.slice(0, 4)}.` : `${start.slice(8, 10)}.${start.slice(5, 7)}.`);

const compact = new Intl.NumberFormat('hr-HR', { notation: 'compact', maximumFractionDigits: 1 });

/** Financing volume per bucket as bars, on the dashboard chart's frame. */
export function VolumeChart({ data, unit }: { data: SeriesPoint[]; unit: 'day' | 'week' | 'month' }) {
  const { t } = useTranslation();
  const plot = chartPlot(Math.max(1, ...data.map((point) => point.volume)), 56);
  const { y } = plot;
  const slot = plot.plotWidth / Math.max(1, data.length);
  const barWidth = Math.max(2, slot * 0.7);
  const labelEvery = Math.max(1, Math.ceil(data.length / 8));
  const totalCents = data.reduce((sum, point) => sum + Math.round(point.volume * 100), 0);
  const summary = t('analytics.chart.summary', { unit: t(`analytics.chart.${unit}`), count: data.length, total: formatEur(totalCents / 100) });

  return (
    <SvgChart
      plot={plot}
      summary={summary}
      testId="analytics-chart"
      data={{ 'data-points': data.length, 'data-total': totalCents / 100 }}
      tickLabel={(tick) => compact.format(tick)}
      caption={<figcaption style={{ fontSize: 12, marginTop: 4 }}>{summary}</figcaption>}
    >
      {data.map((point, index) => {
        const x = plot.pad.left + index * slot + (slot - barWidth) / 2;
        return (
          <g key={point.start}>
            <rect x={x} y={y(point.volume)} width={barWidth} height={plot.pad.top + plot.plotHeight - y(point.volume)} fill="var(--blue-9)" rx="1">
              <title>{`${label(point.start, unit)} ${formatEur(point.volume)} (${point.count})`}</title>
            </rect>
            {index % labelEvery === 0 ? (
              <text x={x + barWidth / 2} y={plot.labelY} textAnchor="middle" fontSize="10" fill="var(--gray-11)">
                {label(point.start, unit)}
              </text>
            ) : null}
          </g>
        );
      })}
    </SvgChart>
  );
}
