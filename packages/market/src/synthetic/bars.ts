import type { Rng } from '@vyuha/core';
import type { PlannedMonth } from './inputs';
import { SYNTHETIC_SOURCE } from './types';
import type { SyntheticInstrument, SyntheticSeries } from './types';

const MILLISECONDS_PER_MINUTE = 60_000;
const TICK_PAISE = 5;

/** What one instrument's bars for one month are made from. */
export interface MonthBarsInput {
  readonly instrument: SyntheticInstrument;
  readonly tradingSymbol: string;
  readonly month: PlannedMonth;
  /** Log level (of rupees/points), one point per step plus the start (see MonthLayout), already bridged to any anchor. */
  readonly logPath: Float64Array;
  /** Variance of the log level within each step, for drawing the bar's high and low. */
  readonly stepVariance: Float64Array;
  /** When set, the last bar's close is exactly this (paise on the tick): the month-end anchor. */
  readonly closingAnchorPaise: number | undefined;
}

/** Converts a log level to paise on the 0.05 tick, never below one tick. */
function logLevelToPaise(logLevel: number): number {
  const ticks = Math.round(Math.exp(logLevel) * 20);
  return (ticks < 1 ? 1 : ticks) * TICK_PAISE;
}

/**
 * Builds the month's 1-minute bars: open is the previous point, close the next, and high and low
 * are draws of the maximum and minimum of a Brownian bridge between them (exact for a bridge:
 * max = (a + b + sqrt((b - a)^2 - 2 s^2 ln U)) / 2). Rounding to the tick is monotone, so
 * low <= open, close <= high holds after rounding too.
 */
export function buildMonthBars(input: MonthBarsInput, rng: Rng): SyntheticSeries {
  const { month, logPath, stepVariance } = input;
  const count = month.barCount;
  const time = new Float64Array(count);
  const open = new Int32Array(count);
  const high = new Int32Array(count);
  const low = new Int32Array(count);
  const close = new Int32Array(count);
  let bar = 0;
  let step = 0;
  for (const session of month.sessions) {
    step += 1; // the session's gap step makes no bar: it moves the level from the last close to this open
    for (let minute = 0; minute < session.minutes; minute += 1) {
      const from = logPath[step]!;
      const to = logPath[step + 1]!;
      const spread = to - from;
      const twiceVariance = 2 * stepVariance[step]!;
      const highLog = 0.5 * (from + to + Math.sqrt(spread * spread - twiceVariance * Math.log(1 - rng.next())));
      const lowLog = 0.5 * (from + to - Math.sqrt(spread * spread - twiceVariance * Math.log(1 - rng.next())));
      time[bar] = session.firstBarTime + minute * MILLISECONDS_PER_MINUTE;
      open[bar] = logLevelToPaise(from);
      close[bar] = logLevelToPaise(to);
      high[bar] = logLevelToPaise(highLog);
      low[bar] = logLevelToPaise(lowLog);
      bar += 1;
      step += 1;
    }
  }
  if (input.closingAnchorPaise !== undefined && count > 0) pinLastClose({ high, low, close }, input.closingAnchorPaise);
  return {
    instrument: input.instrument,
    tradingSymbol: input.tradingSymbol,
    source: SYNTHETIC_SOURCE,
    time,
    open,
    high,
    low,
    close,
    volume: new Float64Array(count),
  };
}

/**
 * The bridged path already ends at the anchor's logarithm, so rounding gives the anchor; setting
 * it exactly guards against a last-ulp difference, and the range is widened to keep OHLC consistent.
 */
function pinLastClose(columns: { high: Int32Array; low: Int32Array; close: Int32Array }, anchorPaise: number): void {
  const last = columns.close.length - 1;
  columns.close[last] = anchorPaise;
  if (columns.high[last]! < anchorPaise) columns.high[last] = anchorPaise;
  if (columns.low[last]! > anchorPaise) columns.low[last] = anchorPaise;
}
