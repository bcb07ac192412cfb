import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface TrendSeries {
  label: string;
  values: number[];
  /** A CSS colour or variable, e.g. 'var(--color-accent)'. */
  color: string;
}

interface TrendChartProps {
  /** Day starts, as ISO dates (YYYY-MM-DD). */
  dates: string[];
  series: TrendSeries[];
  /** What the chart shows, for people who cannot see it (the table below carries the numbers). */
  label: string;
  height?: number;
}

/** Resolves `var(--x)` against the page, since the canvas cannot. */
function cssColor(value: string, element: Element): string {
  const variable = /^var\((--[\w-]+)\)$/.exec(value)?.[1];
  return variable ? getComputedStyle(element).getPropertyValue(variable).trim() || '#3b82f6' : value;
}

/** A small line chart of daily figures (uPlot: a few tens of kilobytes, canvas, fast). */
export function TrendChart({ dates, series, label, height = 240 }: TrendChartProps) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const muted = cssColor('var(--color-text-muted)', element);
    const grid = cssColor('var(--color-border)', element);
    const axis = { stroke: muted, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const plot = new uPlot(
      {
        width: Math.max(280, element.clientWidth),
        height,
        scales: { x: { time: true } },
        axes: [axis, { ...axis, values: (_u, ticks) => ticks.map((tick) => (Number.isInteger(tick) ? String(tick) : '')) }],
        series: [{}, ...series.map((line) => ({ label: line.label, stroke: cssColor(line.color, element), width: 2, points: { show: dates.length <= 31 } }))],
        legend: { show: true },
        cursor: { drag: { x: false, y: false } },
      },
      [dates.map((date) => Date.parse(`${date}T00:00:00Z`) / 1000), ...series.map((line) => line.values)],
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(280, element.clientWidth), height }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [dates, series, height]);

  return <div ref={container} className="staff-chart" role="img" aria-label={label} />;
}
