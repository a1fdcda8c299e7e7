// The subscription writes the GraphQL actions subscribe_strategy and update_subscription make
// (graphql/actions/trading-actions.ts checks the role; this checks everything else): the
// arguments, field by field; that the strategy is published or the user's own; that a broker
// account is the user's and active; one following subscription per user and strategy. An edit of
// the investment appends an investment_history entry dated today (IST) and keeps the old ones
// (docs/PRODUCT.md section 5; migration 0003's is_investment_history checks the shape), so
// investment_amt_paise stays what the user first put in. A refused write changes nothing.
import { err, istDate, ok } from '@vyuha/core';
import type { Result } from '@vyuha/core';
import type pg from 'pg';

export interface SubscriptionIssue {
  /** The argument at fault, when one is. */
  readonly field?: string;
  readonly code: 'validation-failed' | 'not-found' | 'constraint-violation';
  readonly message: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SIZINGS = ['quantity', 'investment'] as const;

type Args = Readonly<Record<string, unknown>>;

function issue(field: string, message: string): SubscriptionIssue {
  return { field, code: 'validation-failed', message: `${field} ${message}` };
}

function uuidOf(args: Args, field: string, required: boolean): Result<string | null | undefined, SubscriptionIssue> {
  const value = args[field];
  if (value === undefined || value === null) return required ? err(issue(field, 'is required')) : ok(value);
  return typeof value === 'string' && UUID.test(value) ? ok(value) : err(issue(field, `must be a uuid, got ${JSON.stringify(value)}`));
}

/** A whole number from `min`, given as a number or (a bigint argument) its digits. */
function wholeOf(args: Args, field: string, min: number): Result<number | undefined, SubscriptionIssue> {
  const value = args[field];
  if (value === undefined || value === null) return ok(undefined);
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < min) return err(issue(field, `must be a whole number of at least ${min}, got ${JSON.stringify(value)}`));
  return ok(number);
}

function booleanOf(args: Args, field: string): Result<boolean | undefined, SubscriptionIssue> {
  const value = args[field];
  if (value === undefined || value === null) return ok(undefined);
  return typeof value === 'boolean' ? ok(value) : err(issue(field, `must be true or false, got ${JSON.stringify(value)}`));
}

function sizingOf(args: Args, required: boolean): Result<'quantity' | 'investment' | undefined, SubscriptionIssue> {
  const value = args.sizing;
  if (value === undefined || value === null) return required ? err(issue('sizing', 'is required (quantity or investment)')) : ok(undefined);
  return SIZINGS.includes(value as never) ? ok(value as 'quantity' | 'investment') : err(issue('sizing', `must be quantity or investment, got ${JSON.stringify(value)}`));
}

/** The first failure among checked arguments, or their values. */
function all<T extends readonly Result<unknown, SubscriptionIssue>[]>(...results: T): SubscriptionIssue | undefined {
  for (const result of results) if (!result.ok) return result.error;
  return undefined;
}

async function checkBroker(pool: pg.Pool, userId: string, userBrokerId: string | null | undefined): Promise<SubscriptionIssue | undefined> {
  if (userBrokerId === null || userBrokerId === undefined) return undefined;
  const { rows } = await pool.query<{ active: boolean }>('SELECT active FROM user_brokers WHERE user_broker_id = $1 AND user_id = $2', [userBrokerId, userId]);
  if (rows[0] === undefined) return { field: 'user_broker_id', code: 'not-found', message: 'user_broker_id is not one of your broker accounts' };
  return rows[0].active ? undefined : issue('user_broker_id', 'is a broker account you turned off; turn it on or choose paper');
}

/**
 * subscribe_strategy: a following subscription of `userId` to a published (or own) strategy.
 * @example await subscribeStrategy(pool, { userId, args: { strategy_id, sizing: 'quantity', quantity: 2 } }) // ok({ subscriptionId })
 */
export async function subscribeStrategy(pool: pg.Pool, request: { readonly userId: string; readonly args: Args }): Promise<Result<{ subscriptionId: string }, SubscriptionIssue>> {
  const { userId, args } = request;
  const strategyId = uuidOf(args, 'strategy_id', true);
  const sizing = sizingOf(args, true);
  const quantity = wholeOf(args, 'quantity', 1);
  const investment = wholeOf(args, 'investment_paise', 0);
  const broker = uuidOf(args, 'user_broker_id', false);
  const bad = all(strategyId, sizing, quantity, investment, broker);
  if (bad !== undefined || !strategyId.ok || !sizing.ok || !quantity.ok || !investment.ok || !broker.ok) return err(bad as SubscriptionIssue);
  if (sizing.value === 'quantity' && quantity.value === undefined) return err(issue('quantity', 'is required when sizing is quantity'));
  if (sizing.value === 'investment' && !(investment.value !== undefined && investment.value > 0)) return err(issue('investment_paise', 'must be above 0 when sizing is investment'));
  const brokerIssue = await checkBroker(pool, userId, broker.value);
  if (brokerIssue !== undefined) return err(brokerIssue);
  const { rows: strategies } = await pool.query<{ instrument_id: number | null }>(
    'SELECT instrument_id FROM strategies WHERE strategy_id = $1 AND (published OR user_id = $2)', [strategyId.value, userId]);
  const strategy = strategies[0];
  if (strategy === undefined) return err({ field: 'strategy_id', code: 'not-found', message: 'strategy_id is not a published strategy (nor one of yours)' });
  const { rows: existing } = await pool.query('SELECT 1 FROM subscriptions WHERE user_id = $1 AND strategy_id = $2 AND active', [userId, strategyId.value]);
  if (existing.length > 0) return err({ field: 'strategy_id', code: 'constraint-violation', message: 'strategy_id: you already follow this strategy; edit that subscription instead' });
  const { rows } = await pool.query<{ subscription_id: string }>(
    `INSERT INTO subscriptions (user_id, strategy_id, instrument_id, sizing, quantity, investment_amt_paise, user_broker_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING subscription_id`,
    [userId, strategyId.value, strategy.instrument_id, sizing.value, quantity.value ?? 1, investment.value ?? 0, broker.value ?? null]);
  return ok({ subscriptionId: (rows[0] as { subscription_id: string }).subscription_id });
}

/**
 * update_subscription: sizing, quantity, a new investment (appended to the history, dated `today`),
 * paused, active (false: unsubscribed; the follower closes its positions) and the broker account.
 * @example await updateSubscription(pool, { userId, args: { subscription_id, investment_paise: 600_000_00 }, now: Date.now() })
 */
export async function updateSubscription(pool: pg.Pool, request: { readonly userId: string; readonly args: Args; readonly now: number }): Promise<Result<{ subscriptionId: string }, SubscriptionIssue>> {
  const { userId, args } = request;
  const id = uuidOf(args, 'subscription_id', true);
  const sizing = sizingOf(args, false);
  const quantity = wholeOf(args, 'quantity', 1);
  const investment = wholeOf(args, 'investment_paise', 0);
  const paused = booleanOf(args, 'paused');
  const active = booleanOf(args, 'active');
  const broker = uuidOf(args, 'user_broker_id', false);
  const bad = all(id, sizing, quantity, investment, paused, active, broker);
  if (bad !== undefined || !id.ok || !sizing.ok || !quantity.ok || !investment.ok || !paused.ok || !active.ok || !broker.ok) return err(bad as SubscriptionIssue);
  const brokerIssue = await checkBroker(pool, userId, broker.value);
  if (brokerIssue !== undefined) return err(brokerIssue);
  const { rows: found } = await pool.query<{ sizing: string; history_amount: string | null; investment_amt_paise: string }>(
    `SELECT sizing, investment_amt_paise::text,
            (SELECT e ->> 'amount_paise' FROM jsonb_array_elements(investment_history) e ORDER BY e ->> 'date' DESC LIMIT 1) AS history_amount
     FROM subscriptions WHERE subscription_id = $1 AND user_id = $2`, [id.value, userId]);
  const row = found[0];
  if (row === undefined) return err({ field: 'subscription_id', code: 'not-found', message: 'subscription_id is not one of your subscriptions' });
  const investmentNow = investment.value ?? Number(row.history_amount ?? row.investment_amt_paise);
  if ((sizing.value ?? row.sizing) === 'investment' && investmentNow <= 0) return err(issue('investment_paise', 'must be above 0 when sizing is investment'));
  // One entry per day: a second edit the same day replaces that day's entry (the latest of the day is the day's investment).
  const entry = investment.value === undefined ? null : JSON.stringify([{ date: istDate(request.now), amount_paise: investment.value }]);
  await pool.query(
    `UPDATE subscriptions SET
       sizing = coalesce($3, sizing), quantity = coalesce($4, quantity), paused = coalesce($5, paused), active = coalesce($6, active),
       user_broker_id = CASE WHEN $8 THEN $7::uuid ELSE user_broker_id END,
       investment_history = CASE WHEN $9::jsonb IS NULL THEN investment_history
         ELSE (SELECT coalesce(jsonb_agg(e), '[]'::jsonb) FROM jsonb_array_elements(investment_history) e WHERE e ->> 'date' <> $9::jsonb -> 0 ->> 'date') || $9::jsonb END
     WHERE subscription_id = $1 AND user_id = $2`,
    [id.value, userId, sizing.value ?? null, quantity.value ?? null, paused.value ?? null, active.value ?? null, broker.value ?? null, 'user_broker_id' in args, entry]);
  return ok({ subscriptionId: id.value as string });
}
