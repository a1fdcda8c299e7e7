// The GraphQL documents of docs/PRODUCT.md section 7 the shell sends (Hasura shapes, every input a variable).

export const USER_APP_CONFIGS = `query UserAppConfigs {
  user_app_configs { category subcategory user_id meta_data }
}`;

export const APPEND_APP_CONFIG = `mutation AppendAppConfig($category: String!, $subcategory: String!, $userId: uuid!, $metaData: jsonb!) {
  update_user_app_configs_by_pk(
    pk_columns: { category: $category, subcategory: $subcategory, user_id: $userId }
    _append: { meta_data: $metaData }
  ) { category subcategory user_id meta_data }
}`;

export const INSERT_APP_CONFIGS = `mutation InsertAppConfigs($objects: [user_app_configs_insert_input!]!) {
  insert_user_app_configs(objects: $objects) { affected_rows returning { user_id category subcategory meta_data } }
}`;

export const MANAGED_USERS = `query ManagedUsers($userId: uuid!) {
  managers(where: { manager_id: { _eq: $userId } }, order_by: { user: { name: asc } }) {
    user_id
    user { name user_brokers { active } }
  }
}`;

export const EXCHANGES_BY_ZONE = `query Exchanges($zone: String!) {
  exchanges(where: { zone: { _eq: $zone } }, order_by: { exchange: asc }) {
    currency locale market_close market_open symbol tz exchange
  }
}`;

export const BACKTEST_CREDITS = `subscription BacktestCredits($userId: uuid!, $today: date!) {
  user_credits_aggregate(where: {
    user_id: { _eq: $userId }, category: { _eq: "BACKTEST" }, subcategory: { _eq: "CANDLES" }, expiry: { _gte: $today }
  }) {
    aggregate { sum { credits } max { expiry created_at } }
  }
}`;

/** BACKTEST credits used by the user's backtest runs; their sweeps' in SWEPT_CANDLES (a subscription has one root field). */
export const USED_CANDLES = `subscription UsedCandles($userId: uuid!) {
  strategy_runs_aggregate(where: { user_id: { _eq: $userId } }) { aggregate { sum { candles } } }
}`;

/** BACKTEST credits used by the user's sweeps (the server's licences view counts runs and sweeps). */
export const SWEPT_CANDLES = `subscription SweptCandles($userId: uuid!) {
  sweeps_aggregate(where: { user_id: { _eq: $userId } }) { aggregate { sum { candles } } }
}`;

type CandleSum = { readonly aggregate: { readonly sum: { readonly candles: number | string | null } | null } | null };

/** What USED_CANDLES answers. */
export interface UsedCandlesData {
  readonly strategy_runs_aggregate: CandleSum;
}

/** What SWEPT_CANDLES answers. */
export interface SweptCandlesData {
  readonly sweeps_aggregate: CandleSum;
}

/** The credits used by runs and sweeps; undefined until both have answered. */
export function usedCandles(runs: UsedCandlesData | undefined, sweeps: SweptCandlesData | undefined): number | undefined {
  if (runs === undefined || sweeps === undefined) return undefined;
  return Number(runs.strategy_runs_aggregate.aggregate?.sum?.candles ?? 0) + Number(sweeps.sweeps_aggregate.aggregate?.sum?.candles ?? 0);
}

export const DEPLOYED_STRATEGIES = `subscription DeployedStrategies($userId: uuid!) {
  deployed_strategies(where: { user_id: { _eq: $userId } }) { id available utilized }
}`;

export const STRATEGY_LICENCES = `subscription StrategyLicences($userId: uuid!, $today: date!) {
  user_credits_aggregate(where: {
    user_id: { _eq: $userId }, category: { _eq: "STRATEGIES" }, subcategory: { _eq: "DEPLOYED" }, expiry: { _gte: $today }
  }) {
    aggregate { count max { expiry created_at } }
  }
}`;

export const PROFILE = `query Profile($userId: uuid!) {
  users_by_pk(user_id: $userId) { user_id name tier zone }
}`;
