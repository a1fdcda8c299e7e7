// Placing baskets on paper through the OMS, on a real PostgreSQL, at 1-Dec-2026 10:00 IST with
// NIFTY at Rs 24,000.00 and INDIA VIX at 14.
//
// Arithmetic: the December future is priced by the futures model, 24,000 x e^(6.5% x t) on the
// 0.05 tick, t the years to its expiry's close; the call by the synthetic chain's mid. A leg of
// 1,000 lots is 1,000 x LOT units, far past ten slices of NIFTY's freeze quantity, so the OMS's
// risk check refuses it (too-many-slices) before any row is written.
import { chargeModelOf, futuresModelGrowth, futuresModelPrice, syntheticOptionQuote } from '@vyuha/engine';
import { rupeesToPaise } from '@vyuha/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BasketRefusal } from '../../src/trading/baskets/basket-legs';
import type { BasketIssue } from '../../src/trading/baskets/basket-legs';
import { chooseBasketOutcome, placeBasket } from '../../src/trading/baskets/basket-placement';
import { previewBasket } from '../../src/trading/baskets/basket-preview';
import { quoteBasket } from '../../src/trading/baskets/basket-quotes';
import { saveBasket } from '../../src/trading/baskets/basket-store';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { addUser, CALL, countRows, EXPIRY, FUTURE, LOT, NOW, setLastPrices, TODAY } from './basket-support';

let db: TestDatabase;
let userId: string;
const context = (): { pool: TestDatabase['pool']; now: () => number } => ({ pool: db.pool, now: () => NOW });

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  await setLastPrices(db.pool);
  userId = await addUser(db.pool);
});

afterAll(async () => {
  await db.close();
});

const buyFuture = { symbol: FUTURE, side: 'BUY', lots: 1, order_type: 'MARKET' } as const;
const sellCall = { symbol: CALL, side: 'SELL', lots: 1, order_type: 'MARKET' } as const;
const tooLarge = { symbol: FUTURE, side: 'BUY', lots: 1_000, order_type: 'MARKET' } as const;

async function issuesOf(work: Promise<unknown>): Promise<readonly BasketIssue[]> {
  try {
    await work;
  } catch (error) {
    if (error instanceof BasketRefusal) return error.issues;
    throw error;
  }
  throw new Error('expected a refusal');
}

async function ordersOf(runId: string): Promise<Array<{ client_order_id: string; status: string; quantity: number; side: string; fill_price: number | null; charges: number | null }>> {
  const { rows } = await db.pool.query(
    `SELECT o.client_order_id, o.status, o.quantity, o.side,
       (SELECT f.price_paise::float8 FROM fills f WHERE f.order_id = o.order_id) AS fill_price,
       (SELECT sum(c.value::numeric)::float8 FROM fills f, jsonb_each_text(f.charges_paise) c WHERE f.order_id = o.order_id) AS charges
     FROM orders o WHERE o.run_id = $1 ORDER BY o.created_at, o.client_order_id`, [runId]);
  return rows as never;
}

async function positionsOf(runId: string): Promise<Map<string, number>> {
  const { rows } = await db.pool.query<{ symbol: string; net: number }>(
    `SELECT i.trading_symbol AS symbol, p.net_quantity AS net FROM positions p JOIN instruments i USING (instrument_id) WHERE p.run_id = $1`, [runId]);
  return new Map(rows.map((row) => [row.symbol, row.net]));
}

describe('a basket of two NIFTY legs on paper', () => {
  it('prices the legs as the paper runtime does and previews the engine\'s charges', async () => {
    const quoted = await quoteBasket(db.pool, { version: 1, product: 'MIS', legs: [buyFuture, sellCall] }, NOW);
    expect(quoted.issues).toEqual([]);
    const [future, call] = quoted.legs;
    expect(future?.pricePaise).toBe(rupeesToPaise(futuresModelPrice(24_000, futuresModelGrowth(EXPIRY, NOW))));
    expect(call?.pricePaise).toBe(syntheticOptionQuote({ spot: 24_000, vix: 14, strike: 24_000, expiry: EXPIRY, at: NOW, type: 'CE' }).mid);
    const preview = previewBasket(quoted.legs, NOW);
    const expected = chargeModelOf({ kind: 'schedule', exchange: 'NSE', instrument: 'future' })({ date: TODAY, side: 'buy', price: future!.pricePaise as never, quantity: LOT }).total
      + chargeModelOf({ kind: 'schedule', exchange: 'NSE', instrument: 'option' })({ date: TODAY, side: 'sell', price: call!.pricePaise as never, quantity: LOT }).total;
    expect(preview.chargesPaise).toBe(expected);
    expect(preview.marginPaise).toBeGreaterThan(0);
  });

  it('fills both legs: a PAPER run of the user with its orders, fills at the previewed prices, the engine\'s charges and positions', async () => {
    const { strategyId } = await saveBasket(db.pool, { userId, name: 'Future and call', product: 'MIS', legs: [buyFuture, sellCall], nowMs: NOW });
    const quoted = await quoteBasket(db.pool, { version: 1, product: 'MIS', legs: [buyFuture, sellCall] }, NOW);
    const preview = previewBasket(quoted.legs, NOW);
    const { runId, result } = await placeBasket(context(), { userId, strategyId });
    expect(result.complete).toBe(true);
    expect(result.legs.map((leg) => leg.status)).toEqual(['FILLED', 'FILLED']);
    const { rows } = await db.pool.query(`SELECT kind, status, user_id, strategy_id FROM strategy_runs WHERE run_id = $1`, [runId]);
    expect(rows[0]).toEqual({ kind: 'PAPER', status: 'COMPLETE', user_id: userId, strategy_id: strategyId });
    const orders = await ordersOf(runId);
    expect(orders.map((order) => [order.client_order_id, order.status, order.side, order.quantity]))
      .toEqual([[`${runId}-0`, 'FILLED', 'BUY', LOT], [`${runId}-10`, 'FILLED', 'SELL', LOT]]);
    expect(orders.map((order) => order.fill_price)).toEqual(preview.legs.map((leg) => leg.pricePaise));
    expect(orders.map((order) => order.charges)).toEqual(preview.legs.map((leg) => leg.chargesPaise));
    expect(result.legs.map((leg) => leg.chargesPaise)).toEqual(preview.legs.map((leg) => leg.chargesPaise));
    expect(await positionsOf(runId)).toEqual(new Map([[FUTURE, LOT], [CALL, -LOT]]));
    const day = await db.pool.query<{ charges: number }>(`SELECT charges_paise::float8 AS charges FROM daily_pnl WHERE run_id = $1`, [runId]);
    expect(day.rows[0]?.charges).toBe(preview.chargesPaise);
  });
});

describe('a basket whose second leg fails a risk check', () => {
  let strategyId: string;
  let runId: string;

  beforeAll(async () => {
    ({ strategyId } = await saveBasket(db.pool, { userId, name: 'Too large', product: 'MIS', legs: [sellCall, tooLarge, buyFuture], nowMs: NOW }));
  });

  it('reports the first leg filled, refuses the second before any row, and never sends the third', async () => {
    const placed = await placeBasket(context(), { userId, strategyId });
    runId = placed.runId;
    expect(placed.result.legs.map((leg) => leg.status)).toEqual(['FILLED', 'REFUSED', 'NOT_SENT']);
    expect(placed.result.legs[1]?.message).toMatch(/slice|freeze/i);
    expect(placed.result).toMatchObject({ complete: false, needsChoice: true, choice: null });
    expect((await ordersOf(runId)).map((order) => order.client_order_id)).toEqual([`${runId}-0`]);
    const { rows } = await db.pool.query<{ status: string; status_reason: string }>(`SELECT status, status_reason FROM strategy_runs WHERE run_id = $1`, [runId]);
    expect(rows[0]?.status).toBe('ERROR');
    expect(rows[0]?.status_reason).toMatch(/leg 2 .* was refused.*1 leg filled: keep or square off/);
  });

  it('squares the filled leg off when the user chooses so, and records the choice once', async () => {
    const result = await chooseBasketOutcome(context(), { userId, runId, choice: 'square-off' });
    expect(result.choice).toBe('square-off');
    expect(result.squareOff.map((leg) => [leg.symbol, leg.side, leg.status])).toEqual([[CALL, 'BUY', 'FILLED']]);
    expect(await positionsOf(runId)).toEqual(new Map([[CALL, 0]]));
    const { rows } = await db.pool.query<{ status: string; choice: string }>(`SELECT status, result ->> 'choice' AS choice FROM strategy_runs WHERE run_id = $1`, [runId]);
    expect(rows[0]).toEqual({ status: 'ERROR: SQUARED OFF', choice: 'square-off' });
    const before = await countRows(db.pool, 'orders');
    expect((await issuesOf(chooseBasketOutcome(context(), { userId, runId, choice: 'keep' }))).map((issue) => issue.field)).toEqual(['run_id']);
    expect(await countRows(db.pool, 'orders')).toBe(before);
  });

  it('keeps the filled leg when the user chooses to keep it', async () => {
    const placed = await placeBasket(context(), { userId, strategyId });
    const result = await chooseBasketOutcome(context(), { userId, runId: placed.runId, choice: 'keep' });
    expect(result).toMatchObject({ choice: 'keep', squareOff: [] });
    expect(await positionsOf(placed.runId)).toEqual(new Map([[CALL, -LOT]]));
    expect((await ordersOf(placed.runId)).length).toBe(1);
  });
});

describe('bad input', () => {
  it('refuses an unknown instrument, a zero quantity and another user\'s basket, naming the field and writing nothing', async () => {
    const tables = ['strategies', 'strategy_runs', 'orders', 'fills', 'positions'] as const;
    const before = await Promise.all(tables.map((table) => countRows(db.pool, table)));
    const unknown = await issuesOf(saveBasket(db.pool, { userId, name: 'Bad', product: 'MIS', legs: [{ ...buyFuture, symbol: 'NOSUCHTHING' }], nowMs: NOW }));
    expect(unknown.map((issue) => [issue.field, issue.code])).toEqual([['legs[0].symbol', 'unknown-instrument']]);
    const zero = await issuesOf(saveBasket(db.pool, { userId, name: 'Bad', product: 'MIS', legs: [buyFuture, { ...sellCall, lots: 0 }], nowMs: NOW }));
    expect(zero.map((issue) => [issue.field, issue.code])).toEqual([['legs[1].lots', 'invalid-quantity']]);
    const { strategyId } = await saveBasket(db.pool, { userId, name: 'Mine', product: 'MIS', legs: [buyFuture], nowMs: NOW });
    const other = await addUser(db.pool);
    const afterSave = await Promise.all(tables.map((table) => countRows(db.pool, table)));
    expect((await issuesOf(placeBasket(context(), { userId: other, strategyId }))).map((issue) => issue.field)).toEqual(['strategy_id']);
    expect((await issuesOf(saveBasket(db.pool, { userId: other, strategyId, name: 'Taken', product: 'MIS', legs: [buyFuture], nowMs: NOW })))
      .map((issue) => issue.field)).toEqual(['strategy_id']);
    expect(await Promise.all(tables.map((table) => countRows(db.pool, table)))).toEqual(afterSave);
    expect(afterSave).toEqual(before.map((count, index) => (tables[index] === 'strategies' ? count + 1 : count)));
  });
});
