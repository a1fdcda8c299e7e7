import type { Indicator } from './indicator';
import { BollingerBands, DonchianChannel } from './bands';
import { MovingAverageConvergenceDivergence } from './macd';
import { ExponentialMovingAverage, SimpleMovingAverage, WeightedMovingAverage } from './moving-averages';
import { CommodityChannelIndex, StochasticOscillator } from './oscillators';
import { HeikinAshi, OnBalanceVolume } from './price-transforms';
import { RelativeStrengthIndex } from './rsi';
import { OpeningRange, PivotPoints, PreviousDayOhlc, VolumeWeightedAveragePrice } from './sessions';
import { AverageDirectionalIndex, AverageTrueRange, SuperTrend } from './trend';

/** How to build one indicator and how many bars it needs before `ready`. */
interface IndicatorRecipe {
  /** Parameter names, in call order (the error message quotes them). */
  readonly parameters: readonly string[];
  readonly create: (parameters: readonly number[]) => Indicator;
  readonly warmup: (parameters: readonly number[]) => number;
}

function at(parameters: readonly number[], index: number): number {
  return parameters[index] as number;
}

const one = (): number => 1;
// Day-based indicators: their readiness follows the calendar, not a bar count; the warm-up is the
// fewest bars that can make them ready (one bar of a previous day, then one of today).
const two = (): number => 2;

const RECIPES: Readonly<Record<string, IndicatorRecipe>> = {
  sma: { parameters: ['period'], create: (p) => new SimpleMovingAverage(at(p, 0)), warmup: (p) => at(p, 0) },
  ema: { parameters: ['period'], create: (p) => new ExponentialMovingAverage(at(p, 0)), warmup: (p) => at(p, 0) },
  wma: { parameters: ['period'], create: (p) => new WeightedMovingAverage(at(p, 0)), warmup: (p) => at(p, 0) },
  rsi: { parameters: ['period'], create: (p) => new RelativeStrengthIndex(at(p, 0)), warmup: (p) => at(p, 0) + 1 },
  macd: {
    parameters: ['fast', 'slow', 'signal'],
    create: (p) => new MovingAverageConvergenceDivergence({ fast: at(p, 0), slow: at(p, 1), signal: at(p, 2) }),
    warmup: (p) => Math.max(at(p, 0), at(p, 1)) + at(p, 2) - 1,
  },
  bb: { parameters: ['period', 'deviations'], create: (p) => new BollingerBands({ period: at(p, 0), deviations: at(p, 1) }), warmup: (p) => at(p, 0) },
  atr: { parameters: ['period'], create: (p) => new AverageTrueRange(at(p, 0)), warmup: (p) => at(p, 0) },
  supertrend: { parameters: ['period', 'multiplier'], create: (p) => new SuperTrend({ period: at(p, 0), multiplier: at(p, 1) }), warmup: (p) => at(p, 0) },
  vwap: { parameters: [], create: () => new VolumeWeightedAveragePrice(), warmup: one },
  stoch_k: {
    parameters: ['period', 'smooth'],
    create: (p) => new StochasticOscillator({ period: at(p, 0), smooth: at(p, 1) }),
    warmup: (p) => at(p, 0) + at(p, 1) - 1,
  },
  stoch: {
    parameters: ['period', 'smooth', 'signal'],
    create: (p) => new StochasticOscillator({ period: at(p, 0), smooth: at(p, 1), signal: at(p, 2) }),
    warmup: (p) => at(p, 0) + at(p, 1) + at(p, 2) - 2,
  },
  adx: { parameters: ['period'], create: (p) => new AverageDirectionalIndex(at(p, 0)), warmup: (p) => 2 * at(p, 0) },
  cci: { parameters: ['period'], create: (p) => new CommodityChannelIndex(at(p, 0)), warmup: (p) => at(p, 0) },
  donchian: { parameters: ['period'], create: (p) => new DonchianChannel(at(p, 0)), warmup: (p) => at(p, 0) },
  pivot: { parameters: [], create: () => new PivotPoints(), warmup: two },
  heikin_ashi: { parameters: [], create: () => new HeikinAshi(), warmup: one },
  obv: { parameters: [], create: () => new OnBalanceVolume(), warmup: one },
  prev_day: { parameters: [], create: () => new PreviousDayOhlc(), warmup: two },
  orb: { parameters: ['minutes'], create: (p) => new OpeningRange(at(p, 0)), warmup: two },
};

function recipeFor(name: string, parameters: readonly number[]): IndicatorRecipe {
  const recipe = Object.hasOwn(RECIPES, name) ? RECIPES[name] : undefined;
  if (recipe === undefined) throw new Error(`Unknown indicator "${name}"; known: ${Object.keys(RECIPES).join(', ')}`);
  if (parameters.length !== recipe.parameters.length) {
    throw new Error(`Indicator "${name}" takes ${recipe.parameters.length} parameter(s) (${recipe.parameters.join(', ') || 'none'}), got ${parameters.length}`);
  }
  return recipe;
}

/** A fresh streaming indicator. @example createIndicator('sma', [20]).ready // false */
export function createIndicator(name: string, parameters: readonly number[]): Indicator {
  return recipeFor(name, parameters).create(parameters);
}

/**
 * Bars an indicator must see before it is ready (for the day-based vwap, pivot, prev_day and orb:
 * the fewest bars that can make it ready; their readiness follows the IST calendar).
 * @example indicatorWarmup('rsi', [14]) // 15
 */
export function indicatorWarmup(name: string, parameters: readonly number[]): number {
  return recipeFor(name, parameters).warmup(parameters);
}

/** The indicator names `createIndicator` knows. */
export function indicatorNames(): readonly string[] {
  return Object.keys(RECIPES);
}
