// /positions as 'advanced': a copy of the demo EMA strategy of our own (stops and targets left out, so
// a position is held until the algorithm's exit) deployed on paper with a 600x replay through
// GraphQL; its open position appears and its unrealised P&L moves without a reload; squared off
// (confirmed), it moves to the day's closed positions with its realised P&L. A BACKTEST run seeded
// with an open and a flat position never shows on either table. Both themes at both layouts, and
// the first render's time printed.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail, DEMO_PASSWORD, measureFirstRender, screenshot, screenshotLayouts, signIn, url, useBrowser } from './browser';
import {
  accessToken, copyDemoStrategy, deployPaperReplay, openDatabase, removeStrategies, settleShell, userIdOf, waitForAccountFlat,
} from './trading-support';

const SUFFIX = randomBytes(3).toString('hex');
const REPLAY_NAME = `Positions replay ${SUFFIX}`;
const BACKTEST_NAME = `Positions backtest ${SUFFIX}`;

let pool: pg.Pool;
const strategyIds: string[] = [];

/**
 * A copy of the demo paper strategy of `userId` named `name`, on 5-minute bars (the demo's 15-minute
 * crossovers come a few times a week) and without its stop and target, so a position it opens stays
 * open until the algorithm's exit or the day's square-off.
 */
async function copyDemoStrategyOpenEnded(userId: string, name: string): Promise<string> {
  const strategyId = await copyDemoStrategy(pool, {
    userId, name, intervalMinutes: 5,
    config: ({ stopLoss: _stop, target: _target, trailingStop: _trailing, ...rest }) => rest,
  });
  strategyIds.push(strategyId);
  return strategyId;
}

/** A BACKTEST run "in progress" holding NIFTY and flat in BANKNIFTY, both changed now: neither table may show it. */
async function seedBacktest(userId: string): Promise<void> {
  const strategyId = await copyDemoStrategyOpenEnded(userId, BACKTEST_NAME);
  const { rows: runs } = await pool.query<{ run_id: string }>(
    `INSERT INTO strategy_runs (strategy_id, user_id, kind, status, params) VALUES ($1, $2, 'BACKTEST', 'IN PROGRESS', '{}') RETURNING run_id`, [strategyId, userId]);
  const { rows: instruments } = await pool.query<{ instrument_id: number; trading_symbol: string }>(
    `SELECT instrument_id, trading_symbol FROM instruments WHERE exchange = 'NSE' AND trading_symbol IN ('NIFTY', 'BANKNIFTY')`);
  for (const instrument of instruments) {
    const open = instrument.trading_symbol === 'NIFTY';
    await pool.query(
      `INSERT INTO positions (run_id, instrument_id, net_quantity, average_price_paise, open_cost_paise, realised_pnl_paise, mark_price_paise)
       VALUES ($1, $2, $3, $4, $5, 123400, $6)`,
      [runs[0]?.run_id, instrument.instrument_id, open ? 75 : 0, open ? 2_500_000 : 0, open ? 75 * 2_500_000 : 0, open ? 2_510_000 : null]);
  }
}

/** The open row of our replay's strategy. */
function replayRow(page: Page) {
  return page.getByTestId('open-positions').getByTestId('position-row').filter({ hasText: REPLAY_NAME });
}

async function ready(page: Page): Promise<void> {
  await page.locator('[data-testid="open-positions"], [data-testid="no-open-positions"]').first().waitFor();
  await page.locator('[data-testid="closed-positions"], [data-testid="no-closed-positions"]').first().waitFor();
}

beforeAll(async () => {
  pool = openDatabase();
});

afterAll(async () => {
  if (pool === undefined) return;
  await removeStrategies(pool, strategyIds);
  await pool.end();
});

describe('positions', () => {
  const session = useBrowser();

  it('follows a 600x paper replay live, squares its position off into the closed list, and never shows a backtest', async () => {
    const { page } = session();
    const userId = await userIdOf(pool, demoEmail('advanced'));
    await seedBacktest(userId);
    const strategyId = await copyDemoStrategyOpenEnded(userId, REPLAY_NAME);
    // Sessions of the browser world's stored history (global-setup.ts, BROWSER_HISTORY) before the demo replays' 40
    // sessions: the account's day P&L on those dates is this run's alone, so no daily loss limit of the user's refuses its orders.
    const range = { from: '2026-08-10', to: '2026-08-21' };

    await signIn(page, 'advanced');
    await page.goto(url('/positions'));
    await ready(page);
    await page.evaluate(() => { (window as unknown as { positionsMarker: string }).positionsMarker = 'same page'; });
    // The runtime's start-up reconciliation compares the account's recorded fills with the new run's venue, so a
    // position the demo replay holds at that moment would pause our strategy ("unexplained position"): deploy
    // once the account's other paper runs are flat.
    await waitForAccountFlat(pool, userId, { timeoutMs: 240_000, intervalMs: 500 });
    await deployPaperReplay(await accessToken(demoEmail('advanced'), DEMO_PASSWORD), strategyId, range);

    // The position appears, and its unrealised P&L moves with the replay's marks.
    const runState = async (): Promise<string> => {
      const { rows } = await pool.query<{ status: string; error: string | null; positions: string }>(
        `SELECT r.status, r.error, r.lease_owner, r.heartbeat_at, r.params->'replay' AS replay,
                (SELECT count(*) FROM positions p WHERE p.run_id = r.run_id AND p.net_quantity <> 0)::text AS positions,
                (SELECT count(*) FROM positions p WHERE p.run_id = r.run_id)::text AS all_positions,
                (SELECT count(*) FROM orders o WHERE o.run_id = r.run_id)::text AS orders,
                (SELECT s.status FROM strategies s WHERE s.strategy_id = r.strategy_id) AS strategy,
                (SELECT string_agg(a.action || ':' || left(coalesce(a.after::text, ''), 160), ' | ') FROM audit_log a
                  WHERE a.at > r.started_at AND (a.entity_id IN (r.run_id::text, r.strategy_id::text) OR a.after->>'run_id' = r.run_id::text)) AS audit
           FROM strategy_runs r WHERE r.strategy_id = $1`, [strategyId]);
      return JSON.stringify(rows);
    };
    const progress = setInterval(() => { void runState().then((state) => process.stdout.write(`replay run: ${state}\n`)); }, 15_000);
    await replayRow(page).waitFor({ timeout: 420_000 }).finally(() => clearInterval(progress)).catch(async (error: unknown) => {
      throw new Error(`no open position row of the replay; its run: ${await runState()}: ${String(error)}`);
    });
    const first = await replayRow(page).getByTestId('position-unrealised').textContent();
    await expect.poll(async () => replayRow(page).getByTestId('position-unrealised').textContent({ timeout: 5_000 }).catch(() => first),
      { timeout: 60_000, interval: 100 }).not.toBe(first);
    await expect(replayRow(page).getByTestId('position-ltp').textContent()).resolves.toMatch(/\d/);
    await screenshot(page, 'positions-advanced-open');

    // Square it off: the dialog says the strategy stops; then the run closes at market and the row moves to today's closed list.
    await replayRow(page).getByRole('button', { name: 'Square off' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('This stops this strategy and squares off').waitFor();
    await dialog.getByText(REPLAY_NAME, { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Square off' }).click();
    const closed = page.getByTestId('closed-positions').getByTestId('closed-position-row').filter({ hasText: REPLAY_NAME });
    await closed.first().waitFor({ timeout: 60_000 });
    await expect.poll(() => replayRow(page).count(), { timeout: 30_000 }).toBe(0);
    expect(await closed.first().getByTestId('closed-realised').textContent()).toMatch(/₹/);
    const { rows: runs } = await pool.query<{ status: string; net: number }>(
      `SELECT r.status, coalesce((SELECT sum(abs(p.net_quantity)) FROM positions p WHERE p.run_id = r.run_id), 0)::int AS net
         FROM strategy_runs r WHERE r.strategy_id = $1`, [strategyId]);
    expect(runs).toEqual([{ status: 'COMPLETE: SQUARED OFF', net: 0 }]);
    expect(await page.evaluate(() => (window as unknown as { positionsMarker?: string }).positionsMarker)).toBe('same page');

    // The seeded backtest's positions are on neither table.
    expect(await page.getByText(BACKTEST_NAME).count()).toBe(0);
    await screenshot(page, 'positions-advanced-squared-off');
  }, 600_000);

  it('lays out in both themes on desktop and phone, and prints its first render', async () => {
    const { page } = session();
    await signIn(page, 'advanced');
    await page.goto(url('/positions'));
    await ready(page);
    // Each size loaded afresh, as a phone or a desktop opens it: the shell's header lays itself out at load
    // (resized from 1440 to 390 without a reload, its theme toggle is left outside the viewport).
    await screenshotLayouts(page, 'positions-advanced', async (current) => {
      await current.reload();
      await ready(current);
      // On a phone the shell may come up with its menu over the page: closed, as a phone user would, to see the screen.
      await settleShell(current);
    });
    await measureFirstRender(page, '/positions', '[data-testid="open-positions"], [data-testid="no-open-positions"]');
  });
});
