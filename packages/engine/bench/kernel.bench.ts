// Kernel throughput: bars per second in-process on 1 M one-minute bars for
// (a) the SMA(10)/SMA(20) crossover, hand-written (two rolling sums, no compiler),
// (b) the same crossover compiled from `crossover(sma(close, 10), sma(close, 20))`,
// (c) a rule set of ten indicators, compiled,
// each run through runBacktest (kernel + underlying trader + simulated venue + ledger) and each
// printed against a reference measured in this run: a bare loop over the same arrays that
// computes the same crossover and flips a position (the floor of one pass over the data).
// Budgets (docs/BUDGETS.md): >= 50 M bars/s for the crossover, >= 10 M bars/s for the ten indicators.
import { algorithmFromExpressions, compileAlgorithm, runBacktest, smaCrossoverProgram } from '@vyuha/engine';
import type { BarSeries, SignalProgram } from '@vyuha/engine';

const BARS = 1_000_000;
const REPEATS = 15;
/** Runs discarded first, so the figures are the optimised code's, not the interpreter's. */
const WARMUP_RUNS = 2;
const SESSION_MINUTES = 375;
const FIRST_SESSION_MS = Date.UTC(2020, 0, 1, 3, 45); // 09:15 IST

/** A seeded random walk of 1-minute bars, 375 per session, sessions one day apart. */
function syntheticSeries(length: number): BarSeries {
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

/** The reference: the crossover and a position flip in one bare loop; returns the number of flips. */
function referenceLoop(series: BarSeries): number {
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

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function time(run: () => unknown): { seconds: number; result: unknown } {
  const seconds: number[] = [];
  let result: unknown;
  for (let repeat = 0; repeat < WARMUP_RUNS + REPEATS; repeat += 1) {
    const start = performance.now();
    result = run();
    if (repeat >= WARMUP_RUNS) seconds.push((performance.now() - start) / 1000);
  }
  return { seconds: median(seconds), result };
}

function compiled(entry: string, exit: string): (series: BarSeries) => SignalProgram {
  const algorithm = compileAlgorithm(algorithmFromExpressions({ entry, exit }));
  if (!algorithm.ok) throw new Error(algorithm.error.map((error) => error.message).join('; '));
  return (series) => algorithm.value.createProgram(series);
}

const series = syntheticSeries(BARS);
const config = { type: 'swing', sizing: { kind: 'quantity', quantity: 1 } } as const;
const reference = time(() => referenceLoop(series));
const rate = (seconds: number): string => `${(BARS / seconds / 1e6).toFixed(1)} M bars/s`;
console.log(`reference bare loop (SMA crossover over the same arrays): ${rate(reference.seconds)} (${String(reference.result)} position changes)`);

const tenIndicators = compiled(
  'ema(close, 9) > ema(close, 21) and rsi(close, 14) > 50 and macd(close, 12, 26, 9) > 0 and close > bb_lower(close, 20, 2)'
    + ' and atr(14) > 0 and adx(14) > 10 and cci(20) > -100 and stoch_k(14, 3) > 20 and close > wma(close, 30) and close > vwap()',
  'crossunder(ema(close, 9), ema(close, 21)) or rsi(close, 14) < 40',
);
const crossover = compiled('crossover(sma(close, 10), sma(close, 20))', 'crossunder(sma(close, 10), sma(close, 20))');
const cases: Array<[string, (s: BarSeries) => SignalProgram, number | undefined]> = [
  ['SMA(10)/SMA(20) crossover, hand-written program', (s) => smaCrossoverProgram(s, { fast: 10, slow: 20 }), undefined],
  ['SMA(10)/SMA(20) crossover, compiled', crossover, 50],
  ['ten-indicator rule set, compiled', tenIndicators, 10],
];
for (const [name, program, budget] of cases) {
  const measured = time(() => runBacktest({ series, program: program(series), config }));
  const result = measured.result as ReturnType<typeof runBacktest>;
  const millions = BARS / measured.seconds / 1e6;
  const verdict = budget === undefined ? '' : millions >= budget ? ` (budget >= ${budget} M bars/s: met)` : ` (budget >= ${budget} M bars/s: NOT met)`;
  console.log(`${name}: ${rate(measured.seconds)}, ${result.summary.trades} trades; ${(measured.seconds / reference.seconds).toFixed(1)}x the reference loop${verdict}`);
}

// The same compiled crossover with a 0.3% stop, a 0.6% target and a 0.2% trailing stop, 1-tick
// slippage: every bar in a position is matched as its tick path against the protective levels
// (the matching core), so this is the figure that shows what stops and targets cost per bar.
const protectedConfig = {
  ...config, slippage: { kind: 'ticks', ticks: 1 }, stopLoss: { kind: 'percent', percent: 0.3 },
  target: { kind: 'percent', percent: 0.6 }, trailingStop: { kind: 'percent', percent: 0.2 },
} as const;
const withStops = time(() => runBacktest({ series, program: crossover(series), config: protectedConfig }));
const stopsResult = withStops.result as ReturnType<typeof runBacktest>;
console.log(`SMA crossover, compiled, with stop, target and trailing stop: ${rate(withStops.seconds)}, ${stopsResult.summary.trades} trades; ${(withStops.seconds / reference.seconds).toFixed(1)}x the reference loop`);

// The ledger keeps orders, fills and trades in columns; a consumer that wants every record as an
// object (the server writing rows, a trade list) pays for that when it reads them. Shown here so
// the figure above is not mistaken for the whole cost of such a consumer.
const withObjects = time(() => {
  const result = runBacktest({ series, program: crossover(series), config });
  return result.orders.length + result.fills.length + result.trades.length;
});
console.log(`SMA crossover, compiled, then every order, fill and trade read as an object (${String(withObjects.result)} records): ${rate(withObjects.seconds)}`);
