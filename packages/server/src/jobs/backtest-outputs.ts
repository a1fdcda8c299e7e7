// What a backtest run computes once its inputs are loaded: the engine's run, the trade rows, the
// metrics and the result document. Pure (no database), so it runs on the job's own thread or on a
// worker thread (backtest-threads.ts) with the same outcome. A failure here is the run's own (its
// inputs would fail again on a retry): BacktestRunFailure with the reason the run shows.
import { BacktestConfigError } from '@vyuha/engine';
import type { BacktestResult, CompiledAlgorithm, RunBuffers } from '@vyuha/engine';
import { metricsOf } from '../backtest/run-metrics';
import { EngineRunError, runPreparedOnce, tradedSummary } from '../backtest/prepared-run';
import type { PreparedRun } from '../backtest/prepared-run';
import { backtestRows, resultDocument } from './backtest-rows';

/** A problem with the run's own inputs: the run ends in ERROR with this message, no retry. */
export class BacktestRunFailure extends Error {
  override readonly name = 'BacktestRunFailure';
}

/** Everything a finished run writes. */
export interface RunOutputs {
  readonly rows: ReturnType<typeof backtestRows>;
  readonly metrics: unknown;
  readonly result: unknown;
  readonly candlesProcessed: number;
}

/** The run's reason for what the engine threw (the engine is pure: it would throw it again). */
export function engineFailure(error: EngineRunError): BacktestRunFailure {
  return new BacktestRunFailure(error.cause instanceof BacktestConfigError ? `impossible config: ${error.message}` : `the engine stopped: ${error.message}`);
}

/** Rows, metrics and the result document of a finished engine run. */
export function outputsOf(request: { result: BacktestResult; prepared: PreparedRun; runId: string }): RunOutputs {
  const { result, prepared } = request;
  try {
    return {
      rows: backtestRows(result, request.runId),
      metrics: metricsOf(result, prepared.series) ?? null,
      result: { ...resultDocument(result, prepared.series), traded: tradedSummary(prepared, result) },
      candlesProcessed: result.candlesProcessed,
    };
  } catch (error) {
    throw new BacktestRunFailure(`the results could not be computed: ${(error as Error).message}`);
  }
}

/**
 * The whole computation of a run that reads nothing more from the database as it goes (no option
 * legs: those load candles as the engine asks, see runPrepared). Throws BacktestRunFailure.
 * `buffers`: the ledger's columns and the equity's runs of bars (runPreparedOnce), read whole here before this returns.
 */
export function runOutputs(request: { prepared: PreparedRun; program: CompiledAlgorithm; runId: string; buffers?: RunBuffers }): RunOutputs {
  const { prepared } = request;
  if (prepared.legCandles !== undefined) throw new Error('runOutputs: option legs read candles as the engine asks (use runPrepared)');
  let result: BacktestResult;
  try {
    result = runPreparedOnce(prepared, request.program, request.buffers);
  } catch (error) {
    if (error instanceof EngineRunError) throw engineFailure(error);
    throw error;
  }
  return outputsOf({ result, prepared, runId: request.runId });
}
