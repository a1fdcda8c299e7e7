/**
 * The GraphQL documents of docs/PRODUCT.md section 7, as the spec's web client sends them: Hasura-generated
 * shapes, every input a variable. Kept apart from the tests so the documents read as the
 * client's, and reused by the tests that check them (HTTP and WebSocket).
 */

export const SPEC_QUERIES = {
  userAppConfigs: `query UserAppConfigs {
  user_app_configs { category subcategory meta_data }
}`,
  managers: `query ManagedUsers($userId: uuid!) {
  managers(where: { manager_id: { _eq: $userId } }, order_by: { user: { name: asc } }) {
    user_id
    user { name user_brokers { active } }
  }
}`,
  fnoExpiries: `query TodaysExpiries($instrumentIds: [Int!]!, $today: date!) {
  fno_expiries(where: { instrument_id: { _in: $instrumentIds }, segment: { _eq: "OPT" }, expiry: { _eq: $today } }) {
    instrument_id
    mode
  }
}`,
  /** The generic table query, here on holidays. */
  genericHolidays: `query TableQuery($where: holidays_bool_exp, $order_by: [holidays_order_by!], $limit: Int, $offset: Int) {
  holidays(where: $where, order_by: $order_by, limit: $limit, offset: $offset) { date event exchange }
}`,
  exchangesByZone: `query Exchanges($zone: String!) {
  exchanges(where: { zone: { _eq: $zone } }, order_by: { exchange: asc }) {
    currency locale market_close market_open symbol tz exchange
  }
}`,
  strategyCredits: `query StrategyCredits($userId: uuid!, $today: date!) {
  deployed_strategies(where: { user_id: { _eq: $userId } }) { available utilized }
  user_credits_aggregate(where: {
    user_id: { _eq: $userId }, category: { _eq: "STRATEGIES" }, subcategory: { _eq: "DEPLOYED" }, expiry: { _gte: $today }
  }) {
    aggregate { max { expiry created_at } }
  }
}`,
} as const;

export const SPEC_MUTATIONS = {
  appendAppConfig: `mutation AppendAppConfig($category: String!, $subcategory: String!, $userId: uuid!, $metaData: jsonb!) {
  update_user_app_configs_by_pk(
    pk_columns: { category: $category, subcategory: $subcategory, user_id: $userId }
    _append: { meta_data: $metaData }
  ) { category subcategory user_id meta_data }
}`,
  updateAppConfigsMany: `mutation UpdateAppConfigs($updates: [user_app_configs_updates!]!) {
  update_user_app_configs_many(updates: $updates) { affected_rows returning { category subcategory meta_data } }
}`,
  insertAppConfigs: `mutation InsertAppConfigs($objects: [user_app_configs_insert_input!]!) {
  insert_user_app_configs(objects: $objects) { affected_rows returning { user_id category subcategory meta_data } }
}`,
  batchedSubscriptionUpdates: `mutation UpdateSubscriptions($id0: uuid!, $set0: subscriptions_set_input, $id1: uuid!, $set1: subscriptions_set_input) {
  u0: update_subscriptions_by_pk(pk_columns: { subscription_id: $id0 }, _set: $set0) { subscription_id quantity active investment_history }
  u1: update_subscriptions_by_pk(pk_columns: { subscription_id: $id1 }, _set: $set1) { subscription_id quantity active investment_history }
}`,
  insertAndUpdateSubscriptions: `mutation SaveSubscriptions($objects: [subscriptions_insert_input!]!, $id0: uuid!, $set0: subscriptions_set_input) {
  insert_subscriptions(objects: $objects) { affected_rows returning { subscription_id user_id strategy_id quantity } }
  u0: update_subscriptions_by_pk(pk_columns: { subscription_id: $id0 }, _set: $set0) { subscription_id quantity }
}`,
  batchedStrategyUpdates: `mutation UpdateStrategies($id0: uuid!, $set0: strategies_set_input, $id1: uuid!, $set1: strategies_set_input) {
  s0: update_strategies_by_pk(pk_columns: { strategy_id: $id0 }, _set: $set0) { strategy_id name status strategy_type interval_minutes }
  s1: update_strategies_by_pk(pk_columns: { strategy_id: $id1 }, _set: $set1) { strategy_id name status strategy_type interval_minutes }
}`,
  batchedSignalUpdates: `mutation ProcessSignals($id0: uuid!, $id1: uuid!, $set: pending_signals_set_input!) {
  p0: update_pending_signals_by_pk(pk_columns: { pending_signal_id: $id0 }, _set: $set) { pending_signal_id state processed_at }
  p1: update_pending_signals_by_pk(pk_columns: { pending_signal_id: $id1 }, _set: $set) { pending_signal_id state processed_at }
}`,
  /** Staff side (not a spec call): the change the credit subscriptions must follow. */
  grantCredits: `mutation GrantCredits($object: user_credits_insert_input!) {
  insert_user_credits_one(object: $object) { id credits expiry }
}`,
  useStrategyLicence: `mutation UseLicence($id: uuid!) {
  update_deployed_strategies_by_pk(pk_columns: { id: $id }, _inc: { utilized: 1 }) { id utilized }
}`,
} as const;

export const SPEC_SUBSCRIPTIONS = {
  backtestCredits: `subscription BacktestCredits($userId: uuid!, $today: date!) {
  user_credits_aggregate(where: {
    user_id: { _eq: $userId }, category: { _eq: "BACKTEST" }, subcategory: { _eq: "CANDLES" }, expiry: { _gte: $today }
  }) {
    aggregate { sum { credits } max { expiry created_at } }
  }
}`,
  usedCandles: `subscription UsedCandles($userId: uuid!) {
  strategy_runs_aggregate(where: { user_id: { _eq: $userId } }) { aggregate { sum { candles } } }
}`,
  deployedStrategies: `subscription DeployedStrategies($userId: uuid!) {
  deployed_strategies(where: { user_id: { _eq: $userId } }) { id available utilized }
}`,
  strategyLicences: `subscription StrategyLicences($userId: uuid!, $today: date!) {
  user_credits_aggregate(where: {
    user_id: { _eq: $userId }, category: { _eq: "STRATEGIES" }, subcategory: { _eq: "DEPLOYED" }, expiry: { _gte: $today }
  }) {
    aggregate { count max { expiry created_at } }
  }
}`,
} as const;
