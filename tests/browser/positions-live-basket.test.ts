// /positions' square-off of a LIVE basket's position in a real browser: a new advanced-tier trader
// (rows of their own) holds what a COMPLETE LIVE basket placement bought (the run and its position
// seeded as the runner leaves them: this world has no broker). The row offers "Square off"; the
// confirmation says the basket's position is closed at market through the broker; accepted, the
// server takes it (no refusal pointing elsewhere) and records the request on the run for the
// strategy workers, whose runner picks it up at once.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { url, useBrowser } from './browser';
import { newTrader, openDatabase, signInAs, type TraderAccount } from './trading-support';

const SUFFIX = randomBytes(3).toString('hex');
const BASKET_NAME = `Live hedge ${SUFFIX}`;
const WAIT = { timeout: 30_000 } as const;

let pool: pg.Pool;
let trader: TraderAccount;
let runId: string;
let instrumentId: number;

beforeAll(async () => {
  pool = openDatabase();
  trader = await newTrader(pool, { email: `live-basket-${SUFFIX}@example.in`, password: 'live basket passphrase', tier: 'advanced' });
  const { rows: [nifty] } = await pool.query<{ instrument_id: number; price: number }>(
    `SELECT i.instrument_id, l.price_paise::float8 AS price FROM instruments i JOIN instrument_last_prices l USING (instrument_id)
      WHERE i.exchange = 'NSE' AND i.kind = 'index' AND i.trading_symbol = 'NIFTY'`);
  instrumentId = nifty!.instrument_id;
  const basket = { version: 1, product: 'MIS', legs: [{ symbol: 'NIFTY', side: 'BUY', quantity: 75, order_type: 'MARKET' }] };
  const { rows: [strategy] } = await pool.query<{ strategy_id: string }>(
    `INSERT INTO strategies (user_id, name, kind, status, mode, config) VALUES ($1, $2, 'basket', 'DRAFT', 'PAPER', $3) RETURNING strategy_id`,
    [trader.userId, BASKET_NAME, JSON.stringify({ basket })]);
  const result = {
    basket: true, complete: true, needsChoice: false, choice: null, choiceAt: null, squareOff: [],
    legs: [{ index: 0, symbol: 'NIFTY', side: 'BUY', quantity: 75, status: 'FILLED', message: null, averagePricePaise: nifty!.price, chargesPaise: 0 }],
  };
  const { rows: [run] } = await pool.query<{ run_id: string }>(
    `INSERT INTO strategy_runs (strategy_id, user_id, kind, status, params, result, finished_at) VALUES ($1, $2, 'LIVE', 'COMPLETE', $3, $4, now()) RETURNING run_id`,
    [strategy!.strategy_id, trader.userId, JSON.stringify({ basket: { ...basket, prices: [nifty!.price] }, userBrokerId: '00000000-0000-4000-8000-000000000001' }),
      JSON.stringify(result)]);
  runId = run!.run_id;
  await pool.query(
    `INSERT INTO positions (run_id, instrument_id, net_quantity, average_price_paise, open_cost_paise, mark_price_paise) VALUES ($1, $2, 75, $3, $4, $3)`,
    [runId, instrumentId, Math.round(nifty!.price), 75 * Math.round(nifty!.price)]);
});

afterAll(async () => {
  await pool.query('DELETE FROM strategy_runs WHERE user_id = $1', [trader.userId]);
  await pool.query('DELETE FROM strategies WHERE user_id = $1', [trader.userId]);
  await pool.end();
});

describe('a LIVE basket on /positions', () => {
  const session = useBrowser();

  it('squares its position off through the broker from the row, after saying so', async () => {
    const { page } = session();
    await signInAs(page, trader);
    await page.goto(url('/positions'));
    const row = page.getByTestId('open-positions').getByTestId('position-row').filter({ hasText: BASKET_NAME });
    await row.waitFor(WAIT);
    await row.getByRole('button', { name: 'Square off' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText("This closes the basket's position at market through the broker (a MARKET order to Zerodha) now:").waitFor(WAIT);
    expect(await dialog.getByTestId('square-off-baskets').textContent()).toBe(`${BASKET_NAME} (LIVE): NIFTY`);
    expect(await dialog.getByText('This stops').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Square off' }).click();
    await page.getByText('Squaring off: 1 run(s) closing at market.').waitFor(WAIT);
    const { rows: [asked] } = await pool.query<{ requested: { instrumentIds: number[]; endAs: string } | null; status: string }>(
      `SELECT result -> 'squareOffRequested' AS requested, status FROM strategy_runs WHERE run_id = $1`, [runId]);
    expect(asked!.requested).toMatchObject({ instrumentIds: [instrumentId], endAs: 'COMPLETE' });
    // Back IN PROGRESS for the runners, or already ended again by one (this world's workers run no LIVE trading).
    expect(asked!.status).not.toBe('COMPLETE');
  }, 120_000);
});
