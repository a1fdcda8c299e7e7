// The GraphQL documents of the /chart screen and the row shapes they answer (see the server's
// packages/server/src/graphql/metadata and actions/candles-action.ts for what each role may read).

/** Indices (with their option-chain config) in display order. */
export const CHART_INDICES = `
  query ChartIndices {
    instruments(where: { kind: { _eq: "index" } }, order_by: { index_config: { sort_order: asc } }) {
      instrument_id name trading_symbol exchange kind
      index_config { oc_step oc_enabled oc_greeks value }
    }
  }`;

/** Option and future contracts whose trading symbol contains the search text. */
export const CHART_CONTRACTS = `
  query ChartContracts($pattern: String!) {
    instruments(where: { kind: { _in: ["option", "future"] }, trading_symbol: { _ilike: $pattern } }, order_by: { trading_symbol: asc }, limit: 20) {
      instrument_id name trading_symbol exchange kind
    }
  }`;

export const CHART_CANDLES = `
  query ChartCandles($instrument_id: Int!, $interval: Int!, $from: String!, $to: String!) {
    candle_series(instrument_id: $instrument_id, interval: $interval, from: $from, to: $to) {
      count truncated time open high low close volume
    }
  }`;

// candle_series does not say where its candles came from; the 1-minute rows carry `source`.
export const CHART_SYNTHETIC = `
  query ChartSynthetic($instrument_id: Int!, $from: timestamptz!, $to: timestamptz!) {
    candles(where: { instrument_id: { _eq: $instrument_id }, ts: { _gte: $from, _lt: $to }, source: { _eq: "synthetic" } }, limit: 1) { ts }
  }`;

/** Built-in groups (user_id NULL) and the user's own. */
export const INDICATOR_GROUPS = `
  query IndicatorGroups {
    indicator_configs(order_by: { name: asc }) { indicator_config_id name user_id indicators }
  }`;

export const SAVE_INDICATOR_GROUP = `
  mutation SaveIndicatorGroup($name: String!, $indicators: jsonb!) {
    insert_indicator_configs_one(object: { name: $name, indicators: $indicators }) { indicator_config_id name user_id indicators }
  }`;

export const DRAWINGS = `
  query ChartDrawings($userId: uuid!, $subcategory: String!) {
    user_app_configs(where: { user_id: { _eq: $userId }, category: { _eq: "chart" }, subcategory: { _eq: $subcategory } }) { meta_data }
  }`;

export const SAVE_DRAWINGS = `
  mutation SaveChartDrawings($object: user_app_configs_insert_input!) {
    insert_user_app_configs_one(object: $object, on_conflict: { constraint: user_app_configs_pkey, update_columns: [meta_data] }) { subcategory meta_data }
  }`;

/** The user's own algorithms and the published ones. */
export const SIGNAL_ALGORITHMS = `
  query SignalAlgorithms($userId: uuid!) {
    algorithms(where: { _or: [{ user_id: { _eq: $userId } }, { published: { _eq: true } }] }, order_by: { name: asc }) {
      algorithm_id name published user_id latest_version
    }
  }`;

/** The latest saved version of one algorithm. */
export const LATEST_ALGORITHM_VERSION = `
  query LatestAlgorithmVersion($algorithmId: uuid!) {
    algorithm_versions(where: { algorithm_id: { _eq: $algorithmId } }, order_by: { version: desc }, limit: 1) { version graph }
  }`;

export interface IndexConfigRow { readonly oc_step: number; readonly oc_enabled: boolean; readonly oc_greeks: boolean; readonly value: string }

export interface InstrumentRow {
  readonly instrument_id: number;
  readonly name: string;
  readonly trading_symbol: string;
  readonly exchange: string;
  readonly kind: string;
  readonly index_config?: IndexConfigRow | null;
}

export interface CandleSeriesRow {
  readonly count: number;
  readonly truncated: boolean;
  readonly time: number[];
  readonly open: number[];
  readonly high: number[];
  readonly low: number[];
  readonly close: number[];
  readonly volume: number[];
}

export interface IndicatorGroupRow { readonly indicator_config_id: string; readonly name: string; readonly user_id: string | null; readonly indicators: unknown }

export interface AlgorithmRow { readonly algorithm_id: string; readonly name: string; readonly published: boolean; readonly user_id: string; readonly latest_version: number | null }
