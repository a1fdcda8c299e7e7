// What the kernel benchmark's main thread and its worker threads share: the bars' generator (the
// main thread builds them once, in shared memory), the reference loop, the two compiled rule sets
// and the run's config.
import { algorithmFromExpressions, compileAlgorithm } from '@vyuha/engine';
import type { BarSeries, SignalProgram } from '@vyuha/engine';

export const BARS = 1_000_000;
const SESSION_MINUTES = 375;
const FIRST_SESSION_MS = Date.UTC(2020, 0, 1, 3, 45); // 09:15 IST

/** A seeded random walk of 1-minute bars, 375 per session, sessions one day apart. */
export function syntheticSeries(length: number): BarSeries {
  let state = 20_260_127;
  const uniform = (): number => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 4_294_967_296;
  };
  const columns = { time: new Float64Array(length), open: new Float64Array(length), high: new Float64Array(length), low: new Float64Array(length), close: new Float64Array(length) };
  let price = 22_000;
  for (let index = 0; index < length; index += 1) {
    const session = Math.floor(index / SESSION_MINUTES);
    columns.time[index] = FIRST_SESSION_MS + session * 86_400_000 + (index % SESSION_MINUTES) * 60_000;
    const open = price;
    price = Math.round((price + (uniform() - 0.5) * 10) * 100) / 100;
    columns.open[index] = open;
    columns.close[index] = price;
    columns.high[index] = Math.round((Math.max(open, price) + uniform() * 3) * 100) / 100;
    columns.low[index] = Math.round((Math.min(open, price) - uniform() * 3) * 100) / 100;
  }
  return { length, ...columns, volume: new Float64Array(length).fill(1_000), oi: new Float64Array(length).fill(Number.NaN) };
}

/**
 * The reference: the crossover and a position flip in one bare loop (the floor of one pass over the
 * data); returns the number of flips. The bench times it beside the kernel's runs, on the same
 * threads, because on this VM the speed of work that reads memory changes for seconds at a time
 * (this loop, over 8 MB of closes, runs at 80-90 M and at 150-170 M bars/s in one process): a
 * figure means something only beside the reference's speed at the same moments.
 */
export function referenceLoop(series: BarSeries): number {
  const close = series.close;
  let fastSum = 0;
  let slowSum = 0;
  let last = 0;
  let position = 0;
  let flips = 0;
  for (let index = 0; index < series.length; index += 1) {
    const value = Math.round((close[index] as number) * 100);
    fastSum += value;
    slowSum += value;
    if (index >= 10) fastSum -= Math.round((close[index - 10] as number) * 100);
    if (index >= 20) slowSum -= Math.round((close[index - 20] as number) * 100);
    if (index < 19) continue;
    const difference = fastSum * 20 - slowSum * 10;
    if (difference > 0 && last < 0 && position === 0) { position = 1; flips += 1; }
    else if (difference < 0 && last > 0 && position === 1) { position = 0; flips += 1; }
    if (difference !== 0) last = difference;
  }
  return flips;
}

function compiled(entry: string, exit: string): (series: BarSeries) => SignalProgram {
  const algorithm = compileAlgorithm(algorithmFromExpressions({ entry, exit }));
  if (!algorithm.ok) throw new Error(algorithm.error.map((error) => error.message).join('; '));
  return (series) => algorithm.value.createProgram(series);
}

/**
 * The ten-indicator rule set's entry and exit with its fast EMA and its RSI period as given: numbers
 * (the kernel benchmark: 9 and 14), or `$names` (the sweep benchmark's parameters).
 */
export function tenIndicatorRules(periods: { readonly fast: string; readonly rsi: string }): { entry: string; exit: string } {
  const { fast, rsi } = periods;
  return {
    entry: `ema(close, ${fast}) > ema(close, 21) and rsi(close, ${rsi}) > 50 and macd(close, 12, 26, 9) > 0 and close > bb_lower(close, 20, 2)`
      + ' and atr(14) > 0 and adx(14) > 10 and cci(20) > -100 and stoch_k(14, 3) > 20 and close > wma(close, 30) and close > vwap()',
    exit: `crossunder(ema(close, ${fast}), ema(close, 21)) or rsi(close, ${rsi}) < 40`,
  };
}

export const RULE_SETS = {
  crossover: compiled('crossover(sma(close, 10), sma(close, 20))', 'crossunder(sma(close, 10), sma(close, 20))'),
  tenIndicators: ((rules) => compiled(rules.entry, rules.exit))(tenIndicatorRules({ fast: '9', rsi: '14' })),
} as const;
export type RuleSetName = keyof typeof RULE_SETS;

export const CONFIG = { type: 'swing', sizing: { kind: 'quantity', quantity: 1 } } as const;
