// The subscription actions (data layer: trading/follow/subscription-writes.ts, paper-record.ts):
// subscribe_strategy and update_subscription, and the marketplace's paper records
// (marketplace_paper_records: other users' runs are not readable, so the figures come from here). The role check is here: the roles that see the marketplace and write
// their own rows (MARKETPLACE_ROLES within OWN_ROW_WRITER_ROLES: not support, not `me`); a manager
// acting for a user writes that user's subscriptions. Ownership and every field are checked below.
import type pg from 'pg';
import { marketplaceRecords } from '../../trading/follow/paper-record';
import { subscribeStrategy, updateSubscription } from '../../trading/follow/subscription-writes';
import type { SubscriptionIssue } from '../../trading/follow/subscription-writes';
import type { ActionDeclaration } from '../metadata/types';
import { MARKETPLACE_ROLES, OWN_ROW_WRITER_ROLES } from '../metadata/roles';
import { GraphqlFailure } from '../types';
import { isUuid, requireRole, targetUserId } from './session-access';

export const SUBSCRIBE_STRATEGY = 'subscribe_strategy';
export const UPDATE_SUBSCRIPTION = 'update_subscription';
export const MARKETPLACE_PAPER_RECORDS = 'marketplace_paper_records';

/** Who may subscribe, edit, pause and unsubscribe. */
export const SUBSCRIBE_ROLES: readonly string[] = MARKETPLACE_ROLES.filter((role) => OWN_ROW_WRITER_ROLES.includes(role));

const TYPES = `
type subscription_write_result {
  subscription_id: uuid!
}
`;

const RECORD_TYPES = `
"""A published strategy's record from its publisher's PAPER runs (docs/PRODUCT.md section 3): closed round trips only."""
type marketplace_paper_record {
  strategy_id: uuid!
  trades: Int!
  pnl_paise: bigint!
  """Closed P&L over the strategy's investment, percent."""
  return_pct: float8
  max_drawdown_pct: float8
  win_rate_pct: float8
  """When its first PAPER run started."""
  since: timestamptz
}
`;

function refusal(action: string, issue: SubscriptionIssue): GraphqlFailure {
  return new GraphqlFailure(issue.code, issue.message, `$.selectionSet.${action}${issue.field === undefined ? '' : `.args.${issue.field}`}`);
}

/**
 * The declarations for `tradingActions`.
 * @example subscriptionActions({ pool }).map((action) => action.name) // ['subscribe_strategy', 'update_subscription']
 */
export function subscriptionActions(context: { readonly pool: pg.Pool; readonly now?: () => number }): ActionDeclaration[] {
  const now = context.now ?? Date.now;
  return [
    {
      name: SUBSCRIBE_STRATEGY,
      kind: 'mutation',
      field: `${SUBSCRIBE_STRATEGY}(strategy_id: uuid!, sizing: String!, quantity: Int, investment_paise: bigint, user_broker_id: uuid, mode: String): subscription_write_result!`,
      types: TYPES,
      description: 'Follows a published strategy: its paper runs\' orders are copied to a run of yours, sized by quantity (units, or lots of a '
        + 'contract traded in lots) or by investment (paise, all-in); mode PAPER (default) or LIVE: LIVE sends the copies of the publisher\'s '
        + 'market runs to your broker account user_broker_id (an active Zerodha account; not on demo and backtest plans).',
      roles: SUBSCRIBE_ROLES,
      handler: async ({ session, args }) => {
        requireRole(session, SUBSCRIBE_ROLES, SUBSCRIBE_STRATEGY);
        const written = await subscribeStrategy(context.pool, { userId: targetUserId(session), args });
        if (!written.ok) throw refusal(SUBSCRIBE_STRATEGY, written.error);
        return { subscription_id: written.value.subscriptionId };
      },
    },
    {
      name: UPDATE_SUBSCRIPTION,
      kind: 'mutation',
      field: `${UPDATE_SUBSCRIPTION}(subscription_id: uuid!, sizing: String, quantity: Int, investment_paise: bigint, paused: Boolean, active: Boolean, `
        + 'user_broker_id: uuid, mode: String): subscription_write_result!',
      // The result type comes with subscribe_strategy (same roles).
      types: '',
      description: 'Edits one of your subscriptions: sizing, quantity, a new investment (appended to investment_history, dated today), '
        + 'paused (no new entries), active false (unsubscribed: the follower closes its positions), the broker account or the mode (PAPER or LIVE; '
        + 'a change applies from the publisher\'s next run).',
      roles: SUBSCRIBE_ROLES,
      handler: async ({ session, args }) => {
        requireRole(session, SUBSCRIBE_ROLES, UPDATE_SUBSCRIPTION);
        const written = await updateSubscription(context.pool, { userId: targetUserId(session), args, now: now() });
        if (!written.ok) throw refusal(UPDATE_SUBSCRIPTION, written.error);
        return { subscription_id: written.value.subscriptionId };
      },
    },
    {
      name: MARKETPLACE_PAPER_RECORDS,
      kind: 'query',
      field: `${MARKETPLACE_PAPER_RECORDS}(strategy_ids: [uuid!]): [marketplace_paper_record!]!`,
      types: RECORD_TYPES,
      description: 'The paper record of published strategies (all, or strategy_ids): return, max drawdown and win rate of the closed trades '
        + "of their publishers' PAPER runs, and since when.",
      roles: MARKETPLACE_ROLES,
      handler: async ({ session, args }) => {
        requireRole(session, MARKETPLACE_ROLES, MARKETPLACE_PAPER_RECORDS);
        const ids = args.strategy_ids;
        if (ids !== undefined && ids !== null && !(Array.isArray(ids) && ids.every((id) => isUuid(id)))) {
          throw new GraphqlFailure('validation-failed', 'strategy_ids must be a list of uuids', `$.selectionSet.${MARKETPLACE_PAPER_RECORDS}.args.strategy_ids`);
        }
        const records = await marketplaceRecords(context.pool, { strategyIds: (ids ?? null) as string[] | null });
        if (!records.ok) throw new GraphqlFailure('validation-failed', records.error, `$.selectionSet.${MARKETPLACE_PAPER_RECORDS}.args.strategy_ids`);
        return records.value.map((record) => ({
          strategy_id: record.strategyId, trades: record.trades, pnl_paise: String(record.pnlPaise), return_pct: record.returnPct,
          max_drawdown_pct: record.maxDrawdownPct, win_rate_pct: record.winRatePct, since: record.since,
        }));
      },
    },
  ];
}
