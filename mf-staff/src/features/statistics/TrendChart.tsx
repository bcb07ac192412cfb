import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { chartOptions } from './chart-options';

export interface TrendSeries {
  label: string;
  values: number[];
  /** A CSS colour or variable, e.g. 'var(--color-accent)'. */
  color: string;
}

export interface TrendChartProps {
  /** Day starts, as ISO dates (YYYY-MM-DD). */
  dates: string[];
  series: TrendSeries[];
  /** What the chart shows, for people who cannot see it (the table below carries the numbers). */
  label: string;
  /** The interface language: dates and numbers on the axes and in the legend follow it. */
  language: string;
  /** The legend's name for the x values (the day). */
  dateLabel: string;
  height?: number;
}

/** Resolves `var(--x)` against the page, since the canvas cannot. */
function cssColor(value: string, element: Element): string {
  const variable = /^var\((--[\w-]+)\)$/.exec(value)?.[1];
  return variable ? getComputedStyle(element).getPropertyValue(variable).trim() || '#3b82f6' : value;
}

/** A small line chart of daily figures (uPlot: a few tens of kilobytes, canvas, fast). */
export function TrendChart({ dates, series, label, language, dateLabel, height = 240 }: TrendChartProps) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const plot = new uPlot(
      {
        width: Math.max(280, element.clientWidth),
        height,
        ...chartOptions({ language, dateLabel, series, dates, colour: (value) => cssColor(value, element) }),
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
  }, [dates, series, height, language, dateLabel]);

  return <div ref={container} className="staff-chart" role="img" aria-label={label} />;
}
