// The backtest actions of the GraphQL schema (Hasura actions: custom root fields with the same
// role model): run_backtest and cancel_backtest (mutations) and candles (query).
import type pg from 'pg';
import type { JobQueue } from '../../jobs/job-queue';
import type { ActionDeclaration } from '../metadata/types';
import { candlesAction } from './candles-action';
import { cancelBacktestAction } from './cancel-backtest';
import { runBacktestAction } from './run-backtest';
import { BACKTEST_ROLES, SIGNED_IN_ROLES } from './session-access';

export const RUN_BACKTEST_TYPES = `
"""One date range of a backtest: IST dates as YYYY-MM-DD, both included."""
input run_backtest_date_range {
  from: String!
  to: String!
}

"""A frequency (the bar interval the algorithm runs at, minutes; default: window) and the capital of that run in rupees."""
input run_backtest_frequency {
  interval: Int
  investment: Float!
}

"""The backtest form (docs/PRODUCT.md section 3). Runs = algorithms x dateRanges x frequenciesAndInvestments."""
input run_backtest_input {
  name: String
  strategyType: String
  algorithms: [String!]!
  instrument: String!
  dateRanges: [run_backtest_date_range!]!
  window: Int
  frequenciesAndInvestments: [run_backtest_frequency!]!
  tradeInstrumentsConfig: jsonb
}

type run_backtest_output {
  strategy_id: uuid!
  run_ids: [uuid!]!
  """BACKTEST credits (candles) reserved for the runs."""
  candles: Int!
}
`;

export const CANCEL_BACKTEST_TYPES = `
type cancel_backtest_output {
  run_id: uuid!
  status: String!
  cancelled: Boolean!
}
`;

export const CANDLES_TYPES = `
"""Candles as columns: time (epoch ms of each bar's start), prices in integer paise."""
type candle_series_output {
  instrument_id: Int!
  interval: Int!
  from: String!
  to: String!
  count: Int!
  truncated: Boolean!
  time: [Float!]!
  open: [Int!]!
  high: [Int!]!
  low: [Int!]!
  close: [Int!]!
  volume: [Float!]!
  oi: [Float]
}
`;

export interface BacktestActionsOptions {
  readonly pool: pg.Pool;
  readonly queue: JobQueue;
  /** Wall clock, epoch ms (default Date.now). */
  readonly now?: () => number;
}

/**
 * The action declarations for the metadata (`Metadata.actions`).
 * @example backtestActions({ pool, queue }).map((action) => action.name) // ['run_backtest', 'cancel_backtest', 'candle_series']
 */
export function backtestActions(options: BacktestActionsOptions): ActionDeclaration[] {
  const context = { pool: options.pool, queue: options.queue, now: options.now ?? Date.now };
  return [
    {
      name: 'run_backtest',
      kind: 'mutation',
      field: 'run_backtest(input: run_backtest_input!): run_backtest_output!',
      types: RUN_BACKTEST_TYPES,
      description: 'Creates a backtest strategy and one run per cell, and queues the runs (needs strategy:backtest and enough BACKTEST credits).',
      roles: BACKTEST_ROLES,
      handler: (invocation) => runBacktestAction(context, invocation),
    },
    {
      name: 'cancel_backtest',
      kind: 'mutation',
      field: 'cancel_backtest(run_id: uuid!): cancel_backtest_output!',
      types: CANCEL_BACKTEST_TYPES,
      description: 'Stops a backtest run still IN PROGRESS: it ends in ERROR ("cancelled ...") and its credits are given back.',
      roles: BACKTEST_ROLES,
      handler: (invocation) => cancelBacktestAction(context, invocation),
    },
    {
      name: 'candle_series',
      kind: 'query',
      field: 'candle_series(instrument_id: Int!, interval: Int!, from: String!, to: String!): candle_series_output!',
      types: CANDLES_TYPES,
      description: "One instrument's candles at a chart interval (1, 2, 3, 5, 10, 15, 30, 60, 120, 180 or 1440 minutes), from the tier's earliest date.",
      roles: SIGNED_IN_ROLES,
      handler: (invocation) => candlesAction(context, invocation),
    },
  ];
}
