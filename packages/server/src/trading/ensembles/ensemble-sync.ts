// Ensemble sync (/ensembleSync/{id}; tables of migration 0029): an ensemble's target positions per
// subscribed account, the account's actual positions, the drift between them, and the sync that
// places the difference (preview, then apply with the preview's token).
//
// Invariants:
// - A member counts through its newest PAPER or LIVE run IN PROGRESS started by the cutoff (never a
//   BACKTEST or any other kind): its net quantity per instrument is the fold of that run's fills up
//   to the cutoff (the end of as_of, IST, or now when as_of is today), per paise of the run's
//   investment (params.config.investment), times the member's weight.
// - An account's target per instrument is that sum times the account's investment, rounded toward
//   zero to whole lots (the market package's lot size on today's date; an equity's lot is 1). Its
//   actual is the fold of the fills of its ensemble runs (params.ensemble.ensembleId and
//   params.userBrokerId), whatever their state. Drift = target - actual; an inactive account is
//   shown but never traded.
// - The orders of a sync are the drifts rounded toward zero to whole lots, MARKET, product NRML (an
//   equity goes as delivery), one basket per account placed through the basket path
//   (baskets/basket-placement.ts on paper, baskets/live-basket.ts LIVE): the same OMS, risk checks,
//   venue and charges as any order; the first leg that does not fill stops that account's basket.
// - The preview token is the SHA-256 of every input (members, their runs and positions, the
//   accounts with investment, mode, active flag and actual positions, as_of, the last sync applied). Apply recomputes it:
//   a different token changes nothing; a token already applied (UNIQUE (ensemble_id,
//   preview_token)) places nothing again. Applies of one ensemble are serialised by an advisory lock.
import { createHash } from 'node:crypto';
import { isIsoDate, istDate, istMidnightMs } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { isOptionUnderlying, lotSize, parseTradingSymbol } from '@vyuha/market';
import type pg from 'pg';
import type { JobQueue } from '../../jobs/job-queue';
import { BasketRefusal } from '../baskets/basket-legs';
import type { BasketDocument, BasketLeg } from '../baskets/basket-legs';
import { placeBasketDocument } from '../baskets/basket-placement';
import { legChargesPaise } from '../baskets/basket-preview';
import { quoteBasket } from '../baskets/basket-quotes';
import { enqueueLiveBasketDocument } from '../baskets/live-basket';
import { haltedToday } from '../account-risk-settings';
import { liveAccountIssues } from '../deployments';
import { inActorTransaction } from '../oms/order-rows';

/** docs/PRODUCT.md section 9: the earliest ensemble sync date. */
export const MIN_ENSEMBLE_SYNC_DATE = '2021-01-01' as IsoDate;

/** The answer of an apply whose inputs moved since the preview. */
export const PREVIEW_STALE = 'Positions changed since the preview; preview again';

export interface EnsembleIssue {
  readonly field: string;
  readonly code: string;
  readonly message: string;
}

/** A refusal: nothing was written. */
export class EnsembleRefusal extends Error {
  constructor(readonly issues: readonly EnsembleIssue[]) {
    super(issues.map((issue) => issue.message).join('; '));
  }
}

export interface EnsembleContext {
  readonly pool: pg.Pool;
  /** The strategy runners' queue: LIVE accounts' baskets go through a runner; absent, LIVE is refused. */
  readonly queue?: JobQueue;
  readonly defaultAlgoId?: string;
  readonly now?: () => number;
}

export interface MemberState {
  readonly strategyId: string;
  readonly name: string;
  readonly weight: number;
  readonly runId: string | null;
  readonly runKind: string | null;
  readonly investmentPaise: number;
  /** instrument id -> signed net quantity. */
  readonly positions: ReadonlyMap<number, number>;
}

export interface DriftRow {
  readonly instrumentId: number;
  readonly symbol: string;
  readonly lotSize: number;
  readonly target: number;
  readonly actual: number;
  readonly drift: number;
}

export interface AccountState {
  readonly userBrokerId: string;
  readonly userId: string;
  readonly userName: string;
  readonly clientId: string;
  readonly investmentPaise: number;
  readonly mode: 'PAPER' | 'LIVE';
  readonly active: boolean;
  readonly actual: ReadonlyMap<number, number>;
  readonly rows: readonly DriftRow[];
  /** Every drift row is zero. */
  readonly inSync: boolean;
}

export interface EnsembleState {
  readonly ensembleId: string;
  readonly name: string;
  readonly asOf: IsoDate;
  readonly members: readonly MemberState[];
  readonly accounts: readonly AccountState[];
  readonly token: string;
}

export interface PreviewOrder {
  readonly userBrokerId: string;
  readonly mode: 'PAPER' | 'LIVE';
  readonly instrumentId: number;
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  readonly quantity: number;
  readonly lotSize: number;
  readonly estimatedPricePaise: number;
  readonly estimatedChargesPaise: number;
}

interface InstrumentFacts { readonly symbol: string; readonly kind: string; readonly lotSize: number }

/** The as_of date asked (default today IST), or the refusal naming the field. */
export function asOfDate(value: unknown, nowMs: number): IsoDate {
  const today = istDate(nowMs);
  if (value === undefined || value === null || value === '') return today;
  if (typeof value !== 'string' || !isIsoDate(value)) {
    throw new EnsembleRefusal([{ field: 'as_of', code: 'invalid', message: `as_of: a date YYYY-MM-DD, got ${JSON.stringify(value)}` }]);
  }
  if (value < MIN_ENSEMBLE_SYNC_DATE) {
    throw new EnsembleRefusal([{ field: 'as_of', code: 'too-early', message: `as_of: the earliest ensemble sync date is ${MIN_ENSEMBLE_SYNC_DATE}, got ${value}` }]);
  }
  if (value > today) throw new EnsembleRefusal([{ field: 'as_of', code: 'future', message: `as_of: ${value} is after today (${today})` }]);
  return value as IsoDate;
}

/** The end of `asOf` (IST), or now when it is today. */
function cutoffOf(asOf: IsoDate, nowMs: number): number {
  return asOf === istDate(nowMs) ? nowMs : istMidnightMs(asOf) + 86_400_000 - 1;
}

async function instrumentFacts(pool: pg.Pool, ids: readonly number[], today: IsoDate): Promise<Map<number, InstrumentFacts>> {
  const { rows } = await pool.query<{ instrument_id: number; trading_symbol: string; kind: string; lot_size: number }>(
    'SELECT instrument_id, trading_symbol, kind, lot_size FROM instruments WHERE instrument_id = ANY($1::int[])', [ids]);
  const facts = new Map<number, InstrumentFacts>();
  for (const row of rows) {
    let lot = row.kind === 'equity' ? 1 : row.lot_size;
    if (row.kind === 'future' || row.kind === 'option') {
      try {
        const contract = parseTradingSymbol(row.trading_symbol);
        if (isOptionUnderlying(contract.underlying)) lot = lotSize({ symbol: contract.underlying, tradeDate: today, expiry: contract.expiry });
      } catch {
        lot = row.lot_size;
      }
    }
    facts.set(row.instrument_id, { symbol: row.trading_symbol, kind: row.kind, lotSize: lot });
  }
  return facts;
}

function netOf(rows: readonly { instrument_id: number; net: number }[]): Map<number, number> {
  return new Map(rows.filter((row) => row.net !== 0).map((row) => [row.instrument_id, row.net]));
}

/** The ensemble row, or the refusal for an unknown id or a strategy of another kind. */
export async function ensembleRow(pool: pg.Pool | pg.PoolClient, ensembleId: string): Promise<{ name: string; userId: string }> {
  const { rows } = await pool.query<{ name: string; user_id: string }>(
    `SELECT name, user_id FROM strategies WHERE strategy_id = $1 AND kind = 'ensemble'`, [ensembleId]);
  const row = rows[0];
  if (row === undefined) throw new EnsembleRefusal([{ field: 'ensemble_id', code: 'not-found', message: `ensemble_id: no ensemble ${ensembleId}` }]);
  return { name: row.name, userId: row.user_id };
}

/**
 * Everything the screen and a sync need of the ensemble as of `asOf`: members with their run and
 * positions, accounts with target, actual and drift per instrument, and the token of those inputs.
 * @example (await ensembleState({ pool }, id, '2026-12-01')).accounts[0].inSync // false
 */
export async function ensembleState(context: EnsembleContext, ensembleId: string, asOf: IsoDate): Promise<EnsembleState> {
  const { pool } = context;
  const nowMs = (context.now ?? Date.now)();
  const cutoff = new Date(cutoffOf(asOf, nowMs)).toISOString();
  const ensemble = await ensembleRow(pool, ensembleId);
  const { rows: memberRows } = await pool.query<{ strategy_id: string; name: string; weight: number; run_id: string | null; run_kind: string | null; investment: number | null }>(
    `SELECT m.member_strategy_id AS strategy_id, s.name, m.weight::float8 AS weight, r.run_id, r.kind AS run_kind,
            (r.params -> 'config' ->> 'investment')::float8 AS investment
       FROM ensemble_members m JOIN strategies s ON s.strategy_id = m.member_strategy_id
       LEFT JOIN LATERAL (SELECT run_id, kind, params FROM strategy_runs
                           WHERE strategy_id = m.member_strategy_id AND kind IN ('PAPER', 'LIVE') AND status = 'IN PROGRESS' AND started_at <= $2
                           ORDER BY started_at DESC LIMIT 1) r ON true
      WHERE m.ensemble_id = $1 ORDER BY s.name, m.member_strategy_id`, [ensembleId, cutoff]);
  const members: MemberState[] = [];
  for (const row of memberRows) {
    let positions = new Map<number, number>();
    if (row.run_id !== null) {
      const { rows } = await pool.query<{ instrument_id: number; net: number }>(
        `SELECT o.instrument_id, sum(CASE o.side WHEN 'BUY' THEN f.quantity ELSE -f.quantity END)::int AS net
           FROM fills f JOIN orders o ON o.order_id = f.order_id WHERE o.run_id = $1 AND f.ts <= $2 GROUP BY o.instrument_id`, [row.run_id, cutoff]);
      positions = netOf(rows);
    }
    members.push({
      strategyId: row.strategy_id, name: row.name, weight: row.weight, runId: row.run_id, runKind: row.run_kind,
      investmentPaise: row.investment !== null && row.investment > 0 ? row.investment : 0, positions,
    });
  }
  const { rows: accountRows } = await pool.query<{
    user_broker_id: string; user_id: string; user_name: string; client_id: string; investment: number; mode: 'PAPER' | 'LIVE'; active: boolean;
  }>(
    `SELECT a.user_broker_id, b.user_id, u.name AS user_name, b.client_id, a.investment_paise::float8 AS investment, a.mode, a.active
       FROM ensemble_accounts a JOIN user_brokers b ON b.user_broker_id = a.user_broker_id JOIN users u ON u.user_id = b.user_id
      WHERE a.ensemble_id = $1 ORDER BY u.name, b.client_id`, [ensembleId]);
  const actuals = new Map<string, Map<number, number>>();
  for (const row of accountRows) {
    const { rows } = await pool.query<{ instrument_id: number; net: number }>(
      `SELECT o.instrument_id, sum(CASE o.side WHEN 'BUY' THEN f.quantity ELSE -f.quantity END)::int AS net
         FROM strategy_runs r JOIN orders o ON o.run_id = r.run_id JOIN fills f ON f.order_id = o.order_id
        WHERE r.kind IN ('PAPER', 'LIVE') AND r.params -> 'ensemble' ->> 'ensembleId' = $1 AND r.params ->> 'userBrokerId' = $2
        GROUP BY o.instrument_id`, [ensembleId, row.user_broker_id]);
    actuals.set(row.user_broker_id, netOf(rows));
  }
  const instrumentIds = new Set<number>();
  for (const member of members) for (const id of member.positions.keys()) instrumentIds.add(id);
  for (const actual of actuals.values()) for (const id of actual.keys()) instrumentIds.add(id);
  const facts = await instrumentFacts(pool, [...instrumentIds], istDate(nowMs));
  const accounts = accountRows.map((row): AccountState => {
    const actual = actuals.get(row.user_broker_id) ?? new Map<number, number>();
    const rows = [...instrumentIds].sort((a, b) => a - b).map((instrumentId): DriftRow => {
      const fact = facts.get(instrumentId) ?? { symbol: String(instrumentId), kind: 'equity', lotSize: 1 };
      const units = members.reduce((sum, member) => {
        const quantity = member.positions.get(instrumentId) ?? 0;
        return member.investmentPaise > 0 ? sum + quantity * member.weight * row.investment / member.investmentPaise : sum;
      }, 0);
      const lots = Math.trunc(units / fact.lotSize + Math.sign(units) * 1e-9);
      const target = lots * fact.lotSize;
      const held = actual.get(instrumentId) ?? 0;
      return { instrumentId, symbol: fact.symbol, lotSize: fact.lotSize, target, actual: held, drift: target - held };
    }).filter((drift) => drift.target !== 0 || drift.actual !== 0);
    return {
      userBrokerId: row.user_broker_id, userId: row.user_id, userName: row.user_name, clientId: row.client_id, investmentPaise: row.investment,
      mode: row.mode, active: row.active, actual, rows, inSync: rows.every((drift) => drift.drift === 0),
    };
  });
  // The last sync applied is an input too: the same positions met again after a sync are a new
  // preview (its token not yet applied), while one preview applied twice stays one.
  const { rows: lastSync } = await pool.query<{ sync_id: string }>(
    'SELECT sync_id FROM ensemble_syncs WHERE ensemble_id = $1 ORDER BY created_at DESC, sync_id DESC LIMIT 1', [ensembleId]);
  const token = createHash('sha256').update(JSON.stringify({
    ensembleId, asOf, lastSync: lastSync[0]?.sync_id ?? null,
    members: members.map((member) => ({ id: member.strategyId, weight: member.weight, run: member.runId, investment: member.investmentPaise, positions: [...member.positions].sort((a, b) => a[0] - b[0]) })),
    accounts: accounts.map((account) => ({
      id: account.userBrokerId, investment: account.investmentPaise, mode: account.mode, active: account.active, actual: [...account.actual].sort((a, b) => a[0] - b[0]),
    })),
  })).digest('hex');
  return { ensembleId, name: ensemble.name, asOf, members, accounts, token };
}

/** The whole lots of a drift row to trade (toward zero), or 0. */
function lotsToTrade(row: DriftRow): number {
  return Math.trunc(row.drift / row.lotSize);
}

function legOf(row: DriftRow, kind: string): BasketLeg {
  const side = row.drift > 0 ? 'BUY' : 'SELL';
  const lots = Math.abs(lotsToTrade(row));
  return kind === 'equity' ? { symbol: row.symbol, side, quantity: lots * row.lotSize, order_type: 'MARKET' } : { symbol: row.symbol, side, lots, order_type: 'MARKET' };
}

async function documentsOf(pool: pg.Pool, state: EnsembleState): Promise<Map<string, { document: BasketDocument; rows: DriftRow[] }>> {
  const ids = state.accounts.flatMap((account) => account.rows.map((row) => row.instrumentId));
  const { rows: kinds } = await pool.query<{ instrument_id: number; kind: string }>('SELECT instrument_id, kind FROM instruments WHERE instrument_id = ANY($1::int[])', [ids]);
  const kindOf = new Map(kinds.map((row) => [row.instrument_id, row.kind]));
  const documents = new Map<string, { document: BasketDocument; rows: DriftRow[] }>();
  for (const account of state.accounts) {
    if (!account.active) continue;
    const rows = account.rows.filter((row) => lotsToTrade(row) !== 0);
    if (rows.length === 0) continue;
    documents.set(account.userBrokerId, { document: { version: 1, product: 'NRML', legs: rows.map((row) => legOf(row, kindOf.get(row.instrumentId) ?? 'equity')) }, rows });
  }
  return documents;
}

/**
 * The orders a sync would place now, priced (the paper fill price now and the engine's charges),
 * with the token apply needs. Refused, naming the account, when an instrument has no price.
 * @example (await previewSync({ pool }, id, '2026-12-01')).orders // [{ side: 'BUY', quantity: 130, ... }]
 */
export async function previewSync(context: EnsembleContext, ensembleId: string, asOf: IsoDate): Promise<{ state: EnsembleState; orders: PreviewOrder[] }> {
  const { pool } = context;
  const nowMs = (context.now ?? Date.now)();
  const state = await ensembleState(context, ensembleId, asOf);
  const orders: PreviewOrder[] = [];
  for (const [userBrokerId, { document, rows }] of await documentsOf(pool, state)) {
    const account = state.accounts.find((candidate) => candidate.userBrokerId === userBrokerId) as AccountState;
    const quoted = await quoteBasket(pool, document, nowMs);
    if (quoted.issues.length > 0) {
      throw new EnsembleRefusal(quoted.issues.map((issue) => ({ field: 'ensemble_id', code: issue.code, message: `account ${account.clientId}: ${issue.message}` })));
    }
    for (const leg of quoted.legs) {
      const row = rows[leg.index] as DriftRow;
      orders.push({
        userBrokerId, mode: account.mode, instrumentId: row.instrumentId, symbol: row.symbol, side: leg.leg.side, quantity: leg.quantity, lotSize: row.lotSize,
        estimatedPricePaise: leg.pricePaise, estimatedChargesPaise: legChargesPaise(leg, istDate(nowMs)),
      });
    }
  }
  return { state, orders };
}

export interface SyncOutcome {
  readonly syncId: string;
  readonly status: string;
  /** The token was applied before: nothing was placed by this call. */
  readonly alreadyApplied: boolean;
}

async function withEnsembleLock<T>(pool: pg.Pool, ensembleId: string, work: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(`SELECT pg_advisory_lock(hashtextextended('ensemble-sync:' || $1, 0))`, [ensembleId]);
    try {
      return await work();
    } finally {
      await client.query(`SELECT pg_advisory_unlock(hashtextextended('ensemble-sync:' || $1, 0))`, [ensembleId]);
    }
  } finally {
    client.release();
  }
}

/** Why the orders cannot be placed: LIVE accounts' sessions and algo id, and accounts halted today. */
async function placementIssues(context: EnsembleContext, orders: readonly PreviewOrder[], state: EnsembleState): Promise<EnsembleIssue[]> {
  const issues: EnsembleIssue[] = [];
  const live = new Set(orders.filter((order) => order.mode === 'LIVE').map((order) => order.userBrokerId));
  if (live.size > 0 && context.queue === undefined) {
    return [{ field: 'ensemble_id', code: 'live-unavailable', message: 'LIVE accounts cannot be synced on this server: no strategy worker queue is configured' }];
  }
  if (live.size > 0 && context.defaultAlgoId === undefined) {
    const { rows } = await context.pool.query<{ algo_id: string | null }>('SELECT algo_id FROM strategies WHERE strategy_id = $1', [state.ensembleId]);
    if ((rows[0]?.algo_id ?? null) === null) {
      issues.push({ field: 'ensemble_id', code: 'algo-id-missing', message: "every LIVE order carries the exchange's algo id: set the ensemble's algo id (or the platform's VYUHA_ALGO_ID)" });
    }
  }
  const nowMs = (context.now ?? Date.now)();
  for (const userBrokerId of live) {
    const account = state.accounts.find((candidate) => candidate.userBrokerId === userBrokerId) as AccountState;
    for (const issue of await liveAccountIssues(context.pool, { userId: account.userId, userBrokerId, nowMs })) {
      issues.push({ field: 'ensemble_id', code: issue.code, message: `account ${account.clientId} (LIVE): ${issue.message}` });
    }
  }
  // An account its stop or target halted today takes no new orders (account-risk.ts), from a sync neither.
  for (const userBrokerId of new Set(orders.map((order) => order.userBrokerId))) {
    const halt = await haltedToday(context.pool, userBrokerId, nowMs);
    const account = state.accounts.find((candidate) => candidate.userBrokerId === userBrokerId) as AccountState;
    if (halt !== undefined) issues.push({ field: 'ensemble_id', code: 'account-halted', message: `account ${account.clientId}: takes no new orders today: ${halt}` });
  }
  return issues;
}

/**
 * Applies the preview whose token is `token`: recomputes it, refuses a different one with
 * PREVIEW_STALE (nothing written), answers a token applied before without placing anything, and
 * otherwise records the sync and places each account's orders through the basket path.
 * @example await applySync({ pool }, { ensembleId, token, asOf: '2026-12-01', actorId }) // { syncId, status: 'COMPLETE', alreadyApplied: false }
 */
export async function applySync(context: EnsembleContext, request: {
  readonly ensembleId: string; readonly token: string; readonly asOf: IsoDate; readonly actorId: string;
}): Promise<SyncOutcome> {
  const { pool } = context;
  return withEnsembleLock(pool, request.ensembleId, async () => {
    const { rows: before } = await pool.query<{ sync_id: string; status: string }>(
      'SELECT sync_id, status FROM ensemble_syncs WHERE ensemble_id = $1 AND preview_token = $2', [request.ensembleId, request.token]);
    if (before[0] !== undefined) return { syncId: before[0].sync_id, status: before[0].status, alreadyApplied: true };
    const { state, orders } = await previewSync(context, request.ensembleId, request.asOf);
    if (state.token !== request.token) throw new EnsembleRefusal([{ field: 'preview_token', code: 'stale', message: PREVIEW_STALE }]);
    const issues = await placementIssues(context, orders, state);
    if (issues.length > 0) throw new EnsembleRefusal(issues);
    const accounts = new Set(orders.map((order) => order.userBrokerId));
    const syncId = await inActorTransaction(pool, request.actorId, async (client) => {
      const { rows } = await client.query<{ sync_id: string }>(
        `INSERT INTO ensemble_syncs (ensemble_id, actor_id, preview_token, as_of, status, orders_count, accounts_count, finished_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, CASE WHEN $6 = 0 THEN now() END) ON CONFLICT (ensemble_id, preview_token) DO NOTHING RETURNING sync_id`,
        [request.ensembleId, request.actorId, request.token, request.asOf, orders.length === 0 ? 'NOTHING' : 'PLACING', orders.length, accounts.size]);
      const id = rows[0]?.sync_id;
      if (id === undefined) return undefined;
      for (const order of orders) {
        await client.query(
          `INSERT INTO ensemble_sync_orders (sync_id, user_broker_id, instrument_id, trading_symbol, side, quantity, mode, estimated_price_paise, estimated_charges_paise)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [id, order.userBrokerId, order.instrumentId, order.symbol, order.side, order.quantity, order.mode, Math.round(order.estimatedPricePaise), Math.round(order.estimatedChargesPaise)]);
      }
      return id;
    });
    if (syncId === undefined) {
      const { rows } = await pool.query<{ sync_id: string; status: string }>(
        'SELECT sync_id, status FROM ensemble_syncs WHERE ensemble_id = $1 AND preview_token = $2', [request.ensembleId, request.token]);
      return { syncId: rows[0]!.sync_id, status: rows[0]!.status, alreadyApplied: true };
    }
    if (orders.length === 0) return { syncId, status: 'NOTHING', alreadyApplied: false };
    let filled = 0;
    let pending = 0;
    for (const [userBrokerId, { document, rows }] of await documentsOf(pool, state)) {
      const account = state.accounts.find((candidate) => candidate.userBrokerId === userBrokerId) as AccountState;
      const base = { userId: account.userId, strategyId: request.ensembleId, document, extraParams: { ensemble: { ensembleId: request.ensembleId, syncId }, userBrokerId } };
      try {
        if (account.mode === 'LIVE') {
          const runId = await enqueueLiveBasketDocument({ pool, queue: context.queue as JobQueue, ...(context.defaultAlgoId === undefined ? {} : { defaultAlgoId: context.defaultAlgoId }),
            ...(context.now === undefined ? {} : { now: context.now }) }, { ...base, userBrokerId });
          await pool.query('UPDATE ensemble_sync_orders SET run_id = $3 WHERE sync_id = $1 AND user_broker_id = $2', [syncId, userBrokerId, runId]);
          pending += rows.length;
          continue;
        }
        const placed = await placeBasketDocument({ pool, ...(context.now === undefined ? {} : { now: context.now }) }, base);
        for (const [index, leg] of placed.result.legs.entries()) {
          const row = rows[index] as DriftRow;
          if (leg.status === 'FILLED') filled += 1;
          await pool.query(
            `UPDATE ensemble_sync_orders SET run_id = $4, status = $5, message = $6, average_price_paise = $7,
                    order_id = (SELECT order_id FROM orders WHERE client_order_id = $8)
              WHERE sync_id = $1 AND user_broker_id = $2 AND instrument_id = $3`,
            [syncId, userBrokerId, row.instrumentId, placed.runId, leg.status, leg.message, leg.averagePricePaise === null ? null : Math.round(leg.averagePricePaise), `${placed.runId}-${index * 10}`]);
        }
      } catch (error) {
        const message = error instanceof BasketRefusal ? error.issues.map((issue) => issue.message).join('; ') : error instanceof Error ? error.message : String(error);
        await pool.query(`UPDATE ensemble_sync_orders SET status = 'NOT_SENT', message = $3 WHERE sync_id = $1 AND user_broker_id = $2`, [syncId, userBrokerId, `not sent: ${message}`]);
      }
    }
    const status = filled === orders.length ? 'COMPLETE' : filled === 0 && pending === 0 ? 'FAILED' : 'PARTIAL';
    await pool.query('UPDATE ensemble_syncs SET status = $2, filled_count = $3, finished_at = now() WHERE sync_id = $1', [syncId, pending > 0 && filled + pending === orders.length ? 'PLACING' : status, filled]);
    return { syncId, status: pending > 0 && filled + pending === orders.length ? 'PLACING' : status, alreadyApplied: false };
  });
}
