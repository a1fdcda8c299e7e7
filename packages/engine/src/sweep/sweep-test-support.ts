// Test helpers for sweeps: seeded 5-minute sessions on weekdays, and a parameterised SMA crossover.
import type { IsoDate } from '@vyuha/core';
import { addDays, createRng, isoDate, istEpochMs, weekday } from '@vyuha/core';
import type { AlgorithmDocument, AlgorithmParameter } from '../algorithm/document';
import { algorithmFromExpressions } from '../algorithm/from-expressions';
import type { BarSeries } from '../algorithm/program';

/** Bars per session at 5 minutes: 09:15 .. 15:25 IST. */
export const BARS_PER_DAY = 75;

/** Weekdays from `start` (inclusive), `count` of them. */
export function weekdays(start: IsoDate, count: number): IsoDate[] {
  const dates: IsoDate[] = [];
  for (let date = start; dates.length < count; date = addDays(date, 1)) {
    const day = weekday(date);
    if (day !== 0 && day !== 6) dates.push(date);
  }
  return dates;
}

/** A seeded random walk of 5-minute bars over `days` weekday sessions from 2024-01-01; trends switch every few days so parameters matter. */
export function sessionSeries(options: { days: number; seed: number; volatility?: number; start?: IsoDate }): BarSeries {
  const dates = weekdays(options.start ?? isoDate('2024-01-01'), options.days);
  const length = dates.length * BARS_PER_DAY;
  const series = {
    length,
    time: new Float64Array(length), open: new Float64Array(length), high: new Float64Array(length), low: new Float64Array(length),
    close: new Float64Array(length), volume: new Float64Array(length).fill(1000), oi: new Float64Array(length).fill(Number.NaN),
  };
  fillWalk(series, { from: 0, seed: options.seed, volatility: options.volatility ?? 1, price: 1000 });
  dates.forEach((date, day) => {
    const open = istEpochMs(date, '09:15');
    for (let bar = 0; bar < BARS_PER_DAY; bar += 1) series.time[day * BARS_PER_DAY + bar] = open + bar * 5 * 60_000;
  });
  return series;
}

/** Writes a walk into bars `from` .. end (prices only; times stay). */
function fillWalk(series: BarSeries, options: { from: number; seed: number; volatility: number; price: number }): void {
  const rng = createRng(options.seed);
  let price = options.price;
  let drift = 0;
  for (let index = options.from; index < series.length; index += 1) {
    if (index % (BARS_PER_DAY * 3) === 0) drift = (rng.next() - 0.5) * 1.2 * options.volatility;
    const open = price;
    price = Math.max(10, Math.round((price + drift + rng.normal() * 2 * options.volatility) * 20) / 20);
    series.open[index] = open;
    series.close[index] = price;
    series.high[index] = Math.max(open, price) + 0.5;
    series.low[index] = Math.min(open, price) - 0.5;
  }
}

/** A copy of `series` whose bars from `from` on are another walk (same times). */
export function replacedAfter(series: BarSeries, from: number, options: { seed: number; volatility: number }): BarSeries {
  const copy = {
    length: series.length, time: series.time.slice(), open: series.open.slice(), high: series.high.slice(), low: series.low.slice(),
    close: series.close.slice(), volume: series.volume.slice(), oi: series.oi.slice(),
  };
  fillWalk(copy, { from, seed: options.seed, volatility: options.volatility, price: (series.close[from - 1] as number) * 1.3 });
  return copy;
}

export const FAST: AlgorithmParameter = { name: 'fast', default: 5, from: 5, to: 15, step: 5 };
export const SLOW: AlgorithmParameter = { name: 'slow', default: 20, from: 10, to: 30, step: 10 };

/** Long on a fast/slow SMA cross, out on the cross back: `$fast < $slow`. */
export function crossoverDocument(expressions?: { entry: string; exit: string }): AlgorithmDocument {
  const base = algorithmFromExpressions(expressions ?? {
    entry: 'crossover(sma(close, $fast), sma(close, $slow))',
    exit: 'crossunder(sma(close, $fast), sma(close, $slow))',
  });
  return { ...base, parameters: [FAST, SLOW], constraints: ['$fast < $slow'] };
}

/** Swing, 50 units, charges on: runs that differ by parameters differ in P&L. */
export const SWEEP_CONFIG = { type: 'swing', sizing: { kind: 'quantity', quantity: 50 }, charges: { kind: 'schedule', exchange: 'NSE', instrument: 'future' } } as const;
