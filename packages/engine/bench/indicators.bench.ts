// Streaming-indicator throughput over 1M bars (updates per second), each against a reference
// measured in the same run: a bare loop summing the closes, the least any indicator can do.
import { createIndicator } from '@vyuha/engine';
import type { IndicatorBar } from '@vyuha/engine';

const COUNT = 1_000_000;

/** A seeded linear congruential generator: the same bars on every run. */
function seededUniform(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 4_294_967_296;
  };
}

/** A random walk on the paise grid with high >= max(open, close) and low <= min(open, close). */
function randomBars(count: number): IndicatorBar[] {
  const uniform = seededUniform(20_260_128);
  const paise = (rupees: number): number => Math.round(rupees * 100) / 100;
  const bars: IndicatorBar[] = new Array(count);
  let close = 22_000;
  for (let index = 0; index < count; index += 1) {
    const open = close;
    close = paise(open * (1 + 0.002 * (uniform() - 0.5)));
    const high = paise(Math.max(open, close) * (1 + 0.0005 * uniform()));
    const low = paise(Math.min(open, close) * (1 - 0.0005 * uniform()));
    bars[index] = { time: 1_704_080_700_000 + index * 60_000, open, high, low, close, volume: 1 + Math.floor(uniform() * 1000) };
  }
  return bars;
}

const bars = randomBars(COUNT);

function time(label: string, run: () => number): number {
  run(); // warm-up: let the JIT compile before measuring
  const start = performance.now();
  const checksum = run();
  const seconds = (performance.now() - start) / 1000;
  if (Number.isNaN(checksum)) throw new Error(`${label}: NaN checksum`);
  return seconds;
}

function indicatorRun(name: string, parameters: readonly number[]): () => number {
  return () => {
    const indicator = createIndicator(name, parameters);
    let sum = 0;
    for (let index = 0; index < COUNT; index += 1) {
      const bar = bars[index] as IndicatorBar;
      indicator.update(bar.close, bar);
      if (indicator.ready) sum += indicator.output(0);
    }
    return sum;
  };
}

const reference = time('reference', () => {
  let sum = 0;
  for (let index = 0; index < COUNT; index += 1) sum += (bars[index] as IndicatorBar).close;
  return sum;
});

const perSecond = (seconds: number): string => `${Math.round(COUNT / seconds).toLocaleString('en-IN')}/s`.padStart(18);
console.log(`${COUNT.toLocaleString('en-IN')} bars`);
console.log(`${'reference: bare loop summing closes'.padEnd(38)} ${perSecond(reference)}  ${(reference * 1000).toFixed(1).padStart(7)} ms  1.0x`);
for (const [label, name, parameters] of [
  ['SMA(20)', 'sma', [20]],
  ['EMA(20)', 'ema', [20]],
  ['RSI(14)', 'rsi', [14]],
  ['SuperTrend(10, 3)', 'supertrend', [10, 3]],
  ['Bollinger(20, 2)', 'bb', [20, 2]],
  ['ADX(14)', 'adx', [14]],
  ['Donchian(20)', 'donchian', [20]],
  ['VWAP', 'vwap', []],
] as const) {
  const seconds = time(label, indicatorRun(name, parameters));
  console.log(`${label.padEnd(38)} ${perSecond(seconds)}  ${(seconds * 1000).toFixed(1).padStart(7)} ms  ${(seconds / reference).toFixed(1)}x the reference`);
}
