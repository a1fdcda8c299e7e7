// The chart's candles: columns of numbers (epoch ms, rupees), never one object per candle, so a
// 100k-candle series crosses React, the worker and the chart library without per-candle work
// until the single array lightweight-charts needs. Also the IST shift: lightweight-charts labels
// its time axis in UTC, so every instant is moved forward by 05:30 before it is handed over.
import { IST_OFFSET_MS } from '@vyuha/core';
import type { BarSeries } from '@vyuha/engine';

/** Candles as columns: time is each bar's start (epoch ms), prices in rupees. */
export interface ChartCandles {
  readonly time: Float64Array | readonly number[];
  readonly open: Float64Array | readonly number[];
  readonly high: Float64Array | readonly number[];
  readonly low: Float64Array | readonly number[];
  readonly close: Float64Array | readonly number[];
  readonly volume?: Float64Array | readonly number[];
}

/** A signal of an algorithm at a bar (the bar's start, epoch ms). */
export interface SignalMark {
  readonly time: number;
  readonly kind: 'buy' | 'sell' | 'exit';
}

/** The candle_series action's columns: prices in integer paise. */
export interface PaiseCandleColumns {
  readonly time: readonly number[];
  readonly open: readonly number[];
  readonly high: readonly number[];
  readonly low: readonly number[];
  readonly close: readonly number[];
  readonly volume?: readonly number[] | null;
}

const rupeesOf = (paise: readonly number[]): Float64Array => {
  const out = new Float64Array(paise.length);
  for (let i = 0; i < paise.length; i += 1) out[i] = (paise[i] as number) / 100;
  return out;
};

/** The action's paise columns as rupee typed arrays. @example rupeeCandles({ time: [0], open: [2450050], ... }).open[0] // 24500.5 */
export function rupeeCandles(columns: PaiseCandleColumns): ChartCandles {
  return {
    time: Float64Array.from(columns.time),
    open: rupeesOf(columns.open),
    high: rupeesOf(columns.high),
    low: rupeesOf(columns.low),
    close: rupeesOf(columns.close),
    volume: Float64Array.from(columns.volume ?? new Array<number>(columns.time.length).fill(0)),
  };
}

/** How many candles. */
export function candleCount(candles: ChartCandles): number {
  return candles.time.length;
}

/** The seconds lightweight-charts gets for an instant: shifted to IST wall-clock. @example chartSeconds(Date.UTC(2026, 7, 3, 3, 45)) // 1785748500 (09:15 on the axis) */
export function chartSeconds(epochMs: number): number {
  return Math.floor((epochMs + IST_OFFSET_MS) / 1000);
}

/** The instant of a chart time (the inverse of `chartSeconds`). */
export function epochMsOfChartSeconds(seconds: number): number {
  return seconds * 1000 - IST_OFFSET_MS;
}

const float64 = (column: Float64Array | readonly number[]): Float64Array => (column instanceof Float64Array ? column : Float64Array.from(column));

/** The engine's bar columns over the candles (open interest unknown: NaN). */
export function barSeriesOf(candles: ChartCandles): BarSeries {
  const length = candles.time.length;
  return {
    length,
    time: float64(candles.time),
    open: float64(candles.open),
    high: float64(candles.high),
    low: float64(candles.low),
    close: float64(candles.close),
    volume: candles.volume === undefined ? new Float64Array(length) : float64(candles.volume),
    oi: new Float64Array(length).fill(Number.NaN),
  };
}

/** Index of the last candle starting at or before `epochMs` (0 when before the first). Binary search. */
export function candleIndexAt(candles: ChartCandles, epochMs: number): number {
  let low = 0;
  let high = candles.time.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((candles.time[middle] as number) <= epochMs) low = middle;
    else high = middle - 1;
  }
  return Math.max(0, low);
}

/**
 * Above this many candles the chart paints the latest PROGRESSIVE_FIRST at once and hands the
 * library the whole series right after that first frame. The library's load of 100k candles takes
 * over a second on a slow machine (mostly its garbage collection); the trader sees the latest
 * candles in about the time of a small chart instead of a blank box, and the rest follows.
 */
export const PROGRESSIVE_ABOVE = 5_000;
export const PROGRESSIVE_FIRST = 500;
