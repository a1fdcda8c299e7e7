// A run stepped forward one closed bar at a time: the backtest's config, ledger, trader and
// simulated venue (run-backtest.ts `kernelParts`, shared, not copied) around an IncrementalKernel
// (kernel/incremental-kernel.ts, which says how stepping keeps `runBacktest`'s results). The
// strategy runner appends each bar its candle builder closes and calls `step`; `result()` is
// `runBacktest`'s result over the bars processed so far, and over a whole range stepped bar by
// bar (the last with `endOfData`) it equals `runBacktest` over that range
// (run-stepped.test.ts).
import type { SessionExchange } from '@vyuha/market';
import type { ExitRules } from '../algorithm/document';
import type { SignalProgram } from '../algorithm/program';
import type { ContractChain } from '../kernel/contract-chain';
import type { AdoptedVenue } from '../kernel/adopted-venue';
import type { ClosedBar, GrowingBarSeries } from '../kernel/growing-series';
import { IncrementalKernel } from '../kernel/incremental-kernel';
import type { StepOptions } from '../kernel/incremental-kernel';
import type { Ledger } from '../kernel/ledger';
import type { Clock } from '../kernel/ports';
import { SimulatedClock } from '../kernel/ports';
import type { TraderFactory } from '../kernel/trader';
import type { BacktestConfig, BacktestConfigInput } from './config';
import { BacktestConfigError } from './config';
import { backtestResult, kernelParts, requestConfig } from './run-backtest';
import type { BacktestResult } from './run-backtest';

/** A program, or a compiled algorithm that creates its program over the series (told the interval: the series starts short). */
export type SteppedProgramSource = SignalProgram | {
  createProgram(series: GrowingBarSeries, options: { intervalMinutes: number }): SignalProgram;
  readonly exits?: ExitRules;
};

export interface SteppedRunRequest {
  /** Empty, or holding history already (warm-up); the runner appends each closed bar. */
  readonly series: GrowingBarSeries;
  readonly program: SteppedProgramSource;
  /** Bar interval in minutes (1440: daily): the session calendar's last bar, `time()`, close times. */
  readonly intervalMinutes: number;
  readonly config?: BacktestConfigInput;
  /** As runBacktest's `trader` (option legs), built over `series`. */
  readonly trader?: TraderFactory;
  /**
   * As runBacktest's `contracts`. Its prices must share the series' time column and cover its
   * capacity: the futures chain is built over a stored range (a replay), not bar by bar yet.
   */
  readonly contracts?: ContractChain;
  /** Bars before this index are warm-up: processed, signals dropped (incremental-kernel.ts). */
  readonly signalsFrom?: number;
  /** Whose session calendar says which bar is a day's last. Default NSE. */
  readonly exchange?: SessionExchange;
  /** Default: a simulated clock set to each bar's time. */
  readonly clock?: Clock;
  /**
   * Live: the stops and targets inside each bar are the venue's fills, told to `adopted` before
   * the bar's close (kernel/adopted-venue.ts), instead of the kernel's own match of the bar.
   */
  readonly adoptFills?: boolean;
}

export interface SteppedRun {
  readonly config: BacktestConfig;
  readonly ledger: Ledger;
  readonly kernel: IncrementalKernel;
  /** With `adoptFills`: where the runtime tells the kernel what the venue filled inside the bar being closed. */
  readonly adopted: AdoptedVenue | undefined;
  /** Appends a closed bar to the series (GrowingBarSeries.append); `step` processes it. */
  append(bar: ClosedBar): number;
  /** Processes the next appended bar at its close. */
  step(options?: StepOptions): void;
  /** A bar's first tick: appends it opened (GrowingBarSeries.openBar) and processes its open (IncrementalKernel.open). */
  openBar(bar: { readonly time: number; readonly open: number }, options?: StepOptions): number;
  /** The opened bar's close: finishes it in the series (GrowingBarSeries.closeBar) and processes its close (IncrementalKernel.close). */
  closeBar(bar: ClosedBar, options?: { readonly endOfData?: boolean }): void;
  /** Ends the day of the last processed bar when the day's data stopped before its close (IncrementalKernel.endDay). */
  endDay(): void;
  /** runBacktest's result over the bars processed so far. */
  result(): BacktestResult;
}

function checkContracts(request: SteppedRunRequest): void {
  const { contracts, series } = request;
  if (contracts === undefined) return;
  const issues: Array<{ field: string; message: string }> = [];
  if (request.trader !== undefined) issues.push({ field: 'contracts', message: 'a contract chain is traded by the underlying trader; do not pass another trader too' });
  if (request.config?.sizing !== undefined) issues.push({ field: 'sizing', message: 'a contract chain sizes entries in whole lots itself; leave sizing out' });
  if (contracts.prices.time !== series.time || contracts.prices.length < series.capacity) {
    issues.push({ field: 'contracts', message: `the chain's prices must share the series' time column and cover its ${series.capacity} bars` });
  }
  if (issues.length > 0) throw new BacktestConfigError(issues);
}

/**
 * Starts a stepped run. Throws BacktestConfigError (naming each bad field) before any bar is read.
 * @example const run = startSteppedRun({ series: new GrowingBarSeries(375), program, intervalMinutes: 1 }); run.append(bar); run.step();
 */
export function startSteppedRun(request: SteppedRunRequest): SteppedRun {
  const { series, intervalMinutes, contracts } = request;
  const config = requestConfig(request);
  checkContracts(request);
  const parts = kernelParts({ ...request, adoptFills: request.adoptFills === true }, config);
  const program = 'createProgram' in request.program ? request.program.createProgram(series, { intervalMinutes }) : request.program;
  const kernel = new IncrementalKernel({
    series, clock: request.clock ?? new SimulatedClock(), program, intervalMinutes, ...parts,
    ...(request.signalsFrom === undefined ? {} : { signalsFrom: request.signalsFrom }),
    ...(request.exchange === undefined ? {} : { exchange: request.exchange }),
  });
  return {
    config,
    ledger: parts.ledger,
    kernel,
    adopted: parts.adopted,
    append: (bar) => {
      const index = series.append(bar);
      contracts?.priceBar?.(index);
      return index;
    },
    step: (options) => kernel.step(options),
    openBar: (bar, options) => {
      const index = series.openBar(bar);
      contracts?.priceBar?.(index);
      kernel.open(options);
      return index;
    },
    closeBar: (bar, options) => {
      const index = series.closeBar(bar);
      contracts?.priceBar?.(index);
      kernel.close(options);
    },
    endDay: () => kernel.endDay(),
    result: () => {
      // Taken now: the bars stepped so far, whatever is stepped after.
      const equity = kernel.equity();
      return backtestResult({ config, ledger: parts.ledger, kernel: kernel.kernel, bars: equity.length, equity: () => equity });
    },
  };
}
