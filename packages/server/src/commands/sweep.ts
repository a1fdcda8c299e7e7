// `vyuha sweep` and `vyuha walkforward`: every combination of an algorithm's $parameters (or a
// seeded sample) backtested on one OHLCV CSV or on stored history (--symbol: sweep-stored.ts) over
// worker threads, read as a ranked table, the best cell and its stability (sweep), or rolled
// through in-sample/out-of-sample windows with the overfitting gap (walkforward). Inputs: sweep-cli.ts; threads: ../sweep/run-pool.ts.
//
// Invariants:
// - The estimated credits (../sweep/credits.ts) go to stderr before anything runs, and into
//   --json as `estimatedCredits`.
// - --json rows are the engine's rows (index, bindings, metrics), the same as a serial runSweep.
import type { AlgorithmParameter, SweepMetric, SweepMetrics, SweepResult, SweepRow, WalkForwardResult, WalkForwardSpec } from '@vyuha/engine';
import { BacktestConfigError, rankValue, stability, SWEEP_METRICS, sweepHeatmap, SweepError, walkForwardWindows } from '@vyuha/engine';
import { formatRupees } from '@vyuha/core';
import { largestWarmup, sweepCredits, walkForwardCredits, type CreditEstimate } from '../sweep/credits';
import { SweepPool } from '../sweep/run-pool';
import { configIssues } from './backtest-cli';
import { parseOptions, print, UsageError, type CliCommand } from './command';
import { gridText, refuse, SWEEP_OPTIONS, sweepInputsOf, wholeOption, type SweepInputs, type SweepValues } from './sweep-cli';
import { CSV_RUNS, withStoredSweep, type PoolRuns } from './sweep-stored';

const COMMON = `  --data        candle CSV (datetime,open,high,low,close,volume[,oi]), as vyuha backtest
  --symbol      instead of --data: stored history of an instrument (with --from and --to, IST
                dates), traded as vyuha backtest --symbol and the web app's sweep trade it: an
                index as its near-month future, a stock as shares
  --options     with --symbol: option legs (LEGS.json, as vyuha backtest --options) on the index,
                priced from imported option candles where stored, else the synthetic chain
  --algo        algorithm JSON with "parameters" (and "constraints"); or --entry/--exit
  --param       NAME=FROM:TO:STEP, repeatable: a $NAME the expressions use, swept from FROM to
                TO by STEP (on --algo: replaces that parameter's range)
  --constraint  a condition on parameters only, repeatable, e.g. '$fast < $slow'
  --metric      what ranks the runs: netPnl, returnPercent, sharpe (default), winRate, profitFactor,
                trades, maxDrawdown, maxDrawdownPercent (lower is better for the last two)
  --sample N    a seeded random sample of N combinations instead of all (--seed S, default 1)
  --workers N   worker threads (default: one per core)
  --json        print the result as JSON (paise as integers)
  --type, --interval, --capital, --sizing, --lot-size, --fill, --charges, --from, --to: as vyuha
                backtest (with --symbol: as vyuha backtest --symbol)

The estimated credits (candles processed: combinations x candles, as the runs they contain) are
printed to stderr before the runs start.
`;

const SWEEP_USAGE = `Usage: vyuha sweep (--data FILE.csv | --symbol S --from D --to D [--options LEGS.json])
                   (--algo FILE.json | --entry EXPR [--exit EXPR])
                   [--param NAME=FROM:TO:STEP ...] [--constraint EXPR ...] [--metric NAME]
                   [--sample N [--seed S]] [--workers N] [--top N] [--heatmap X,Y] [--json]
                   [backtest options]

Backtests every combination of the algorithm's parameters (all of them, or a seeded sample) on
the CSV or the stored history, spread over worker threads, and prints the top rows by the
metric, the best row, and the stability around it: every row within one step of the best in
each parameter, their mean and range against the best (near 1: a plateau; well below: a lone
peak).

${COMMON}  --top N       rows in the table (default 10; --json has every row)
  --heatmap X,Y the metric over parameters X and Y, the others at the best row's values
`;

const WALKFORWARD_USAGE = `Usage: vyuha walkforward (--data FILE.csv | --symbol S --from D --to D [--options LEGS.json])
                         (--algo FILE.json | --entry EXPR [--exit EXPR])
                         --in-sample-days N --out-of-sample-days M [--step-days S] [--anchored]
                         [--param NAME=FROM:TO:STEP ...] [--constraint EXPR ...] [--metric NAME]
                         [--sample N [--seed S]] [--workers N] [--json] [backtest options]

Rolls windows over the bars' trading days: each window sweeps its N in-sample days, keeps the best
combination by the metric, and runs it on the next M days (out of sample; indicators warm up on
the bars before). Prints the windows, the stitched out-of-sample result and the overfitting gap:
the in-sample annualised return (mean over windows) against the out-of-sample one.

  --in-sample-days      trading days each choice is made on
  --out-of-sample-days  trading days each choice then runs on
  --step-days           days between window starts (default --out-of-sample-days; not less)
  --anchored            every in-sample window starts at the first day (and grows)
${COMMON}`;

const SWEEP_FLAGS = { ...SWEEP_OPTIONS, top: { type: 'string' }, heatmap: { type: 'string' } } as const;
const WALKFORWARD_FLAGS = {
  ...SWEEP_OPTIONS, 'in-sample-days': { type: 'string' }, 'out-of-sample-days': { type: 'string' }, 'step-days': { type: 'string' }, 'anchored': { type: 'boolean' },
} as const;

const decimals = (value: number | 'infinite' | null, digits = 2): string => {
  if (value === 'infinite') return 'infinite';
  return value === null || !Number.isFinite(value) ? '-' : value.toFixed(digits);
};

/** A value of `metric` as text: rupees for the paise ones, a percent for the win rate. */
function valueText(value: number | 'infinite' | null, metric: SweepMetric): string {
  if (value === null || value === 'infinite') return decimals(value);
  if (metric === 'netPnl' || metric === 'maxDrawdown') return formatRupees(value);
  if (metric === 'winRate') return `${decimals(value * 100, 1)}%`;
  if (metric === 'trades') return decimals(value, Number.isInteger(value) ? 0 : 2);
  return decimals(value);
}

function metricText(metrics: SweepMetrics, metric: SweepMetric): string {
  return valueText(metrics[metric], metric);
}

function bindingsText(bindings: Readonly<Record<string, number>>): string {
  return Object.entries(bindings).map(([name, value]) => `${name}=${value}`).join(' ');
}

/** Columns: the parameters, then the metrics. */
function table(rows: readonly SweepRow[], parameters: readonly AlgorithmParameter[]): string {
  const header = ['#', ...parameters.map((parameter) => parameter.name), 'sharpe', 'return %', 'net P&L', 'max DD %', 'trades', 'win %', 'PF'];
  const lines = rows.map((row) => [
    String(row.index), ...parameters.map((parameter) => String(row.bindings[parameter.name])),
    decimals(row.metrics.sharpe), decimals(row.metrics.returnPercent), formatRupees(row.metrics.netPnl), decimals(row.metrics.maxDrawdownPercent),
    String(row.metrics.trades), row.metrics.winRate === null ? '-' : decimals(row.metrics.winRate * 100, 1), decimals(row.metrics.profitFactor),
  ]);
  return aligned([header, ...lines]);
}

/** Right-aligned columns, two spaces apart. */
function aligned(cells: readonly (readonly string[])[]): string {
  const widths = (cells[0] as readonly string[]).map((_cell, column) => Math.max(...cells.map((row) => (row[column] ?? '').length)));
  return cells.map((row) => row.map((cell, column) => cell.padStart(widths[column] as number)).join('  ')).join('\n');
}

/** The rows best first by the metric (its own direction: SWEEP_METRICS); ties and rows without a value in grid order, the latter last. */
function ranked(rows: readonly SweepRow[], metric: SweepMetric): SweepRow[] {
  const better = SWEEP_METRICS[metric] === 'max' ? 1 : -1;
  const valueOf = (row: SweepRow): number | null => {
    const value = rankValue(row.metrics, metric);
    return value === null || Number.isNaN(value) ? null : value;
  };
  return [...rows].sort((a, b) => {
    const [x, y] = [valueOf(a), valueOf(b)];
    if (x === null || y === null) return x === y ? a.index - b.index : x === null ? 1 : -1;
    return x === y ? a.index - b.index : (x > y ? -better : better);
  });
}

function announce(command: string, estimate: CreditEstimate): void {
  process.stderr.write(`vyuha ${command}: estimated credits ${estimate.credits.toLocaleString('en-US')} (${estimate.detail})\n`);
}

/** Runs `work` on a pool of the inputs' threads; refusals of the engine become exit code 1 lines. */
async function onPool<T>(command: string, inputs: SweepInputs, work: (pool: SweepPool) => Promise<T>): Promise<T | number> {
  const pool = SweepPool.start(inputs.series, { workers: inputs.workers });
  try {
    return await work(pool);
  } catch (error) {
    if (error instanceof BacktestConfigError) return refuse(command, configIssues(error));
    if (error instanceof SweepError) return refuse(command, [error.message]);
    throw error;
  } finally {
    await pool.close();
  }
}

function heatmapOf(values: SweepValues, result: SweepResult, parameters: readonly AlgorithmParameter[]) {
  if (values.heatmap === undefined) return undefined;
  const axes = String(values.heatmap).split(',').map((name) => name.trim().replace(/^\$/, ''));
  const names = parameters.map((parameter) => parameter.name);
  if (axes.length !== 2 || axes.some((name) => !names.includes(name)) || axes[0] === axes[1]) {
    throw new UsageError(`--heatmap must be two different parameters X,Y of ${names.join(', ')}, got "${String(values.heatmap)}"`);
  }
  const fixed = Object.fromEntries(Object.entries(result.best?.bindings ?? result.rows[0]?.bindings ?? {}).filter(([name]) => !axes.includes(name)));
  return sweepHeatmap(result.rows, { x: axes[0] as string, y: axes[1] as string, metric: result.metric, fixed });
}

function sweepText(inputs: SweepInputs, result: SweepResult, extras: { top: number; heatmap: ReturnType<typeof heatmapOf> }): string {
  const { parameters, metric } = inputs;
  const lines = [
    `Sweep of ${result.rows.length.toLocaleString('en-US')} combinations of ${gridText(parameters, inputs.constraints)}`
      + `${inputs.sample === undefined ? '' : ` (a sample, seed ${inputs.sample.seed})`} on ${inputs.series.length.toLocaleString('en-US')} candles of ${inputs.source}`,
    '',
    `Top ${Math.min(extras.top, result.rows.length)} by ${metric}:`,
    table(ranked(result.rows, metric).slice(0, extras.top), parameters),
    '',
  ];
  const { best } = result;
  if (best === undefined) {
    lines.push(`Best: none (no run has a value for ${metric})`);
  } else {
    const around = stability(result.rows, { best, metric, parameters });
    lines.push(
      `Best: ${bindingsText(best.bindings)} (row ${best.index}): ${metric} ${metricText(best.metrics, metric)}, return ${decimals(best.metrics.returnPercent)}%, `
        + `net P&L ${formatRupees(best.metrics.netPnl)}, ${best.metrics.trades} trades`,
      `Stability (rows within one step of the best in each parameter): ${around.neighbours} rows, ${around.count} with a value; `
        + `mean ${decimals(around.mean)} (${decimals(around.meanOverBest)} of the best), min ${decimals(around.min)}, max ${decimals(around.max)}`,
    );
  }
  if (extras.heatmap !== undefined) {
    const { heatmap } = extras;
    lines.push('', `${metric} over ${heatmap.x} (columns) and ${heatmap.y} (rows):`, aligned([
      [`${heatmap.y} \\ ${heatmap.x}`, ...heatmap.xValues.map(String)],
      ...heatmap.cells.map((cells, j) => [String(heatmap.yValues[j]), ...cells.map((cell) => decimals(cell))]),
    ]));
  }
  lines.push('', `Candles processed: ${result.candlesProcessed.toLocaleString('en-US')} (the credits used)`);
  return lines.join('\n');
}

/** The command's inputs and how its runs are made: stored history with --symbol, else the --data CSV. */
async function withInputs(command: string, values: SweepValues, work: (inputs: SweepInputs, runs: PoolRuns) => Promise<number>): Promise<number> {
  if (values.symbol !== undefined) return withStoredSweep(command, values, work);
  const { inputs, errors } = sweepInputsOf(values);
  if (inputs === undefined) return refuse(command, errors);
  return work(inputs, CSV_RUNS);
}

async function runSweepCommand(args: readonly string[]): Promise<number> {
  const { values } = parseOptions(args, SWEEP_FLAGS);
  const top = wholeOption(values, 'top', { min: 1, max: 100_000 }) ?? 10;
  return withInputs('sweep', values, async (inputs, runs) => {
    const estimate = sweepCredits(inputs.combinations.length, inputs.series.length);
    announce('sweep', estimate);
    const { document, config, combinations, metric } = inputs;
    const result = await onPool('sweep', inputs, (pool) => runs.sweep(pool, { document, config, combinations, metric }));
    if (typeof result === 'number') return result;
    const heatmap = heatmapOf(values, result, inputs.parameters);
    if (values.json === true) {
      const around = result.best === undefined ? null : stability(result.rows, { best: result.best, metric, parameters: inputs.parameters });
      print(JSON.stringify({
        metric, parameters: inputs.parameters, constraints: inputs.constraints, sample: inputs.sample ?? null, workers: inputs.workers,
        candles: inputs.series.length, estimatedCredits: estimate.credits, candlesProcessed: result.candlesProcessed,
        rows: result.rows, best: result.best ?? null, stability: around, heatmap: heatmap ?? null,
      }, null, 2));
    } else {
      print(sweepText(inputs, result, { top, heatmap }));
    }
    return 0;
  });
}

function specOf(values: SweepValues): WalkForwardSpec {
  const days = (name: string, required: boolean): number | undefined => {
    if (required && values[name] === undefined) throw new UsageError(`--${name} is required`);
    return wholeOption(values, name, { min: 1, max: 100_000 });
  };
  const stepDays = days('step-days', false);
  return {
    inSampleDays: days('in-sample-days', true) as number,
    outOfSampleDays: days('out-of-sample-days', true) as number,
    ...(stepDays === undefined ? {} : { stepDays }),
    ...(values.anchored === true ? { anchored: true } : {}),
  };
}

const FLAG_OF_SPEC: Readonly<Record<string, string>> = { inSampleDays: '--in-sample-days', outOfSampleDays: '--out-of-sample-days', stepDays: '--step-days' };

function walkForwardText(inputs: SweepInputs, spec: WalkForwardSpec, result: WalkForwardResult): string {
  const { metric } = inputs;
  const header = ['#', 'in sample', 'out of sample', 'chosen', `IS ${metric}`, `OOS ${metric}`, 'IS return %', 'OOS return %', 'OOS net P&L'];
  const rows = result.windows.map((window) => [
    String(window.index), `${window.inSample.fromDate}..${window.inSample.toDate}`, `${window.outOfSample.fromDate}..${window.outOfSample.toDate}`,
    bindingsText(window.chosen), metricText(window.inSampleMetrics, metric), metricText(window.outOfSampleMetrics, metric),
    decimals(window.inSampleMetrics.returnPercent), decimals(window.outOfSampleMetrics.returnPercent), formatRupees(window.outOfSampleNetPnl),
  ]);
  const stitched = result.outOfSampleMetrics;
  const gap = result.overfitting;
  return [
    `Walk-forward: ${result.windows.length} windows (in sample ${spec.inSampleDays} days, out of sample ${spec.outOfSampleDays}, `
      + `step ${spec.stepDays ?? spec.outOfSampleDays}, ${spec.anchored === true ? 'anchored' : 'rolling'}), `
      + `${inputs.combinations.length.toLocaleString('en-US')} combinations (${gridText(inputs.parameters, inputs.constraints)}), chosen by ${metric}, on ${inputs.source}`,
    '',
    aligned([header, ...rows]),
    '',
    `Stitched out of sample (${stitched.tradingDays} days): return ${decimals(stitched.returnPercent)}%, net P&L ${formatRupees(stitched.netPnl)}, `
      + `sharpe ${decimals(stitched.sharpe)}, max drawdown ${decimals(stitched.maxDrawdownPercent)}%, ${stitched.trades} trades`,
    `Overfitting gap: in sample ${decimals(gap.inSampleAnnualReturnPercent)}% a year (mean over windows), out of sample `
      + `${decimals(gap.outOfSampleAnnualReturnPercent)}% a year: gap ${decimals(gap.gapPercent)} points; efficiency ${decimals(gap.efficiency)}; `
      + `${metric} gap ${valueText(gap.metricGap, metric)}`,
    '',
    `Candles processed: ${result.candlesProcessed.toLocaleString('en-US')} (the credits used)`,
  ].join('\n');
}

async function runWalkForwardCommand(args: readonly string[]): Promise<number> {
  const { values } = parseOptions(args, WALKFORWARD_FLAGS);
  const spec = specOf(values);
  return withInputs('walkforward', values, async (inputs, runs) => {
    const windows = walkForwardWindows(inputs.series, spec);
    if (!windows.ok) return refuse('walkforward', windows.error.map((issue) => `${FLAG_OF_SPEC[issue.field] ?? issue.field}: ${issue.message}`));
    const { document, config, combinations, metric } = inputs;
    let warmup: number;
    try {
      warmup = largestWarmup(document, combinations);
    } catch (error) {
      if (error instanceof SweepError) return refuse('walkforward', [error.message]);
      throw error;
    }
    const estimate = walkForwardCredits(windows.value, { combinations: combinations.length, warmup });
    announce('walkforward', estimate);
    const request = { series: inputs.series, document, config, combinations, metric, windows: windows.value };
    const result = await onPool('walkforward', inputs, (pool) => runs.walkForward(pool, request));
    if (typeof result === 'number') return result;
    if (values.json === true) {
      const { equity: _equity, ...rest } = result;
      print(JSON.stringify({
        ...rest, spec, parameters: inputs.parameters, constraints: inputs.constraints, sample: inputs.sample ?? null, combinations: combinations.length,
        workers: inputs.workers, candles: inputs.series.length, estimatedCredits: estimate.credits,
      }, null, 2));
    } else {
      print(walkForwardText(inputs, spec, result));
    }
    return 0;
  });
}

export const sweepCommand: CliCommand = { name: 'sweep', usage: SWEEP_USAGE, run: runSweepCommand };
export const walkforwardCommand: CliCommand = { name: 'walkforward', usage: WALKFORWARD_USAGE, run: runWalkForwardCommand };
