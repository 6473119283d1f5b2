import type { ReactNode } from 'react';

const WIDTH = 640;
const HEIGHT = 220;

/**
 * The frame of the server-rendered SVG charts (app/components/dashboard/invoice-chart.tsx,
 * app/components/analytics/volume-chart.tsx): plain SVG, so a chart is there without
 * JavaScript and hydrates identically. The axis tops out at a round 1, 2, 5 × 10^n.
 */
export function chartPlot(max: number, padLeft: number) {
  const pad = { left: padLeft, right: 12, top: 12, bottom: 28 };
  const magnitude = 10 ** Math.floor(Math.log10(max));
  const top = [1, 2, 5, 10].map((step) => step * magnitude).find((value) => value >= max) ?? max;
  const plotWidth = WIDTH - pad.left - pad.right;
  const plotHeight = HEIGHT - pad.top - pad.bottom;
  return {
    pad,
    top,
    plotWidth,
    plotHeight,
    /** The baseline of the labels under the plot. */
    labelY: HEIGHT - 8,
    y: (value: number) => pad.top + plotHeight - (value / top) * plotHeight,
  };
}

type ChartPlot = ReturnType<typeof chartPlot>;

/** The figure, the svg named by its summary, the dashed grid at 0, half and top, the series (children) and the caption. */
export function SvgChart({
  plot,
  summary,
  testId,
  data,
  tickLabel,
  caption,
  children,
}: {
  plot: ChartPlot;
  summary: string;
  testId: string;
  /** data-* attributes the tests read (points, totals). */
  data: Record<`data-${string}`, number>;
  tickLabel: (tick: number) => string;
  caption: ReactNode;
  children: ReactNode;
}) {
  const { pad, top, y } = plot;
  return (
    <figure style={{ margin: 0 }}>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width="100%" role="img" aria-label={summary} data-testid={testId} {...data} style={{ display: 'block', maxHeight: 260 }}>
        {[0, top / 2, top].map((tick) => (
          <g key={tick}>
            <line x1={pad.left} x2={WIDTH - pad.right} y1={y(tick)} y2={y(tick)} stroke="var(--gray-a5)" strokeDasharray="3 3" />
            <text x={pad.left - 6} y={y(tick) + 4} textAnchor="end" fontSize="10" fill="var(--gray-11)">
              {tickLabel(tick)}
            </text>
          </g>
        ))}
        {children}
      </svg>
      {caption}
    </figure>
  );
}
