// /dashboard: only PAPER (or LIVE) runs count, never backtests (a user of our own seeded with both on
// the same days); the demo world's paper replay on the heatmap, one day's P&L equal to what its
// fills booked (realised less charges, computed here from orders and fills), and that day's orders;
// a 600x replay of our own strategy moving the figures without a reload; the trial role's page
// without a link to /strategies and the demo role's mode locked to PAPER; both views' layouts.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertFilledOrder } from '../../packages/server/test/helpers/filled-orders';
import { formatRupees } from '../../packages/web/src/format/format';
import { demoEmail, DEMO_PASSWORD, measureFirstRender, screenshot, screenshotLayouts, signIn, url, useBrowser } from './browser';
import {
  accessToken, copyDemoStrategy, demoPaperStrategy, demoReplayDays, DEMO_PAPER_NAME, deployPaperReplay, newTrader, openDatabase, removeStrategies,
  settleShell, signInAs, userIdOf, waitForDemoReplayOver,
} from './trading-support';
import { clearOfIstMidnight, istDay } from './ist-day';
import { soonestDemoReplay } from './soonest-replay';

const SUFFIX = randomBytes(3).toString('hex');

let pool: pg.Pool;
const strategyIds: string[] = [];

/**
 * The page's mode switch set to PAPER (a role that may choose), once the saved preferences have
 * arrived (they set the mode they hold when they load after sign-in), and saved as PAPER.
 */
async function choosePaper(page: Page, email: string): Promise<void> {
  const saved = async (): Promise<string | null | undefined> => (await pool.query<{ mode: string | null }>(
    `SELECT c.meta_data->>'dashboardMode' AS mode FROM user_app_configs c JOIN auth.users u ON u.id = c.user_id
     WHERE u.email = $1 AND c.subcategory = 'global'`, [email])).rows[0]?.mode;
  await expect.poll(saved, { timeout: 15_000 }).toMatch(/^(LIVE|PAPER)$/);
  const mode = page.getByTestId('dashboard-page-mode');
  await expect.poll(async () => {
    if (!await mode.locator('input[value="PAPER"]').isChecked()) await mode.getByText('PAPER', { exact: true }).click();
    await page.waitForTimeout(500);
    return `${String(await mode.locator('input[value="PAPER"]').isChecked())} ${await saved() ?? ''}`;
  }, { timeout: 15_000 }).toBe('true PAPER');
}

/** A day cell's label: "<date>: ₹…, N orders". */
async function dayLabel(page: Page, date: string): Promise<string> {
  return (await page.locator(`[data-testid="dashboard-heatmap"] rect[data-date="${date}"] title`).textContent()) ?? '';
}

interface SeedDay { date: string; realised: number; charges: number; mtm: number; orders: number }

/** A run of `kind` with its daily_pnl rows; PAPER runs get one filled BUY and SELL a day whose prices give the realised P&L. */
async function seedRun(input: { userId: string; strategyId: string; kind: 'PAPER' | 'BACKTEST'; instrumentId: number; days: readonly SeedDay[] }): Promise<void> {
  const { rows } = await pool.query<{ run_id: string }>(
    `INSERT INTO strategy_runs (strategy_id, user_id, kind, status, finished_at) VALUES ($1, $2, $3, 'COMPLETE', now()) RETURNING run_id`,
    [input.strategyId, input.userId, input.kind]);
  const runId = rows[0]?.run_id as string;
  for (const day of input.days) {
    await pool.query(
      `INSERT INTO daily_pnl (run_id, date, pnl_paise, realised_paise, mtm_paise, charges_paise, orders_count) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [runId, day.date, day.realised + day.mtm - day.charges, day.realised, day.mtm, day.charges, day.orders]);
    if (input.kind !== 'PAPER') continue;
    // BUY 10 at 100.00, SELL 10 at 100.00 + realised/10: the fills book `realised`, and carry `charges`.
    const legs = [{ side: 'BUY' as const, price: 10_000, charges: Math.floor(day.charges / 2) }, { side: 'SELL' as const, price: 10_000 + day.realised / 10, charges: day.charges - Math.floor(day.charges / 2) }];
    for (const [index, leg] of legs.entries()) {
      const at = `${day.date}T10:0${index}:00+05:30`;
      await insertFilledOrder(pool, {
        clientOrderId: `dash-${SUFFIX}-${day.date}-${index}`, tradeId: `t-${SUFFIX}-${day.date}-${index}`, runId, strategyId: input.strategyId,
        userId: input.userId, instrumentId: input.instrumentId, side: leg.side, quantity: 10, pricePaise: leg.price, charges: { brokerage: leg.charges }, at,
      });
    }
  }
}

interface FillRow { run_id: string; instrument_id: number; side: 'BUY' | 'SELL'; quantity: number; price_paise: string; charges: string; day: string }

/**
 * Each IST day's realised P&L less charges of the user's PAPER fills, folded here from the fills
 * in the order they were recorded: average cost per run and instrument, a reduction realising
 * proceeds less the cost of the units it closes.
 */
async function bookedByDay(userId: string): Promise<Map<string, { booked: number; fills: number }>> {
  const { rows } = await pool.query<FillRow>(
    `SELECT o.run_id, o.instrument_id, o.side, f.quantity, f.price_paise::text,
            (SELECT coalesce(sum(value::bigint), 0) FROM jsonb_each_text(f.charges_paise))::text AS charges,
            to_char(f.ts AT TIME ZONE 'Asia/Kolkata', 'YYYY-MM-DD') AS day
     FROM fills f JOIN orders o ON o.order_id = f.order_id JOIN strategy_runs r ON r.run_id = o.run_id
     WHERE r.user_id = $1 AND r.kind = 'PAPER' ORDER BY f.created_at, f.fill_id`, [userId]);
  const held = new Map<string, { quantity: number; cost: number }>();
  const days = new Map<string, { booked: number; fills: number }>();
  for (const fill of rows) {
    const key = `${fill.run_id}/${fill.instrument_id}`;
    const position = held.get(key) ?? { quantity: 0, cost: 0 };
    const signed = fill.side === 'BUY' ? fill.quantity : -fill.quantity;
    const price = Number(fill.price_paise);
    let realised = 0;
    if (position.quantity === 0 || Math.sign(position.quantity) === Math.sign(signed)) {
      position.cost += fill.quantity * price;
    } else {
      const open = Math.abs(position.quantity);
      const closed = Math.min(open, fill.quantity);
      const costClosed = Math.round((position.cost * closed) / open);
      realised = position.quantity > 0 ? closed * price - costClosed : costClosed - closed * price;
      position.cost += -costClosed + (fill.quantity - closed) * price;
    }
    position.quantity += signed;
    held.set(key, position);
    const day = days.get(fill.day) ?? { booked: 0, fills: 0 };
    days.set(fill.day, { booked: day.booked + realised - Number(fill.charges), fills: day.fills + 1 });
  }
  return days;
}

beforeAll(async () => {
  pool = openDatabase();
});

afterAll(async () => {
  if (pool === undefined) return;
  await removeStrategies(pool, strategyIds);
  // The mode switch saved PAPER for advanced; the account reads as before (LIVE, its default).
  await pool.query(`UPDATE user_app_configs SET meta_data = meta_data || '{"dashboardMode":"LIVE"}'
    WHERE subcategory = 'global' AND user_id = (SELECT id FROM auth.users WHERE email = $1)`, [demoEmail('advanced')]);
  await pool.end();
});

describe('dashboard', () => {
  // Each test seeds or reads today's P&L: never across IST midnight.
  beforeEach(() => clearOfIstMidnight());
  const session = useBrowser({ viewport: { width: 1400, height: 900 } });

  it('counts PAPER runs only, never a backtest of the same days', async () => {
    const { page } = session();
    const email = `dashboard-${SUFFIX}@example.in`;
    const password = 'dashboard test passphrase';
    // The tier sign-up gives (trial): no tier, permission or licence set here.
    const { userId } = await newTrader(pool, { email, password });
    const { rows: instruments } = await pool.query<{ instrument_id: number }>(`SELECT instrument_id FROM instruments WHERE kind = 'index' AND name = 'NIFTY 50'`);
    const instrumentId = instruments[0]?.instrument_id as number;
    const { rows: strategies } = await pool.query<{ strategy_id: string }>(
      `INSERT INTO strategies (user_id, name, kind, mode, strategy_type, config) VALUES ($1, $2, 'basket', 'PAPER', 'intraday', '{}') RETURNING strategy_id`,
      [userId, `Dashboard seeded ${SUFFIX}`]);
    const strategyId = strategies[0]?.strategy_id as string;
    strategyIds.push(strategyId);
    const [d1, d2, today] = [istDay(-3), istDay(-2), istDay(0)];
    const paperDays: SeedDay[] = [
      { date: d1, realised: 125_000, charges: 4_321, mtm: 0, orders: 2 },
      // A day that ended with a position open: its mark moved 50,000 paise, which is not booked.
      { date: d2, realised: -40_000, charges: 3_005, mtm: 50_000, orders: 2 },
    ];
    await seedRun({ userId, strategyId, kind: 'PAPER', instrumentId, days: [...paperDays, { date: today, realised: 20_000, charges: 1_000, mtm: -7_000, orders: 2 }] });
    await seedRun({ userId, strategyId, kind: 'BACKTEST', instrumentId, days: [
      { date: d1, realised: 9_900_000, charges: 1_000, mtm: 0, orders: 40 }, { date: d2, realised: -5_500_000, charges: 2_000, mtm: 0, orders: 30 },
      { date: today, realised: 777_700, charges: 0, mtm: 0, orders: 9 },
    ] });
    const booked = paperDays.reduce((sum, day) => sum + day.realised - day.charges, 0);
    // The fills of the seeded days book the same amounts, folded from the fills alone.
    const fromFills = await bookedByDay(userId);
    expect(fromFills.get(d1)?.booked).toBe(125_000 - 4_321);
    expect(fromFills.get(d2)?.booked).toBe(-40_000 - 3_005);

    await signInAs(page, { email, password });
    await page.goto(url('/dashboard'));
    await choosePaper(page, email);
    await page.getByTestId('dashboard-net').waitFor();
    await expect.poll(() => page.getByTestId('dashboard-net').textContent()).toBe(formatRupees(booked));
    expect(await page.getByTestId('dashboard-orders').textContent()).toBe('4');
    expect(await page.getByTestId('dashboard-charges').textContent()).toBe(formatRupees(4_321 + 3_005));
    expect(await dayLabel(page, d1)).toBe(`${d1}: ${formatRupees(125_000 - 4_321)}, 2 orders`);
    expect(await dayLabel(page, d2)).toBe(`${d2}: ${formatRupees(-40_000 - 3_005)}, 2 orders`);
    // Today: booked 200.00 - 10.00, unrealised -70.00, of the PAPER run only.
    await expect.poll(() => page.getByTestId('dashboard-today-total').textContent()).toBe(formatRupees(20_000 - 1_000 - 7_000));
    // A trial user cannot open /strategies: the strategy's name is not a link, nor is anything else there.
    expect(await page.locator('main a[href^="/strategies"]').count()).toBe(0);

    // The CSV holds the PAPER days only.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('dashboard-csv').click()]);
    expect(download.suggestedFilename()).toMatch(/^DA_paper-pnl-by-day-.*\.csv$/);
    const csv = await readFile(await download.path(), 'utf8');
    expect(csv.trim().split('\r\n')).toEqual([
      'from,to,pnl_rupees,realised_rupees,charges_rupees,mark_to_market_rupees,orders,trading_days',
      `${d1},${d1},1206.79,1250.00,43.21,0.00,2,1`,
      `${d2},${d2},-430.05,-400.00,30.05,500.00,2,1`,
    ]);

    // The other mode shows nothing of these PAPER runs, and says what to do next.
    await page.getByTestId('dashboard-page-mode').getByText('LIVE', { exact: true }).click();
    await page.getByTestId('dashboard-empty').waitFor();
    expect(await page.getByTestId('dashboard-empty').locator('a[href="/subscriptions"]').count()).toBe(1);
    await screenshot(page, 'dashboard-trial-live-empty');
  }, 120_000);

  it("shows the demo paper replay: a day's P&L is its fills' realised P&L less charges, and the day opens its orders", async () => {
    const { page } = session();
    const userId = await userIdOf(pool, demoEmail('advanced'));
    const { rows: runs } = await pool.query<{ run_id: string; status: string }>(
      `SELECT r.run_id, r.status FROM strategy_runs r JOIN strategies s ON s.strategy_id = r.strategy_id
       WHERE s.user_id = $1 AND s.name = $2 AND r.kind = 'PAPER' ORDER BY r.started_at LIMIT 1`, [userId, DEMO_PAPER_NAME]);
    const runId = runs[0]?.run_id as string;
    expect(runId).toBeDefined();
    // The world's replay runs as fast as it goes; wait for it to finish so its days hold still.
    await waitForDemoReplayOver(pool);
    // A day only this run traded among the user's PAPER and LIVE runs, the one with the most fills.
    const { rows: candidates } = await pool.query<{ date: string }>(
      `SELECT to_char(d.date, 'YYYY-MM-DD') AS date FROM daily_pnl d WHERE d.run_id = $1 AND d.orders_count > 0
         AND NOT EXISTS (SELECT 1 FROM daily_pnl o JOIN strategy_runs r ON r.run_id = o.run_id
                         WHERE o.date = d.date AND o.run_id <> d.run_id AND r.user_id = $2 AND r.kind IN ('PAPER', 'LIVE'))
       ORDER BY d.orders_count DESC, d.date DESC LIMIT 1`, [runId, userId]);
    const day = candidates[0]?.date as string;
    expect(day).toBeDefined();
    const expected = (await bookedByDay(userId)).get(day);
    expect(expected).toBeDefined();
    const { rows: orderCount } = await pool.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM orders o JOIN strategy_runs r ON r.run_id = o.run_id
       WHERE r.user_id = $1 AND r.kind = 'PAPER' AND (o.created_at AT TIME ZONE 'Asia/Kolkata')::date = $2`, [userId, day]);

    await signIn(page, 'advanced');
    await page.goto(url('/dashboard'));
    await choosePaper(page, demoEmail('advanced'));
    await page.getByTestId('dashboard-heatmap').waitFor();
    await expect.poll(() => dayLabel(page, day)).toMatch(new RegExp(`^${day}: `));
    const label = await dayLabel(page, day);
    expect(label.startsWith(`${day}: ${formatRupees(expected?.booked ?? Number.NaN)},`), `${label} vs ${formatRupees(expected?.booked ?? 0)}`).toBe(true);

    await page.locator(`[data-testid="dashboard-heatmap"] rect[data-date="${day}"]`).click();
    const orders = page.getByTestId('dashboard-period-orders');
    await orders.getByText(`Orders of ${day}`).waitFor();
    await expect.poll(() => orders.getByTestId('order-row').count(), { timeout: 15_000 }).toBe(orderCount[0]?.count);
    expect(await orders.getByTestId('dashboard-period-figures').textContent()).toContain(`Booked ${formatRupees(expected?.booked ?? 0)}`);
    await screenshot(page, 'dashboard-advanced-day-orders');

    await settleShell(page);
    await screenshotLayouts(page, 'dashboard-heatmap', async (current) => {
      await current.getByTestId('dashboard-heatmap').waitFor();
      await settleShell(current);
    });
    await page.getByTestId('dashboard-chart-type').getByText('Line', { exact: true }).click();
    await page.getByTestId('dashboard-duration').getByText('Week', { exact: true }).click();
    await page.getByTestId('dashboard-line-chart').locator('canvas').first().waitFor();
    await screenshotLayouts(page, 'dashboard-line', async (current) => {
      await current.getByTestId('dashboard-line-chart').locator('canvas').first().waitFor();
      await settleShell(current);
    });
    const [image] = await Promise.all([page.waitForEvent('download'), page.getByTestId('dashboard-save-image').click()]);
    const { rows: profile } = await pool.query<{ name: string }>('SELECT name FROM users WHERE user_id = $1', [userId]);
    const prefix = (profile[0]?.name ?? '').replace(/[^A-Za-z]/g, '').slice(0, 2).toUpperCase();
    expect(prefix).toHaveLength(2);
    expect(image.suggestedFilename()).toMatch(new RegExp(`^${prefix}_paper-pnl-by-week_\\d{8}-\\d{6}\\.png$`));
    await measureFirstRender(page, '/dashboard', '[data-testid="dashboard-heatmap"] rect[data-date]');
  }, 420_000);

  it("moves with a 600x paper replay of the user's own strategy, without a reload", async () => {
    const { page } = session();
    const strategyId = await copyDemoStrategy(pool, { userId: (await demoPaperStrategy(pool)).userId, name: `Dashboard replay ${SUFFIX}` });
    strategyIds.push(strategyId);
    // Two sessions in a row among the last ten days the demo replay played (the heatmap opens on the
    // latest days): the moving averages start cold at the range's first session, so the pair is the
    // one whose first fill comes soonest (soonest-replay.ts backtests each pair to find it).
    const played = await demoReplayDays(pool, 'played');
    const replay = await soonestDemoReplay(pool, { from: (played.at(-10) ?? played[0]) as string, to: played.at(-1) as string });
    const sessions = [replay.from, replay.to].map((date) => ({ date }));

    await signIn(page, 'advanced');
    await page.goto(url('/dashboard'));
    await choosePaper(page, demoEmail('advanced'));
    await page.getByTestId('dashboard-orders').waitFor();
    const ordersShown = async (): Promise<number> => Number((await page.getByTestId('dashboard-orders').textContent())?.replace(/,/g, ''));
    const ordersBefore = await ordersShown();
    const labelsOf = (): Promise<string[]> => Promise.all(sessions.map((session) => dayLabel(page, session.date)));
    const labelsBefore = await labelsOf();
    await page.evaluate(() => { (window as unknown as { dashboardMarker: string }).dashboardMarker = 'same page'; });

    const runId = await deployPaperReplay(await accessToken(demoEmail('advanced'), DEMO_PASSWORD), strategyId, { from: replay.from, to: replay.to });
    await page.getByTestId('dashboard-replays').getByText(`Dashboard replay ${SUFFIX}`).waitFor({ timeout: 30_000 });
    // The run's own orders in the database first (what the page must then show); the run's state says why if none come.
    await expect.poll(async () => {
      const { rows } = await pool.query<{ status: string; error: string | null; orders: number }>(
        'SELECT status, error, (SELECT count(*)::int FROM orders o WHERE o.run_id = r.run_id) AS orders FROM strategy_runs r WHERE run_id = $1',
        [runId]);
      const run = rows[0];
      return `${run?.status ?? 'no run'} ${run?.error ?? ''} orders>0:${(run?.orders ?? 0) > 0}`;
    }, { timeout: 240_000, interval: 2_000 }).toMatch(/orders>0:true$/);
    await expect.poll(ordersShown, { timeout: 30_000, interval: 500 }).toBeGreaterThan(ordersBefore);
    await expect.poll(labelsOf, { timeout: 30_000 }).not.toEqual(labelsBefore);
    expect(await page.evaluate(() => (window as unknown as { dashboardMarker?: string }).dashboardMarker)).toBe('same page');
    await screenshot(page, 'dashboard-advanced-replay-moving');
  }, 420_000);

  it('gives trial no link to /strategies', async () => {
    const { page } = session();
    await signIn(page, 'trial');
    await page.goto(url('/dashboard'));
    await page.getByTestId('dashboard-today').waitFor();
    await page.locator('[data-testid="dashboard-empty"], [data-testid="dashboard-heatmap"]').first().waitFor();
    expect(await page.locator('a[href^="/strategies"]').count()).toBe(0);
    await screenshot(page, 'dashboard-trial');
  });

  it('holds demo in PAPER with the mode switch locked', async () => {
    const { page } = session();
    await signIn(page, 'demo');
    await page.goto(url('/dashboard'));
    const mode = page.getByTestId('dashboard-page-mode');
    await mode.waitFor();
    expect(await mode.locator('input[value="LIVE"]').isDisabled()).toBe(true);
    expect(await mode.locator('input[value="PAPER"]').isChecked()).toBe(true);
    await page.getByTestId('dashboard-heatmap').waitFor();
    await screenshot(page, 'dashboard-demo-paper-locked');
  });
});
