// The algorithm language's evaluator on 1 M bars: `crossover(sma(close, 10), sma(close, 20))` to
// buy and `crossunder(...)` to exit, driven bar by bar through `createProgram(...).onBar` with a
// minimal position loop, against a hand-written single loop doing the same work on plain arrays.
// Both runs count their signals; the counts must agree, or the comparison means nothing.
import type { BarSeries, PositionContext } from '@vyuha/engine';
import { algorithmFromExpressions, compileAlgorithm, SIGNAL_BUY, SIGNAL_EXIT, SimpleMovingAverage } from '@vyuha/engine';

const BARS = 1_000_000;
const ROUNDS = 5;

/** A seeded linear congruential generator: the same series on every run. */
function seededUniform(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 4_294_967_296;
  };
}

function randomWalk(length: number): BarSeries {
  const uniform = seededUniform(20_260_131);
  const columns = { time: new Float64Array(length), open: new Float64Array(length), high: new Float64Array(length), low: new Float64Array(length), close: new Float64Array(length), volume: new Float64Array(length), oi: new Float64Array(length).fill(Number.NaN) };
  let price = 22_000;
  for (let index = 0; index < length; index += 1) {
    const open = price;
    // Whole paise, as real candles are (the exact rolling sums take their integer path).
    price = Math.max(1, Math.round((price + (uniform() - 0.5) * 20) * 100) / 100);
    columns.time[index] = 1_704_166_500_000 + index * 60_000;
    columns.open[index] = open;
    columns.close[index] = price;
    columns.high[index] = Math.max(open, price) + Math.round(uniform() * 500) / 100;
    columns.low[index] = Math.min(open, price) - Math.round(uniform() * 500) / 100;
    columns.volume[index] = Math.floor(uniform() * 10_000);
  }
  return { length, ...columns };
}

const series = randomWalk(BARS);
const document = algorithmFromExpressions({ entry: 'crossover(sma(close, 10), sma(close, 20))', exit: 'crossunder(sma(close, 10), sma(close, 20))' });
const compiled = compileAlgorithm(document);
if (!compiled.ok) throw new Error(compiled.error.map((error) => error.message).join('\n'));
const algorithm = compiled.value;

/** The compiled program under a minimal kernel loop: one position, flat or long. */
function runCompiled(): number {
  const program = algorithm.createProgram(series);
  const context: PositionContext = { position: 0, entryPrice: Number.NaN, barsSinceEntry: Number.NaN, dayPnl: 0 };
  let trades = 0;
  for (let index = 0; index < series.length; index += 1) {
    const signal = program.onBar(index, context);
    if (signal === SIGNAL_BUY && context.position === 0) {
      context.position = 1;
      context.entryPrice = series.close[index] as number;
      trades += 1;
    } else if (signal === SIGNAL_EXIT) {
      context.position = 0;
      context.entryPrice = Number.NaN;
    }
  }
  return trades;
}

const plainClose = Array.from(series.close);

/**
 * The same rules written by hand: two rolling sums and the cross memory, in one loop. The sums are
 * integer paise, as the engine's exact SMA keeps them, so ties decide identically:
 * sma10 - sma20 has the sign of 2 * sum10 - sum20.
 */
function runHandWritten(): number {
  const close = plainClose;
  let fastSum = 0;
  let slowSum = 0;
  let lastSign = 0;
  let position = 0;
  let trades = 0;
  for (let index = 0; index < close.length; index += 1) {
    const paise = Math.round((close[index] as number) * 100);
    fastSum += paise - (index >= 10 ? Math.round((close[index - 10] as number) * 100) : 0);
    slowSum += paise - (index >= 20 ? Math.round((close[index - 20] as number) * 100) : 0);
    if (index < 19) continue;
    const difference = 2 * fastSum - slowSum;
    const up = difference > 0 && lastSign < 0;
    const down = difference < 0 && lastSign > 0;
    if (difference > 0) lastSign = 1;
    else if (difference < 0) lastSign = -1;
    if (up && position === 0) {
      position = 1;
      trades += 1;
    } else if (down && position !== 0) {
      position = 0;
    }
  }
  return trades;
}

/** Only the two engine SMAs, fed by hand: what the indicators cost, without the language. */
function runIndicatorsOnly(): number {
  const fast = new SimpleMovingAverage(10);
  const slow = new SimpleMovingAverage(20);
  const bar = { time: 0, open: 0, high: 0, low: 0, close: 0, volume: 0 };
  const close = series.close;
  let above = 0;
  for (let index = 0; index < close.length; index += 1) {
    fast.update(close[index] as number, bar);
    slow.update(close[index] as number, bar);
    if (fast.output(0) > slow.output(0)) above += 1;
  }
  return above;
}

function best(label: string, run: () => number): { seconds: number; trades: number } {
  let seconds = Number.POSITIVE_INFINITY;
  let trades = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const start = performance.now();
    trades = run();
    seconds = Math.min(seconds, (performance.now() - start) / 1000);
  }
  const rate = BARS / seconds;
  console.log(`${label.padEnd(52)} ${(rate / 1e6).toFixed(1).padStart(6)} M bars/s  (checksum ${trades})`);
  return { seconds, trades };
}

const compiledRun = best('compiled program: createProgram + onBar (1 M bars)', runCompiled);
const indicatorRun = best('the two engine SMAs alone, fed by hand (1 M bars)', runIndicatorsOnly);
const handRun = best('hand-written loop on plain arrays (1 M bars)', runHandWritten);
if (compiledRun.trades !== handRun.trades) throw new Error(`trade counts differ: compiled ${compiledRun.trades}, hand-written ${handRun.trades}`);
console.log(`language overhead over its indicators: ${(compiledRun.seconds / indicatorRun.seconds).toFixed(2)}x the indicators' time`);
console.log(`compiled / hand-written time ratio: ${(compiledRun.seconds / handRun.seconds).toFixed(2)}x`);
console.log(`budget >= 10 M bars/s: ${BARS / compiledRun.seconds >= 10e6 ? 'met' : 'NOT met'}`);
