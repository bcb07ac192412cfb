import type uPlot from 'uplot';
import type { TrendChartProps } from './TrendChart';

/** uPlot's tzDate for UTC: a Date whose local fields are the UTC ones, so ticks land on UTC midnights. */
function utcAsLocal(seconds: number): Date {
  const date = new Date(seconds * 1000);
  return new Date(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds());
}

/**
 * How the chart writes its days and figures, in the person's language (uPlot's own defaults are English and
 * US-style: 'Time', '10/25'). Days are UTC day starts, so they are shown in UTC and never slip a day.
 */
export function chartFormats(language: string) {
  const axisDate = new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  const legendDate = new Intl.DateTimeFormat(language, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  const number = new Intl.NumberFormat(language, { maximumFractionDigits: 2 });
  return {
    /** An x tick (seconds since the epoch). */
    axisDate: (seconds: number) => axisDate.format(seconds * 1000),
    legendDate: (seconds: number | null) => (seconds === null ? '' : legendDate.format(seconds * 1000)),
    /** A y tick: whole figures only (counts). */
    axisNumber: (value: number) => (Number.isInteger(value) ? number.format(value) : ''),
    legendNumber: (value: number | null) => (value === null ? '–' : number.format(value)),
  };
}

/** The uPlot options of the chart (everything but its size and colours' resolution is decided here). */
export function chartOptions({
  language,
  dateLabel,
  series,
  dates,
  colour,
}: Pick<TrendChartProps, 'language' | 'dateLabel' | 'series' | 'dates'> & { colour: (value: string) => string }): Omit<uPlot.Options, 'width' | 'height'> {
  const format = chartFormats(language);
  const axis = { stroke: colour('var(--color-text-muted)'), grid: { stroke: colour('var(--color-border)'), width: 1 }, ticks: { stroke: colour('var(--color-border)'), width: 1 } };
  return {
    // Ticks fall on UTC midnights, like the days themselves.
    tzDate: utcAsLocal,
    scales: { x: { time: true } },
    axes: [
      { ...axis, values: (_u, ticks) => ticks.map((tick) => format.axisDate(tick)) },
      { ...axis, values: (_u, ticks) => ticks.map((tick) => format.axisNumber(tick)) },
    ],
    series: [
      { label: dateLabel, value: (_u, value) => format.legendDate(value) },
      ...series.map((line) => ({
        label: line.label,
        stroke: colour(line.color),
        width: 2,
        points: { show: dates.length <= 31 },
        value: (_u: uPlot, value: number | null) => format.legendNumber(value),
      })),
    ],
    legend: { show: true },
    cursor: { drag: { x: false, y: false } },
  };
}
