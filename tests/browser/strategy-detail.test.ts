// /strategies/{id}, the detail of a deployed strategy, against the database:
// - the advanced user's demo paper strategy (its 40-session replay runs in this world): the orders
//   table lists the run's orders in their states, the fills show the stored charges, the chart
//   carries one marker per fill, and the run history lists every PAPER/LIVE run with its status;
// - a strategy of our own (a DRAFT copy of the demo one's config) with a seeded ERROR run says
//   why in words; deployed through GraphQL on a 600x replay (of the two sessions where its first
//   order comes soonest), its chart grows with the replay's market time and its orders appear on
//   the open page without a reload;
// - the page in both themes at 1440x900 and 390x844, and its first render.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail, DEMO_PASSWORD, measureFirstRender, screenshotLayouts, signIn, url, useBrowser } from './browser';
import {
  accessToken, copyDemoStrategy, demoPaperStrategy, demoReplayDays, deployPaperReplay, graphql, grantLicence, openDatabase, removeStrategies,
  STOP_AND_SQUARE_OFF_MUTATION, waitForDemoReplayOver,
} from './trading-support';
import { soonestDemoReplay } from './soonest-replay';

const SUFFIX = randomBytes(3).toString('hex');
const ERROR_WORDS = `Broker session expired at 09:20 IST (${SUFFIX}): log in to Zerodha again to resume.`;

let pool: pg.Pool;
let userId: string;
let token: string;
let demoId: string;
let ownId: string | undefined;
let licenceId: string | undefined;

/** Waits (without asserting a time) until `check` holds, reading the database every half second. */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 500));
  }
}

interface DbOrder { client_order_id: string; status: string; quantity: number; filled_quantity: number }

async function runOrders(runId: string): Promise<DbOrder[]> {
  const { rows } = await pool.query<DbOrder>(
    'SELECT client_order_id, status, quantity, filled_quantity FROM orders WHERE run_id = $1 ORDER BY created_at DESC, client_order_id DESC', [runId]);
  return rows;
}

async function shownOrders(page: Page): Promise<Array<{ id: string | null; status: string | null; quantity: string; filled: string }>> {
  return page.getByTestId('order-row').evaluateAll((rows) => rows.map((row) => ({
    id: row.getAttribute('data-order-id'),
    status: row.getAttribute('data-status'),
    quantity: row.querySelector('[data-testid="order-quantity"]')?.textContent ?? '',
    filled: row.querySelector('[data-testid="order-filled"]')?.textContent ?? '',
  })));
}

beforeAll(async () => {
  pool = openDatabase();
  ({ strategyId: demoId, userId } = await demoPaperStrategy(pool));
  token = await accessToken(demoEmail('advanced'), DEMO_PASSWORD);
});

afterAll(async () => {
  if (pool === undefined) return;
  if (ownId !== undefined) {
    // Whatever this file deployed stops and goes again, with the licence slot it was given.
    const { rows } = await pool.query<{ status: string }>('SELECT status FROM strategies WHERE strategy_id = $1', [ownId]);
    if (rows[0]?.status === 'ACTIVE' || rows[0]?.status === 'PAUSED') {
      await graphql(token, STOP_AND_SQUARE_OFF_MUTATION, { id: ownId }).catch(() => undefined);
      await until(async () => (await pool.query(`SELECT 1 FROM strategy_runs WHERE strategy_id = $1 AND status = 'IN PROGRESS'`, [ownId])).rowCount === 0,
        'our run to stop', 60_000).catch(() => undefined);
    }
    await removeStrategies(pool, [ownId]);
  }
  if (licenceId !== undefined) await pool.query('DELETE FROM deployed_strategies WHERE id = $1', [licenceId]);
  await pool.query(`UPDATE user_app_configs SET meta_data = meta_data || '{"theme":"dark"}' WHERE subcategory = 'global' AND user_id = $1`, [userId]);
  await pool.end();
});

describe('strategy detail', () => {
  const session = useBrowser({ viewport: { width: 1400, height: 900 } });

  it('shows the demo paper run’s orders, fills with charges, markers and run history as stored', async () => {
    expect(demoId, 'the demo paper strategy of the advanced user').toBeDefined();
    // The replay plays as fast as it goes; compare once it has finished, so both sides hold still.
    await waitForDemoReplayOver(pool, { timeoutMs: 180_000, intervalMs: 500 });
    const { rows: runs } = await pool.query<{ run_id: string; status: string }>(
      `SELECT run_id, status FROM strategy_runs WHERE strategy_id = $1 AND kind IN ('PAPER', 'LIVE') ORDER BY started_at DESC`, [demoId]);
    const run = runs[0] as { run_id: string; status: string };
    const orders = await runOrders(run.run_id);
    expect(orders.length, 'the demo replay placed orders').toBeGreaterThan(0);

    const { page } = session();
    await signIn(page, 'advanced');
    await page.goto(url(`/strategies/${demoId}`));
    await page.getByTestId('detail-name').waitFor();
    expect(await page.getByTestId('detail-run').getAttribute('data-run-id')).toBe(run.run_id);

    // Orders: newest first, as many as the detail shows (20 at first, then 20 more a click), each with its state and quantities.
    const page1 = 20;
    const shownAtFirst = Math.min(orders.length, page1);
    await expect.poll(async () => (await shownOrders(page)).length, { timeout: 20_000 }).toBe(shownAtFirst);
    expect(await shownOrders(page)).toEqual(orders.slice(0, shownAtFirst).map((order) => ({
      id: order.client_order_id, status: order.status, quantity: String(order.quantity), filled: String(order.filled_quantity),
    })));
    if (orders.length > page1) {
      expect(await page.getByTestId('orders-count').textContent()).toBe(`Latest ${page1} of ${orders.length} orders`);
      await page.getByRole('button', { name: `Show ${Math.min(page1, orders.length - page1)} more` }).click();
      await expect.poll(async () => (await shownOrders(page)).length, { timeout: 20_000 }).toBe(Math.min(orders.length, 2 * page1));
      expect(await shownOrders(page)).toEqual(orders.slice(0, 2 * page1).map((order) => ({
        id: order.client_order_id, status: order.status, quantity: String(order.quantity), filled: String(order.filled_quantity),
      })));
    }

    // Fills: the first eight filled orders opened; each fill's charges are the stored breakdown's sum.
    const toggles = page.getByTestId('order-fills-toggle');
    const opened = Math.min(8, await toggles.count());
    expect(opened).toBeGreaterThan(0);
    for (let index = 0; index < opened; index += 1) await toggles.nth(index).click();
    const shownFills = await page.getByTestId('fill-row').evaluateAll((rows) => rows.map((row) => ({
      trade: row.getAttribute('data-trade-id'),
      paise: Number(row.querySelector('[data-testid="fill-charges"]')?.getAttribute('data-paise')),
      text: row.querySelector('[data-testid="fill-charges"]')?.textContent,
    })));
    expect(shownFills.length).toBeGreaterThanOrEqual(opened);
    const { rows: stored } = await pool.query<{ trade_id: string; charges: string }>(
      `SELECT f.trade_id, (SELECT coalesce(sum(value::bigint), 0) FROM jsonb_each_text(f.charges_paise))::text AS charges
       FROM fills f JOIN orders o ON o.order_id = f.order_id WHERE o.run_id = $1 AND f.trade_id = ANY($2::text[])`,
      [run.run_id, shownFills.map((fill) => fill.trade)]);
    const charges = new Map(stored.map((row) => [row.trade_id, Number(row.charges)]));
    expect(shownFills.map((fill) => fill.paise)).toEqual(shownFills.map((fill) => charges.get(fill.trade ?? '')));
    expect(shownFills.some((fill) => fill.paise > 0), 'paper fills are charged').toBe(true);
    for (const fill of shownFills) expect(fill.text).toBe(`₹${(fill.paise / 100).toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`);

    // Markers: one per fill of the run (on whichever contract it traded).
    const { rows: fillCount } = await pool.query<{ n: string }>(
      'SELECT count(*) AS n FROM fills f JOIN orders o ON o.order_id = f.order_id WHERE o.run_id = $1', [run.run_id]);
    const fills = Number(fillCount[0]?.n);
    expect(fills).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('price-chart').getAttribute('data-markers'), { timeout: 20_000 }).toBe(String(fills));
    expect(await page.getByTestId('run-chart').getAttribute('data-fills')).toBe(String(fills));

    // Run history: every PAPER/LIVE run with its status, the shown one marked.
    const history = await page.getByTestId('run-row').evaluateAll((rows) => rows.map((row) => ({
      id: row.getAttribute('data-run-id'), status: row.getAttribute('data-status'), selected: row.getAttribute('data-selected'),
    })));
    expect(history).toEqual(runs.map((row, index) => ({ id: row.run_id, status: row.status, selected: String(index === 0) })));
    await expect.poll(() => page.getByTestId('run-equity').getAttribute('data-days'), { timeout: 20_000 }).not.toBeNull();
    await page.getByTestId('snapshot-name').waitFor();
  }, 300_000);

  it('looks right in both themes on a laptop and a phone, and prints its first render', async () => {
    const { page } = session();
    await signIn(page, 'advanced');
    await measureFirstRender(page, `/strategies/${demoId}`, '[data-testid="detail-name"]');
    await screenshotLayouts(page, 'strategy-detail', async (shown) => {
      await shown.getByTestId('order-row').first().waitFor();
      await shown.getByTestId('price-chart').waitFor();
    });
  }, 120_000);

  it('says why a run ended in ERROR, then follows a fresh 600x replay’s orders without reloading', async () => {
    ownId = await copyDemoStrategy(pool, { userId, name: `Detail test ${SUFFIX}` });
    const { rows: failed } = await pool.query<{ run_id: string }>(
      `INSERT INTO strategy_runs (strategy_id, user_id, kind, status, params, error, status_reason, started_at, finished_at)
       VALUES ($1, $2, 'PAPER', 'ERROR', '{"mode":"PAPER","replay":null}', $3, $3, now() - interval '2 hours', now() - interval '1 hour') RETURNING run_id`,
      [ownId, userId, ERROR_WORDS]);
    const failedRun = failed[0]?.run_id as string;
    // A licence slot of our own, so the deployment does not depend on what other files hold.
    licenceId = await grantLicence(pool, userId, 1);

    const { page } = session();
    await signIn(page, 'advanced');
    await page.goto(url(`/strategies/${ownId}`));
    await expect.poll(() => page.getByTestId('run-error-alert').textContent(), { timeout: 20_000 }).toContain(ERROR_WORDS);
    expect(await page.getByTestId('run-row').getAttribute('data-status')).toBe('ERROR');
    expect(await page.getByTestId('run-error').textContent()).toBe(ERROR_WORDS);
    expect(await page.getByTestId('detail-run').getAttribute('data-run-id')).toBe(failedRun);
    expect(await page.getByTestId('orders-empty').textContent()).toBe('This run has placed no orders yet.');

    // Two sessions in a row of those the demo replay played: its indicators start cold on the first,
    // and at 600x a session takes 37.5 s, so the pair is the one whose first fill comes soonest
    // (soonest-replay.ts backtests each pair to find it); the run then plays the rest of the two.
    const played = await demoReplayDays(pool, 'played');
    const { from, to } = await soonestDemoReplay(pool, { from: played[0] as string, to: played.at(-1) as string });
    // The page must not reload: a mark on the window survives only if it does not.
    await page.evaluate(() => { (window as unknown as { stayed: boolean }).stayed = true; });
    const runId = await deployPaperReplay(token, ownId, { from, to });

    // The new run becomes the page's run, and its orders come in as the replay places them.
    await expect.poll(() => page.getByTestId('detail-run').getAttribute('data-run-id'), { timeout: 20_000 }).toBe(runId);
    // The chart grows with the market time the runner writes on the run row (about once a second),
    // not only with orders: its last candle moves on, and catches up with the bar the replay reached.
    const lastCandle = async (): Promise<number> => Number(await page.getByTestId('run-chart').getAttribute('data-last-candle') ?? Number.NaN);
    await expect.poll(lastCandle, { timeout: 60_000 }).toBeGreaterThan(0);
    const firstCandle = await lastCandle();
    await expect.poll(lastCandle, { timeout: 30_000 }).toBeGreaterThan(firstCandle);
    const { rows: reachedRows } = await pool.query<{ reached: string; interval: number }>(
      `SELECT r.params ->> 'replayedUntilMs' AS reached, s.interval_minutes AS interval FROM strategy_runs r JOIN strategies s USING (strategy_id) WHERE r.run_id = $1`, [runId]);
    const reached = Number(reachedRows[0]?.reached);
    expect(reached).toBeGreaterThan(firstCandle);
    await expect.poll(lastCandle, { timeout: 30_000 }).toBeGreaterThan(reached - (reachedRows[0]?.interval ?? 5) * 60_000);
    // The share played comes with it (the run row's progress).
    await expect.poll(async () => /^(\d+)% played$/.exec(await page.getByTestId('detail-run-progress').textContent() ?? '')?.[1], { timeout: 30_000 })
      .toMatch(/^[1-9]\d?$/);
    await expect.poll(async () => (await shownOrders(page)).length, { timeout: 200_000 }).toBeGreaterThan(0);
    const shown = await shownOrders(page);
    const stored = await runOrders(runId);
    expect(shown.every((order) => stored.some((row) => row.client_order_id === order.id))).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    // The run history now lists the replay in progress above the ERROR run.
    const history = await page.getByTestId('run-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-run-id')));
    expect(history).toEqual([runId, failedRun]);
    await expect.poll(() => page.getByTestId('run-chart').getAttribute('data-fills'), { timeout: 60_000 }).not.toBe('0');
    // Its P&L comes in too: the equity section draws the run's days from daily_pnl as they are written.
    await expect.poll(() => page.getByTestId('run-equity').count(), { timeout: 60_000 }).toBe(1);
    const { rows: pnlDays } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM daily_pnl WHERE run_id = $1', [runId]);
    expect(Number(pnlDays[0]?.n)).toBeGreaterThan(0);
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  }, 420_000);
});
