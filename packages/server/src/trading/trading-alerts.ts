// What the trading runtime tells a user about their account (trading_alerts, migration 0023): a
// broker session to renew, strategies paused by an unexplained broker position, margin short for
// an entry. One open alert per account, strategy and kind: the same condition found again (every
// reconciliation, every refused entry) refreshes its message instead of stacking copies; once the
// user acknowledges it, the next occurrence is a new alert. Each alert is also an audit row.
import type pg from 'pg';

export type TradingAlertKind =
  | 'broker-session-missing' | 'broker-session-lost' | 'unexplained-position' | 'margin-short'
  | 'order-unresolved' | 'rate-limited' | 'reconciled'
  /** A LIVE subscription that could not follow (migration 0025; follow/follower-desk.ts). */
  | 'follow-not-live'
  /** An account's stop-loss, target or trailing level hit: squared off for the day (migration 0026; account-risk.ts). */
  | 'account-risk';

export interface TradingAlert {
  readonly userId: string;
  readonly userBrokerId?: string | null;
  readonly strategyId?: string | null;
  readonly kind: TradingAlertKind;
  readonly message: string;
  /** Where the user fixes it (the broker login path); absent when nothing is to be done. */
  readonly actionPath?: string | null;
}

/**
 * Raises the alert, or refreshes the open one of the same account, strategy and kind. Resolves with
 * the alert's id and whether it is new.
 */
export async function raiseTradingAlert(db: pg.Pool | pg.PoolClient, alert: TradingAlert): Promise<{ readonly alertId: string; readonly created: boolean }> {
  const { rows } = await db.query<{ trading_alert_id: string; created: boolean }>(
    `WITH raised AS (
       INSERT INTO trading_alerts (user_id, user_broker_id, strategy_id, kind, message, action_path)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (user_id, user_broker_id, strategy_id, kind) WHERE acknowledged_at IS NULL
       DO UPDATE SET message = EXCLUDED.message, action_path = EXCLUDED.action_path, created_at = now()
       RETURNING trading_alert_id, (xmax = 0) AS created
     ), audited AS (
       INSERT INTO audit_log (actor_user_id, action, entity, entity_id, after)
       SELECT NULL, 'trading.alert', 'trading_alerts', trading_alert_id::text,
              jsonb_build_object('kind', $4::text, 'message', $5::text, 'user_broker_id', $2::uuid, 'strategy_id', $3::uuid)
       FROM raised WHERE created
     )
     SELECT trading_alert_id, created FROM raised`,
    [alert.userId, alert.userBrokerId ?? null, alert.strategyId ?? null, alert.kind, alert.message, alert.actionPath ?? null]);
  const raised = rows[0];
  if (raised === undefined) throw new Error('trading alert upsert returned no row');
  return { alertId: raised.trading_alert_id, created: raised.created };
}

/** The user's alerts not acknowledged yet, newest first. */
export async function openTradingAlerts(db: pg.Pool | pg.PoolClient, userId: string): Promise<readonly (TradingAlert & { readonly alertId: string })[]> {
  const { rows } = await db.query<{ trading_alert_id: string; user_broker_id: string | null; strategy_id: string | null; kind: TradingAlertKind; message: string; action_path: string | null }>(
    `SELECT trading_alert_id, user_broker_id, strategy_id, kind, message, action_path FROM trading_alerts
     WHERE user_id = $1 AND acknowledged_at IS NULL ORDER BY created_at DESC`, [userId]);
  return rows.map((row) => ({
    alertId: row.trading_alert_id, userId, userBrokerId: row.user_broker_id, strategyId: row.strategy_id, kind: row.kind, message: row.message, actionPath: row.action_path,
  }));
}
