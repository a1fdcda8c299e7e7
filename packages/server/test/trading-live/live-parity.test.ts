// Parity, the LIVE runtime's acceptance test: a LIVE strategy trading a replayed day through Kite
// (the stand-in on loopback: HTTP orders, the binary ticker, order updates) makes exactly the
// orders, fills and P&L of the same strategy on PAPER fed the same ticks: time, side, quantity,
// price and charges to the paisa. On the way it checks what only a broker has: every order went
// to Kite with its tag and the algo id and market protection, every request is in the audit
// trail, and the account's positions at Kite are the sum of the stored fills.
import type { FeedTick } from '@vyuha/engine';
import { describe, expect, it } from 'vitest';
import { runMarketSession } from '../../src/trading/runner/market-run';
import type { PaperRun } from '../../src/trading/runner/paper-run';
import { runLiveSession } from '../../src/trading/runner/live-run';
import { algorithm, storedFills } from '../trading-runner/runner-test-support';
import { useLiveWorld, marketRun, playDay, pushedMarket, relianceConfig, RELIANCE_TOKEN, type TickTaker } from './live-test-support';

const suite = useLiveWorld();

async function dailyPnl(runId: string): Promise<unknown[]> {
  const { rows } = await suite().db.pool.query('SELECT date::text, pnl_paise, realised_paise, charges_paise, orders_count FROM daily_pnl WHERE run_id = $1 ORDER BY date', [runId]);
  return rows;
}

async function orderShapes(runId: string): Promise<unknown[]> {
  const { rows } = await suite().db.pool.query(
    `SELECT client_order_id, side, quantity, filled_quantity, order_type, product, status, average_price_paise FROM orders WHERE run_id = $1
     ORDER BY length(client_order_id), client_order_id`, [runId]);
  return rows.map((row: Record<string, unknown>) => ({ ...row, client_order_id: String(row.client_order_id).slice(37) }));
}

describe('a LIVE run through Kite', () => {
  it('makes exactly the orders, fills and P&L of the same day on paper', async () => {
    const { db, world, killSwitches } = suite();
    const ref = await algorithm(db.pool, world.userId, { buy: 'crossover(ema(close, 3), ema(close, 8))', sell: 'crossunder(ema(close, 3), ema(close, 8))' });
    const config = relianceConfig(ref);
    const paperRunId = await marketRun(world, config, 'PAPER');
    const liveRunId = await marketRun(world, config, 'LIVE');
    const accounts = suite().accounts({ pollMs: 1_000,
    });
    const paperMarket = pushedMarket(world.reliance);
    const runs: TickTaker[] = [];
    const onPaperRun = (run: unknown): void => {
      runs.push(run as PaperRun);
    };
    const paper = runMarketSession({ pool: db.pool, runId: paperRunId, market: paperMarket, scheduler: world.scheduler, killSwitches, onPaperRun });
    const live = runLiveSession({ pool: db.pool, runId: liveRunId, accounts, scheduler: world.scheduler, killSwitches, onPaperRun });
    try {
      await playDay(world, {
        consumers: 2, runs: () => runs,
        send: (tick: FeedTick) => {
          paperMarket.push(tick);
          world.standIn.tick(RELIANCE_TOKEN, tick.price, { atMs: tick.time });
        },
      });
      const [paperOutcome, liveOutcome] = await Promise.all([paper, live]);
      expect(paperOutcome).toMatchObject({ sessionEnded: true, stopped: false, released: false });
      expect(liveOutcome).toMatchObject({ sessionEnded: true, stopped: false, released: false });
    } finally {
      await accounts.closeAll();
    }

    const paperFills = await storedFills(db.pool, paperRunId);
    const liveFills = await storedFills(db.pool, liveRunId);
    expect(paperFills.length).toBeGreaterThan(4);
    expect(liveFills).toEqual(paperFills);
    expect(await orderShapes(liveRunId)).toEqual(await orderShapes(paperRunId));
    expect(await dailyPnl(liveRunId)).toEqual(await dailyPnl(paperRunId));

    // What only the broker path has: the orders at Kite, tagged, with the algo id and market protection.
    const { rows: sent } = await db.pool.query<{ tag: string; broker_order_id: string; algo_id: string }>(
      'SELECT tag, broker_order_id, algo_id FROM orders WHERE run_id = $1 ORDER BY created_at', [liveRunId]);
    const atKite = world.standIn.orders(world.clientId);
    expect(atKite).toHaveLength(sent.length);
    for (const order of sent) {
      expect(order.broker_order_id).toMatch(/^\d{19}$/);
      const kite = atKite.find((candidate) => candidate.order_id === order.broker_order_id);
      expect(kite).toMatchObject({ tag: order.tag, status: 'COMPLETE' });
    }
    const placed = world.standIn.requests.filter((request) => request.method === 'POST' && request.path === '/orders/regular');
    expect(placed).toHaveLength(sent.length);
    for (const request of placed) expect(request.params).toMatchObject({ algo_id: 'ALGO-LIVE-TEST', market_protection: '-1', order_type: 'MARKET', product: 'MIS' });
    const { rows: audited } = await db.pool.query<{ order_id: string | null; path: string; request: Record<string, unknown> }>(
      `SELECT order_id, path, request FROM broker_requests WHERE user_broker_id = $1 AND method = 'POST' AND path = '/orders/regular'`, [world.userBrokerId]);
    expect(audited).toHaveLength(sent.length);
    expect(audited.every((row) => row.order_id !== null)).toBe(true);
    expect(JSON.stringify(audited)).not.toContain(world.standIn.accessTokenOf(world.clientId) ?? 'no token');
    // The account at Kite holds what the stored fills add up to (flat after the day's square-off).
    const net = (world.standIn.positions(world.clientId).net as Array<{ tradingsymbol: string; quantity: number }>).filter((row) => row.quantity !== 0);
    expect(net).toEqual([]);
  }, 300_000);
});
