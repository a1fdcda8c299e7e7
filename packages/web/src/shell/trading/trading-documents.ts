// The GraphQL documents of the header's trading controls. Every subscription names the user it
// reads (the signed-in user, or the managed user a manager acts for): staff read every user's
// rows, so the filter keeps the header to the account in hand.

/** The account's switch and the global one (user_id null: only staff read that row). */
export const KILL_SWITCHES_SUBSCRIPTION = `
  subscription HeaderKillSwitches($user_id: uuid!) {
    kill_switches(where: { _or: [{ user_id: { _eq: $user_id } }, { user_id: { _is_null: true } }] }) {
      kill_switch_id user_id is_on square_off changed_at changed_by
    }
  }`;

/** What a switch did since it went on: orders cancelled since then and the square-offs placed since then. */
export const SWITCH_ORDERS_SUBSCRIPTION = `
  subscription HeaderKillSwitchOrders($user_id: uuid!, $since: timestamptz!) {
    orders(
      where: { user_id: { _eq: $user_id }, _or: [
        { status: { _eq: "CANCELLED" }, updated_at: { _gte: $since } },
        { square_off: { _eq: true }, created_at: { _gte: $since } }
      ] }
      order_by: { updated_at: desc }
      limit: 200
    ) {
      order_id client_order_id side quantity status status_message square_off created_at updated_at
      instrument { trading_symbol }
      strategy { name }
    }
  }`;

export const SET_KILL_SWITCH = `
  mutation HeaderSetKillSwitch($on: Boolean!, $square_off: Boolean) {
    set_kill_switch(on: $on, square_off: $square_off) { user_id on square_off set_at set_by global_on }
  }`;

export const SET_GLOBAL_KILL_SWITCH = `
  mutation HeaderSetGlobalKillSwitch($on: Boolean!, $square_off: Boolean) {
    set_global_kill_switch(on: $on, square_off: $square_off) { user_id on square_off set_at set_by global_on }
  }`;

/** The MANUAL strategies' signals waiting for an answer, oldest first. */
export const PENDING_SIGNALS_SUBSCRIPTION = `
  subscription HeaderPendingSignals($user_id: uuid!) {
    pending_signals(where: { user_id: { _eq: $user_id }, state: { _eq: "PENDING" } }, order_by: { created_at: asc }, limit: 100) {
      pending_signal_id strategy_id run_id payload created_at expires_at
      strategy { name config }
    }
  }`;

export const CONFIRM_SIGNAL = `
  mutation HeaderConfirmSignal($pending_signal_id: uuid!, $accept: Boolean!) {
    confirm_signal(pending_signal_id: $pending_signal_id, accept: $accept) { pending_signal_id state outcome }
  }`;

/**
 * docs/PRODUCT.md section 7's batched update_pending_signals_by_pk: one aliased update per signal
 * (p0, p1, ...), each moving a PENDING row to PROCESSED, which the server records as REJECTED.
 * @example dismissSignalsDocument(2) // 'mutation HeaderDismissSignals($id0: uuid!, $id1: uuid!) { p0: update_pending_signals_by_pk(...) ... }'
 */
export function dismissSignalsDocument(count: number): string {
  const indices = Array.from({ length: count }, (_, index) => index);
  const variables = indices.map((index) => `$id${index}: uuid!`).join(', ');
  const updates = indices.map((index) =>
    `p${index}: update_pending_signals_by_pk(pk_columns: { pending_signal_id: $id${index} }, _set: { state: "PROCESSED" }) { pending_signal_id state outcome }`);
  return `mutation HeaderDismissSignals(${variables}) {\n  ${updates.join('\n  ')}\n}`;
}

/** The open (unacknowledged) trading alerts, newest first. */
export const TRADING_ALERTS_SUBSCRIPTION = `
  subscription HeaderTradingAlerts($user_id: uuid!) {
    trading_alerts(where: { user_id: { _eq: $user_id }, acknowledged_at: { _is_null: true } }, order_by: { created_at: desc }, limit: 50) {
      trading_alert_id kind message action_path created_at
      strategy { name }
    }
  }`;

export const ACKNOWLEDGE_ALERT = `
  mutation HeaderAcknowledgeAlert($trading_alert_id: uuid!, $at: timestamptz!) {
    update_trading_alerts_by_pk(pk_columns: { trading_alert_id: $trading_alert_id }, _set: { acknowledged_at: $at }) { trading_alert_id acknowledged_at }
  }`;
