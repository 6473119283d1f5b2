import { useTranslation } from 'react-i18next';
import type { SeriesPoint } from '~/analytics/analytics.server.ts';
import { formatEur } from '~/utils/format.ts';

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { left: 56, right: 12, top: 12, bottom: 28 };

/** 'DD.MM.' of a YYYY-MM-DD day, or 'MM.YYYY.' for a month bucket; the same on server and browser. */
const label = (start: string, unit: 'day' | 'week' | 'month') =>
  unit === 'month' ? `${start.slice(5, 7)}.${start.slice(0, 4)}.` : `${start.slice(8, 10)}.${start.slice(5, 7)}.`;

/** A round top for the axis: 1, 2, 5 × 10^n. */
function roundTop(max: number) {
  const magnitude = 10 ** Math.floor(Math.log10(max));
  return [1, 2, 5, 10].map((step) => step * magnitude).find((value) => value >= max) ?? max;
}

const compact = new Intl.NumberFormat('hr-HR', { notation: 'compact', maximumFractionDigits: 1 });

/**
 * Financing volume per bucket as bars: plain SVG rendered on the server (like
 * the dashboard's invoice chart), so it is there without JavaScript.
 */
export function VolumeChart({ data, unit }: { data: SeriesPoint[]; unit: 'day' | 'week' | 'month' }) {
  const { t } = useTranslation();
  const top = roundTop(Math.max(1, ...data.map((point) => point.volume)));
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / Math.max(1, data.length);
  const barWidth = Math.max(2, slot * 0.7);
  const y = (value: number) => PAD.top + plotHeight - (value / top) * plotHeight;
  const labelEvery = Math.max(1, Math.ceil(data.length / 8));
  const totalCents = data.reduce((sum, point) => sum + Math.round(point.volume * 100), 0);
  const summary = t('analytics.chart.summary', { unit: t(`analytics.chart.${unit}`), count: data.length, total: formatEur(totalCents / 100) });

  return (
    <figure style={{ margin: 0 }}>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        role="img"
        aria-label={summary}
        data-testid="analytics-chart"
        data-points={data.length}
        data-total={totalCents / 100}
        style={{ display: 'block', maxHeight: 260 }}
      >
        {[0, top / 2, top].map((tick) => (
          <g key={tick}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} stroke="var(--gray-a5)" strokeDasharray="3 3" />
            <text x={PAD.left - 6} y={y(tick) + 4} textAnchor="end" fontSize="10" fill="var(--gray-11)">
              {compact.format(tick)}
            </text>
          </g>
        ))}
        {data.map((point, index) => {
          const x = PAD.left + index * slot + (slot - barWidth) / 2;
          return (
            <g key={point.start}>
              <rect x={x} y={y(point.volume)} width={barWidth} height={PAD.top + plotHeight - y(point.volume)} fill="var(--blue-9)" rx="1">
                <title>{`${label(point.start, unit)} ${formatEur(point.volume)} (${point.count})`}</title>
              </rect>
              {index % labelEvery === 0 ? (
                <text x={x + barWidth / 2} y={HEIGHT - 8} textAnchor="middle" fontSize="10" fill="var(--gray-11)">
                  {label(point.start, unit)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption style={{ fontSize: 12, marginTop: 4 }}>{summary}</figcaption>
    </figure>
  );
}
