// Kernel throughput: bars per second on 1 M one-minute bars for
// (a) the SMA(10)/SMA(20) crossover, hand-written (two rolling sums, no compiler),
// (b) the same crossover compiled from `crossover(sma(close, 10), sma(close, 20))`,
// (c) a rule set of ten indicators, compiled,
// each run through runBacktest (kernel + underlying trader + simulated venue + ledger) on one core
// (every run of a thread writing its ledger and its equity's runs of bars into one set of buffers,
// RunBuffers, as the platform's backtest threads do: jobs/backtest-thread.ts) and printed against a reference measured in this run: a bare loop over the same arrays that
// computes the same crossover and flips a position (the floor of one pass over the data). The
// reference is timed between the runs it is compared with (one-core: after each run; both cores:
// after each round, on both threads), since on this VM the speed of work that reads memory changes
// for seconds at a time: each figure is printed with the reference's speed at the same moments and
// the ratio between them.
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
import { runBacktest, runBuffers, seriesOfShared, shareSeries, smaCrossoverProgram } from '@vyuha/engine';
import type { BarSeries, SignalProgram } from '@vyuha/engine';
import { BARS, CONFIG, referenceLoop, RULE_SETS, syntheticSeries, type RuleSetName } from './kernel-support';
import type { ThreadAnswer, ThreadRequest } from './kernel-thread';

const REPEATS = 15;
/** Runs discarded first, so the figures are the optimised code's, not the interpreter's. */
const WARMUP_RUNS = 2;
const THREADS = 2;
/** Rounds of REPEATS runs on every thread at once; the both-core figure is their median. */
const BOTH_CORES_ROUNDS = 5;
/** Reference loops timed after each one-core run (about 30 ms on this VM). */
const REFERENCE_PASSES = 5;
/** Reference loops per thread in the round after each both-core round (about 0.4 s on this VM, a round's length). */
const REFERENCE_ROUND_RUNS = 60;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

interface Timed {
  /** The median run's seconds. */
  readonly seconds: number;
  readonly result: unknown;
  /** The reference loop's bars per second, timed after each run: median, slowest and fastest. */
  readonly reference: { readonly median: number; readonly slowest: number; readonly fastest: number };
}

/** `run`'s median time after WARMUP_RUNS, with the reference loop timed after each counted run. */
function time(run: () => unknown): Timed {
  const seconds: number[] = [];
  const references: number[] = [];
  let result: unknown;
  for (let repeat = 0; repeat < WARMUP_RUNS + REPEATS; repeat += 1) {
    const start = performance.now();
    result = run();
    if (repeat < WARMUP_RUNS) continue;
    seconds.push((performance.now() - start) / 1000);
    const referenceStart = performance.now();
    for (let pass = 0; pass < REFERENCE_PASSES; pass += 1) referenceLoop(series);
    references.push((REFERENCE_PASSES * BARS) / ((performance.now() - referenceStart) / 1000));
  }
  return { seconds: median(seconds), result, reference: { median: median(references), slowest: Math.min(...references), fastest: Math.max(...references) } };
}

/** The reference's speed beside a figure, and the figure as a share of it. */
function besideReference(barsPerSecond: number, reference: Timed['reference']): string {
  const millions = (value: number): string => (value / 1e6).toFixed(1);
  return `the reference loop between its runs ${millions(reference.median)} M bars/s (${millions(reference.slowest)}-${millions(reference.fastest)}), `
    + `${(reference.median / barsPerSecond).toFixed(1)}x this`;
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
const buffers = runBuffers();
const reference = time(() => referenceLoop(series));
const rate = (seconds: number): string => `${(BARS / seconds / 1e6).toFixed(1)} M bars/s`;
console.log(`reference bare loop (SMA crossover over the same arrays), one core: ${rate(reference.seconds)} (${String(reference.result)} position changes); `
  + `timed again after each of those runs: ${(reference.reference.median / 1e6).toFixed(1)} M bars/s (${(reference.reference.slowest / 1e6).toFixed(1)}-${(reference.reference.fastest / 1e6).toFixed(1)})`);

const cases: Array<[string, (s: BarSeries) => SignalProgram]> = [
  ['SMA(10)/SMA(20) crossover, hand-written program', (s) => smaCrossoverProgram(s, { fast: 10, slow: 20 })],
  ['SMA(10)/SMA(20) crossover, compiled', RULE_SETS.crossover],
  ['ten-indicator rule set, compiled', RULE_SETS.tenIndicators],
];
const oneCore = new Map<string, { seconds: number; trades: number; netPnl: number }>();
for (const [name, program] of cases) {
  const measured = time(() => runBacktest({ series, program: program(series), config: CONFIG, ...buffers }));
  const result = measured.result as ReturnType<typeof runBacktest>;
  oneCore.set(name, { seconds: measured.seconds, trades: result.summary.trades, netPnl: result.summary.netPnl });
  console.log(`${name}, one core: ${rate(measured.seconds)}, ${result.summary.trades} trades; ${besideReference(BARS / measured.seconds, measured.reference)}`);
}

// The same compiled crossover with a 0.3% stop, a 0.6% target and a 0.2% trailing stop, 1-tick
// slippage: every bar in a position is matched as its tick path against the protective levels
// (the matching core), so this is the figure that shows what stops and targets cost per bar.
const protectedConfig = {
  ...CONFIG, slippage: { kind: 'ticks', ticks: 1 }, stopLoss: { kind: 'percent', percent: 0.3 },
  target: { kind: 'percent', percent: 0.6 }, trailingStop: { kind: 'percent', percent: 0.2 },
} as const;
const withStops = time(() => runBacktest({ series, program: RULE_SETS.crossover(series), config: protectedConfig, ...buffers }));
const stopsResult = withStops.result as ReturnType<typeof runBacktest>;
console.log(`SMA crossover, compiled, with stop, target and trailing stop, one core: ${rate(withStops.seconds)}, ${stopsResult.summary.trades} trades; ${besideReference(BARS / withStops.seconds, withStops.reference)}`);

// The ledger keeps orders, fills and trades in columns; a consumer that wants every record as an
// object (the server writing rows, a trade list) pays for that when it reads them. Shown here so
// the figure above is not mistaken for the whole cost of such a consumer.
const withObjects = time(() => {
  const result = runBacktest({ series, program: RULE_SETS.crossover(series), config: CONFIG, ...buffers });
  return result.orders.length + result.fills.length + result.trades.length;
});
console.log(`SMA crossover, compiled, then every order, fill and trade read as an object (${String(withObjects.result)} records), one core: ${rate(withObjects.seconds)}`);

// A run of one instrument keeps its equity as runs of bars (flat, or held between two fills) and
// builds the column when it is read: a consumer that charts or measures the equity pays for it.
const withEquity = time(() => runBacktest({ series, program: RULE_SETS.crossover(series), config: CONFIG, ...buffers }).equity.length);
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
  // Each round is followed by one of the reference loop on both threads: the machine's two-core
  // speed at that moment, and how many times the round's figure it is.
  const rounds: number[] = [];
  const references: number[] = [];
  /** Each reference round's speed over the round before it. */
  const ratios: number[] = [];
  let same = true;
  for (let round = 0; round < BOTH_CORES_ROUNDS; round += 1) {
    const start = performance.now();
    const answers = await everyThread({ ruleSet, runs: REPEATS });
    const seconds = (performance.now() - start) / 1000;
    same &&= answers.every((answer) => answer.trades === single.trades && answer.netPnl === single.netPnl);
    rounds.push((THREADS * REPEATS * BARS) / seconds / 1e6);
    const referenceStart = performance.now();
    const flips = await everyThread({ ruleSet: 'reference', runs: REFERENCE_ROUND_RUNS });
    same &&= flips.every((answer) => answer.trades === reference.result);
    references.push((THREADS * REFERENCE_ROUND_RUNS * BARS) / ((performance.now() - referenceStart) / 1000) / 1e6);
    ratios.push((references.at(-1) as number) / (rounds.at(-1) as number));
  }
  if (!same) differs = true;
  const millions = median(rounds);
  const verdict = millions >= budget ? 'met' : 'NOT met';
  console.log(`${name}, both cores (${THREADS} threads x ${REPEATS} runs at once on one copy of the bars in shared memory; after a warm-up round (${warmUp.toFixed(1)}, not counted), the median of ${BOTH_CORES_ROUNDS} rounds: `
    + `${rounds.map((value) => value.toFixed(1)).join(', ')}): ${millions.toFixed(1)} M bars/s, `
    + `${(millions / (BARS / single.seconds / 1e6)).toFixed(2)}x one core; every thread's trades ${same ? 'equal' : 'DIFFER FROM'} the one-core run's (budget >= ${budget} M bars/s: ${verdict}); `
    + `the reference loop on both threads after each round: ${references.map((value) => value.toFixed(0)).join(', ')} M bars/s, `
    + `${ratios.map((value) => `${value.toFixed(1)}x`).join(', ')} the round before it (median ${median(ratios).toFixed(1)}x)`);
}
await Promise.all(workers.map((worker) => worker.terminate()));
if (differs) process.exitCode = 1;
