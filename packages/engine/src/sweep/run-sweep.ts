import type { AlgorithmError, ExitRules } from '../algorithm/document';
import { formatAlgorithmError } from '../algorithm/document';
import type { CompiledAlgorithm } from '../algorithm/compile';
import { algorithmCompiler } from '../algorithm/compile';
import type { ParameterBindings } from '../algorithm/parameters';
import type { BarSeries } from '../algorithm/program';
import type { BacktestConfigInput } from '../backtest/config';
import type { CheckedBacktestRequest } from '../backtest/run-backtest';
import { checkBacktestRequest, runCheckedBacktest } from '../backtest/run-backtest';
import type { ContractChain } from '../kernel/contract-chain';
import { IndicatorCache } from '../language/indicator-cache';
import { LedgerColumns } from '../kernel/ledger';
import { EquitySegments } from '../kernel/equity-segments';
import { BlockColumns } from '../language/block-columns';
import type { TraderFactory } from '../kernel/trader';
import type { SeriesDays, SweepMetric, SweepMetrics } from './sweep-metrics';
import { bestCell } from './heatmap';
import { seriesDays, SweepMetricBuffers, sweepMetricsOf } from './sweep-metrics';

/*
 * A sweep: one backtest per combination, the document compiled with that combination bound.
 *
 * Invariants:
 * - Row i is combination i, computed from (series, document, config, combination i) alone, so
 *   any split into index ranges (`runSweepChunk`), run anywhere and merged by index
 *   (`mergeSweepChunks`), equals the serial `runSweep` exactly.
 * - A row's metrics are those of `runBacktest` over the same inputs (sweep-metrics.ts), the
 *   request's `contracts` / `trader` included (an indicator read from a shared IndicatorCache has
 *   the values the run would compute itself): every run gets the same chain and factory. A chain
 *   over a stored range is read only by a run (futures-chain.ts: live pricing is the one mutation),
 *   and a factory builds a fresh trader per run, so no state passes from one run to the next.
 * - A combination the document refuses (a value off its grid, a non-whole indicator period, a
 *   broken constraint) stops the sweep with a SweepError naming the combination and each problem.
 */

export interface SweepRequest {
  readonly series: BarSeries;
  /** An algorithm document (as stored): compiled once per combination. */
  readonly document: unknown;
  readonly config?: BacktestConfigInput;
  /** Bindings per run, usually from `parameterGrid`. */
  readonly combinations: readonly ParameterBindings[];
  /** What `best` ranks by. */
  readonly metric: SweepMetric;
  /** Every run trades this chain (an index's futures), as RunBacktestRequest.contracts. */
  readonly contracts?: ContractChain;
  /** Every run uses this trader (option legs), as RunBacktestRequest.trader; it must build a fresh trader per call. */
  readonly trader?: TraderFactory;
  /**
   * Indicators of the series computed once for every run (a worker keeps one per series across
   * the chunks it runs); default: one for this call. Ignored unless it covers `series`.
   */
  readonly indicators?: IndicatorCache;
  /** The days and run buffers of the series (a worker keeps one per series across the chunks it runs); default: one for this call. Ignored unless it covers `series`. */
  readonly scratch?: SweepScratch;
  /**
   * `combinationCompiler(document)` of this request's document, made once for all the chunks of
   * a job (a worker keeps one per job); default: one for this call. A 1,000-combination sweep on
   * two threads is 41 chunks, each of which would otherwise read, check and parse the
   * document again.
   */
  readonly compile?: CombinationCompiler;
}

/**
 * What the runs of a sweep over one series reuse, run after run and chunk after chunk: the
 * series' days (each run is measured by them), one equity buffer, one set of equity segments, one
 * set of ledger columns, one program's block columns and the buffers a run is measured in (each
 * run is measured before the next takes them). A worker keeps one per series, as its IndicatorCache, so that a chunk allocates
 * none of it again (a 1,000-run sweep on two threads is about 60 chunks; the equity buffer of a
 * year of minutes is 750 KB) and a run allocates no buffer at all: its segments and columns were
 * 140 KB of new memory a run, and a new thread's first 1,000-run sweep over 20 sessions of minutes
 * took 670-770 ms with them against 520-570 without.
 */
export class SweepScratch {
  readonly days: SeriesDays;
  readonly equityBuffer: Float64Array;
  readonly equitySegments: EquitySegments;
  readonly ledgerColumns: LedgerColumns;
  readonly blockColumns: BlockColumns;
  readonly metricBuffers: SweepMetricBuffers;

  /**
   * `reuse`: the scratch of a series no run will use again (a worker's last series, or its last
   * slice of one), whose buffers this one takes instead of allocating its own. Besides the memory,
   * this keeps the ledger's string tables, so the kernel's code, optimised on their warm state,
   * is not thrown away at the first run over another series.
   */
  constructor(readonly series: BarSeries, reuse?: SweepScratch) {
    this.days = seriesDays(series);
    this.equityBuffer = reuse !== undefined && reuse.equityBuffer.length === series.length ? reuse.equityBuffer : new Float64Array(series.length);
    this.equitySegments = reuse?.equitySegments ?? new EquitySegments(new Float64Array(0));
    this.ledgerColumns = reuse?.ledgerColumns ?? new LedgerColumns();
    this.blockColumns = reuse?.blockColumns ?? new BlockColumns();
    this.metricBuffers = reuse?.metricBuffers ?? new SweepMetricBuffers();
  }

  /** True when runs over `series` may use it: the same series, not grown since. */
  covers(series: BarSeries): boolean {
    return series === this.series && series.length === this.equityBuffer.length;
  }
}

/** The request's config, contracts and trader as runBacktest takes them (absent fields left out). */
export function runInputsOf(request: {
  readonly config?: BacktestConfigInput | undefined; readonly contracts?: ContractChain | undefined; readonly trader?: TraderFactory | undefined;
}): Pick<SweepRequest, 'config' | 'contracts' | 'trader'> {
  return {
    ...(request.config === undefined ? {} : { config: request.config }),
    ...(request.contracts === undefined ? {} : { contracts: request.contracts }),
    ...(request.trader === undefined ? {} : { trader: request.trader }),
  };
}

export interface SweepRow {
  /** The combination's position in the request. */
  readonly index: number;
  readonly bindings: ParameterBindings;
  readonly metrics: SweepMetrics;
}

export interface SweepResult {
  readonly metric: SweepMetric;
  /** One per combination, in combination order. */
  readonly rows: readonly SweepRow[];
  /** The best row by the metric (ties: the first); undefined when no row has a value. */
  readonly best: SweepRow | undefined;
  /** Bars processed over all runs: the credits the sweep used. */
  readonly candlesProcessed: number;
}

/** A combination the document refuses. */
export class SweepError extends Error {
  override readonly name = 'SweepError';

  constructor(
    readonly combination: number,
    readonly errors: readonly AlgorithmError[],
  ) {
    super(`combination ${combination}: ${errors.map(formatAlgorithmError).join('; ')}`);
  }
}

/** The document compiled with one combination bound. Throws SweepError. */
export function compileCombination(document: unknown, bindings: ParameterBindings, combination: number): CompiledAlgorithm {
  return combinationCompiler(document)(bindings, combination);
}

/** Compiles one combination of a document read once (combinationCompiler). Throws SweepError. */
export type CombinationCompiler = (bindings: ParameterBindings, combination: number) => CompiledAlgorithm;

/**
 * compileCombination for many combinations of one document: read, checked and parsed once
 * (algorithmCompiler), each combination then bound and compiled. A sweep's thread otherwise ran
 * the whole reader, graph checker and parser per run, and V8 was still optimising that code in
 * the third sweep of a kept thread.
 */
export function combinationCompiler(document: unknown): CombinationCompiler {
  const compile = algorithmCompiler(document);
  return (bindings, combination) => {
    const compiled = compile(bindings);
    if (!compiled.ok) throw new SweepError(combination, compiled.error);
    return compiled.value;
  };
}

/** Runs combinations `from` .. `to` - 1 over `series`, measured over its days. */
function runRange(request: SweepRequest, range: { from: number; to: number }): SweepRow[] {
  const rows: SweepRow[] = [];
  // One set of run buffers (SweepScratch) for every run: each run is measured before the next takes them.
  const scratch = request.scratch?.covers(request.series) === true ? request.scratch : new SweepScratch(request.series);
  const { days, equityBuffer, equitySegments, ledgerColumns, blockColumns, metricBuffers } = scratch;
  // sma(close, 10) of one combination is sma(close, 10) of the next: computed once over the series.
  const indicators = request.indicators ?? new IndicatorCache(request.series);
  const compile = request.compile ?? combinationCompiler(request.document);
  const inputs = runInputsOf(request);
  // The combinations of one document share its exit rules (compileAnalysed), so the runs share their
  // checks (the config with those rules, the contracts, the series): done at the first run, again
  // only for other rules.
  let checked: { exits: ExitRules; run: CheckedBacktestRequest } | undefined;
  for (let index = range.from; index < range.to; index += 1) {
    const bindings = request.combinations[index] as ParameterBindings;
    const compiled = compile(bindings, index);
    const program = { exits: compiled.exits, createProgram: (bars: BarSeries) => compiled.createProgram(bars, { indicators, columns: blockColumns }) };
    const run = { series: request.series, program, ...inputs, equityBuffer, equitySegments, ledgerColumns };
    if (checked?.exits !== compiled.exits) checked = { exits: compiled.exits, run: checkBacktestRequest(run) };
    const result = runCheckedBacktest(run, checked.run);
    rows.push({ index, bindings, metrics: sweepMetricsOf(result, { days, buffers: metricBuffers }) });
  }
  return rows;
}

function checkRange(total: number, from: number, to: number): void {
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 0 || to > total || from > to) {
    throw new RangeError(`chunk ${from}..${to}: must be whole indices with 0 <= from <= to <= ${total} (the number of combinations)`);
  }
}

/**
 * Rows of combinations `from` .. `to` - 1 (for a worker thread); merge with `mergeSweepChunks`.
 * @example runSweepChunk({ ...request, from: 0, to: 10 }).length // 10
 */
export function runSweepChunk(request: SweepRequest & { readonly from: number; readonly to: number }): SweepRow[] {
  checkRange(request.combinations.length, request.from, request.to);
  return runRange(request, request);
}

/**
 * The rows of chunks (any order), by index; throws unless they hold each of 0 .. total - 1 once.
 * @example mergeSweepChunks(4, [rowsOf2to4, rowsOf0to2]).map((row) => row.index) // [0, 1, 2, 3]
 */
export function mergeSweepChunks(total: number, chunks: readonly (readonly SweepRow[])[]): SweepRow[] {
  const rows: Array<SweepRow | undefined> = new Array<SweepRow | undefined>(total).fill(undefined);
  for (const chunk of chunks) {
    for (const row of chunk) {
      if (!Number.isSafeInteger(row.index) || row.index < 0 || row.index >= total) throw new RangeError(`row index ${row.index} is outside 0..${total - 1}`);
      if (rows[row.index] !== undefined) throw new RangeError(`row ${row.index} is in two chunks`);
      rows[row.index] = row;
    }
  }
  const missing = rows.findIndex((row) => row === undefined);
  if (missing >= 0) throw new RangeError(`row ${missing} is in no chunk`);
  return rows as SweepRow[];
}

/** A sweep result from rows in combination order (serial, or merged chunks). */
export function sweepResult(rows: readonly SweepRow[], metric: SweepMetric): SweepResult {
  const candlesProcessed = rows.reduce((sum, row) => sum + row.metrics.candlesProcessed, 0);
  return { metric, rows, best: bestCell(rows, metric), candlesProcessed };
}

/**
 * Every combination, one backtest each, serially, in combination order. Throws SweepError,
 * BacktestConfigError (a bad config, before any run).
 * @example runSweep({ series, document, combinations: [{ fast: 10 }, { fast: 20 }], metric: 'sharpe' }).rows.length // 2
 */
export function runSweep(request: SweepRequest): SweepResult {
  const rows = runRange(request, { from: 0, to: request.combinations.length });
  return sweepResult(rows, request.metric);
}
