// Writes a finished run in ONE transaction: orders, fills, positions, daily P&L, then the run row
// (metrics, result, candles, COMPLETE, finished_at). The run row is locked first and must still
// be IN PROGRESS, so a cancelled run, or a run another worker already finished, gets nothing
// written twice: results exist exactly once or not at all.
import { istDate, rupeesToPaise } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { derivativesExchangeOf, isOptionUnderlying, lotSize, parseTradingSymbol } from '@vyuha/market';
import type { OptionUnderlying } from '@vyuha/market';
import type pg from 'pg';
import type { BacktestRows } from './backtest-rows';
import { RunNoLongerInProgress } from './run-progress';

export interface RunOutcome {
  readonly runId: string;
  readonly strategyId: string | null;
  readonly userId: string;
  /** MIS for intraday runs, NRML for swing (docs/PRODUCT.md section 4's product codes). */
  readonly product: 'MIS' | 'NRML';
  /** The run's own instrument: the key the underlying trader's orders carry. */
  readonly instrument: { readonly instrumentId: number; readonly tradingSymbol: string };
  readonly rows: BacktestRows;
  readonly metrics: unknown;
  readonly result: unknown;
  /** Credits charged: the candles processed, at most the reserved estimate. */
  readonly candles: number;
}

/** The run's underlying as a contract registration needs it. */
export interface ContractUnderlying {
  readonly instrumentId: number;
  readonly tradingSymbol: string;
}

/**
 * The instrument id of a contract of `underlying` (an option or a future, by trading symbol).
 * Contracts priced from the synthetic chain or the futures model may not be in `instruments` yet:
 * they are registered (NFO or BFO, lot from the dated schedule on `tradeDate`) so every order row
 * can reference its contract. The backtest's writer and the paper runner both register through here.
 */
export async function contractInstrumentId(db: pg.Pool | pg.PoolClient, request: { underlying: ContractUnderlying; symbol: string; tradeDate: string }): Promise<number> {
  const { underlying, symbol } = request;
  const contract = parseTradingSymbol(symbol);
  if (!isOptionUnderlying(contract.underlying) || contract.underlying !== underlying.tradingSymbol) throw new Error(`order instrument ${symbol} is not a contract of ${underlying.tradingSymbol}`);
  const exchange = derivativesExchangeOf(contract.underlying);
  const lot = lotSize({ symbol: contract.underlying as OptionUnderlying, tradeDate: request.tradeDate as IsoDate, expiry: contract.expiry });
  const row = { underlying, symbol, exchange, lot };
  return contract.kind === 'option' ? optionId(db, { ...row, contract }) : futureId(db, { ...row, expiry: contract.expiry });
}

async function contractInstrumentIds(client: pg.PoolClient, outcome: RunOutcome, symbols: readonly string[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const symbol of symbols) {
    const firstOrder = outcome.rows.orders.find((order) => order.instrument === symbol);
    ids.set(symbol, await contractInstrumentId(client, { underlying: outcome.instrument, symbol, tradeDate: istDate(firstOrder?.placedAt ?? 0) }));
  }
  return ids;
}

interface ContractRow {
  readonly underlying: ContractUnderlying;
  readonly symbol: string;
  readonly exchange: string;
  readonly lot: number;
}

async function optionId(db: pg.Pool | pg.PoolClient, row: ContractRow & { contract: { expiry: string; strike: number; optionType: string } }): Promise<number> {
  const { underlying, contract } = row;
  const strikePaise = rupeesToPaise(contract.strike);
  await db.query(
    `INSERT INTO instruments (exchange, segment, kind, trading_symbol, name, underlying_instrument_id, expiry, strike_paise, option_type, lot_size)
     VALUES ($1, 'OPT', 'option', $2, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
    [row.exchange, row.symbol, underlying.instrumentId, contract.expiry, strikePaise, contract.optionType, row.lot]);
  const { rows } = await db.query<{ instrument_id: number }>(
    `SELECT instrument_id FROM instruments WHERE kind = 'option' AND underlying_instrument_id = $1 AND expiry = $2 AND strike_paise = $3 AND option_type = $4`,
    [underlying.instrumentId, contract.expiry, strikePaise, contract.optionType]);
  const found = rows[0];
  if (found === undefined) throw new Error(`option contract ${row.symbol} could not be registered`);
  return found.instrument_id;
}

async function futureId(db: pg.Pool | pg.PoolClient, row: ContractRow & { expiry: string }): Promise<number> {
  await db.query(
    `INSERT INTO instruments (exchange, segment, kind, trading_symbol, name, underlying_instrument_id, expiry, lot_size)
     VALUES ($1, 'FUT', 'future', $2, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
    [row.exchange, row.symbol, row.underlying.instrumentId, row.expiry, row.lot]);
  const { rows } = await db.query<{ instrument_id: number }>(
    `SELECT instrument_id FROM instruments WHERE kind = 'future' AND exchange = $1 AND trading_symbol = $2`, [row.exchange, row.symbol]);
  const found = rows[0];
  if (found === undefined) throw new Error(`futures contract ${row.symbol} could not be registered`);
  return found.instrument_id;
}

async function instrumentIds(client: pg.PoolClient, outcome: RunOutcome): Promise<Map<string, number>> {
  const own = outcome.instrument;
  const others = [...new Set(outcome.rows.orders.map((order) => order.instrument))].filter((symbol) => symbol !== own.tradingSymbol);
  const ids = others.length === 0 ? new Map<string, number>() : await contractInstrumentIds(client, outcome, others);
  ids.set(own.tradingSymbol, own.instrumentId);
  return ids;
}

const EPOCH_MS = `timestamptz 'epoch' + interval '1 millisecond' *`;

async function insertOrders(client: pg.PoolClient, outcome: RunOutcome, ids: ReadonlyMap<string, number>): Promise<void> {
  const orders = outcome.rows.orders;
  if (orders.length === 0) return;
  const column = <T>(pick: (order: (typeof orders)[number]) => T): T[] => orders.map(pick);
  await client.query(
    `INSERT INTO orders (client_order_id, run_id, strategy_id, user_id, instrument_id, side, quantity, filled_quantity, order_type, product,
                         average_price_paise, status, status_message, tag, created_at, submitted_at, updated_at)
     SELECT t.client_order_id, $1, $2, $3, t.instrument_id, t.side, t.quantity, t.filled_quantity, 'MARKET', $4,
            t.average_price_paise, t.status, t.status_message, t.tag, ${EPOCH_MS} t.placed_at, ${EPOCH_MS} t.placed_at, ${EPOCH_MS} t.updated_at
     FROM unnest($5::text[], $6::int[], $7::text[], $8::int[], $9::int[], $10::bigint[], $11::text[], $12::text[], $13::text[], $14::bigint[], $15::bigint[])
       AS t(client_order_id, instrument_id, side, quantity, filled_quantity, average_price_paise, status, status_message, tag, placed_at, updated_at)`,
    [outcome.runId, outcome.strategyId, outcome.userId, outcome.product,
      column((order) => order.clientOrderId), column((order) => ids.get(order.instrument) as number), column((order) => order.side),
      column((order) => order.quantity), column((order) => order.filledQuantity), column((order) => order.averagePricePaise),
      column((order) => order.status), column((order) => order.statusMessage), column((order) => order.tag),
      column((order) => Math.round(order.placedAt)), column((order) => Math.round(order.updatedAt))]);
}

async function insertFills(client: pg.PoolClient, outcome: RunOutcome): Promise<void> {
  const fills = outcome.rows.fills;
  if (fills.length === 0) return;
  await client.query(
    `INSERT INTO fills (order_id, trade_id, quantity, price_paise, charges_paise, ts)
     SELECT o.order_id, t.trade_id, t.quantity, t.price_paise, t.charges, ${EPOCH_MS} t.ts
     FROM unnest($1::text[], $2::text[], $3::int[], $4::bigint[], $5::jsonb[], $6::bigint[]) AS t(client_order_id, trade_id, quantity, price_paise, charges, ts)
     JOIN orders o ON o.client_order_id = t.client_order_id`,
    [fills.map((fill) => fill.clientOrderId), fills.map((fill) => fill.tradeId), fills.map((fill) => fill.quantity),
      fills.map((fill) => fill.pricePaise), fills.map((fill) => JSON.stringify(fill.charges)), fills.map((fill) => Math.round(fill.time))]);
}

async function insertPositionsAndDays(client: pg.PoolClient, outcome: RunOutcome, ids: ReadonlyMap<string, number>): Promise<void> {
  const { positions, days } = outcome.rows;
  if (positions.length > 0) {
    await client.query(
      `INSERT INTO positions (run_id, instrument_id, net_quantity, average_price_paise, realised_pnl_paise)
       SELECT $1, t.instrument_id, t.net_quantity, t.average_price_paise, t.realised FROM unnest($2::int[], $3::int[], $4::bigint[], $5::bigint[])
         AS t(instrument_id, net_quantity, average_price_paise, realised)`,
      [outcome.runId, positions.map((row) => ids.get(row.instrument) as number), positions.map((row) => row.netQuantity),
        positions.map((row) => row.averagePricePaise), positions.map((row) => row.realisedPnlPaise)]);
  }
  if (days.length > 0) {
    await client.query(
      `INSERT INTO daily_pnl (run_id, date, pnl_paise, orders_count)
       SELECT $1, t.date, t.pnl, t.orders FROM unnest($2::date[], $3::bigint[], $4::int[]) AS t(date, pnl, orders)`,
      [outcome.runId, days.map((day) => day.date), days.map((day) => day.pnlPaise), days.map((day) => day.ordersCount)]);
  }
}

/**
 * Stores a finished run and marks it COMPLETE, all or nothing; throws RunNoLongerInProgress
 * (writing nothing) when the run was cancelled or finished meanwhile.
 */
export async function writeBacktestResults(pool: pg.Pool, outcome: RunOutcome): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ status: string }>('SELECT status FROM strategy_runs WHERE run_id = $1 FOR UPDATE', [outcome.runId]);
    if (rows[0]?.status !== 'IN PROGRESS') throw new RunNoLongerInProgress(`run ${outcome.runId} is ${rows[0]?.status ?? 'gone'}, not IN PROGRESS`);
    const ids = await instrumentIds(client, outcome);
    await insertOrders(client, outcome, ids);
    await insertFills(client, outcome);
    await insertPositionsAndDays(client, outcome, ids);
    await client.query(
      `UPDATE strategy_runs SET status = 'COMPLETE', progress = 100, metrics = $2, result = $3, candles = $4, error = NULL, finished_at = now()
       WHERE run_id = $1`,
      [outcome.runId, JSON.stringify(outcome.metrics), JSON.stringify(outcome.result), outcome.candles]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Ends a run in ERROR with `reason` (only if still IN PROGRESS); the reserved credits are given
 * back (candles = 0): a failed or cancelled run delivered nothing. True when the run was ended here.
 */
export async function failBacktestRun(pool: pg.Pool | pg.PoolClient, request: { runId: string; reason: string }): Promise<boolean> {
  const { rowCount } = await pool.query(
    `UPDATE strategy_runs SET status = 'ERROR', error = $2, candles = 0, finished_at = greatest(now(), started_at)
     WHERE run_id = $1 AND status = 'IN PROGRESS'`, [request.runId, request.reason]);
  return rowCount === 1;
}
