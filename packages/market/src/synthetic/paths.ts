import type { Rng } from '@vyuha/core';
import type { PlannedMonth } from './inputs';
import { intradayVarianceWeights } from './intraday-profile';
import {
  FULL_SESSION_MINUTES,
  GAP_SHOCK_DEGREES,
  MINUTE_SHOCK_DEGREES,
  OVERNIGHT_VARIANCE_PER_EXTRA_DAY,
  OVERNIGHT_VARIANCE_SHARE,
  REALISED_TO_IMPLIED,
  TRADING_DAYS_PER_YEAR,
  VIX_MODEL,
} from './model';

/**
 * A month as a sequence of steps: each session contributes one overnight-gap step followed by
 * one step per minute bar. Paths have one more point than steps: point 0 is the level before
 * the month, point k + 1 the level after step k.
 */
export interface MonthLayout {
  readonly steps: number;
  readonly isGap: Uint8Array;
  /** Length of each step in trading years (a day is 1/252), spread evenly over a session's minutes. */
  readonly tradingYears: Float64Array;
  /** Index variance of each step per unit of squared annual volatility: the U-shape and the gap share. */
  readonly varianceShape: Float64Array;
}

const MINUTE_TRADING_YEARS = (1 - OVERNIGHT_VARIANCE_SHARE) / (TRADING_DAYS_PER_YEAR * FULL_SESSION_MINUTES);

/** Lays out a month's steps; `previousDayNumber` is the last session before it (undefined at the very start: no gap). */
export function layoutMonth(month: PlannedMonth, previousDayNumber: number | undefined): MonthLayout {
  const steps = month.barCount + month.sessions.length;
  const isGap = new Uint8Array(steps);
  const tradingYears = new Float64Array(steps);
  const varianceShape = new Float64Array(steps);
  let step = 0;
  let previousDay = previousDayNumber;
  for (const session of month.sessions) {
    isGap[step] = 1;
    if (previousDay !== undefined) {
      const extraDays = Math.max(0, session.dayNumber - previousDay - 1);
      const gapYears = (OVERNIGHT_VARIANCE_SHARE / TRADING_DAYS_PER_YEAR) * (1 + OVERNIGHT_VARIANCE_PER_EXTRA_DAY * extraDays);
      tradingYears[step] = gapYears;
      varianceShape[step] = gapYears;
    }
    step += 1;
    const weights = intradayVarianceWeights(session.minutes);
    // A session's minutes carry its share of a day: a one-hour muhurat session is 60/375 of one.
    const sessionShare = MINUTE_TRADING_YEARS * session.minutes;
    for (let minute = 0; minute < session.minutes; minute += 1) {
      tradingYears[step] = MINUTE_TRADING_YEARS;
      varianceShape[step] = sessionShare * weights[minute]!;
      step += 1;
    }
    previousDay = session.dayNumber;
  }
  return { steps, isGap, tradingYears, varianceShape };
}

const MINUTE_SHOCK_SCALE = Math.sqrt((MINUTE_SHOCK_DEGREES - 2) / MINUTE_SHOCK_DEGREES);
const GAP_SHOCK_SCALE = Math.sqrt((GAP_SHOCK_DEGREES - 2) / GAP_SHOCK_DEGREES);

/** Unit-variance Student-t shocks, one per step (fatter tails on gap steps), from one stream. */
export function drawShocks(layout: MonthLayout, rng: Rng): Float64Array {
  const shocks = new Float64Array(layout.steps);
  for (let step = 0; step < layout.steps; step += 1) {
    shocks[step] = layout.isGap[step] === 1
      ? rng.studentT(GAP_SHOCK_DEGREES) * GAP_SHOCK_SCALE
      : rng.studentT(MINUTE_SHOCK_DEGREES) * MINUTE_SHOCK_SCALE;
  }
  return shocks;
}

/**
 * Adds `correction * (cumulative weight / total weight)` to each point after the first: a
 * Brownian bridge in the weights' time, so the end moves by exactly `correction` and the
 * adjustment is spread where the path moves most.
 */
export function bridgePath(path: Float64Array, weights: Float64Array, correction: number): void {
  if (correction === 0) return;
  let total = 0;
  for (let step = 0; step < weights.length; step += 1) total += weights[step]!;
  if (total <= 0) {
    path[path.length - 1] = path[path.length - 1]! + correction;
    return;
  }
  let cumulative = 0;
  for (let step = 0; step < weights.length; step += 1) {
    cumulative += weights[step]!;
    path[step + 1] = path[step + 1]! + correction * (cumulative / total);
  }
}

/** The INDIA VIX log path: mean-reverting, its shock partly the market's with a negative sign. */
export function vixLogPath(input: { layout: MonthLayout; startLog: number; marketShocks: Float64Array; vixShocks: Float64Array }): Float64Array {
  const { layout, marketShocks, vixShocks } = input;
  const path = new Float64Array(layout.steps + 1);
  const longRunLog = Math.log(VIX_MODEL.longRunLevel);
  const correlation = VIX_MODEL.marketCorrelation;
  const ownWeight = Math.sqrt(1 - correlation * correlation);
  let level = input.startLog;
  path[0] = level;
  for (let step = 0; step < layout.steps; step += 1) {
    const years = layout.tradingYears[step]!;
    const shock = correlation * marketShocks[step]! + ownWeight * vixShocks[step]!;
    level += VIX_MODEL.reversionPerYear * (longRunLog - level) * years + VIX_MODEL.volatilityOfLog * Math.sqrt(years) * shock;
    path[step + 1] = level;
  }
  return path;
}

/**
 * Each step's index variance before the index's own multiplier: (realised share * VIX)^2 times
 * the step's shape, with the VIX taken at the start of the step (the vol in force when it moves).
 */
export function baseStepVariance(layout: MonthLayout, vixLog: Float64Array): Float64Array {
  const variance = new Float64Array(layout.steps);
  for (let step = 0; step < layout.steps; step += 1) {
    const volatility = (REALISED_TO_IMPLIED * Math.exp(vixLog[step]!)) / 100;
    variance[step] = volatility * volatility * layout.varianceShape[step]!;
  }
  return variance;
}

/** The shocks an index is built from and how it loads on them. */
export interface IndexPathInput {
  readonly startLog: number;
  readonly baseVariance: Float64Array;
  readonly volatilityMultiplier: number;
  readonly loadings: { readonly market: number; readonly financials: number; readonly own: number };
  readonly marketShocks: Float64Array;
  readonly financialShocks: Float64Array | undefined;
  readonly ownShocks: Float64Array | undefined;
}

/** The free log path of an index (before bridging to its anchor), with the Ito term so the level is a martingale. */
export function indexLogPath(input: IndexPathInput): Float64Array {
  const { baseVariance, marketShocks, financialShocks, ownShocks, loadings } = input;
  const multiplierSquared = input.volatilityMultiplier * input.volatilityMultiplier;
  const path = new Float64Array(baseVariance.length + 1);
  let level = input.startLog;
  path[0] = level;
  for (let step = 0; step < baseVariance.length; step += 1) {
    let shock = loadings.market * marketShocks[step]!;
    if (financialShocks) shock += loadings.financials * financialShocks[step]!;
    if (ownShocks) shock += loadings.own * ownShocks[step]!;
    const variance = multiplierSquared * baseVariance[step]!;
    level += Math.sqrt(variance) * shock - 0.5 * variance;
    path[step + 1] = level;
  }
  return path;
}
