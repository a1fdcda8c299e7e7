// Managing ensembles (migration 0029): create one, add and remove members, add, edit and remove
// subscribed accounts; the list of ensembles and the history of syncs.
//
// Invariants:
// - Every check happens before any write; a refusal names the field and changes nothing.
// - A member is an algo strategy with a PAPER or LIVE run IN PROGRESS (a BACKTEST never makes one);
//   an account is an existing broker account; the investment is a whole number of paise above 0;
//   LIVE needs the account to be able to trade now (deployments.ts liveAccountIssues: Zerodha,
//   switched on, a broker session for today).
// - Every write runs in a transaction that sets `vyuha.actor_id` to the administrator.
import type pg from 'pg';
import { liveAccountIssues } from '../deployments';
import { inActorTransaction } from '../oms/order-rows';
import { EnsembleRefusal, ensembleRow } from './ensemble-sync';

function refuse(field: string, code: string, message: string): never {
  throw new EnsembleRefusal([{ field, code, message }]);
}


/**
 * A new ensemble (a strategies row of kind 'ensemble') owned by `actorId`.
 * @example await createEnsemble(pool, { actorId, name: 'Index momentum' }) // 'c0ffee...'
 */
export async function createEnsemble(pool: pg.Pool, request: { readonly actorId: string; readonly name: unknown }): Promise<string> {
  const name = typeof request.name === 'string' ? request.name.trim() : '';
  if (name === '' || name.length > 120) refuse('name', 'invalid', 'name: give the ensemble a name of 1 to 120 characters');
  return inActorTransaction(pool, request.actorId, async (client) => {
    const { rows } = await client.query<{ strategy_id: string }>(
      `INSERT INTO strategies (user_id, name, kind, mode) VALUES ($1, $2, 'ensemble', 'PAPER') RETURNING strategy_id`, [request.actorId, name]);
    return rows[0]!.strategy_id;
  });
}

/** Adds (or re-weights) a member. */
export async function setMember(pool: pg.Pool, request: { readonly actorId: string; readonly ensembleId: string; readonly memberId: string; readonly weight: unknown }): Promise<void> {
  await ensembleRow(pool, request.ensembleId);
  const weight = request.weight === undefined || request.weight === null ? 1 : request.weight;
  if (typeof weight !== 'number' || !Number.isFinite(weight) || weight <= 0 || weight > 1_000_000 || Math.round(weight * 10_000) !== weight * 10_000) {
    refuse('weight', 'invalid', `weight: a number above 0 with at most 4 decimals, got ${JSON.stringify(request.weight)}`);
  }
  const { rows } = await pool.query<{ kind: string; running: boolean }>(
    `SELECT s.kind, EXISTS (SELECT 1 FROM strategy_runs r WHERE r.strategy_id = s.strategy_id AND r.kind IN ('PAPER', 'LIVE') AND r.status = 'IN PROGRESS') AS running
       FROM strategies s WHERE s.strategy_id = $1`, [request.memberId]);
  const member = rows[0];
  if (member === undefined) refuse('member_strategy_id', 'not-found', `member_strategy_id: no strategy ${request.memberId}`);
  if (member.kind !== 'algo') refuse('member_strategy_id', 'not-algo', `member_strategy_id: a member must be an algo strategy, this one is a ${member.kind}`);
  if (!member.running) {
    refuse('member_strategy_id', 'not-running', 'member_strategy_id: the strategy has no PAPER or LIVE run in progress (a backtest does not count): deploy it first');
  }
  await inActorTransaction(pool, request.actorId, (client) => client.query(
    `INSERT INTO ensemble_members (ensemble_id, member_strategy_id, weight) VALUES ($1, $2, $3)
     ON CONFLICT (ensemble_id, member_strategy_id) DO UPDATE SET weight = EXCLUDED.weight`, [request.ensembleId, request.memberId, weight]));
}

export async function removeMember(pool: pg.Pool, request: { readonly actorId: string; readonly ensembleId: string; readonly memberId: string }): Promise<void> {
  await ensembleRow(pool, request.ensembleId);
  const removed = await inActorTransaction(pool, request.actorId, (client) => client.query(
    'DELETE FROM ensemble_members WHERE ensemble_id = $1 AND member_strategy_id = $2', [request.ensembleId, request.memberId]));
  if (removed.rowCount === 0) refuse('member_strategy_id', 'not-found', `member_strategy_id: ${request.memberId} is not a member of this ensemble`);
}

/** Adds an account or changes its investment, mode or active flag (omitted: kept; a new account needs investment and mode). */
export async function setAccount(pool: pg.Pool, request: {
  readonly actorId: string; readonly ensembleId: string; readonly userBrokerId: string;
  readonly investmentPaise?: unknown; readonly mode?: unknown; readonly active?: unknown; readonly nowMs: number;
}): Promise<void> {
  await ensembleRow(pool, request.ensembleId);
  const { rows } = await pool.query<{ user_id: string; investment: number | null; mode: string | null; active: boolean | null }>(
    `SELECT b.user_id, a.investment_paise::float8 AS investment, a.mode, a.active FROM user_brokers b
       LEFT JOIN ensemble_accounts a ON a.user_broker_id = b.user_broker_id AND a.ensemble_id = $2 WHERE b.user_broker_id = $1`,
    [request.userBrokerId, request.ensembleId]);
  const account = rows[0];
  if (account === undefined) refuse('user_broker_id', 'not-found', `user_broker_id: no broker account ${request.userBrokerId}`);
  const investment = request.investmentPaise ?? account.investment;
  if (typeof investment !== 'number' || !Number.isSafeInteger(investment) || investment <= 0) {
    refuse('investment_paise', 'invalid', `investment_paise: a whole number of paise above 0, got ${JSON.stringify(request.investmentPaise ?? null)}`);
  }
  const mode = request.mode ?? account.mode;
  if (mode !== 'PAPER' && mode !== 'LIVE') refuse('mode', 'invalid', `mode: PAPER or LIVE, got ${JSON.stringify(request.mode ?? null)}`);
  const active = request.active ?? account.active ?? true;
  if (typeof active !== 'boolean') refuse('active', 'invalid', `active: true or false, got ${JSON.stringify(request.active)}`);
  if (mode === 'LIVE') {
    const issues = await liveAccountIssues(pool, { userId: account.user_id, userBrokerId: request.userBrokerId, nowMs: request.nowMs });
    if (issues.length > 0) {
      throw new EnsembleRefusal(issues.map((issue) => ({ field: 'mode', code: issue.code, message: `mode: LIVE needs an account that can trade now: ${issue.message}` })));
    }
  }
  await inActorTransaction(pool, request.actorId, (client) => client.query(
    `INSERT INTO ensemble_accounts (ensemble_id, user_broker_id, investment_paise, mode, active) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (ensemble_id, user_broker_id) DO UPDATE SET investment_paise = EXCLUDED.investment_paise, mode = EXCLUDED.mode, active = EXCLUDED.active`,
    [request.ensembleId, request.userBrokerId, investment, mode, active]));
}

export async function removeAccount(pool: pg.Pool, request: { readonly actorId: string; readonly ensembleId: string; readonly userBrokerId: string }): Promise<void> {
  await ensembleRow(pool, request.ensembleId);
  const removed = await inActorTransaction(pool, request.actorId, (client) => client.query(
    'DELETE FROM ensemble_accounts WHERE ensemble_id = $1 AND user_broker_id = $2', [request.ensembleId, request.userBrokerId]));
  if (removed.rowCount === 0) refuse('user_broker_id', 'not-found', `user_broker_id: ${request.userBrokerId} is not an account of this ensemble`);
}

export interface EnsembleListRow {
  readonly ensembleId: string;
  readonly name: string;
  readonly ownerName: string;
  readonly members: number;
  readonly accounts: number;
  readonly lastSyncAt: string | null;
}

/** Every ensemble, newest first. */
export async function listEnsembles(pool: pg.Pool): Promise<EnsembleListRow[]> {
  const { rows } = await pool.query<{ strategy_id: string; name: string; owner: string; members: number; accounts: number; last_sync: Date | null }>(
    `SELECT s.strategy_id, s.name, u.name AS owner,
            (SELECT count(*)::int FROM ensemble_members m WHERE m.ensemble_id = s.strategy_id) AS members,
            (SELECT count(*)::int FROM ensemble_accounts a WHERE a.ensemble_id = s.strategy_id) AS accounts,
            (SELECT max(created_at) FROM ensemble_syncs y WHERE y.ensemble_id = s.strategy_id) AS last_sync
       FROM strategies s JOIN users u ON u.user_id = s.user_id WHERE s.kind = 'ensemble' ORDER BY s.created_at DESC`);
  return rows.map((row) => ({
    ensembleId: row.strategy_id, name: row.name, ownerName: row.owner, members: row.members, accounts: row.accounts, lastSyncAt: row.last_sync?.toISOString() ?? null,
  }));
}

export interface SyncHistoryRow {
  readonly syncId: string;
  readonly actorName: string | null;
  readonly asOf: string;
  readonly status: string;
  readonly ordersCount: number;
  readonly filledCount: number;
  readonly accountsCount: number;
  readonly createdAt: string;
  readonly orders: readonly {
    readonly userBrokerId: string; readonly clientId: string; readonly symbol: string; readonly side: string; readonly quantity: number; readonly mode: string;
    readonly estimatedPricePaise: number; readonly estimatedChargesPaise: number; readonly runId: string | null; readonly orderId: string | null;
    readonly status: string; readonly message: string | null; readonly averagePricePaise: number | null;
  }[];
}

/**
 * The ensemble's syncs made on or after `from` (IST date of as_of), newest first, with their
 * orders; a LIVE order still PENDING in the sync takes its leg's outcome from its run's result
 * once the runner has written it (live-basket.ts).
 */
export async function syncHistory(pool: pg.Pool, ensembleId: string, from: string): Promise<SyncHistoryRow[]> {
  const { rows } = await pool.query<{
    sync_id: string; actor: string | null; as_of: string; status: string; orders_count: number; filled_count: number; accounts_count: number; created_at: Date;
  }>(
    `SELECT y.sync_id, u.name AS actor, y.as_of::text AS as_of, y.status, y.orders_count, y.filled_count, y.accounts_count, y.created_at
       FROM ensemble_syncs y LEFT JOIN users u ON u.user_id = y.actor_id WHERE y.ensemble_id = $1 AND y.as_of >= $2::date ORDER BY y.created_at DESC LIMIT 200`,
    [ensembleId, from]);
  const { rows: orders } = await pool.query<{
    sync_id: string; user_broker_id: string; client_id: string; trading_symbol: string; side: string; quantity: number; mode: string; price: number; charges: number;
    run_id: string | null; order_id: string | null; status: string; message: string | null; average: number | null;
  }>(
    `SELECT o.sync_id, o.user_broker_id, b.client_id, o.trading_symbol, o.side, o.quantity, o.mode, o.estimated_price_paise::float8 AS price,
            o.estimated_charges_paise::float8 AS charges, o.run_id,
            coalesce(o.order_id, (SELECT x.order_id FROM orders x WHERE x.run_id = o.run_id AND x.instrument_id = o.instrument_id ORDER BY x.created_at LIMIT 1)) AS order_id,
            coalesce(CASE WHEN o.status = 'PENDING' THEN leg ->> 'status' END, o.status) AS status,
            coalesce(o.message, CASE WHEN o.status = 'PENDING' THEN leg ->> 'message' END) AS message,
            coalesce(o.average_price_paise::float8, CASE WHEN o.status = 'PENDING' THEN (leg ->> 'averagePricePaise')::float8 END) AS average
       FROM ensemble_sync_orders o JOIN user_brokers b ON b.user_broker_id = o.user_broker_id
       LEFT JOIN strategy_runs r ON r.run_id = o.run_id
       LEFT JOIN LATERAL (SELECT l FROM jsonb_array_elements(CASE WHEN jsonb_typeof(r.result -> 'legs') = 'array' THEN r.result -> 'legs' ELSE '[]'::jsonb END) l
                           WHERE l ->> 'symbol' = o.trading_symbol LIMIT 1) legs(leg) ON true
      WHERE o.sync_id = ANY($1::uuid[])
      ORDER BY b.client_id, o.trading_symbol`, [rows.map((row) => row.sync_id)]);
  return rows.map((row) => ({
    syncId: row.sync_id, actorName: row.actor, asOf: row.as_of, status: row.status, ordersCount: row.orders_count, filledCount: row.filled_count,
    accountsCount: row.accounts_count, createdAt: row.created_at.toISOString(),
    orders: orders.filter((order) => order.sync_id === row.sync_id).map((order) => ({
      userBrokerId: order.user_broker_id, clientId: order.client_id, symbol: order.trading_symbol, side: order.side, quantity: order.quantity, mode: order.mode,
      estimatedPricePaise: order.price, estimatedChargesPaise: order.charges, runId: order.run_id, orderId: order.order_id, status: order.status,
      message: order.message, averagePricePaise: order.average,
    })),
  }));
}
