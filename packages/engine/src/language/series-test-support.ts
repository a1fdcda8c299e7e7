import type { Rng } from '@vyuha/core';
import { createRng } from '@vyuha/core';
import type { BarSeries, PositionContext } from '../algorithm/program';

/** Test helper: bars from close prices (open = previous close), one minute apart from 09:15 IST on 2024-01-01. */
export function seriesFromCloses(closes: readonly number[], options: { intervalMinutes?: number } = {}): BarSeries {
  const length = closes.length;
  const step = (options.intervalMinutes ?? 1) * 60_000;
  const series = {
    length,
    time: new Float64Array(length),
    open: new Float64Array(length),
    high: new Float64Array(length),
    low: new Float64Array(length),
    close: Float64Array.from(closes),
    volume: new Float64Array(length).fill(1000),
    oi: new Float64Array(length).fill(Number.NaN),
  };
  // 2024-01-01 09:15 IST = 03:45 UTC.
  const start = Date.UTC(2024, 0, 1, 3, 45);
  closes.forEach((close, index) => {
    const open = index === 0 ? close : (closes[index - 1] as number);
    series.time[index] = start + index * step;
    series.open[index] = open;
    series.high[index] = Math.max(open, close) + 1;
    series.low[index] = Math.min(open, close) - 1;
  });
  return series;
}

/** Test helper: a seeded random walk on the paise grid. */
export function randomSeries(seed: number, length: number): BarSeries {
  const rng: Rng = createRng(seed);
  const closes: number[] = [];
  let price = 100;
  for (let index = 0; index < length; index += 1) {
    price = Math.max(1, Math.round((price + (rng.next() - 0.5) * 4) * 100) / 100);
    closes.push(price);
  }
  return seriesFromCloses(closes);
}

/** A flat position context. */
export function flatPosition(): PositionContext {
  return { position: 0, entryPrice: Number.NaN, barsSinceEntry: Number.NaN, dayPnl: 0 };
}
