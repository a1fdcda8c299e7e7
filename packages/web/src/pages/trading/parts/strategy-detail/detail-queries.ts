// The GraphQL documents of the strategy detail page and the rows they answer. The strategy and
// the selected run are subscriptions (the page follows them without reloading); the algorithm
// snapshot is a query because a saved version never changes. A subscription has one root field,
// so what belongs together is nested under it.

/** The strategy, its runs (PAPER and LIVE) with their order counts and P&L, and each run's P&L of `today`. */
export const STRATEGY_SUBSCRIPTION = `subscription StrategyDetail($id: uuid!, $runsWhere: strategy_runs_bool_exp!, $today: date!) {
  strategies_by_pk(strategy_id: $id) {
    strategy_id user_id name kind mode status strategy_type interval_minutes published algo_id config created_at updated_at
    algorithm_id algorithm_version instrument_id
    algorithm { name }
    instrument { instrument_id trading_symbol exchange name lot_size }
    strategy_runs(where: $runsWhere, order_by: [{ started_at: desc }], limit: 100) {
      run_id kind status progress started_at finished_at error status_reason params
      orders_aggregate { aggregate { count } }
      daily_pnl_aggregate { aggregate { sum { pnl_paise } } }
      today: daily_pnl(where: { date: { _eq: $today } }) { pnl_paise }
    }
    strategy_runs_aggregate(where: $runsWhere) { aggregate { count } }
  }
}`;

/** One run's days, its filled orders' fills (markers) and its latest order (how far a replay has got). */
export const RUN_SUBSCRIPTION = `subscription StrategyRunDetail($runId: uuid!) {
  strategy_runs_by_pk(run_id: $runId) {
    run_id status
    daily_pnl(order_by: [{ date: asc }]) { date pnl_paise orders_count }
    filled: orders(where: { filled_quantity: { _gt: 0 } }, order_by: [{ created_at: asc }]) { side instrument_id fills { quantity ts } }
    latest: orders(order_by: [{ created_at: desc }], limit: 1) { created_at }
  }
}`;

export const SNAPSHOT_QUERY = `query StrategySnapshot($algorithmId: uuid!, $version: Int!) {
  algorithm_versions(where: { algorithm_id: { _eq: $algorithmId }, version: { _eq: $version } }, limit: 1) { version graph created_at }
}`;

type Paise = number | string;

export interface DetailRunRow {
  readonly run_id: string;
  readonly kind: string;
  readonly status: string;
  readonly progress: number;
  readonly started_at: string;
  readonly finished_at: string | null;
  readonly error: string | null;
  readonly status_reason: string | null;
  readonly params: unknown;
  readonly orders_aggregate: { readonly aggregate: { readonly count: number } | null };
  readonly daily_pnl_aggregate: { readonly aggregate: { readonly sum: { readonly pnl_paise: Paise | null } | null } | null };
  readonly today: readonly { readonly pnl_paise: Paise }[];
}

export interface DetailStrategyRow {
  readonly strategy_id: string;
  readonly user_id: string;
  readonly name: string;
  readonly kind: string;
  readonly mode: string;
  readonly status: string;
  readonly strategy_type: string;
  readonly interval_minutes: number;
  readonly published: boolean;
  readonly algo_id: string | null;
  readonly config: Readonly<Record<string, unknown>> | null;
  readonly created_at: string;
  readonly updated_at: string;
  readonly algorithm_id: string | null;
  readonly algorithm_version: number | null;
  readonly instrument_id: number | null;
  readonly algorithm: { readonly name: string } | null;
  readonly instrument: { readonly instrument_id: number; readonly trading_symbol: string; readonly exchange: string; readonly name: string; readonly lot_size: number } | null;
  readonly strategy_runs: readonly DetailRunRow[];
  readonly strategy_runs_aggregate: { readonly aggregate: { readonly count: number } | null };
}

export interface RunDetailRow {
  readonly run_id: string;
  readonly status: string;
  readonly daily_pnl: readonly { readonly date: string; readonly pnl_paise: Paise; readonly orders_count: number }[];
  readonly filled: readonly { readonly side: 'BUY' | 'SELL'; readonly instrument_id: number; readonly fills: readonly { readonly quantity: number; readonly ts: string }[] }[];
  readonly latest: readonly { readonly created_at: string }[];
}
