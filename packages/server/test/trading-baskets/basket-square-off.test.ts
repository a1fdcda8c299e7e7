// A basket run's positions closed on request (as /positions asks): one position, then the rest,
// each by a MARKET square-off order through the OMS at the price now; the run's status says so once
// nothing is open; another user's run and a flat position are refused with nothing sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BasketRefusal } from '../../src/trading/baskets/basket-legs';
import { placeBasket } from '../../src/trading/baskets/basket-placement';
import { squareOffBasketPositions } from '../../src/trading/baskets/basket-square-off';
import { saveBasket } from '../../src/trading/baskets/basket-store';
import { squareOffPositions } from '../../src/trading/position-square-off';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { addUser, CALL, countRows, FUTURE, LOT, NOW, setLastPrices } from './basket-support';

let db: TestDatabase;
let userId: string;
let runId: string;
const context = (): { pool: TestDatabase['pool']; now: () => number } => ({ pool: db.pool, now: () => NOW });

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  await setLastPrices(db.pool);
  userId = await addUser(db.pool);
  const { strategyId } = await saveBasket(db.pool, {
    userId, name: 'Two legs', product: 'MIS', nowMs: NOW,
    legs: [{ symbol: FUTURE, side: 'BUY', lots: 1, order_type: 'MARKET' }, { symbol: CALL, side: 'SELL', lots: 2, order_type: 'MARKET' }],
  });
  ({ runId } = await placeBasket(context(), { userId, strategyId }));
});

afterAll(async () => {
  await db.close();
});

async function positions(): Promise<Array<[string, number]>> {
  const { rows } = await db.pool.query<{ symbol: string; net: number }>(
    `SELECT i.trading_symbol AS symbol, p.net_quantity AS net FROM positions p JOIN instruments i USING (instrument_id) WHERE p.run_id = $1 ORDER BY 1`, [runId]);
  return rows.map((row) => [row.symbol, row.net]);
}

async function refused(work: Promise<unknown>): Promise<string[]> {
  try {
    await work;
  } catch (error) {
    if (error instanceof BasketRefusal) return error.issues.map((issue) => issue.field);
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('squaring off a basket run\'s positions on request', () => {
  it('closes one position, then the rest, and marks the run squared off', async () => {
    const { rows } = await db.pool.query<{ instrument_id: number }>(`SELECT instrument_id FROM instruments WHERE trading_symbol = $1`, [CALL]);
    const call = await squareOffBasketPositions(context(), { userId, runId, instrumentIds: [rows[0]!.instrument_id] });
    expect(call.map((leg) => [leg.symbol, leg.side, leg.quantity, leg.status])).toEqual([[CALL, 'BUY', 2 * LOT, 'FILLED']]);
    expect(await positions()).toEqual([[CALL, 0], [FUTURE, LOT]].sort());
    const status = async (): Promise<string> => (await db.pool.query<{ status: string }>('SELECT status FROM strategy_runs WHERE run_id = $1', [runId])).rows[0]!.status;
    expect(await status()).toBe('COMPLETE');
    const rest = await squareOffBasketPositions(context(), { userId, runId });
    expect(rest.map((leg) => [leg.symbol, leg.side, leg.status])).toEqual([[FUTURE, 'SELL', 'FILLED']]);
    expect((await positions()).map(([, net]) => net)).toEqual([0, 0]);
    expect(await status()).toBe('COMPLETE: SQUARED OFF');
    const { rows: orders } = await db.pool.query<{ id: string }>(`SELECT client_order_id AS id FROM orders WHERE run_id = $1 ORDER BY 1`, [runId]);
    expect(orders.map((order) => order.id)).toEqual([`${runId}-0`, `${runId}-10`, `${runId}-2000`, `${runId}-2010`]);
  });

  it('refuses another user\'s run and a flat position, sending nothing', async () => {
    const other = await addUser(db.pool);
    const before = await countRows(db.pool, 'orders');
    expect(await refused(squareOffBasketPositions(context(), { userId: other, runId }))).toEqual(['run_id']);
    const { rows } = await db.pool.query<{ instrument_id: number }>(`SELECT instrument_id FROM instruments WHERE trading_symbol = $1`, [FUTURE]);
    expect(await refused(squareOffBasketPositions(context(), { userId, runId, instrumentIds: [rows[0]!.instrument_id] }))).toEqual(['instrument_id']);
    expect(await countRows(db.pool, 'orders')).toBe(before);
  });

  it('closes a basket position asked for through /positions\' square_off_positions, though the basket\'s run has ended', async () => {
    const { strategyId } = await saveBasket(db.pool, {
      userId, name: 'One future', product: 'MIS', nowMs: NOW, legs: [{ symbol: FUTURE, side: 'BUY', lots: 1, order_type: 'MARKET' }],
    });
    const placed = await placeBasket(context(), { userId, strategyId });
    const { rows } = await db.pool.query<{ instrument_id: number; status: string }>(
      `SELECT p.instrument_id, r.status FROM positions p JOIN strategy_runs r USING (run_id) WHERE p.run_id = $1 AND p.net_quantity <> 0`, [placed.runId]);
    expect(rows.map((row) => row.status)).toEqual(['COMPLETE']);
    const answer = await squareOffPositions(db.pool, { actorId: userId, userId, positions: [{ runId: placed.runId, instrumentId: rows[0]!.instrument_id }] }, { now: () => NOW });
    expect(answer.ok).toBe(true);
    const after = await db.pool.query<{ net: number; status: string }>(
      `SELECT p.net_quantity AS net, r.status FROM positions p JOIN strategy_runs r USING (run_id) WHERE p.run_id = $1`, [placed.runId]);
    expect(after.rows).toEqual([{ net: 0, status: 'COMPLETE: SQUARED OFF' }]);
    // Flat now: asking again is refused at its position, and nothing is sent.
    const orders = await countRows(db.pool, 'orders');
    const again = await squareOffPositions(db.pool, { actorId: userId, userId, positions: [{ runId: placed.runId, instrumentId: rows[0]!.instrument_id }] }, { now: () => NOW });
    expect(again.ok ? [] : again.error.map((issue) => issue.field)).toEqual(['positions[0]']);
    expect(await countRows(db.pool, 'orders')).toBe(orders);
  });
});
