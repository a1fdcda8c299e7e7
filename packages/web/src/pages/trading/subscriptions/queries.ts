// The GraphQL documents of /subscriptions. Lists are live (subscriptions over graphql-ws); the
// marketplace's paper records come from the marketplace_paper_records action (other users' runs
// are not readable); writes go through the subscribe_strategy and update_subscription actions,
// which check the role, the ownership and every field on the server.

export const MY_SUBSCRIPTIONS = `subscription MySubscriptions($where: subscriptions_bool_exp!) {
  subscriptions(where: $where, order_by: [{ created_at: desc }]) {
    subscription_id sizing quantity investment_amt_paise investment_history active paused expires_at created_at user_broker_id mode
    strategy {
      strategy_id name mode status strategy_type interval_minutes user_id
      algorithm { algorithm_id name published user_id }
      instrument { trading_symbol }
    }
  }
}`;

export const MY_BROKERS = `query MyBrokerAccounts($userId: uuid!) {
  user_brokers(where: { user_id: { _eq: $userId } }, order_by: [{ created_at: asc }]) { user_broker_id broker client_id active }
}`;

export interface BrokerAccount {
  readonly user_broker_id: string;
  readonly broker: string;
  readonly client_id: string;
  readonly active: boolean;
}

export const MARKETPLACE = `subscription Marketplace {
  strategies(where: { published: { _eq: true } }, order_by: [{ updated_at: desc }]) {
    strategy_id user_id name kind mode strategy_type status interval_minutes updated_at
    instrument { trading_symbol }
  }
}`;

export interface MarketRow {
  readonly strategy_id: string;
  readonly user_id: string;
  readonly name: string;
  readonly kind: string;
  readonly mode: string;
  readonly strategy_type: string;
  readonly status: string;
  readonly interval_minutes: number | null;
  readonly updated_at: string;
  readonly instrument: { readonly trading_symbol: string } | null;
}

export const PAPER_RECORDS = `query MarketplacePaperRecords {
  marketplace_paper_records { strategy_id trades pnl_paise return_pct max_drawdown_pct win_rate_pct since }
}`;

export interface PaperRecordRow {
  readonly strategy_id: string;
  readonly trades: number;
  readonly pnl_paise: string | number;
  readonly return_pct: number | null;
  readonly max_drawdown_pct: number | null;
  readonly win_rate_pct: number | null;
  readonly since: string | null;
}

export const SUBSCRIBE = `mutation SubscribeStrategy($strategyId: uuid!, $sizing: String!, $quantity: Int, $investment: bigint, $broker: uuid, $mode: String) {
  subscribe_strategy(strategy_id: $strategyId, sizing: $sizing, quantity: $quantity, investment_paise: $investment, user_broker_id: $broker, mode: $mode) {
    subscription_id
  }
}`;

export const UPDATE = `mutation UpdateSubscription(
  $id: uuid!, $sizing: String, $quantity: Int, $investment: bigint, $paused: Boolean, $active: Boolean
) {
  update_subscription(subscription_id: $id, sizing: $sizing, quantity: $quantity, investment_paise: $investment, paused: $paused, active: $active) {
    subscription_id
  }
}`;

/** The edit dialog's update: the sizing with the mode and the broker account (null: none), always sent together. */
export const UPDATE_FOLLOW = `mutation UpdateSubscriptionFollow($id: uuid!, $sizing: String, $quantity: Int, $investment: bigint, $mode: String!, $broker: uuid) {
  update_subscription(subscription_id: $id, sizing: $sizing, quantity: $quantity, investment_paise: $investment, mode: $mode, user_broker_id: $broker) {
    subscription_id
  }
}`;

/** The follower runs' daily rows of one subscription (the subscriber's own runs). */
export const FOLLOW_DAYS = `subscription FollowDays($where: daily_pnl_bool_exp!) {
  daily_pnl(where: $where, order_by: [{ date: desc }]) { run_id date pnl_paise orders_count }
}`;

/** The where of a subscription's follower runs: the runtime writes params.follows.subscriptionId on each. */
export function followerRunsWhere(userId: string, subscriptionId: string): Record<string, unknown> {
  return { user_id: { _eq: userId }, params: { _contains: { follows: { subscriptionId } } } };
}
