// /strategies/{id}, the detail of a deployed strategy, against the database:
// - the advanced user's demo paper strategy (its 40-session replay runs in this world): the orders
//   table lists the run's orders in their states, the fills show the stored charges, the chart
//   carries one marker per fill, and the run history lists every PAPER/LIVE run with its status;
// - a strategy of our own (a DRAFT copy of the demo one's config) with a seeded ERROR run says
//   why in words; deployed through GraphQL on a 600x replay, its orders appear on the open page
//   without a reload;
// - the page in both themes at 1440x900 and 390x844, and its first render.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { baseUrl, demoEmail, DEMO_PASSWORD, measureFirstRender, screenshotLayouts, signIn, url, useBrowser } from './browser';

const SUFFIX = randomBytes(3).toString('hex');
const DEMO_NAME = 'Paper (synthetic data): EMA crossover%';
const ERROR_WORDS = `Broker session expired at 09:20 IST (${SUFFIX}): log in to Zerodha again to resume.`;

let pool: pg.Pool;
let userId: string;
let token: string;
let demoId: string;
let ownId: string | undefined;
let licenceId: string | undefined;

async function graphql<T>(query: string, variables: Record<string, unknown>): Promise<T> {
  const response = await fetch(`${baseUrl()}/v1/graphql`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ query, variables }),
  });
  const body = await response.json() as { data?: T; errors?: Array<{ message: string }> };
  if (body.errors !== undefined || body.data === undefined) throw new Error(`GraphQL: ${JSON.stringify(body.errors)}`);
  return body.data;
}

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
  pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
  const { rows: users } = await pool.query<{ id: string }>('SELECT id FROM auth.users WHERE email = $1', [demoEmail('advanced')]);
  userId = users[0]?.id as string;
  const { rows: demo } = await pool.query<{ strategy_id: string }>(
    'SELECT strategy_id FROM strategies WHERE user_id = $1 AND name LIKE $2 ORDER BY created_at LIMIT 1', [userId, DEMO_NAME]);
  demoId = demo[0]?.strategy_id as string;
  const response = await fetch(`${baseUrl()}/v1/auth/signin/email-password`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: demoEmail('advanced'), password: DEMO_PASSWORD }),
  });
  token = ((await response.json()) as { session: { accessToken: string } }).session.accessToken;
});

afterAll(async () => {
  if (pool === undefined) return;
  if (ownId !== undefined) {
    // Whatever this file deployed stops and goes again, with the licence slot it was given.
    const { rows } = await pool.query<{ status: string }>('SELECT status FROM strategies WHERE strategy_id = $1', [ownId]);
    if (rows[0]?.status === 'ACTIVE' || rows[0]?.status === 'PAUSED') {
      await graphql('mutation Stop($id: uuid!) { stop_strategy(strategy_id: $id, square_off: true) { run_id } }', { id: ownId }).catch(() => undefined);
      await until(async () => (await pool.query(`SELECT 1 FROM strategy_runs WHERE strategy_id = $1 AND status = 'IN PROGRESS'`, [ownId])).rowCount === 0,
        'our run to stop', 60_000).catch(() => undefined);
    }
    await pool.query(`UPDATE strategy_runs SET status = 'ERROR', error = 'test cleanup', finished_at = greatest(now(), started_at) WHERE strategy_id = $1 AND status = 'IN PROGRESS'`, [ownId]);
    await pool.query('DELETE FROM strategy_runs WHERE strategy_id = $1', [ownId]);
    await pool.query('DELETE FROM strategies WHERE strategy_id = $1', [ownId]);
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
    await until(async () => (await pool.query(
      `SELECT 1 FROM strategy_runs WHERE strategy_id = $1 AND kind IN ('PAPER', 'LIVE') AND status = 'IN PROGRESS'`, [demoId])).rowCount === 0, 'the demo replay to finish');
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

    // Orders: newest first, as many as the table shows (200 at first), each with its state and quantities.
    await expect.poll(async () => (await shownOrders(page)).length, { timeout: 20_000 }).toBe(Math.min(orders.length, 200));
    expect(await shownOrders(page)).toEqual(orders.slice(0, 200).map((order) => ({
      id: order.client_order_id, status: order.status, quantity: String(order.quantity), filled: String(order.filled_quantity),
    })));
    if (orders.length > 200) expect(await page.getByTestId('orders-count').textContent()).toBe(`Latest 200 of ${orders.length} orders`);

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
    const { rows: own } = await pool.query<{ strategy_id: string }>(
      `INSERT INTO strategies (user_id, name, strategy_type, mode, status, kind, algorithm_id, algorithm_version, instrument_id, interval_minutes, config)
       SELECT user_id, $2, strategy_type, 'PAPER', 'DRAFT', kind, algorithm_id, algorithm_version, instrument_id, interval_minutes, config
       FROM strategies WHERE strategy_id = $1 RETURNING strategy_id`, [demoId, `Detail test ${SUFFIX}`]);
    ownId = own[0]?.strategy_id as string;
    const { rows: failed } = await pool.query<{ run_id: string }>(
      `INSERT INTO strategy_runs (strategy_id, user_id, kind, status, params, error, status_reason, started_at, finished_at)
       VALUES ($1, $2, 'PAPER', 'ERROR', '{"mode":"PAPER","replay":null}', $3, $3, now() - interval '2 hours', now() - interval '1 hour') RETURNING run_id`,
      [ownId, userId, ERROR_WORDS]);
    const failedRun = failed[0]?.run_id as string;
    // A licence slot of our own, so the deployment does not depend on what other files hold.
    const { rows: slot } = await pool.query<{ id: string }>(
      `INSERT INTO deployed_strategies (user_id, available, expiry) VALUES ($1, 1, (now() AT TIME ZONE 'Asia/Kolkata')::date + 30) RETURNING id`, [userId]);
    licenceId = slot[0]?.id;

    const { page } = session();
    await signIn(page, 'advanced');
    await page.goto(url(`/strategies/${ownId}`));
    await expect.poll(() => page.getByTestId('run-error-alert').textContent(), { timeout: 20_000 }).toContain(ERROR_WORDS);
    expect(await page.getByTestId('run-row').getAttribute('data-status')).toBe('ERROR');
    expect(await page.getByTestId('run-error').textContent()).toBe(ERROR_WORDS);
    expect(await page.getByTestId('detail-run').getAttribute('data-run-id')).toBe(failedRun);
    expect(await page.getByTestId('orders-empty').textContent()).toBe('This run has placed no orders yet.');

    // From the demo run's first trading day through its fifth: its indicators warm up on the first,
    // and at 600x a session takes 37.5 s, so orders come within a few sessions.
    const { rows: days } = await pool.query<{ day: string }>(
      `SELECT DISTINCT to_char(o.created_at AT TIME ZONE 'Asia/Kolkata', 'YYYY-MM-DD') AS day FROM orders o JOIN strategy_runs r ON r.run_id = o.run_id
       WHERE r.strategy_id = $1 ORDER BY 1 LIMIT 5`, [demoId]);
    const from = days[0]?.day as string;
    const to = days[days.length - 1]?.day as string;
    expect(days.length).toBe(5);
    // The page must not reload: a mark on the window survives only if it does not.
    await page.evaluate(() => { (window as unknown as { stayed: boolean }).stayed = true; });
    const deployed = await graphql<{ deploy_strategy: { run_id: string } }>(
      `mutation Deploy($id: uuid!, $replay: deploy_replay_input) { deploy_strategy(strategy_id: $id, mode: "PAPER", replay: $replay) { run_id } }`,
      { id: ownId, replay: { from, to, speed: 600 } });
    const runId = deployed.deploy_strategy.run_id;

    // The new run becomes the page's run, and its orders come in as the replay places them.
    await expect.poll(() => page.getByTestId('detail-run').getAttribute('data-run-id'), { timeout: 20_000 }).toBe(runId);
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
