/**
 * Seeded synthetic sessions for sweep tests and the sweep benchmark: weekday sessions from 09:15
 * IST of `barsPerDay` bars of `minutes` each, a random walk on a 0.05 tick whose drift changes
 * every three sessions (so moving-average parameters matter), and the same bars as a candle CSV.
 */
import type { IsoDate } from '@vyuha/core';
import { addDays, createRng, formatIstDateTime, isoDate, istEpochMs, weekday } from '@vyuha/core';
import type { BarSeries } from '@vyuha/engine';

export interface SessionBarsOptions {
  readonly days: number;
  readonly seed: number;
  /** Default 75 (5-minute bars over 09:15 .. 15:30). */
  readonly barsPerDay?: number;
  /** Default 5. */
  readonly minutes?: number;
  readonly start?: IsoDate;
}

/**
 * The bars, as the engine's series (rupees).
 * @example sessionBars({ days: 2, seed: 1 }).length // 150
 */
export function sessionBars(options: SessionBarsOptions): BarSeries {
  const barsPerDay = options.barsPerDay ?? 75;
  const minutes = options.minutes ?? 5;
  const dates: IsoDate[] = [];
  for (let date = options.start ?? isoDate('2024-01-01'); dates.length < options.days; date = addDays(date, 1)) {
    if (weekday(date) !== 0 && weekday(date) !== 6) dates.push(date);
  }
  const length = dates.length * barsPerDay;
  const column = (): Float64Array => new Float64Array(length);
  const series = { length, time: column(), open: column(), high: column(), low: column(), close: column(), volume: column().fill(1000), oi: column().fill(Number.NaN) };
  const rng = createRng(options.seed);
  let price = 1000;
  let drift = 0;
  dates.forEach((date, day) => {
    const open = istEpochMs(date, '09:15');
    if (day % 3 === 0) drift = (rng.next() - 0.5) * 1.2;
    for (let bar = 0; bar < barsPerDay; bar += 1) {
      const index = day * barsPerDay + bar;
      const before = price;
      price = Math.max(10, Math.round((price + drift / 10 + rng.normal() * 1.5) * 20) / 20);
      series.time[index] = open + bar * minutes * 60_000;
      series.open[index] = before;
      series.close[index] = price;
      series.high[index] = Math.round((Math.max(before, price) + 0.5) * 20) / 20;
      series.low[index] = Math.round((Math.min(before, price) - 0.5) * 20) / 20;
    }
  });
  return series;
}

/** The bars as a candle CSV (datetime,open,high,low,close,volume), which reads back to the same series. */
export function sessionBarsCsv(series: BarSeries): string {
  const lines = ['datetime,open,high,low,close,volume'];
  for (let index = 0; index < series.length; index += 1) {
    const price = (column: Float64Array): string => (column[index] as number).toFixed(2);
    lines.push(`${formatIstDateTime(series.time[index] as number).slice(0, 16)},${price(series.open)},${price(series.high)},${price(series.low)},${price(series.close)},${series.volume[index] as number}`);
  }
  return `${lines.join('\n')}\n`;
}
