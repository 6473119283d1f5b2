import { useTranslation } from 'react-i18next';

export interface ChartPoint {
  date: string;
  received: number;
  processed: number;
  approved: number;
}

const SERIES = [
  { key: 'received', color: 'var(--blue-9)' },
  { key: 'processed', color: 'var(--amber-9)' },
  { key: 'approved', color: 'var(--green-9)' },
] as const;

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { left: 36, right: 12, top: 12, bottom: 28 };

/** 'DD.MM.' of a YYYY-MM-DD day, the same on server and browser. */
const dayLabel = (date: string) => `${date.slice(8, 10)}.${date.slice(5, 7)}.`;

/**
 * Invoice processing flow (docs/screens.md): three series per day. Plain SVG rendered on
 * the server, so the chart is there without JavaScript and hydrates identically.
 */
export function InvoiceChart({ data }: { data: ChartPoint[] }) {
  const { t } = useTranslation();
  const max = Math.max(1, ...data.flatMap((point) => [point.received, point.processed, point.approved]));
  // A round top for the axis: 1, 2, 5 × 10^n.
  const magnitude = 10 ** Math.floor(Math.log10(max));
  const top = [1, 2, 5, 10].map((step) => step * magnitude).find((value) => value >= max) ?? max;
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const x = (index: number) => PAD.left + (data.length <= 1 ? plotWidth / 2 : (index * plotWidth) / (data.length - 1));
  const y = (value: number) => PAD.top + plotHeight - (value / top) * plotHeight;
  const ticks = [0, top / 2, top];
  const labelEvery = Math.max(1, Math.ceil(data.length / 7));
  const totals = SERIES.map((series) => data.reduce((sum, point) => sum + point[series.key], 0));
  const summary = t('dashboard.chart.summary', { days: data.length, received: totals[0], processed: totals[1], approved: totals[2] });

  return (
    <figure style={{ margin: 0 }}>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        role="img"
        aria-label={summary}
        data-testid="invoice-chart"
        data-days={data.length}
        style={{ display: 'block', maxHeight: 260 }}
      >
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} stroke="var(--gray-a5)" strokeDasharray="3 3" />
            <text x={PAD.left - 6} y={y(tick) + 4} textAnchor="end" fontSize="10" fill="var(--gray-11)">
              {Number.isInteger(tick) ? tick : tick.toFixed(1)}
            </text>
          </g>
        ))}
        {data.map((point, index) =>
          index % labelEvery === 0 || index === data.length - 1 ? (
            <text key={point.date} x={x(index)} y={HEIGHT - 8} textAnchor="middle" fontSize="10" fill="var(--gray-11)">
              {dayLabel(point.date)}
            </text>
          ) : null,
        )}
        {SERIES.map((series) => (
          <g key={series.key} data-series={series.key}>
            <polyline
              fill="none"
              stroke={series.color}
              strokeWidth="2"
              strokeLinejoin="round"
              points={data.map((point, index) => `${x(index).toFixed(1)},${y(point[series.key]).toFixed(1)}`).join(' ')}
            />
            {data.length <= 31
              ? data.map((point, index) => (
                  <circle key={point.date} cx={x(index)} cy={y(point[series.key])} r="2.5" fill={series.color}>
                    <title>{`${dayLabel(point.date)} ${t(`dashboard.chart.${series.key}`)}: ${point[series.key]}`}</title>
                  </circle>
                ))
              : null}
          </g>
        ))}
      </svg>
      <figcaption style={{ display: 'flex', gap: 16, flexWrap: 'wrap', fontSize: 12, marginTop: 4 }}>
        {SERIES.map((series, index) => (
          <span key={series.key} data-testid={`chart-total-${series.key}`} data-total={totals[index]}>
            <span aria-hidden style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 2, background: series.color, marginRight: 4 }} />
            {t(`dashboard.chart.${series.key}`)}: {totals[index]}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
