import type { IsoDate, Result } from '@vyuha/core';
import { err, ok } from '@vyuha/core';
import type { ParameterBindings } from '../algorithm/parameters';
import type { BarSeries, PositionContext, Signal, SignalProgram } from '../algorithm/program';
import { SIGNAL_NONE } from '../algorithm/program';
import type { BacktestConfigInput } from '../backtest/config';
import { runBacktest } from '../backtest/run-backtest';
import type { BacktestResult } from '../backtest/run-backtest';
import type { ContractChain } from '../kernel/contract-chain';
import type { TraderFactory, WindowTraders } from '../kernel/trader';
import type { DailyResult, RoundTripTrade } from '../metrics/metrics-input';
import type { Ratio } from '../metrics/risk-ratios';
import { TRADING_DAYS_PER_YEAR } from '../metrics/risk-ratios';
import { compileCombination, runInputsOf, runSweep, sweepResult } from './run-sweep';
import type { SweepRequest, SweepResult, SweepRow } from './run-sweep';
import { sliceContractChain } from './sliced-chain';
import type { SeriesDays, SweepMetric, SweepMetrics } from './sweep-metrics';
import { dailyResultOf, measure, rankValue, roundTripOf, seriesDays, sweepMetricsOf } from './sweep-metrics';

/*
 * Walk-forward (README.md, "Walk-forward"): for each window, sweep the in-sample days, keep the
 * best combination, and run it on the out-of-sample days that follow.
 *
 * Invariants:
 * - The in-sample sweep runs on a copy of the in-sample bars only: later bars are not in its
 *   series at all, so nothing after the in-sample end can reach the choice.
 * - The out-of-sample run gets `warmup` bars before the window (past data) so indicators are
 *   defined, and no signal acts before the window's first bar.
 * - With `contracts` (an index's futures), each run trades the chain cut to its own bars
 *   (sliced-chain.ts), so the in-sample runs see no contract price after the in-sample end either.
 *   With `traders` (option legs), each run's trader is made for its own bars (INDIA VIX and the
 *   option candles cut to them: optionsLegsWindowTraders). A sweep's `trader`, one factory over
 *   the whole series, is refused.
 * - Each window starts from the configured capital; the stitched equity adds the windows' P&L
 *   in order (no compounding across windows), so each window is independent of the others.
 */

export interface WalkForwardSpec {
  readonly inSampleDays: number;
  readonly outOfSampleDays: number;
  /** Days between window starts; default outOfSampleDays; never less (out-of-sample windows may not overlap). */
  readonly stepDays?: number;
  /** In-sample windows all start at the series' first day (and grow) instead of rolling. */
  readonly anchored?: boolean;
}

/** Days `fromDay` .. `toDay` - 1 of the series and their bars. */
export interface DayRange {
  readonly fromDay: number;
  readonly toDay: number;
  readonly fromBar: number;
  /** Exclusive. */
  readonly toBar: number;
  readonly fromDate: IsoDate;
  readonly toDate: IsoDate;
}

export interface WalkForwardWindow {
  readonly index: number;
  readonly inSample: DayRange;
  readonly outOfSample: DayRange;
}

export interface WalkForwardIssue {
  readonly field: string;
  readonly message: string;
}

function dayRange(days: SeriesDays, fromDay: number, toDay: number): DayRange {
  return {
    fromDay, toDay,
    fromBar: days.firstBar[fromDay] as number,
    toBar: days.firstBar[toDay] as number,
    fromDate: days.dates[fromDay] as IsoDate,
    toDate: days.dates[toDay - 1] as IsoDate,
  };
}

function wholeDays(value: number | undefined, field: string, minimum: number): WalkForwardIssue[] {
  if (value !== undefined && Number.isSafeInteger(value) && value >= minimum) return [];
  return [{ field, message: `must be a whole number of trading days >= ${minimum}, got ${String(value)}` }];
}

/**
 * The windows over the series' IST trading days: window k's in-sample days start at k x step
 * (rolling) or at day 0 (anchored) and end at k x step + inSampleDays; its out-of-sample days are
 * the next outOfSampleDays. Only windows whose out-of-sample days all exist are made.
 * @example walkForwardWindows(series, { inSampleDays: 60, outOfSampleDays: 20 }) // ok: windows k = 0, 1, ... every 20 days
 */
export function walkForwardWindows(series: BarSeries, spec: WalkForwardSpec): Result<WalkForwardWindow[], WalkForwardIssue[]> {
  const stepDays = spec.stepDays ?? spec.outOfSampleDays;
  const issues = [
    ...wholeDays(spec.inSampleDays, 'inSampleDays', 1),
    ...wholeDays(spec.outOfSampleDays, 'outOfSampleDays', 1),
    ...wholeDays(stepDays, 'stepDays', 1),
  ];
  if (issues.length === 0 && stepDays < spec.outOfSampleDays) {
    issues.push({ field: 'stepDays', message: `must be at least outOfSampleDays (${spec.outOfSampleDays}) so out-of-sample windows do not overlap, got ${stepDays}` });
  }
  if (issues.length > 0) return err(issues);
  const days = seriesDays(series);
  const count = days.dates.length;
  const windows: WalkForwardWindow[] = [];
  for (let start = 0; start + spec.inSampleDays + spec.outOfSampleDays <= count; start += stepDays) {
    const inSampleEnd = start + spec.inSampleDays;
    windows.push({
      index: windows.length,
      inSample: dayRange(days, spec.anchored === true ? 0 : start, inSampleEnd),
      outOfSample: dayRange(days, inSampleEnd, inSampleEnd + spec.outOfSampleDays),
    });
  }
  if (windows.length === 0) {
    const needed = spec.inSampleDays + spec.outOfSampleDays;
    return err([{ field: 'inSampleDays', message: `the series has ${count} trading days; one window needs ${needed} (in-sample + out-of-sample)` }]);
  }
  return ok(windows);
}

/** Bars `from` .. `to` - 1 as a new series holding copies of those bars only. */
export function sliceSeries(series: BarSeries, from: number, to: number): BarSeries {
  return {
    length: to - from,
    time: series.time.slice(from, to),
    open: series.open.slice(from, to),
    high: series.high.slice(from, to),
    low: series.low.slice(from, to),
    close: series.close.slice(from, to),
    volume: series.volume.slice(from, to),
    oi: series.oi.slice(from, to),
  };
}

/**
 * `inner` with every signal before bar `firstLiveBar` turned into NONE: indicators still see the
 * warm-up bars, actions do not fire on them. `nextSignalBar` never points before `firstLiveBar`.
 */
export function gatedProgram(inner: SignalProgram, firstLiveBar: number): SignalProgram {
  const onBar = (index: number, position: PositionContext): Signal => {
    const signal = inner.onBar(index, position);
    return index < firstLiveBar ? SIGNAL_NONE : signal;
  };
  const next = inner.nextSignalBar;
  if (next === undefined) return { warmup: inner.warmup, onBar };
  return {
    warmup: inner.warmup,
    onBar,
    nextSignalBar: (from, position, before = Number.POSITIVE_INFINITY) => {
      const start = Math.max(from, firstLiveBar);
      return start >= before ? before : next.call(inner, start, position, before);
    },
  };
}

export interface WalkForwardRequest {
  readonly series: BarSeries;
  readonly document: unknown;
  readonly config?: BacktestConfigInput;
  /** The combinations each in-sample sweep runs, in grid order (ties go to the first). */
  readonly combinations: readonly ParameterBindings[];
  readonly metric: SweepMetric;
  /** From `walkForwardWindows` over the same series. */
  readonly windows: readonly WalkForwardWindow[];
  /** Every run trades this chain (built over `series`), cut to the run's bars. */
  readonly contracts?: ContractChain;
  /** Option legs: every run's trader factory, made for the run's bars of `series` (optionsLegsWindowTraders). */
  readonly traders?: WindowTraders;
}

/** Refuses a request carrying a trader factory (a sweep's field, spread into a walk-forward by mistake). */
function checkNoTrader(request: WalkForwardRequest): void {
  if ((request as { trader?: unknown }).trader !== undefined) {
    throw new RangeError('trader: a walk-forward cuts the bars into windows, and this trader factory reads the whole series; give `traders` (a factory per window, optionsLegsWindowTraders) instead');
  }
}

/** A run's inputs over bars `from` .. `to` - 1 only: the series copied, the chain and the trader (if any) cut the same way. */
function slicedInputs(request: WalkForwardRequest, from: number, to: number): { series: BarSeries; contracts?: ContractChain; trader?: TraderFactory } {
  const series = sliceSeries(request.series, from, to);
  return {
    series,
    ...(request.contracts === undefined ? {} : { contracts: sliceContractChain(request.contracts, series, from) }),
    ...(request.traders === undefined ? {} : { trader: request.traders({ from, to }) }),
  };
}

export interface WalkForwardWindowResult extends WalkForwardWindow {
  /** The in-sample winner's index in `combinations` and its bindings. */
  readonly chosenIndex: number;
  readonly chosen: ParameterBindings;
  readonly inSampleMetrics: SweepMetrics;
  readonly outOfSampleMetrics: SweepMetrics;
  /** The request's metric in sample (the winner's) and out of sample. */
  readonly inSampleMetric: Ratio;
  readonly outOfSampleMetric: Ratio;
  /** Bars before the out-of-sample window the run read for warm-up. */
  readonly warmupBars: number;
  /** The out-of-sample run's own P&L, paise. */
  readonly outOfSampleNetPnl: number;
  /** In-sample sweep plus out-of-sample run. */
  readonly candlesProcessed: number;
}

export interface OverfittingGap {
  /** Mean over windows of the in-sample return % x 252 / in-sample trading days. */
  readonly inSampleAnnualReturnPercent: number;
  /** The stitched out-of-sample return % x 252 / out-of-sample trading days. */
  readonly outOfSampleAnnualReturnPercent: number;
  /** In-sample minus out-of-sample annualised return, percentage points. */
  readonly gapPercent: number;
  /** Out-of-sample over in-sample annualised return; null unless the in-sample one is above 0. */
  readonly efficiency: number | null;
  /** The mean in-sample metric minus the stitched out-of-sample metric; null when either is not a finite number. */
  readonly metricGap: number | null;
}

export interface WalkForwardResult {
  readonly metric: SweepMetric;
  readonly windows: readonly WalkForwardWindowResult[];
  /** The out-of-sample equity of every window, stitched: times and equity (paise) per bar. */
  readonly equity: { readonly times: Float64Array; readonly equity: Float64Array };
  readonly outOfSampleMetrics: SweepMetrics;
  /** The mean of the windows' in-sample metric (finite values only); null when none. */
  readonly meanInSampleMetric: number | null;
  readonly overfitting: OverfittingGap;
  readonly candlesProcessed: number;
}

/**
 * The in-sample sweep of one window: `runSweep` over a copy of the window's in-sample bars only
 * (a worker thread may run it in chunks over the same copy: `inSampleSeries`).
 */
export function inSampleSweep(request: WalkForwardRequest, window: WalkForwardWindow): SweepResult {
  return runSweep(inSampleRequest(request, window));
}

/**
 * The sweep request of a window's in-sample runs: its bars copied and, with `contracts`, the chain
 * cut to them (chunks of it through `runSweepChunk` merge to `inSampleSweep`'s rows).
 */
export function inSampleRequest(request: WalkForwardRequest, window: WalkForwardWindow): SweepRequest {
  checkNoTrader(request);
  const { document, combinations, metric } = request;
  return { document, combinations, metric, ...runInputsOf({ config: request.config }), ...slicedInputs(request, window.inSample.fromBar, window.inSample.toBar) };
}

/** A copy of the window's in-sample bars: nothing after the in-sample end is in it. */
export function inSampleSeries(series: BarSeries, window: WalkForwardWindow): BarSeries {
  return sliceSeries(series, window.inSample.fromBar, window.inSample.toBar);
}

/** The in-sample choice: the sweep's best row, or its first row when no row has a value. */
function chosenRow(sweep: SweepResult): SweepRow {
  const row = sweep.best ?? sweep.rows[0];
  if (row === undefined) throw new RangeError('combinations: a walk-forward needs at least one combination');
  return row;
}

interface OutOfSampleRun {
  readonly result: BacktestResult;
  readonly series: BarSeries;
  readonly days: SeriesDays;
  /** The first out-of-sample day and bar inside the run's series. */
  readonly firstDay: number;
  readonly firstBar: number;
}

function runOutOfSample(request: WalkForwardRequest, window: WalkForwardWindow, chosen: { bindings: ParameterBindings; index: number }): OutOfSampleRun {
  const compiled = compileCombination(request.document, chosen.bindings, chosen.index);
  const { fromBar, toBar } = window.outOfSample;
  const start = Math.max(0, fromBar - compiled.warmup);
  const { series, contracts, trader } = slicedInputs(request, start, toBar);
  const firstBar = fromBar - start;
  const program = { exits: compiled.exits, createProgram: (bars: BarSeries) => gatedProgram(compiled.createProgram(bars), firstBar) };
  const result = runBacktest({ series, program, ...runInputsOf({ config: request.config, contracts, trader }) });
  const days = seriesDays(series);
  const firstDay = days.firstBar.indexOf(firstBar);
  return { result, series, days, firstDay, firstBar };
}

function finiteOrNull(value: number | null): number | null {
  return value !== null && Number.isFinite(value) ? value : null;
}

function meanOf(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
}

function annualised(metrics: SweepMetrics): number {
  return metrics.tradingDays === 0 ? 0 : (metrics.returnPercent * TRADING_DAYS_PER_YEAR) / metrics.tradingDays;
}

/** Stitches the out-of-sample runs: P&L added window after window onto the capital. */
function stitch(runs: readonly OutOfSampleRun[], capital: number): { times: Float64Array; equity: Float64Array; metrics: SweepMetrics } {
  const bars = runs.reduce((sum, run) => sum + Math.max(0, run.result.equity.length - run.firstBar), 0);
  const times = new Float64Array(bars);
  const equity = new Float64Array(bars);
  let at = 0;
  let carried = 0;
  const tradingDays: IsoDate[] = [];
  const days: DailyResult[] = [];
  const trades: RoundTripTrade[] = [];
  let candles = 0;
  for (const run of runs) {
    const { result, series, firstBar } = run;
    for (let index = firstBar; index < result.equity.length; index += 1) {
      times[at] = series.time[index] as number;
      equity[at] = (result.equity[index] as number) + carried;
      at += 1;
    }
    carried += (result.equity[result.equity.length - 1] ?? capital) - capital;
    const firstDate = run.days.dates[run.firstDay] as IsoDate;
    tradingDays.push(...run.days.dates.slice(run.firstDay));
    days.push(...result.days.filter((day) => day.date >= firstDate).map(dailyResultOf));
    trades.push(...result.trades.filter((trade) => trade.entryIndex >= firstBar).map(roundTripOf));
    candles += result.candlesProcessed;
  }
  return { times, equity, metrics: measure({ capital, tradingDays, days, trades, equity, candlesProcessed: candles }) };
}

/**
 * The walk-forward from each window's in-sample sweep rows, however they were computed (serially,
 * or chunked over threads and merged: the rows must be those `inSampleSweep` gives). `inSample`
 * is called for the windows in order, each after the previous window's out-of-sample run, so
 * errors surface in the serial order. Throws SweepError, BacktestConfigError, RangeError.
 */
export function walkForwardFromSweeps(
  request: WalkForwardRequest,
  inSample: (window: WalkForwardWindow, index: number) => readonly SweepRow[],
): WalkForwardResult {
  if (request.windows.length === 0) throw new RangeError('windows: a walk-forward needs at least one window');
  checkNoTrader(request);
  const results: WalkForwardWindowResult[] = [];
  const runs: OutOfSampleRun[] = [];
  request.windows.forEach((window, index) => {
    const sweep = sweepResult(inSample(window, index), request.metric);
    const row = chosenRow(sweep);
    const run = runOutOfSample(request, window, row);
    runs.push(run);
    const outOfSampleMetrics = sweepMetricsOf(run.result, { days: run.days, fromDay: run.firstDay });
    results.push({
      ...window,
      chosenIndex: row.index,
      chosen: row.bindings,
      inSampleMetrics: row.metrics,
      outOfSampleMetrics,
      inSampleMetric: row.metrics[request.metric],
      outOfSampleMetric: outOfSampleMetrics[request.metric],
      warmupBars: run.firstBar,
      outOfSampleNetPnl: outOfSampleMetrics.netPnl,
      candlesProcessed: sweep.candlesProcessed + run.result.candlesProcessed,
    });
  });
  const capital = (runs[0] as OutOfSampleRun).result.config.capital;
  const stitched = stitch(runs, capital);
  const meanInSampleMetric = meanOf(results.map((window) => finiteOrNull(rankValue(window.inSampleMetrics, request.metric))).filter((value): value is number => value !== null));
  const inSampleAnnual = meanOf(results.map((window) => annualised(window.inSampleMetrics))) ?? 0;
  const outOfSampleAnnual = annualised(stitched.metrics);
  const outOfSampleMetric = finiteOrNull(rankValue(stitched.metrics, request.metric));
  return {
    metric: request.metric,
    windows: results,
    equity: { times: stitched.times, equity: stitched.equity },
    outOfSampleMetrics: stitched.metrics,
    meanInSampleMetric,
    overfitting: {
      inSampleAnnualReturnPercent: inSampleAnnual,
      outOfSampleAnnualReturnPercent: outOfSampleAnnual,
      gapPercent: inSampleAnnual - outOfSampleAnnual,
      efficiency: inSampleAnnual > 0 ? outOfSampleAnnual / inSampleAnnual : null,
      metricGap: meanInSampleMetric === null || outOfSampleMetric === null ? null : meanInSampleMetric - outOfSampleMetric,
    },
    candlesProcessed: results.reduce((sum, window) => sum + window.candlesProcessed, 0),
  };
}

/**
 * Runs every window serially: the in-sample sweep and choice, the out-of-sample run of the
 * choice, the stitched out-of-sample equity and metrics, and the overfitting gap. Throws
 * SweepError, BacktestConfigError, RangeError (no windows or no combinations).
 * @example runWalkForward({ series, document, combinations, metric: 'sharpe', windows }).overfitting.gapPercent // in-sample minus out-of-sample annual return
 */
export function runWalkForward(request: WalkForwardRequest): WalkForwardResult {
  return walkForwardFromSweeps(request, (window) => inSampleSweep(request, window).rows);
}
