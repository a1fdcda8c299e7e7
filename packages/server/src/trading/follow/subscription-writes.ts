// The subscription writes the GraphQL actions subscribe_strategy and update_subscription make
// (graphql/actions/trading-actions.ts checks the role; this checks everything else): the
// arguments, field by field; that the strategy is published or the user's own; that a broker
// account is the user's and active; one following subscription per user and strategy. `mode` LIVE
// (default PAPER) needs, after the write, an active Zerodha account of the user named on the
// subscription and a tier that trades LIVE (deploy-checks.ts PAPER_ONLY_TIERS, as deploying LIVE);
// the follower desk checks the same again when a follower opens. An edit of
// the investment appends an investment_history entry dated today (IST) and keeps the old ones
// (docs/PRODUCT.md section 5; migration 0003's is_investment_history checks the shape), so
// investment_amt_paise stays what the user first put in. A refused write changes nothing.
import { err, istDate, ok } from '@vyuha/core';
import type { Result } from '@vyuha/core';
import type pg from 'pg';
import { LIVE_BROKERS } from '../../brokers/broker-sessions';
import { LIVE_UNAVAILABLE_MESSAGE, PAPER_ONLY_TIERS } from '../deploy-checks';

export interface SubscriptionIssue {
  /** The argument at fault, when one is. */
  readonly field?: string;
  readonly code: 'validation-failed' | 'not-found' | 'constraint-violation';
  readonly message: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SIZINGS = ['quantity', 'investment'] as const;
const MODES = ['PAPER', 'LIVE'] as const;

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

function modeOf(args: Args): Result<'PAPER' | 'LIVE' | undefined, SubscriptionIssue> {
  const value = args.mode;
  if (value === undefined || value === null) return ok(undefined);
  return MODES.includes(value as never) ? ok(value as 'PAPER' | 'LIVE') : err(issue('mode', `must be PAPER or LIVE, got ${JSON.stringify(value)}`));
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
 * Why `userId` cannot follow LIVE through `userBrokerId`, or undefined when they can: the tier
 * trades LIVE and the account is theirs, active and of a broker Vyuha trades LIVE through. The
 * follower desk asks the same when a LIVE follower opens (the answer may have changed since).
 * @example await liveFollowIssue(pool, { userId, userBrokerId: null }) // { field: 'user_broker_id', ... 'a LIVE subscription trades through one of your broker accounts: choose it' }
 */
export async function liveFollowIssue(pool: pg.Pool, request: { readonly userId: string; readonly userBrokerId: string | null }): Promise<SubscriptionIssue | undefined> {
  const { rows: users } = await pool.query<{ tier: string }>('SELECT tier FROM users WHERE user_id = $1', [request.userId]);
  const tier = users[0]?.tier ?? '';
  if (PAPER_ONLY_TIERS.includes(tier)) return issue('mode', `LIVE is not available: ${LIVE_UNAVAILABLE_MESSAGE}`);
  if (request.userBrokerId === null) return issue('user_broker_id', 'is required when mode is LIVE: a LIVE subscription trades through one of your broker accounts');
  const { rows } = await pool.query<{ broker: string; active: boolean }>(
    'SELECT broker, active FROM user_brokers WHERE user_broker_id = $1 AND user_id = $2', [request.userBrokerId, request.userId]);
  const account = rows[0];
  if (account === undefined) return { field: 'user_broker_id', code: 'not-found', message: 'user_broker_id is not one of your broker accounts' };
  if (!account.active) return issue('user_broker_id', 'is a broker account you turned off; turn it on or follow on PAPER');
  if (!LIVE_BROKERS.has(account.broker)) return issue('user_broker_id', `is a ${account.broker} account; LIVE trades through Zerodha only`);
  return undefined;
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
  const mode = modeOf(args);
  const bad = all(strategyId, sizing, quantity, investment, broker, mode);
  if (bad !== undefined || !strategyId.ok || !sizing.ok || !quantity.ok || !investment.ok || !broker.ok || !mode.ok) return err(bad as SubscriptionIssue);
  if (sizing.value === 'quantity' && quantity.value === undefined) return err(issue('quantity', 'is required when sizing is quantity'));
  if (sizing.value === 'investment' && !(investment.value !== undefined && investment.value > 0)) return err(issue('investment_paise', 'must be above 0 when sizing is investment'));
  const brokerIssue = mode.value === 'LIVE' ? await liveFollowIssue(pool, { userId, userBrokerId: broker.value ?? null }) : await checkBroker(pool, userId, broker.value);
  if (brokerIssue !== undefined) return err(brokerIssue);
  const { rows: strategies } = await pool.query<{ instrument_id: number | null }>(
    'SELECT instrument_id FROM strategies WHERE strategy_id = $1 AND (published OR user_id = $2)', [strategyId.value, userId]);
  const strategy = strategies[0];
  if (strategy === undefined) return err({ field: 'strategy_id', code: 'not-found', message: 'strategy_id is not a published strategy (nor one of yours)' });
  const { rows: existing } = await pool.query('SELECT 1 FROM subscriptions WHERE user_id = $1 AND strategy_id = $2 AND active', [userId, strategyId.value]);
  if (existing.length > 0) return err({ field: 'strategy_id', code: 'constraint-violation', message: 'strategy_id: you already follow this strategy; edit that subscription instead' });
  const { rows } = await pool.query<{ subscription_id: string }>(
    `INSERT INTO subscriptions (user_id, strategy_id, instrument_id, sizing, quantity, investment_amt_paise, user_broker_id, mode)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING subscription_id`,
    [userId, strategyId.value, strategy.instrument_id, sizing.value, quantity.value ?? 1, investment.value ?? 0, broker.value ?? null, mode.value ?? 'PAPER']);
  return ok({ subscriptionId: (rows[0] as { subscription_id: string }).subscription_id });
}

/**
 * update_subscription: sizing, quantity, a new investment (appended to the history, dated `today`),
 * paused, active (false: unsubscribed; the follower closes its positions), the broker account and
 * the mode (LIVE checked against the account the subscription names after the edit).
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
  const mode = modeOf(args);
  const bad = all(id, sizing, quantity, investment, paused, active, broker, mode);
  if (bad !== undefined || !id.ok || !sizing.ok || !quantity.ok || !investment.ok || !paused.ok || !active.ok || !broker.ok || !mode.ok) return err(bad as SubscriptionIssue);
  const brokerIssue = await checkBroker(pool, userId, broker.value);
  if (brokerIssue !== undefined) return err(brokerIssue);
  const { rows: found } = await pool.query<{ sizing: string; history_amount: string | null; investment_amt_paise: string; mode: string; user_broker_id: string | null }>(
    `SELECT sizing, investment_amt_paise::text, mode, user_broker_id,
            (SELECT e ->> 'amount_paise' FROM jsonb_array_elements(investment_history) e ORDER BY e ->> 'date' DESC LIMIT 1) AS history_amount
     FROM subscriptions WHERE subscription_id = $1 AND user_id = $2`, [id.value, userId]);
  const row = found[0];
  if (row === undefined) return err({ field: 'subscription_id', code: 'not-found', message: 'subscription_id is not one of your subscriptions' });
  // Checked when the edit asks for LIVE or moves a LIVE subscription to another account (never when pausing or unsubscribing).
  if (mode.value === 'LIVE' || (mode.value === undefined && row.mode === 'LIVE' && 'user_broker_id' in args)) {
    const liveIssue = await liveFollowIssue(pool, { userId, userBrokerId: 'user_broker_id' in args ? broker.value ?? null : row.user_broker_id });
    if (liveIssue !== undefined) return err(liveIssue);
  }
  const investmentNow = investment.value ?? Number(row.history_amount ?? row.investment_amt_paise);
  if ((sizing.value ?? row.sizing) === 'investment' && investmentNow <= 0) return err(issue('investment_paise', 'must be above 0 when sizing is investment'));
  // One entry per day: a second edit the same day replaces that day's entry (the latest of the day is the day's investment).
  const entry = investment.value === undefined ? null : JSON.stringify([{ date: istDate(request.now), amount_paise: investment.value }]);
  await pool.query(
    `UPDATE subscriptions SET
       sizing = coalesce($3, sizing), quantity = coalesce($4, quantity), paused = coalesce($5, paused), active = coalesce($6, active), mode = coalesce($10, mode),
       user_broker_id = CASE WHEN $8 THEN $7::uuid ELSE user_broker_id END,
       investment_history = CASE WHEN $9::jsonb IS NULL THEN investment_history
         ELSE (SELECT coalesce(jsonb_agg(e), '[]'::jsonb) FROM jsonb_array_elements(investment_history) e WHERE e ->> 'date' <> $9::jsonb -> 0 ->> 'date') || $9::jsonb END
     WHERE subscription_id = $1 AND user_id = $2`,
    [id.value, userId, sizing.value ?? null, quantity.value ?? null, paused.value ?? null, active.value ?? null, broker.value ?? null, 'user_broker_id' in args, entry, mode.value ?? null]);
  return ok({ subscriptionId: id.value as string });
}
