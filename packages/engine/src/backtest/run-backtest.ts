// One backtest: bars + program + config -> orders, fills, trades, daily rows, equity and
// drawdown. Deterministic: nothing here reads a clock or a random source, so the same inputs
// give the same result, field for field.
import { minuteOfDay } from '@vyuha/core';
import type { IsoDate, Paise } from '@vyuha/core';
import type { ExitDistance as AlgorithmExitDistance, ExitRules } from '../algorithm/document';
import type { BarSeries, SignalProgram } from '../algorithm/program';
import { chargeModelOf } from '../kernel/charges-model';
import type { ContractChain } from '../kernel/contract-chain';
import { drawdownCurve, Kernel } from '../kernel/kernel';
import { DeepestFall } from '../metrics/drawdown';
import type { FallDepth } from '../metrics/drawdown';
import { scanBarTimes } from '../kernel/session-clock';
import type { SessionRules } from '../kernel/kernel';
import { Ledger, LedgerColumns } from '../kernel/ledger';
import { EquitySegments } from '../kernel/equity-segments';
import type { DayRow, LedgerFill, LedgerOrder, LedgerTrade } from '../kernel/ledger';
import { HistoryFeed, SimulatedClock } from '../kernel/ports';
import { AdoptedVenue } from '../kernel/adopted-venue';
import { SimulatedVenue } from '../kernel/simulated-venue';
import type { ExitDistance } from '../kernel/protective-levels';
import type { TraderFactory } from '../kernel/trader';
import { UnderlyingTrader } from '../kernel/underlying-trader';
import { BacktestConfigError, validateBacktestConfig } from './config';
import type { BacktestConfig, BacktestConfigInput } from './config';

/** A program, or a compiled algorithm (`compileAlgorithm`) that creates its program over the bars and may carry exit rules. */
export type ProgramSource = SignalProgram | { createProgram(series: BarSeries): SignalProgram; readonly exits?: ExitRules };

export interface RunBacktestRequest {
  readonly series: BarSeries;
  readonly program: ProgramSource;
  readonly config?: BacktestConfigInput;
  /** Another trader (option legs); default: the underlying trader over `series`. */
  readonly trader?: TraderFactory;
  /**
   * The underlying trader trades this chain of contracts (an index's futures) instead of `series`:
   * fills and stops on the chain's prices, whole lots sized by the chain (so `config.sizing` must be
   * left out), orders sliced and positions rolled as the chain says. Not with `trader`.
   */
  readonly contracts?: ContractChain;
  /**
   * Scratch for the equity column, at least `series.length` long: the result's `equity` is then a
   * view of its first bars, valid until the buffer is used again. A sweep passes one per chunk of
   * runs, so a run allocates no column the length of the series. Default: a new column.
   */
  readonly equityBuffer?: Float64Array;
  /**
   * Columns for the ledger's rows, cleared and written by this run (LedgerColumns): the result's
   * orders, fills and trades read them, until another run takes them. A sweep passes one set per
   * chunk of runs, so a run allocates no ledger column. Default: new columns.
   */
  readonly ledgerColumns?: LedgerColumns;
  /**
   * Where a run keeps its equity as runs of bars (kernel.ts, equity-segments.ts), emptied and
   * written by this run: the result's equity reads them until another run takes them. A sweep
   * passes one per chunk of runs, as its ledger columns. Default: new segments.
   */
  readonly equitySegments?: EquitySegments;
}

/**
 * The arrays a thread's runs, made one after another, write into instead of new ones: the ledger's
 * columns and the equity's runs of bars (spread into a RunBacktestRequest). A run's result reads
 * them until the next run takes them, so its rows, equity and drawdown must be read before that: a
 * backtest thread (server jobs/backtest-thread.ts) reads each run's outputs whole before its next
 * task. The 27,670 trades of the kernel benchmark's crossover on 1 M bars make 55,341 runs of bars,
 * in 65,536 slots grown by doubling from 4,096 (2.6 MB of fresh memory in all); kept, a run
 * writes no fresh memory for them.
 */
export interface RunBuffers {
  readonly ledgerColumns: LedgerColumns;
  readonly equitySegments: EquitySegments;
}

/** Empty buffers for a thread's runs (RunBuffers). */
export function runBuffers(): RunBuffers {
  return { ledgerColumns: new LedgerColumns(), equitySegments: new EquitySegments(new Float64Array(0)) };
}

export interface BacktestSummary {
  readonly startingCapital: Paise;
  readonly endingEquity: Paise;
  readonly netPnl: Paise;
  readonly grossPnl: Paise;
  readonly charges: Paise;
  readonly trades: number;
  readonly wins: number;
  readonly losses: number;
  /** Most negative equity minus running peak, paise (<= 0). */
  readonly maxDrawdown: Paise;
}

/** Round trips by row, in the order recorded (as `BacktestResult.trades`), read field by field. */
export interface RoundTripColumns {
  readonly count: number;
  /** Trade `row`'s net P&L (its `net`), paise. */
  net(row: number): number;
  /** Trade `row`'s entry bar (its `entryIndex`). */
  entryIndex(row: number): number;
}

/** A run's day rows as a sweep reads them, from the ledger's columns without building `days`. */
export interface DayColumns {
  readonly count: number;
  /** Day `row`'s date (its `date`). */
  date(row: number): IsoDate;
  /** Day `row`'s net P&L (its `net`), paise. */
  net(row: number): number;
}

export interface BacktestResult {
  readonly config: BacktestConfig;
  readonly orders: readonly LedgerOrder[];
  readonly fills: readonly LedgerFill[];
  readonly trades: readonly LedgerTrade[];
  /** The round trips' figures a sweep measures, read from the ledger's columns without building `trades` (not enumerable). */
  readonly roundTrips: RoundTripColumns;
  /**
   * The deepest fall of the equity from bar `bar` on below its running peak (the capital to start
   * with): deepestDrawdown's depth and percentage over `equity.subarray(bar)`, read from the
   * kernel's runs of bars without building the column when it was never read (not enumerable).
   */
  deepestFallFrom(bar: number): FallDepth;
  readonly days: readonly DayRow[];
  /** The days' figures a sweep measures, read from the ledger's columns without building `days` (not enumerable). */
  readonly dayColumns: DayColumns;
  /** Equity in paise at each bar's close (built when first read: the summary needs no column). */
  readonly equity: Float64Array;
  /** Equity minus its running peak at each bar's close, paise (<= 0). */
  readonly drawdown: Float64Array;
  /** Bars whose close found a position open (exposure). */
  readonly barsInMarket: number;
  /** Bars processed: the credits the run uses. */
  readonly candlesProcessed: number;
  readonly summary: BacktestSummary;
}

function programOf(source: ProgramSource, series: BarSeries): SignalProgram {
  return 'createProgram' in source ? source.createProgram(series) : source;
}

function kernelDistance(distance: AlgorithmExitDistance | undefined): ExitDistance | undefined {
  if (distance === undefined) return undefined;
  return distance.unit === 'percent' ? { kind: 'percent', percent: distance.value } : { kind: 'points', points: distance.value };
}

/**
 * The algorithm's own exit rules as config fields; the run's config, where it sets one, wins.
 * @example exitRulesToConfig({ stopLoss: { unit: 'percent', value: 1 } }) // { stopLoss: { kind: 'percent', percent: 1 } }
 */
export function exitRulesToConfig(exits: ExitRules | undefined): BacktestConfigInput {
  const config: { stopLoss?: ExitDistance; target?: ExitDistance; trailingStop?: ExitDistance } = {};
  for (const field of ['stopLoss', 'target', 'trailingStop'] as const) {
    const distance = kernelDistance(exits?.[field]);
    if (distance !== undefined) config[field] = distance;
  }
  return config;
}

function summarise(options: { config: BacktestConfig; ledger: Ledger; ending: number; maxDrawdown: number }): BacktestSummary {
  const { config, ledger, ending, maxDrawdown } = options;
  const charges = ledger.totalCharges;
  return {
    startingCapital: config.capital,
    endingEquity: ending as Paise,
    netPnl: (ending - config.capital) as Paise,
    grossPnl: (ending - config.capital + charges) as Paise,
    charges: charges as Paise,
    trades: ledger.tradeCount,
    wins: ledger.wins,
    losses: ledger.losses,
    maxDrawdown: maxDrawdown as Paise,
  };
}

function checkContracts(request: RunBacktestRequest): void {
  const { contracts, series } = request;
  if (contracts === undefined) return;
  const issues: Array<{ field: string; message: string }> = [];
  if (request.trader !== undefined) issues.push({ field: 'contracts', message: 'a contract chain is traded by the underlying trader; do not pass another trader too' });
  if (request.config?.sizing !== undefined) issues.push({ field: 'sizing', message: 'a contract chain sizes entries in whole lots itself; leave sizing out' });
  if (contracts.prices.length !== series.length || contracts.prices.time !== series.time) {
    issues.push({ field: 'contracts', message: `the chain's prices must have the series' bars (${series.length}) and time column` });
  }
  if (issues.length > 0) throw new BacktestConfigError(issues);
}

/** Checks the columns and that times increase strictly; returns the bar length (`scanBarTimes`). */
function checkSeries(series: BarSeries): number {
  const columns = ['time', 'open', 'high', 'low', 'close', 'volume', 'oi'] as const;
  for (const name of columns) {
    if (!(series[name] instanceof Float64Array) || series[name].length < series.length) {
      throw new RangeError(`series.${name}: must be a Float64Array of at least series.length (${series.length}) values`);
    }
  }
  return scanBarTimes(series);
}

/**
 * Runs one backtest. Throws BacktestConfigError (naming each bad field) before any bar is read.
 * @example runBacktest({ series, program, config: { type: 'swing', sizing: { kind: 'quantity', quantity: 1 } } }).summary.netPnl
 */
export function runBacktest(request: RunBacktestRequest): BacktestResult {
  return runCheckedBacktest(request, checkBacktestRequest(request));
}

/** What `runBacktest` checks of a request before its run, and what the checks give the run. */
export interface CheckedBacktestRequest {
  /** The config with the program's exit rules (`requestConfig`). */
  readonly config: BacktestConfig;
  /** The series' bar length (`scanBarTimes`). */
  readonly barMilliseconds: number;
}

/**
 * `runBacktest`'s checks of a request: its config (with the program's exit rules), its contracts
 * and its series. Throws BacktestConfigError (naming each bad field) or RangeError (a bad series).
 */
export function checkBacktestRequest(request: RunBacktestRequest): CheckedBacktestRequest {
  const config = requestConfig(request);
  const { series, contracts } = request;
  checkContracts(request);
  const barMilliseconds = checkSeries(series);
  if (contracts !== undefined) checkSeries(contracts.prices);
  return { config, barMilliseconds };
}

/**
 * `runBacktest` with its checks done: `checked` is `checkBacktestRequest` of a request with the
 * same series, config, contracts, trader and exit rules (a sweep's runs differ only in their
 * program's rules, so it checks once for all of them).
 */
export function runCheckedBacktest(request: RunBacktestRequest, checked: CheckedBacktestRequest): BacktestResult {
  const { config, barMilliseconds } = checked;
  const { series } = request;
  const parts = kernelParts(request, config);
  const kernel = new Kernel({
    feed: new HistoryFeed(series), clock: new SimulatedClock(), program: programOf(request.program, series), barMilliseconds, ...parts,
    ...(request.equityBuffer === undefined ? {} : { equity: request.equityBuffer }),
    ...(request.equitySegments === undefined ? {} : { segments: request.equitySegments }),
  });
  kernel.run();
  return backtestResult({ config, ledger: parts.ledger, kernel, bars: series.length, equity: () => kernel.equity });
}

/** The run's config: the algorithm's own exit rules, overridden by the request's config. Throws BacktestConfigError. */
export function requestConfig(request: { readonly program: object; readonly config?: BacktestConfigInput | undefined }): BacktestConfig {
  const program = request.program as Partial<{ createProgram: unknown; exits: ExitRules }>;
  const fromAlgorithm = 'createProgram' in program ? exitRulesToConfig(program.exits) : {};
  return validateBacktestConfig({ ...fromAlgorithm, ...request.config });
}

/** What the kernel gets besides its feed, clock and program, for a run (`runBacktest`) or a stepped run (run-stepped.ts). */
export function kernelParts(
  request: Pick<RunBacktestRequest, 'series' | 'trader' | 'contracts' | 'ledgerColumns'> & { readonly adoptFills?: boolean },
  config: BacktestConfig,
): { ledger: Ledger; trader: TraderFactory; rules: SessionRules; adopted: AdoptedVenue | undefined } {
  const { series, contracts } = request;
  const chargeModel = chargeModelOf(config.charges);
  const ledger = new Ledger({ capital: config.capital, chargeModel, ...(request.ledgerColumns === undefined ? {} : { columns: request.ledgerColumns }) });
  const simulated = new SimulatedVenue({ series: contracts?.prices ?? series, slippage: config.slippage, tickSize: config.tickSize });
  const adopted = request.adoptFills === true ? new AdoptedVenue(simulated) : undefined;
  const venue = adopted ?? simulated;
  const protective = {
    tickSize: config.tickSize,
    ...(config.stopLoss === undefined ? {} : { stopLoss: config.stopLoss }),
    ...(config.target === undefined ? {} : { target: config.target }),
    ...(config.trailingStop === undefined ? {} : { trailingStop: config.trailingStop }),
  };
  const trader: TraderFactory = request.trader ?? ((context) => new UnderlyingTrader({
    context, venue, chargeModel,
    settings: { instrument: config.instrument, sizing: config.sizing, direction: config.direction, reverse: config.reverse, fill: config.fill, protective },
    ...(contracts === undefined ? {} : { contracts }),
  }));
  const rules: SessionRules = {
    type: config.type,
    entryCutoffMinute: minuteOfDay(config.entryCutoff),
    squareOffMinute: minuteOfDay(config.squareOff),
    ...(config.dailyMaxLoss === undefined ? {} : { dailyMaxLoss: config.dailyMaxLoss }),
    ...(config.dailyMaxProfit === undefined ? {} : { dailyMaxProfit: config.dailyMaxProfit }),
  };
  return { ledger, trader, rules, adopted };
}

/**
 * The result of the first `bars` bars a kernel processed; `equity` gives exactly those bars' column
 * (read on first use: a whole run may keep it as runs of bars until then).
 */
export function backtestResult(run: { config: BacktestConfig; ledger: Ledger; kernel: Kernel; bars: number; equity: () => Float64Array }): BacktestResult {
  const { config, ledger, kernel, bars } = run;
  const { deepestDrawdown: deepest } = kernel;
  let equity: Float64Array | undefined;
  const equityColumn = (): Float64Array => {
    equity ??= run.equity();
    return equity;
  };
  let drawdown: Float64Array | undefined;
  const result: Omit<BacktestResult, 'roundTrips' | 'deepestFallFrom' | 'dayColumns'> = {
    config,
    // The ledger keeps its rows in columns; these build the objects when first read.
    get orders() {
      return ledger.orders;
    },
    get fills() {
      return ledger.fills;
    },
    get trades() {
      return ledger.trades;
    },
    get days() {
      return ledger.days;
    },
    get equity() {
      return equityColumn();
    },
    get drawdown() {
      drawdown ??= drawdownCurve(equityColumn());
      return drawdown;
    },
    barsInMarket: kernel.barsInMarket,
    candlesProcessed: bars,
    // The kernel's equity starts at the ledger's cash, the capital: with no bar, that is the ending.
    summary: summarise({ config, ledger, ending: kernel.endingEquity, maxDrawdown: deepest }),
  };
  // Not enumerable: a result compared, cloned to a thread or written as JSON carries its trades, not this reader of the ledger.
  const roundTrips: RoundTripColumns = { count: ledger.tradeCount, net: (row) => ledger.tradeNet(row), entryIndex: (row) => ledger.tradeEntryIndex(row) };
  const dayColumns: DayColumns = { count: ledger.dayCount, date: (row) => ledger.dayDate(row), net: (row) => ledger.dayNet(row) };
  const deepestFallFrom = (bar: number): FallDepth => {
    // From bar 0 the kernel has measured it while it ran (the usual sweep run).
    const measured = bar === 0 ? kernel.fallFrom(config.capital, bars) : undefined;
    if (measured !== undefined) return measured;
    const fall = new DeepestFall(config.capital);
    kernel.feedEquity({ from: bar, to: bars }, fall);
    return fall;
  };
  return Object.defineProperties(result, {
    roundTrips: { value: roundTrips, enumerable: false }, dayColumns: { value: dayColumns, enumerable: false }, deepestFallFrom: { value: deepestFallFrom, enumerable: false },
  }) as BacktestResult;
}
