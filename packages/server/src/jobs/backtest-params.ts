// The contract between `run_backtest` (which writes it into strategy_runs.params) and the worker
// (which reads it back): one cell of the backtest grid, with everything resolved that the request
// knew (instrument id, algorithm version), so a later edit of the algorithm or a renamed
// instrument never changes what a queued run does.
import { checkStoredRunFields, fieldCheck, isRecord } from './stored-run-fields';
import type { StoredRunFields } from './stored-run-fields';

export const BACKTEST_PARAMS_FORMAT = 'vyuha.backtest-run';

export interface BacktestRunParams extends StoredRunFields {
  readonly format: typeof BACKTEST_PARAMS_FORMAT;
  /** The engine's run key (`expandBacktestRequest`): the same cell has the same key in any request. */
  readonly key: string;
  /** The chart window of the form (kept for the results screen). */
  readonly window: number;
  /** The options-legs config, or null to trade the instrument (an index as its near-month futures, a stock as shares: backtest/trade-plan.ts). */
  readonly tradeInstrumentsConfig: unknown;
}

/** A run whose params cannot be read: the worker ends it in ERROR with this message. */
export class BacktestParamsError extends Error {
  override readonly name = 'BacktestParamsError';
}

const need = fieldCheck('strategy_runs.params', (message) => new BacktestParamsError(message));

/**
 * Reads a run's params back, checking each field the worker relies on.
 * @example readBacktestRunParams(row.params).dateRange.from // '2024-06-03'
 */
export function readBacktestRunParams(value: unknown): BacktestRunParams {
  need(isRecord(value) && value.format === BACKTEST_PARAMS_FORMAT, 'format');
  const params = value as Record<string, unknown>;
  checkStoredRunFields(params, need);
  need(Number.isSafeInteger(params.estimatedCandles), 'estimatedCandles');
  return params as unknown as BacktestRunParams;
}
