// Equity and drawdown curves, and the deepest drawdown with its duration in trading days.
// The running peak starts at the capital, so a loss on the first day is already a drawdown.
import { istEpochMs } from '@vyuha/core';
import type { IsoDate, Paise } from '@vyuha/core';
import { requireCapital, validateDays, validateEquitySeries } from './metrics-input';
import type { DailyResult, EquitySeries } from './metrics-input';

/** Daily curve input: one point per trading day, at that day's close. */
export interface DailyEquityInput {
  readonly capital: Paise;
  readonly days: readonly DailyResult[];
  readonly tradingDays: readonly IsoDate[];
}

/** Per-bar curve input: the mark-to-market equity at each bar. */
export interface BarEquityInput {
  readonly capital: Paise;
  readonly bars: EquitySeries;
}

/**
 * Curves for the charts. `times` are epoch ms (for daily curves the 15:30 IST close of each day);
 * `dates` is set for daily curves. drawdown = peak - equity (>= 0, paise); drawdownPercent is
 * that over the peak, times 100.
 */
export interface EquityCurve {
  readonly kind: 'daily' | 'bars';
  readonly dates: readonly IsoDate[];
  readonly times: Float64Array;
  readonly equity: Float64Array;
  readonly drawdown: Float64Array;
  readonly drawdownPercent: Float64Array;
}

/** The deepest drawdown by money; positions are indices into the curve, -1 meaning the starting capital. */
export interface DeepestDrawdown {
  readonly depth: number;
  readonly peakPosition: number;
  readonly troughPosition: number;
  /** First position back at or above the peak; null when it never recovered. */
  readonly recoveryPosition: number | null;
  /** The largest drawdown as a percent of its own running peak (may be another episode). */
  readonly depthPercent: number;
}

/**
 * Daily (end of day) or per-bar equity with its drawdown under the running peak.
 * @example equityAndDrawdown({ capital: paise(100_000), days: [{ date, netPnl: paise(-5_000), ... }], tradingDays: [date] }).drawdown // [5000]
 */
export function equityAndDrawdown(input: DailyEquityInput | BarEquityInput): EquityCurve {
  requireCapital(input.capital);
  if ('bars' in input) {
    validateEquitySeries(input.bars);
    const equity = Float64Array.from(input.bars.equity);
    return { kind: 'bars', dates: [], times: Float64Array.from(input.bars.times), equity, ...drawdownOf(equity, input.capital) };
  }
  validateDays(input.days, input.tradingDays);
  const equity = dailyEquity(input);
  const times = Float64Array.from(input.tradingDays, (date) => istEpochMs(date, '15:30'));
  return { kind: 'daily', dates: input.tradingDays, times, equity, ...drawdownOf(equity, input.capital) };
}

/** Capital plus the cumulative net P&L at the end of each trading day (flat days repeat). */
export function dailyEquity(input: DailyEquityInput): Float64Array {
  const pnlByDate = new Map<string, number>(input.days.map((day) => [day.date, day.netPnl]));
  const equity = new Float64Array(input.tradingDays.length);
  let running = input.capital as number;
  input.tradingDays.forEach((date, index) => {
    running += pnlByDate.get(date) ?? 0;
    equity[index] = running;
  });
  return equity;
}

function drawdownOf(equity: Float64Array, capital: number): { drawdown: Float64Array; drawdownPercent: Float64Array } {
  const drawdown = new Float64Array(equity.length);
  const drawdownPercent = new Float64Array(equity.length);
  let peak = capital;
  for (let i = 0; i < equity.length; i += 1) {
    const value = equity[i] as number;
    if (value > peak) peak = value;
    drawdown[i] = peak - value;
    drawdownPercent[i] = ((peak - value) / peak) * 100;
  }
  return { drawdown, drawdownPercent };
}

/** The depth of the deepest fall below a running peak, in money and as a percentage of that peak. */
export interface FallDepth {
  readonly depth: number;
  readonly depthPercent: number;
}

/**
 * `deepestDrawdown`'s depth and percentage, fed one equity value at a time, so a caller that keeps
 * its curve as runs (equity-segments.ts) need not write it out. A run of equal values changes the
 * figures only through its first value: feeding it once is the same as feeding every bar of it.
 * `deepestDrawdown` below computes the same two figures with the positions besides (one loop over a
 * column, kept apart because the metrics read a million bars through it).
 */
export class DeepestFall implements FallDepth {
  private peak: number;
  /** The deepest fall below the current peak; its percentage is taken when the peak is passed. */
  private fall = 0;
  private percent = 0;
  private deepest = 0;

  constructor(capital: number) {
    this.peak = capital;
  }

  add(value: number): void {
    if (value >= this.peak) {
      if (this.fall > 0) {
        this.percent = Math.max(this.percent, (this.fall / this.peak) * 100);
        this.fall = 0;
      }
      this.peak = value;
      return;
    }
    const below = this.peak - value;
    if (below > this.fall) {
      this.fall = below;
      if (below > this.deepest) this.deepest = below;
    }
  }

  get depth(): number {
    return this.deepest;
  }

  get depthPercent(): number {
    return this.fall > 0 ? Math.max(this.percent, (this.fall / this.peak) * 100) : this.percent;
  }
}

/**
 * The deepest peak-to-trough fall in money, where it started, bottomed and recovered.
 * Invariant: depth >= 0; a curve that never falls below its running peak has depth 0.
 */
export function deepestDrawdown(equity: Float64Array, capital: number): DeepestDrawdown {
  let peak = capital;
  let peakPosition = -1;
  let depth = 0;
  let deepestPeak = -1;
  let trough = -1;
  let recovery: number | null = null;
  // The deepest fall below the current peak. Under one peak the percentage is largest at the
  // deepest fall (division by the same positive peak and x 100 keep the order, rounding too), so
  // it is taken once per peak instead of once per bar: the same figure, without a division per
  // bar. A fall deeper than the deepest overall is deeper than the peak's own deepest too.
  let fall = 0;
  let depthPercent = 0;
  for (let i = 0; i < equity.length; i += 1) {
    const value = equity[i] as number;
    if (value >= peak) {
      if (fall > 0) {
        depthPercent = Math.max(depthPercent, (fall / peak) * 100);
        fall = 0;
        if (recovery === null && deepestPeak === peakPosition && depth > 0) recovery = i;
      }
      peak = value;
      peakPosition = i;
      continue;
    }
    const below = peak - value;
    if (below > fall) {
      fall = below;
      if (below > depth) {
        depth = below;
        deepestPeak = peakPosition;
        trough = i;
        recovery = null;
      }
    }
  }
  if (fall > 0) depthPercent = Math.max(depthPercent, (fall / peak) * 100);
  return { depth, peakPosition: deepestPeak, troughPosition: trough, recoveryPosition: recovery, depthPercent };
}

/** Drawdown episode as reported in the metrics. */
export interface DrawdownSummary {
  readonly maxDrawdown: Paise;
  readonly maxDrawdownPercent: number;
  /** Trading days from the peak to the recovery, or to the last day when not recovered. */
  readonly maxDrawdownDurationDays: number;
  readonly drawdownRecovered: boolean;
  /** Null when the peak was the starting capital (before the first day). */
  readonly maxDrawdownPeakDate: IsoDate | null;
  readonly maxDrawdownTroughDate: IsoDate | null;
  readonly maxDrawdownRecoveryDate: IsoDate | null;
}

/**
 * Summarises the deepest drawdown of a curve whose position i lies on trading day
 * `dayOfPosition[i]` (0-based); the starting capital is day "-1", so a peak there counts from
 * before the first day.
 */
export function summariseDrawdown(options: { readonly equity: Float64Array; readonly capital: number; readonly dayOfPosition: Int32Array; readonly tradingDays: readonly IsoDate[] }): DrawdownSummary {
  const { equity, capital, dayOfPosition, tradingDays } = options;
  const deepest = deepestDrawdown(equity, capital);
  const dayOf = (position: number): number => (position < 0 ? -1 : (dayOfPosition[position] as number));
  const dateOf = (position: number | null): IsoDate | null => (position === null || position < 0 ? null : (tradingDays[dayOf(position)] ?? null));
  const recovered = deepest.depth === 0 || deepest.recoveryPosition !== null;
  const endDay = deepest.recoveryPosition === null ? tradingDays.length - 1 : dayOf(deepest.recoveryPosition);
  return {
    maxDrawdown: Math.round(deepest.depth) as Paise,
    maxDrawdownPercent: deepest.depthPercent,
    maxDrawdownDurationDays: deepest.depth === 0 ? 0 : endDay - dayOf(deepest.peakPosition),
    drawdownRecovered: recovered,
    maxDrawdownPeakDate: deepest.depth === 0 ? null : dateOf(deepest.peakPosition),
    maxDrawdownTroughDate: deepest.depth === 0 ? null : dateOf(deepest.troughPosition),
    maxDrawdownRecoveryDate: dateOf(deepest.recoveryPosition),
  };
}
