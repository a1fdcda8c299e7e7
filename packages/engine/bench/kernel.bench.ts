// Kernel throughput: bars per second on 1 M one-minute bars for
// (a) the SMA(10)/SMA(20) crossover, hand-written (two rolling sums, no compiler),
// (b) the same crossover compiled from `crossover(sma(close, 10), sma(close, 20))`,
// (c) a rule set of ten indicators, compiled,
// each run through runBacktest (kernel + underlying trader + simulated venue + ledger) on one core
// and printed against a reference measured in this run: a bare loop over the same arrays that
// computes the same crossover and flips a position (the floor of one pass over the data).
// Then (b) and (c) on both cores: two worker threads, reading the one copy of the bars in shared
// memory as the main thread does (as the platform's sweep threads read theirs), run the
// rule set back to back at the same time, in rounds; a round's figure is all its bars over its
// wall time, and the printed figure the median round. A first round is run and printed but not
// counted: a thread starts with code nobody optimised yet (the one-core figures come after the
// main thread's warm-up and the cases before them), and its first round runs 15-20% slower.
// Budgets (docs/BUDGETS.md), on both cores: >= 50 M bars/s for the crossover, >= 10 M bars/s for
// the ten indicators. `npm run bench` starts it with V8's concurrent on-stack replacement off, as
// every process of the platform runs (packages/server/src/jit-settings.ts says why).
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { runBacktest, seriesOfShared, shareSeries, smaCrossoverProgram } from '@vyuha/engine';
import type { BarSeries, SignalProgram } from '@vyuha/engine';
import { BARS, CONFIG, RULE_SETS, syntheticSeries, type RuleSetName } from './kernel-support';
import type { ThreadAnswer, ThreadRequest } from './kernel-thread';

const REPEATS = 15;
/** Runs discarded first, so the figures are the optimised code's, not the interpreter's. */
const WARMUP_RUNS = 2;
const THREADS = 2;
/** Rounds of REPEATS runs on every thread at once; the both-core figure is their median. */
const BOTH_CORES_ROUNDS = 5;

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

/**
 * kernel-thread.ts bundled in memory with esbuild (tsx's own dependency) and started from a data:
 * URL: a worker thread does not inherit tsx's loader, and one module loads faster than hundreds.
 */
function threadUrl(): URL {
  const esbuild = createRequire(createRequire(import.meta.url).resolve('tsx'))('esbuild') as {
    buildSync(options: Record<string, unknown>): { outputFiles: ReadonlyArray<{ text: string }> };
  };
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const output = esbuild.buildSync({
    entryPoints: [fileURLToPath(new URL('./kernel-thread.ts', import.meta.url))], absWorkingDir: root, bundle: true, write: false,
    format: 'esm', platform: 'node', target: 'node20', logLevel: 'silent',
    alias: Object.fromEntries(['core', 'market', 'engine'].map((name) => [`@vyuha/${name}`, join(root, 'packages', name, 'src', 'index.ts')])),
  });
  const text = (output.outputFiles[0] as { text: string }).text;
  return new URL(`data:text/javascript;base64,${Buffer.from(text).toString('base64')}`);
}

/** The answer of a worker's next message (or its error); the listener of the other is removed, so rounds add none. */
function nextMessage<T>(worker: Worker): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: T): void => {
      worker.off('error', onError);
      resolve(message);
    };
    const onError = (error: Error): void => {
      worker.off('message', onMessage);
      reject(error);
    };
    worker.once('message', onMessage);
    worker.once('error', onError);
  });
}

// The bars live once, in shared memory: the main thread's one-core runs and both threads read them.
const shared = shareSeries(syntheticSeries(BARS));
const series = seriesOfShared(shared);
const reference = time(() => referenceLoop(series));
const rate = (seconds: number): string => `${(BARS / seconds / 1e6).toFixed(1)} M bars/s`;
console.log(`reference bare loop (SMA crossover over the same arrays), one core: ${rate(reference.seconds)} (${String(reference.result)} position changes)`);

const cases: Array<[string, (s: BarSeries) => SignalProgram]> = [
  ['SMA(10)/SMA(20) crossover, hand-written program', (s) => smaCrossoverProgram(s, { fast: 10, slow: 20 })],
  ['SMA(10)/SMA(20) crossover, compiled', RULE_SETS.crossover],
  ['ten-indicator rule set, compiled', RULE_SETS.tenIndicators],
];
const oneCore = new Map<string, { seconds: number; trades: number; netPnl: number }>();
for (const [name, program] of cases) {
  const measured = time(() => runBacktest({ series, program: program(series), config: CONFIG }));
  const result = measured.result as ReturnType<typeof runBacktest>;
  oneCore.set(name, { seconds: measured.seconds, trades: result.summary.trades, netPnl: result.summary.netPnl });
  console.log(`${name}, one core: ${rate(measured.seconds)}, ${result.summary.trades} trades; ${(measured.seconds / reference.seconds).toFixed(1)}x the reference loop`);
}

// The same compiled crossover with a 0.3% stop, a 0.6% target and a 0.2% trailing stop, 1-tick
// slippage: every bar in a position is matched as its tick path against the protective levels
// (the matching core), so this is the figure that shows what stops and targets cost per bar.
const protectedConfig = {
  ...CONFIG, slippage: { kind: 'ticks', ticks: 1 }, stopLoss: { kind: 'percent', percent: 0.3 },
  target: { kind: 'percent', percent: 0.6 }, trailingStop: { kind: 'percent', percent: 0.2 },
} as const;
const withStops = time(() => runBacktest({ series, program: RULE_SETS.crossover(series), config: protectedConfig }));
const stopsResult = withStops.result as ReturnType<typeof runBacktest>;
console.log(`SMA crossover, compiled, with stop, target and trailing stop, one core: ${rate(withStops.seconds)}, ${stopsResult.summary.trades} trades; ${(withStops.seconds / reference.seconds).toFixed(1)}x the reference loop`);

// The ledger keeps orders, fills and trades in columns; a consumer that wants every record as an
// object (the server writing rows, a trade list) pays for that when it reads them. Shown here so
// the figure above is not mistaken for the whole cost of such a consumer.
const withObjects = time(() => {
  const result = runBacktest({ series, program: RULE_SETS.crossover(series), config: CONFIG });
  return result.orders.length + result.fills.length + result.trades.length;
});
console.log(`SMA crossover, compiled, then every order, fill and trade read as an object (${String(withObjects.result)} records), one core: ${rate(withObjects.seconds)}`);

// A run of one instrument keeps its equity as runs of bars (flat, or held between two fills) and
// builds the column when it is read: a consumer that charts or measures the equity pays for it.
const withEquity = time(() => runBacktest({ series, program: RULE_SETS.crossover(series), config: CONFIG }).equity.length);
console.log(`SMA crossover, compiled, then its equity column read (${String(withEquity.result)} bars), one core: ${rate(withEquity.seconds)}`);

// Both cores: the budgets' figures.
const url = threadUrl();
// No Node options: the bundle needs no loader (the platform's own threads start so: BUNDLED_THREAD_OPTIONS).
const workers = Array.from({ length: THREADS }, () => new Worker(url, { execArgv: [], workerData: shared }));
await Promise.all(workers.map((worker) => nextMessage<'ready'>(worker)));
const everyThread = (request: ThreadRequest): Promise<ThreadAnswer[]> =>
  Promise.all(workers.map((worker) => {
    const answer = nextMessage<ThreadAnswer>(worker);
    worker.postMessage(request);
    return answer;
  }));
const budgets: Array<[string, RuleSetName, number]> = [
  ['SMA(10)/SMA(20) crossover, compiled', 'crossover', 50],
  ['ten-indicator rule set, compiled', 'tenIndicators', 10],
];
let differs = false;
for (const [name, ruleSet, budget] of budgets) {
  const warmStart = performance.now();
  await everyThread({ ruleSet, runs: REPEATS });
  const warmUp = (THREADS * REPEATS * BARS) / ((performance.now() - warmStart) / 1000) / 1e6;
  const single = oneCore.get(name) as { seconds: number; trades: number; netPnl: number };
  // Rounds of REPEATS runs on each thread at once, after the warm-up round; the figure is the
  // median round, as the one-core figure is the median run.
  const rounds: number[] = [];
  let same = true;
  for (let round = 0; round < BOTH_CORES_ROUNDS; round += 1) {
    const start = performance.now();
    const answers = await everyThread({ ruleSet, runs: REPEATS });
    const seconds = (performance.now() - start) / 1000;
    same &&= answers.every((answer) => answer.trades === single.trades && answer.netPnl === single.netPnl);
    rounds.push((THREADS * REPEATS * BARS) / seconds / 1e6);
  }
  if (!same) differs = true;
  const millions = median(rounds);
  const verdict = millions >= budget ? 'met' : 'NOT met';
  console.log(`${name}, both cores (${THREADS} threads x ${REPEATS} runs at once on one copy of the bars in shared memory; after a warm-up round (${warmUp.toFixed(1)}, not counted), the median of ${BOTH_CORES_ROUNDS} rounds: `
    + `${rounds.map((value) => value.toFixed(1)).join(', ')}): ${millions.toFixed(1)} M bars/s, `
    + `${(millions / (BARS / single.seconds / 1e6)).toFixed(2)}x one core; every thread's trades ${same ? 'equal' : 'DIFFER FROM'} the one-core run's (budget >= ${budget} M bars/s: ${verdict})`);
}
await Promise.all(workers.map((worker) => worker.terminate()));
if (differs) process.exitCode = 1;
