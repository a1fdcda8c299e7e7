// `npm run bench sweep` (in packages/server): a 1,000-combination sweep of the SMA crossover on a
// year of seeded 1-minute bars (250 sessions x 375 bars), on the sweep pool with 1 thread and with
// 2, measured in the same run: wall time (threads loaded beforehand, and with their start), the
// 1 -> 2 thread speed-up against issue 20's 1.8x, the cores the process got (CPU time over wall
// time: on a machine shared with other work, below the thread count), and checks that both results are identical and
// that their first rows equal a serial runSweep. Prints figures; it times nothing as a test.
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';
import { algorithmFromExpressions, gridSize, parameterGrid, runSweep } from '@vyuha/engine';
import type { BacktestConfigInput, SweepResult } from '@vyuha/engine';
import { SweepPool } from '../src/sweep/run-pool';
import { sessionBars } from '../test/helpers/session-bars';

const ACCEPTANCE = 1.8;
const SERIAL_SUBSET = 20;

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
const size = gridSize(parameters, constraints);
const grid = parameterGrid(parameters, constraints);
if (!size.ok || !grid.ok) throw new Error('the grid is valid');
const combinations = grid.value;
const job = { document, config, combinations, metric: 'sharpe' as const };

const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const rate = (ms: number): string => `${((combinations.length * series.length) / (ms / 1000) / 1e6).toFixed(1)} M bars/s`;

/** The pool's wall times, and the CPU time of the whole process (every thread) during the sweep. */
async function timed(workers: number): Promise<{ result: SweepResult; total: number; sweep: number; cpu: number }> {
  const started = performance.now();
  const pool = SweepPool.start(series, { workers });
  try {
    await pool.ready();
    const loaded = performance.now();
    const cpuBefore = process.cpuUsage();
    const result = await pool.sweep(job);
    const ended = performance.now();
    const cpu = process.cpuUsage(cpuBefore);
    return { result, total: ended - started, sweep: ended - loaded, cpu: (cpu.user + cpu.system) / 1000 };
  } finally {
    await pool.close();
  }
}

console.log(`series: ${series.length.toLocaleString('en-US')} 1-minute bars (250 sessions x 375), seeded`);
console.log(`grid: $fast 2..41 by 1 x $slow 50..290 by 10, ${constraints.join(', ')}: ${size.value.combinations} combinations, ${combinations.length} valid`);
console.log(`runs: ${combinations.length} x ${series.length.toLocaleString('en-US')} bars = ${(combinations.length * series.length).toLocaleString('en-US')} bars (the credits)`);

// CPU seconds over wall seconds: the cores the process actually got (near the thread count on an idle machine).
const cores = (run: { cpu: number; sweep: number }): string => `CPU ${seconds(run.cpu)}, ${(run.cpu / run.sweep).toFixed(2)} cores busy on average`;
const one = await timed(1);
console.log(`1 thread : sweep ${seconds(one.sweep)} (${rate(one.sweep)}; ${cores(one)}), with thread start ${seconds(one.total)}`);
const two = await timed(2);
console.log(`2 threads: sweep ${seconds(two.sweep)} (${rate(two.sweep)}; ${cores(two)}), with thread start ${seconds(two.total)}`);

const speedUp = one.sweep / two.sweep;
const verdict = speedUp >= ACCEPTANCE ? 'met' : 'NOT met';
console.log(`speed-up 1 -> 2 threads: ${speedUp.toFixed(2)}x (with thread start ${(one.total / two.total).toFixed(2)}x); acceptance >= ${ACCEPTANCE}x: ${verdict}`);

const identical = isDeepStrictEqual(one.result, two.result);
const serial = runSweep({ series, ...job, combinations: combinations.slice(0, SERIAL_SUBSET) });
const subsetEqual = isDeepStrictEqual(serial.rows, one.result.rows.slice(0, SERIAL_SUBSET));
console.log(`1-thread and 2-thread results identical: ${identical ? 'yes' : 'NO'}; first ${SERIAL_SUBSET} rows equal a serial runSweep: ${subsetEqual ? 'yes' : 'NO'}`);
const best = one.result.best;
console.log(`best by sharpe: ${best === undefined ? 'none' : `fast=${best.bindings.fast} slow=${best.bindings.slow}, sharpe ${best.metrics.sharpe?.toFixed(2) ?? '-'}, ${best.metrics.trades} trades`}`);
if (!identical || !subsetEqual) process.exitCode = 1;
