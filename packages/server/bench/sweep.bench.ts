// `npm run bench sweep` (in packages/server): a 1,000-combination sweep of the SMA crossover on a
// year of seeded 1-minute bars (250 sessions x 375 bars) on the sweep pool, measured in the same
// run on one core and on two:
// - 1 core: the pool with 1 thread in a child process pinned to one CPU (`taskset`), so that
//   everything the process does (the thread's runs, V8's garbage collector and compiler threads,
//   the main thread) shares that one core;
// - 1 thread: the pool with 1 thread in this process, free to use both cores (V8's helper threads
//   then run on the idle one: CPU time over wall time shows how much);
// - 2 cores: the pool with 2 threads in this process.
// 1 core and 2 cores are measured in alternating rounds (BENCH_ROUNDS, default 5). It prints wall
// times (threads loaded beforehand, and with their start) and the speed-up from 1 to 2 cores against
// issue 20's 1.8x (the fastest 1-core sweep of the rounds over the fastest 2-core one, with each
// round's own ratio), twice: for the first sweep of fresh threads, which each pay about 0.5 s of CPU
// more than later sweeps while V8 optimises the engine's code, and for the same grid over another
// year's bars given to the same threads after it, as a worker process's later sweeps run (it keeps
// its threads: jobs/sweep-threads.ts). With each sweep, its CPU time by thread (Linux's
// /proc/self/task): the pool's threads, and the process's other threads together, mostly V8's
// compiler and garbage-collector helpers, whose work each thread's isolate does for itself; and
// the process's page faults and system CPU (each thread's first touches of fresh memory).
// With each round, the machine's own references: an integer loop, and passes over an 8 MB array,
// that share nothing, the same work over 1 thread on the pinned core and over 2 threads
// (referenceLoop), timed before, between and after the two sweeps; their speed-ups on either side
// of a sweep are what these two cores gave such work at those moments, and the sweep's is printed
// as a share of each, round by round.
// Then the speed-up from 1 to 2 threads, the cores each run
// got, and checks that every result is identical and that their first rows equal a serial
// runSweep of their year, and the indicators the 2 threads computed once between them in their
// shared arena (SharedColumns). Last, a
// 100-combination sweep of the ten-indicator rule set on this thread with its runs sharing their
// indicators (IndicatorCache) and each computing its own. Then a sweep of an option-legs strategy
// (a bought ATM call on a crossover of NIFTY, priced on the synthetic chain from INDIA VIX, a year
// of generated minutes) on the pool with 1 thread and with 2, the legs sent as their
// traders' data (sweep-legs.ts), rows checked against a serial runSweep. Prints figures; it times
// nothing as a test.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { Worker } from 'node:worker_threads';
import { algorithmFromExpressions, gridSize, IndicatorCache, optionsLegsTraderFactory, parameterGrid, parseOptionsLegsConfig, runSweep, runSweepChunk } from '@vyuha/engine';
import type { BarSeries } from '@vyuha/engine';
import { generateSyntheticMarket, isRegularTradingDay, joinSyntheticSeries } from '@vyuha/market';
import type { BacktestConfigInput, SharedColumnsUse, SweepResult, SweepRow } from '@vyuha/engine';
import { tenIndicatorRules } from '../../engine/bench/kernel-support';
import { SweepPool, workerEntry } from '../src/sweep/run-pool';
import { sessionBars } from '../test/helpers/session-bars';

const ACCEPTANCE = 1.8;
const SERIAL_SUBSET = 20;
/** Alternating 1-core and 2-core measurements (BENCH_ROUNDS, default 5). */
const ROUNDS = Math.max(1, Number.parseInt(process.env.BENCH_ROUNDS ?? '5', 10) || 5);
/** argv of the pinned child: `--one-core <file>` writes its measurement there as JSON. */
const ONE_CORE_FLAG = '--one-core';

const parameters = [
  { name: 'fast', default: 10, from: 2, to: 41, step: 1 },
  { name: 'slow', default: 100, from: 50, to: 290, step: 10 },
];
const constraints = ['$fast < $slow'];
const document = {
  ...algorithmFromExpressions({ entry: 'crossover(sma(close, $fast), sma(close, $slow))', exit: 'crossunder(sma(close, $fast), sma(close, $slow))' }),
  parameters, constraints,
};
const config: BacktestConfigInput = { type: 'intraday', sizing: { kind: 'quantity', quantity: 50 }, charges: { kind: 'schedule', exchange: 'NSE', instrument: 'future' } };

const series = sessionBars({ days: 250, barsPerDay: 375, minutes: 1, seed: 2024 });
/** Another year of bars (another seed), for the second sweep on the same threads. */
const nextYear = sessionBars({ days: 250, barsPerDay: 375, minutes: 1, seed: 2025 });
const size = gridSize(parameters, constraints);
const grid = parameterGrid(parameters, constraints);
if (!size.ok || !grid.ok) throw new Error('the grid is valid');
const combinations = grid.value;
const job = { document, config, combinations, metric: 'sharpe' as const };

interface Measured {
  readonly result: SweepResult;
  /** Wall ms with the threads' start. */
  readonly total: number;
  /** Wall ms of the sweep alone. */
  readonly sweep: number;
  /** CPU ms of the whole process (every thread) during the sweep. */
  readonly cpu: number;
  /** Of that, CPU ms in the kernel, and the process's minor page faults (first touches of fresh memory) during the sweep. */
  readonly system: number;
  readonly faults: number;
  /** The same CPU ms by thread (threadCpuSplit); undefined without /proc. */
  readonly split: ThreadCpuSplit | undefined;
  /**
   * Then the same grid over another year's bars on the same threads (their code optimised by the
   * first sweep), as a worker process's later sweeps run (jobs/sweep-threads.ts keeps its pool):
   * wall and CPU ms from giving the pool the series to the last row, and the result.
   */
  readonly kept: { readonly sweep: number; readonly cpu: number; readonly split: ThreadCpuSplit | undefined; readonly result: SweepResult };
  /**
   * Wall ms of the references on as many threads (referenceLoop), around the sweeps: before the
   * first, between the two, after the second. On this VM the speed of work that reads memory
   * changes for seconds at a time (docs/BUDGETS.md), so each sweep is read against the references
   * that bracket it.
   */
  readonly reference: { readonly before: ReferenceTimes; readonly between: ReferenceTimes; readonly after: ReferenceTimes };
  /** What the threads computed into their shared indicator arena during the first sweep (each indicator once for all of them). */
  readonly indicators: SharedColumnsUse;
}

/** Linux's clock ticks per second (USER_HZ), the unit of a task's CPU times in /proc. */
const CLOCK_TICKS = 100;

/** CPU ms of each thread of this process so far, by Linux task id (/proc/self/task); undefined without /proc. */
function threadCpu(): Map<string, number> | undefined {
  let tasks: string[];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return undefined;
  }
  const cpu = new Map<string, number>();
  for (const task of tasks) {
    try {
      const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      // utime and stime: the 14th and 15th fields, the 12th and 13th after the command name's ")".
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpu.set(task, ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return cpu;
}

/**
 * Where a sweep's CPU went: the `workers` busiest threads (the pool's: they run the backtests)
 * and every other thread of the process together (V8's compiler and garbage-collector helper
 * threads, which an isolate's work puts on whatever core is free, and the main thread). Each
 * pool thread's isolate compiles and collects for itself, so this shows the cost that two
 * threads pay twice.
 */
interface ThreadCpuSplit {
  readonly pool: readonly number[];
  readonly others: number;
}

function threadCpuSplit(before: Map<string, number> | undefined, after: Map<string, number> | undefined, workers: number): ThreadCpuSplit | undefined {
  if (before === undefined || after === undefined) return undefined;
  const spent = [...after].map(([task, ms]) => ms - (before.get(task) ?? 0)).sort((a, b) => b - a);
  return { pool: spent.slice(0, workers), others: spent.slice(workers).reduce((sum, ms) => sum + ms, 0) };
}

/**
 * The machine's own references, measured in the same rounds: fixed amounts of work that share
 * nothing, split evenly over `workers` threads, the threads started, their memory touched and the
 * loops optimised beforehand.
 * - compute: an integer random-number loop (no memory traffic, no allocation). Its 1 -> 2 core
 *   speed-up is the most two cores of this machine give any work.
 * - memory: each thread summing its own 8 MB array over and over (beyond the core's own caches,
 *   as a sweep's runs read a year's closes and indicator columns). On this VM the speed of such
 *   work changes for seconds at a time while the compute loop's does not (docs/BUDGETS.md).
 * The sweep's speed-up is read against both.
 */
const REFERENCE_ITERATIONS = 400_000_000;
/** Array elements the memory reference reads in all (about 0.4 s on one thread here). */
const REFERENCE_READS = 500 * 1_048_576;
const REFERENCE_THREAD = `
const { parentPort } = require('node:worker_threads');
const values = new Float64Array(1_048_576);
for (let index = 0; index < values.length; index += 1) values[index] = index * 0.5;
function compute(iterations) {
  let state = 1;
  let total = 0;
  for (let index = 0; index < iterations; index += 1) {
    state = (Math.imul(state, 1103515245) + 12345) | 0;
    total = (total + (state >>> 28)) | 0;
  }
  return total;
}
function memory(passes) {
  let total = 0;
  for (let pass = 0; pass < passes; pass += 1) for (let index = 0; index < values.length; index += 1) total += values[index];
  return total;
}
parentPort.on('message', ({ kind, amount }) => parentPort.postMessage(kind === 'compute' ? compute(amount) : memory(amount)));
parentPort.postMessage('ready');
`;

/** Wall ms of each reference's work split over `workers` threads. */
interface ReferenceTimes {
  readonly compute: number;
  readonly memory: number;
}

async function referenceLoop(workers: number): Promise<ReferenceTimes> {
  const threads = Array.from({ length: workers }, () => new Worker(REFERENCE_THREAD, { eval: true }));
  const answers = (kind: keyof ReferenceTimes, amount: number): Promise<unknown[]> => Promise.all(threads.map((thread) => new Promise((resolve) => {
    thread.once('message', resolve);
    thread.postMessage({ kind, amount });
  })));
  const timedWork = async (kind: keyof ReferenceTimes, amount: number): Promise<number> => {
    const started = performance.now();
    await answers(kind, Math.round(amount / workers));
    return performance.now() - started;
  };
  try {
    await Promise.all(threads.map((thread) => new Promise((resolve) => thread.once('message', resolve))));
    await answers('compute', 1_000_000);
    await answers('memory', 2);
    return { compute: await timedWork('compute', REFERENCE_ITERATIONS), memory: await timedWork('memory', REFERENCE_READS / 1_048_576) };
  } finally {
    await Promise.all(threads.map((thread) => thread.terminate()));
  }
}

/**
 * The pool's wall times, and the CPU time of the whole process (every thread) during each sweep.
 * The thread entry is bundled from the sources before the clock starts: a process does that once
 * (the CLI's bundle brings its own), and the pinned child, a new process each round, would
 * otherwise count it in every 1-core start while the 2-core pools of this process reuse theirs.
 */
async function timed(workers: number): Promise<Measured> {
  workerEntry();
  const started = performance.now();
  const pool = SweepPool.start(series, { workers });
  try {
    await pool.ready();
    const ready = performance.now();
    const before = await referenceLoop(workers);
    const loaded = performance.now();
    const cpuBefore = process.cpuUsage();
    const faultsBefore = process.resourceUsage().minorPageFault;
    const threadsBefore = threadCpu();
    const result = await pool.sweep(job);
    const ended = performance.now();
    const cpu = process.cpuUsage(cpuBefore);
    const faults = process.resourceUsage().minorPageFault - faultsBefore;
    const threadsAfter = threadCpu();
    const indicators = pool.sharedIndicators;
    const between = await referenceLoop(workers);
    const keptCpuBefore = process.cpuUsage();
    const keptStart = performance.now();
    pool.useSeries(nextYear);
    const kept = await pool.sweep(job);
    const keptSweep = performance.now() - keptStart;
    const keptCpu = process.cpuUsage(keptCpuBefore);
    const keptThreads = threadCpuSplit(threadsAfter, threadCpu(), workers);
    const reference = { before, between, after: await referenceLoop(workers) };
    return {
      result, total: ended - loaded + (ready - started), sweep: ended - loaded, cpu: (cpu.user + cpu.system) / 1000, system: cpu.system / 1000, faults, split: threadCpuSplit(threadsBefore, threadsAfter, workers),
      kept: { sweep: keptSweep, cpu: (keptCpu.user + keptCpu.system) / 1000, split: keptThreads, result: kept }, reference, indicators,
    };
  } finally {
    await pool.close();
  }
}

/**
 * The 1-thread measurement in a child process pinned to the last CPU with `taskset` (util-linux);
 * undefined, with the reason printed, where the machine has no taskset or one CPU.
 */
function onOneCore(): Measured | undefined {
  if (availableParallelism() < 2) {
    console.log('1 core   : not measured apart (this machine offers one CPU)');
    return undefined;
  }
  const folder = mkdtempSync(join(tmpdir(), 'vyuha-sweep-bench-'));
  try {
    const file = join(folder, 'one-core.json');
    const cpu = String(availableParallelism() - 1);
    const child = spawnSync('taskset', ['--cpu-list', cpu, process.execPath, ...process.execArgv, fileURLToPath(import.meta.url), ONE_CORE_FLAG, file], { stdio: ['ignore', 'inherit', 'inherit'] });
    if (child.error !== undefined || child.status !== 0) {
      console.log(`1 core   : not measured (taskset --cpu-list ${cpu} failed: ${child.error?.message ?? `exit code ${child.status}`})`);
      return undefined;
    }
    return JSON.parse(readFileSync(file, 'utf8')) as Measured;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const rate = (ms: number): string => `${((combinations.length * series.length) / (ms / 1000) / 1e6).toFixed(1)} M bars/s`;
// CPU seconds over wall seconds: the cores the process actually got.
const cores = (run: Measured): string => `CPU ${seconds(run.cpu)}, ${(run.cpu / run.sweep).toFixed(2)} cores busy on average`;
// Per thread at 10 ms resolution: the pool's threads, then the rest of the process.
const bySplit = (split: ThreadCpuSplit | undefined): string => split === undefined ? ''
  : ` = pool thread${split.pool.length === 1 ? '' : 's'} ${split.pool.map(seconds).join(' + ')}, other threads ${seconds(split.others)}`;
const line = (label: string, run: Measured): string => `${label}: sweep ${seconds(run.sweep)} (${rate(run.sweep)}; ${cores(run)}${bySplit(run.split)}; `
  + `${run.faults.toLocaleString('en-US')} page faults, system CPU ${seconds(run.system)}), with thread start ${seconds(run.total)}; `
  + `then another year's bars on the same threads ${seconds(run.kept.sweep)} (${rate(run.kept.sweep)}; CPU ${seconds(run.kept.cpu)}${bySplit(run.kept.split)}); `
  + `references before, between and after them: compute ${[run.reference.before, run.reference.between, run.reference.after].map((times) => seconds(times.compute)).join(', ')}, `
  + `memory ${[run.reference.before, run.reference.between, run.reference.after].map((times) => seconds(times.memory)).join(', ')}`;

const childFile = process.argv[2] === ONE_CORE_FLAG ? process.argv[3] : undefined;
if (childFile !== undefined) {
  writeFileSync(childFile, JSON.stringify(await timed(1)));
} else {
  console.log(`series: ${series.length.toLocaleString('en-US')} 1-minute bars (250 sessions x 375), seeded`);
  console.log(`grid: $fast 2..41 by 1 x $slow 50..290 by 10, ${constraints.join(', ')}: ${size.value.combinations} combinations, ${combinations.length} valid`);
  console.log(`runs: ${combinations.length} x ${series.length.toLocaleString('en-US')} bars = ${(combinations.length * series.length).toLocaleString('en-US')} bars (the credits)`);

  // This VM's speed drifts by 20% from one minute to the next: 1 core and 2 cores are measured in
  // alternating rounds and the verdict is on the median of the rounds' ratios.
  const rounds: Array<{ pinned: Measured | undefined; two: Measured }> = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    const pinned = onOneCore();
    if (pinned !== undefined) console.log(line(`1 core   #${round}`, pinned) + ' (1 thread, the process pinned to one CPU)');
    const two = await timed(2);
    console.log(line(`2 cores  #${round}`, two) + ' (2 threads)');
    rounds.push({ pinned, two });
  }
  const one = await timed(1);
  console.log(line('1 thread   ', one) + ' (the process free to use every CPU)');
  const last = rounds[rounds.length - 1] as { pinned: Measured | undefined; two: Measured };

  const median = (values: number[]): number => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  };
  const verdict = (ratio: number): string => `acceptance >= ${ACCEPTANCE}x: ${ratio >= ACCEPTANCE ? 'met' : 'NOT met'}`;
  const pinnedRounds = rounds.filter((round): round is { pinned: Measured; two: Measured } => round.pinned !== undefined);
  if (pinnedRounds.length > 0) {
    // The verdict is the fastest 1-core sweep over the fastest 2-core one. This VM's slow phases
    // (docs/BUDGETS.md) only ever add time, and one that falls on a round's 1-core sweep alone
    // (4.1-4.2 s against 2.7 s, the integer reference unchanged) makes that round's ratio 2-2.5x:
    // a median of such rounds can read "met" while every quiet round reads 1.6-1.7x. The fastest
    // of several runs is each setup's time undisturbed; the rounds' own ratios are printed beside it.
    const fastest = (runs: readonly number[]): number => Math.min(...runs);
    const bestOf = (sweep: (run: Measured) => number): number => fastest(pinnedRounds.map((round) => sweep(round.pinned))) / fastest(pinnedRounds.map((round) => sweep(round.two)));
    const ratios = pinnedRounds.map((round) => round.pinned.sweep / round.two.sweep);
    const speedUp = bestOf((run) => run.sweep);
    const byRound = (values: number[]): string => `by round ${values.map((ratio) => `${ratio.toFixed(2)}x`).join(', ')} (median ${median(values).toFixed(2)}x)`;
    console.log(`speed-up 1 -> 2 cores: ${speedUp.toFixed(2)}x, the fastest 1-core sweep over the fastest 2-core one of ${pinnedRounds.length} rounds (with thread start ${bestOf((run) => run.total).toFixed(2)}x); ${byRound(ratios)}; ${verdict(speedUp)}`);
    // Each fresh thread optimises the engine's code for itself: two threads pay that twice for the
    // same runs. A worker process keeps its threads across sweeps (jobs/sweep-threads.ts), so only
    // its first sweep pays it; its later sweeps are the kept figure.
    const keptRatios = pinnedRounds.map((round) => round.pinned.kept.sweep / round.two.kept.sweep);
    const keptSpeedUp = bestOf((run) => run.kept.sweep);
    console.log(`speed-up 1 -> 2 cores, a later sweep (another year's bars) on the threads kept from the first: ${keptSpeedUp.toFixed(2)}x, fastest over fastest; ${byRound(keptRatios)}; ${verdict(keptSpeedUp)}`);
    // The machine's own speed-up at each sweep's moments: the references on either side of the
    // 1-core sweep against those on either side of the 2-core one, in the same round.
    const around = (run: Measured, sweep: 'fresh' | 'kept', kind: keyof ReferenceTimes): number =>
      (sweep === 'fresh' ? run.reference.before : run.reference.after)[kind] + run.reference.between[kind];
    const percent = (value: number): string => `${(value * 100).toFixed(0)}%`;
    const references: Array<[keyof ReferenceTimes, string]> = [
      ['compute', `${(REFERENCE_ITERATIONS / 1e6).toFixed(0)} M iterations of an integer loop`],
      ['memory', `${(REFERENCE_READS / 1_048_576).toFixed(0)} passes over an 8 MB array, each thread its own`],
    ];
    for (const [kind, what] of references) {
      for (const [label, sweepRatios, sweep] of [['the sweep', ratios, 'fresh'], ['a later sweep', keptRatios, 'kept']] as const) {
        const machineRatios = pinnedRounds.map((round) => around(round.pinned, sweep, kind) / around(round.two, sweep, kind));
        const shares = sweepRatios.map((ratio, index) => ratio / (machineRatios[index] as number));
        console.log(`${kind} reference, 1 -> 2 cores for work that shares nothing (${what}, over 1 thread and 2), timed on either side of ${label}: `
          + `${median(machineRatios).toFixed(2)}x, the median of ${machineRatios.map((ratio) => `${ratio.toFixed(2)}x`).join(', ')}; ${label}'s speed-up is ${shares.map(percent).join(', ')} of it in the same rounds (median ${percent(median(shares))})`);
      }
    }
  }
  const threadsUp = one.sweep / last.two.sweep;
  console.log(`speed-up 1 -> 2 threads: ${threadsUp.toFixed(2)}x against the last 2-core round (with thread start ${(one.total / last.two.total).toFixed(2)}x; the 1-thread run had V8's helper threads on the second core)${pinnedRounds.length === 0 ? `; ${verdict(threadsUp)}` : ''}`);

  const sent = JSON.parse(JSON.stringify(one.result)) as unknown;
  const sentKept = JSON.parse(JSON.stringify(one.kept.result)) as unknown;
  const identical = rounds.every((round) => isDeepStrictEqual(one.result, round.two.result) && isDeepStrictEqual(one.kept.result, round.two.kept.result)
    && (round.pinned === undefined || (isDeepStrictEqual(sent, round.pinned.result) && isDeepStrictEqual(sentKept, round.pinned.kept.result))));
  const serial = runSweep({ series, ...job, combinations: combinations.slice(0, SERIAL_SUBSET) });
  const serialKept = runSweep({ series: nextYear, ...job, combinations: combinations.slice(0, SERIAL_SUBSET) });
  const subsetEqual = isDeepStrictEqual(serial.rows, one.result.rows.slice(0, SERIAL_SUBSET)) && isDeepStrictEqual(serialKept.rows, one.kept.result.rows.slice(0, SERIAL_SUBSET))
    && !isDeepStrictEqual(serial.rows, serialKept.rows);
  console.log(`results identical (${pinnedRounds.length === 0 ? '1 thread, 2 threads' : '1 core, 1 thread, 2 cores'}, every round): ${identical ? 'yes' : 'NO'}; first ${SERIAL_SUBSET} rows of each year equal a serial runSweep of that year: ${subsetEqual ? 'yes' : 'NO'}`);
  const { indicators } = last.two;
  console.log(`indicators the 2 threads computed once between them, in their shared arena: ${indicators.indicators} (${indicators.columns} columns, ${((indicators.columns * series.length * 8) / 1_048_576).toFixed(0)} MB; each thread kept its own before)`);
  const best = one.result.best;
  console.log(`best by sharpe: ${best === undefined ? 'none' : `fast=${best.bindings.fast} slow=${best.bindings.slow}, sharpe ${best.metrics.sharpe?.toFixed(2) ?? '-'}, ${best.metrics.trades} trades`}`);
  if (!identical || !subsetEqual) process.exitCode = 1;

  // Shared indicators: a sweep of the kernel benchmark's ten-indicator rule set over two of its
  // parameters, serially on this thread, its runs reading one IndicatorCache or each computing its own.
  const tenParameters = [{ name: 'fast', default: 9, from: 5, to: 14, step: 1 }, { name: 'rsi', default: 14, from: 10, to: 19, step: 1 }];
  const tenDocument = {
    ...algorithmFromExpressions(tenIndicatorRules({ fast: '$fast', rsi: '$rsi' })),
    parameters: tenParameters, constraints: [],
  };
  const tenGrid = parameterGrid(tenParameters, []);
  if (!tenGrid.ok) throw new Error('the ten-indicator grid is valid');
  const tenJob = { series, document: tenDocument, config, combinations: tenGrid.value, metric: 'sharpe' as const, from: 0, to: tenGrid.value.length };
  const timedChunk = (indicators: IndicatorCache): { ms: number; rows: SweepRow[] } => {
    const started = performance.now();
    const rows = runSweepChunk({ ...tenJob, indicators });
    return { ms: performance.now() - started, rows };
  };
  // A cache that keeps nothing covers nothing: each run computes its own indicators.
  const own = timedChunk(new IndicatorCache(series, { maxBytes: 0 }));
  const sharedCache = new IndicatorCache(series);
  const shared = timedChunk(sharedCache);
  const sameRows = isDeepStrictEqual(own.rows, shared.rows);
  console.log(`ten indicators, ${tenGrid.value.length} combinations ($fast 5..14 x $rsi 10..19), 1 thread: each run computing its indicators ${seconds(own.ms)}, `
    + `sharing them ${seconds(shared.ms)} (${(own.ms / shared.ms).toFixed(2)}x; ${sharedCache.stats.misses} indicators computed, ${sharedCache.stats.hits} read); rows identical: ${sameRows ? 'yes' : 'NO'}`);
  if (!sameRows) process.exitCode = 1;

  // Option legs on the threads: the same sweep on 1 thread and on 2, and a serial reference.
  const sessions = [];
  for (let day = Date.UTC(2025, 0, 1); day < Date.UTC(2026, 0, 1); day += 86_400_000) {
    const date = new Date(day).toISOString().slice(0, 10);
    if (isRegularTradingDay('NSE', date as never)) sessions.push({ date, openMinute: 9 * 60 + 15, closeMinute: 15 * 60 + 30 });
  }
  const months = [...generateSyntheticMarket({ sessions, seed: 'sweep-bench-legs', instruments: ['NIFTY 50', 'INDIA VIX'] })];
  const nifty = joinSyntheticSeries(months, 'NIFTY 50');
  const rupees = (column: Int32Array): Float64Array => Float64Array.from(column, (value) => value / 100);
  const legsSeries: BarSeries = {
    length: nifty.time.length, time: nifty.time, open: rupees(nifty.open), high: rupees(nifty.high), low: rupees(nifty.low), close: rupees(nifty.close),
    volume: new Float64Array(nifty.time.length), oi: new Float64Array(nifty.time.length).fill(Number.NaN),
  };
  const legs = {
    config: parseOptionsLegsConfig({ underlying: 'NIFTY', onBuy: [{ option: 'CE', side: 'buy', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1, stopLoss: { percent: 30 } }] }),
    vix: rupees(joinSyntheticSeries(months, 'INDIA VIX').close), fill: 'next-open' as const,
  };
  const legsParameters = [{ name: 'fast', default: 10, from: 5, to: 20, step: 5 }, { name: 'slow', default: 60, from: 30, to: 200, step: 10 }];
  const legsGrid = parameterGrid(legsParameters, ['$fast < $slow']);
  if (!legsGrid.ok) throw new Error('the option-legs grid is valid');
  const legsJob = {
    document: { ...algorithmFromExpressions({ entry: 'crossover(sma(close, $fast), sma(close, $slow))', exit: 'crossunder(sma(close, $fast), sma(close, $slow))' }), parameters: legsParameters, constraints: ['$fast < $slow'] },
    config: { type: 'intraday', capital: 50_000_000, charges: { kind: 'schedule', exchange: 'NSE', instrument: 'option' } } as BacktestConfigInput,
    combinations: legsGrid.value, metric: 'netPnl' as const,
    legs: { ...legs, candles: { storedSymbols: (): string[] => [], loadedColumns: () => new Map() } },
  };
  // Wall ms of the first sweep on fresh threads and of the same sweep again on them.
  const legsTimed = async (workers: number): Promise<{ ms: number; again: number; result: SweepResult }> => {
    const pool = SweepPool.start(legsSeries, { workers });
    try {
      await pool.ready();
      const started = performance.now();
      const result = await pool.sweep(legsJob);
      const ms = performance.now() - started;
      const againStarted = performance.now();
      const again = await pool.sweep(legsJob);
      if (!isDeepStrictEqual(again, result)) throw new Error('the second option-legs sweep on the same pool differs from the first');
      return { ms, again: performance.now() - againStarted, result };
    } finally {
      await pool.close();
    }
  };
  const legsOne = await legsTimed(1);
  const legsTwo = await legsTimed(2);
  const { legs: _legs, ...serialJob } = legsJob;
  const legsSerial = runSweep({
    ...serialJob, series: legsSeries, combinations: legsGrid.value.slice(0, 5),
    trader: optionsLegsTraderFactory({ ...legs, slippage: { kind: 'none' } }),
  });
  const legsSame = isDeepStrictEqual(legsOne.result, legsTwo.result) && isDeepStrictEqual(legsSerial.rows, legsOne.result.rows.slice(0, 5));
  const legsTrades = legsOne.result.rows.reduce((sum, row) => sum + row.metrics.trades, 0);
  console.log(`option legs, ${legsGrid.value.length} combinations ($fast x $slow, a bought ATM weekly call) on ${legsSeries.length.toLocaleString('en-US')} minutes (${legsTrades} trades): `
    + `1 thread ${seconds(legsOne.ms)}, 2 threads ${seconds(legsTwo.ms)} (${(legsOne.ms / legsTwo.ms).toFixed(2)}x); again on the same threads ${seconds(legsOne.again)} and ${seconds(legsTwo.again)} (${(legsOne.again / legsTwo.again).toFixed(2)}x); `
    + `identical, first 5 rows equal a serial runSweep: ${legsSame ? 'yes' : 'NO'}`);
  if (!legsSame) process.exitCode = 1;
}
