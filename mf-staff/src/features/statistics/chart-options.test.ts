import type uPlot from 'uplot';
import { chartFormats, chartOptions } from './chart-options';

const OCT_25 = Date.parse('2025-10-25T00:00:00Z') / 1000;
const options = (language: string, dateLabel: string) =>
  chartOptions({ language, dateLabel, dates: ['2025-10-25'], series: [{ label: 'Calls', values: [1234], color: 'red' }], colour: (value) => value });
const plot = {} as uPlot;

describe('the statistics chart speaks the chosen language', () => {
  it('names the x values with the given label, not uPlot\'s English "Time"', () => {
    expect(options('de', 'Tag').series[0]!.label).toBe('Tag');
    expect(options('fr', 'Jour').series[0]!.label).toBe('Jour');
  });

  it.each([
    ['de', '25. Okt.'],
    ['fr', '25 oct.'],
    ['ru', '25 окт.'],
    ['en', 'Oct 25'],
  ])('writes axis dates the %s way (%s), not US-style 10/25', (language, expected) => {
    const axis = options(language, 'x').axes![0]!;
    const values = axis.values as (u: uPlot, ticks: number[]) => string[];
    expect(values(plot, [OCT_25])).toEqual([expected]);
  });

  it('writes legend dates and figures in the language', () => {
    const de = options('de', 'Tag').series;
    expect((de[0]!.value as (u: uPlot, v: number) => string)(plot, OCT_25)).toBe('25. Oktober 2025');
    expect((de[1]!.value as (u: uPlot, v: number) => string)(plot, 1234.5)).toBe('1.234,5');
    expect(chartFormats('fr').axisNumber(12000)).toBe('12\u202f000');
    expect(chartFormats('en').axisNumber(0.5)).toBe('');
  });

  it('places ticks on UTC day starts, like the days it shows', () => {
    const shifted = options('en', 'x').tzDate!(OCT_25);
    expect([shifted.getFullYear(), shifted.getMonth(), shifted.getDate(), shifted.getHours()]).toEqual([2025, 9, 25, 0]);
  });
});
