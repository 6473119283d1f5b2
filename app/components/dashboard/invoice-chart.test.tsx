import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { type ChartPoint, seriesMarkup, SERIES } from './invoice-chart.tsx';

const dayLabel = (date: string) => `${date.slice(8, 10)}.${date.slice(5, 7)}.`;

/** What the series were as React elements: the string must be this markup, byte for byte. */
function asElements(series: (typeof SERIES)[number], data: ChartPoint[], x: (index: number) => number, y: (value: number) => number, name: string) {
  return renderToStaticMarkup(
    <svg>
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
              <title>{`${dayLabel(point.date)} ${name}: ${point[series.key]}`}</title>
            </circle>
          ))
        : null}
    </svg>,
  ).slice('<svg>'.length, -'</svg>'.length);
}

describe('the invoice chart series', () => {
  const day = (n: number) => `2026-11-${String(n).padStart(2, '0')}`;
  const month = Array.from({ length: 30 }, (_, index) => ({ date: day(index + 1), received: index * 7, processed: (index * 13) % 11, approved: index % 3 }));
  const x = (index: number) => 36 + (index * 592) / 29;
  const y = (value: number) => 12 + 180 - (value / 250) * 180;

  it('is the markup React wrote for the same series, up to a month with a dot per day', () => {
    for (const series of SERIES) {
      for (const data of [month, month.slice(0, 1), []]) expect(seriesMarkup(series, data, x, y, 'Primljeno')).toBe(asElements(series, data, x, y, 'Primljeno'));
    }
    expect(seriesMarkup(SERIES[0], month, x, y, 'Primljeno').match(/<circle /g)).toHaveLength(30);
  });

  it('draws only the line beyond a month, and escapes the series name', () => {
    const quarter = Array.from({ length: 90 }, (_, index) => ({ date: day((index % 28) + 1), received: index, processed: 0, approved: 0 }));
    expect(seriesMarkup(SERIES[0], quarter, x, y, 'x')).toBe(asElements(SERIES[0], quarter, x, y, 'x'));
    expect(seriesMarkup(SERIES[0], quarter, x, y, 'x')).not.toContain('<circle');
    const named = seriesMarkup(SERIES[1], month.slice(0, 2), x, y, `<b>"Obrađeno" & 'x'</b>`);
    expect(named).toBe(asElements(SERIES[1], month.slice(0, 2), x, y, `<b>"Obrađeno" & 'x'</b>`));
    expect(named).not.toContain('<b>');
  });
});
