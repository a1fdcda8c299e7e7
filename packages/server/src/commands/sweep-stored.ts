// `vyuha sweep --symbol S` and `vyuha walkforward --symbol S`: a sweep of stored history, prepared
// as `vyuha backtest --symbol` and a sweep job prepare it (backtest/stored-run.ts), so the runs
// trade what the web app's sweep of the same request trades: an index's near-month futures, a
// stock's shares, or option legs (--options LEGS.json) priced from imported option candles where
// the store has them. The runs go to the sweep pool's threads with what they read beyond the bars
// (../sweep/stored-passes.ts); option legs are run pass after pass (passesUntilLoaded) until no run asked for a stored
// option candle that was not loaded, so the rows are those of runs that read every candle they
// asked for, as in the sweep job.
import type { SweepResult, WalkForwardRequest, WalkForwardResult } from '@vyuha/engine';
import type pg from 'pg';
import type { PreparedRun } from '../backtest/prepared-run';
import { StoredRunError } from '../backtest/stored-run';
import { UnknownInstrumentError } from '../market-data/instrument-lookup';
import type { SweepJob, SweepPool } from '../sweep/run-pool';
import { passesUntilLoaded } from '../backtest/stored-candles';
import type { CandleRange } from '../backtest/stored-candles';
import { threadable, threadParts } from '../sweep/stored-passes';
import { walkForwardInPool } from '../sweep/walk-forward-pool';
import { intervalOf, prepareStoredCommand, storedHistoryOf, withDatabase } from './backtest-stored';
import type { StoredHistory } from './backtest-stored';
import { UsageError } from './command';
import { plainValues, refuse, sweepSetupOf } from './sweep-cli';
import type { SweepInputs, SweepValues } from './sweep-cli';

/** How a command's runs are made on the pool: a CSV's bars alone, or stored history with what it trades. */
export interface PoolRuns {
  sweep(pool: SweepPool, job: SweepJob): Promise<SweepResult>;
  /** `request` without a chain or traders: the stored runs add theirs. */
  walkForward(pool: SweepPool, request: WalkForwardRequest): Promise<WalkForwardResult>;
}

/** A CSV's runs: the bars are all they read. */
export const CSV_RUNS: PoolRuns = {
  sweep: (pool, job) => pool.sweep(job),
  walkForward: (pool, request) => walkForwardInPool(pool, request),
};

/** Runs on stored history: the prepared run's futures chain or option legs go with them, option legs pass after pass. */
function storedRuns(db: pg.Pool, prepared: PreparedRun, range: CandleRange): PoolRuns {
  const source = { candles: prepared.legCandles, range };
  const parts = threadParts(prepared);
  return {
    sweep: (pool, job) => passesUntilLoaded(db, source, (onWanted) => pool.sweep({ ...job, ...parts }, { onWanted })),
    walkForward: (pool, request) => {
      // A walk-forward makes each run's trader for its own bars: the window traders, not the whole series' factory.
      const engine: WalkForwardRequest = {
        ...request,
        ...(prepared.contracts === undefined ? {} : { contracts: prepared.contracts }),
        ...(prepared.windowTraders === undefined ? {} : { traders: prepared.windowTraders }),
      };
      return passesUntilLoaded(db, source, (onWanted) => walkForwardInPool(pool, engine, { ...parts, onWanted }));
    },
  };
}

/** `NIFTY 2024-05-02..2024-06-14 (stored), traded as its near-month futures`: the text output's source. */
function sourceText(history: StoredHistory, prepared: PreparedRun): string {
  const { plan } = prepared;
  const traded = plan.kind === 'option-legs' ? `option legs of ${String(history.values.options)}`
    : plan.kind === 'index-futures' ? 'traded as its near-month futures' : 'traded as shares';
  return `${history.symbol.toUpperCase()} ${history.dateRange.from}..${history.dateRange.to} (stored), ${traded}`;
}

/**
 * The inputs of `vyuha <command> --symbol S ...` and how its runs are made, for `work`, with the
 * database open while it works (option legs load candles as the runs ask); a refusal of the
 * history (no candles, an instrument that cannot be traded, a bad legs file) is exit code 1.
 */
export async function withStoredSweep(command: string, values: SweepValues, work: (inputs: SweepInputs, runs: PoolRuns) => Promise<number>): Promise<number> {
  if (values.data !== undefined) throw new UsageError('give either --data FILE.csv or --symbol S (stored history), not both');
  const plain = plainValues(values);
  const { history, errors } = storedHistoryOf(plain);
  if (history === undefined) return refuse(command, errors);
  // A stored run's sizing and charges are those of what it trades (prepareStoredCommand): the config reads the rest.
  const { setup, errors: setupErrors } = sweepSetupOf(values, { ...plain, sizing: undefined, charges: undefined });
  if (setup === undefined) return refuse(command, setupErrors);
  try {
    return await withDatabase(async (db) => {
      const { prepared } = await prepareStoredCommand(db, history);
      if (!threadable(prepared)) throw new Error(`the runs of ${history.symbol} read something worker threads cannot be sent`);
      const range = { dateRange: history.dateRange, intervalMinutes: intervalOf(plain) };
      return work({ ...setup, series: prepared.series, config: prepared.config, source: sourceText(history, prepared) }, storedRuns(db, prepared, range));
    });
  } catch (error) {
    if (error instanceof StoredRunError || error instanceof UnknownInstrumentError) return refuse(command, [error.message]);
    throw error;
  }
}
