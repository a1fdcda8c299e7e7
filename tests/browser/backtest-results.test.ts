// /backtest/{strategy_id}: a backtest started through the run_backtest GraphQL action (an
// options-legs short straddle of our own algorithm on NIFTY 50, so the fills carry charges),
// followed live (progress bars while the worker is busy with a long run, which is cancelled
// from its own page), then its results: the headline numbers against the run's metrics in the
// database, the equity chart and its PNG, the heatmap CSV, the trade list with charges that
// reconcile, and two runs (two frequencies of one request) side by side.
import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { algorithmFromExpressions } from '@vyuha/engine';
import pg from 'pg';
import type { Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { formatRupees } from '../../packages/web/src/format/format';
import { baseUrl, demoEmail, DEMO_PASSWORD, screenshot, signIn, url, useBrowser } from './browser';

const SUFFIX = randomBytes(3).toString('hex');
const leg = (option: 'CE' | 'PE'): object => ({ option, side: 'sell', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1, stopLoss: { percent: 20 } });
const LEGS = { underlying: 'NIFTY', onBuy: [leg('CE'), leg('PE')], dailyMaxLossRupees: 20_000 };
const MAIN_RANGE = { from: '2026-08-03', to: '2026-09-30' };
const LONG_RANGES = [{ from: '2026-08-03', to: '2026-08-31' }, { from: '2026-09-01', to: '2026-09-30' }, { from: '2026-10-01', to: '2026-10-30' }];
/** Extra BACKTEST credits granted for this file (removed again afterwards, with every run made here). */
const GRANT = 200_000;

let pool: pg.Pool;
let userId: string;
let grantId: string;
let algorithmId: string;
let quietAlgorithmId: string;
let token: string;
const strategyIds: string[] = [];
const algorithmIds: string[] = [];

interface RunRow { run_id: string; status: string; progress: number; error: string | null; metrics: Record<string, unknown> | null; params: { interval: number } }

async function graphql<T>(query: string, variables: Record<string, unknown>): Promise<T> {
  const response = await fetch(`${baseUrl()}/v1/graphql`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ query, variables }),
  });
  const body = await response.json() as { data?: T; errors?: Array<{ message: string }> };
  if (body.errors !== undefined || body.data === undefined) throw new Error(`GraphQL: ${JSON.stringify(body.errors)}`);
  return body.data;
}

async function runBacktest(input: { name: string; dateRanges: Array<{ from: string; to: string }>; intervals: number[]; algorithm?: string; legs?: object | null }): Promise<{ strategyId: string; runIds: string[] }> {
  const data = await graphql<{ run_backtest: { strategy_id: string; run_ids: string[] } }>(
    `mutation Run($input: run_backtest_input!) { run_backtest(input: $input) { strategy_id run_ids } }`,
    { input: {
      name: input.name, strategyType: 'intraday', algorithms: [input.algorithm ?? algorithmId], instrument: 'NIFTY 50', dateRanges: input.dateRanges, window: 5,
      frequenciesAndInvestments: input.intervals.map((interval) => ({ interval, investment: 500_000 })),
      tradeInstrumentsConfig: input.legs === undefined ? LEGS : input.legs,
    } });
  strategyIds.push(data.run_backtest.strategy_id);
  return { strategyId: data.run_backtest.strategy_id, runIds: data.run_backtest.run_ids };
}

async function runRows(strategyId: string): Promise<RunRow[]> {
  const { rows } = await pool.query<RunRow>('SELECT run_id, status, progress, error, metrics, params FROM strategy_runs WHERE strategy_id = $1 ORDER BY started_at, run_id', [strategyId]);
  return rows;
}

async function downloaded(page: Page, click: () => Promise<void>): Promise<{ download: Download; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = await download.path();
  return { download, bytes: await readFile(path) };
}

/** An algorithm of the advanced user (version 1) entering on `entry`. */
async function saveAlgorithm(name: string, entry: string): Promise<string> {
  const { rows } = await pool.query<{ algorithm_id: string }>(
    'INSERT INTO algorithms (user_id, name, published, latest_version) VALUES ($1, $2, false, 1) RETURNING algorithm_id', [userId, name]);
  const id = rows[0]?.algorithm_id as string;
  algorithmIds.push(id);
  await pool.query('INSERT INTO algorithm_versions (algorithm_id, version, graph, schema_version, created_by) VALUES ($1, 1, $2, 1, $3)',
    [id, JSON.stringify(algorithmFromExpressions({ entry })), userId]);
  return id;
}

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
  const { rows: users } = await pool.query<{ id: string }>('SELECT id FROM auth.users WHERE email = $1', [demoEmail('advanced')]);
  userId = users[0]?.id as string;
  const { rows: grants } = await pool.query<{ id: string }>(
    `INSERT INTO user_credits (user_id, credits, expiry, category, subcategory) VALUES ($1, $2, (now() AT TIME ZONE 'Asia/Kolkata')::date + 30, 'BACKTEST', 'CANDLES') RETURNING id`,
    [userId, GRANT]);
  grantId = grants[0]?.id as string;
  algorithmId = await saveAlgorithm(`btresults straddle ${SUFFIX}`, 'time() >= "09:20"');
  quietAlgorithmId = await saveAlgorithm(`btresults never ${SUFFIX}`, 'close < 0');
  const response = await fetch(`${baseUrl()}/v1/auth/signin/email-password`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: demoEmail('advanced'), password: DEMO_PASSWORD }),
  });
  token = ((await response.json()) as { session: { accessToken: string } }).session.accessToken;
});

afterAll(async () => {
  if (pool === undefined) return;
  // Whatever this file made goes again, so the advanced user's credits read as before.
  await pool.query(`UPDATE strategy_runs SET status = 'ERROR', error = 'test cleanup', finished_at = now() WHERE strategy_id = ANY($1::uuid[]) AND status = 'IN PROGRESS'`, [strategyIds]);
  await pool.query('DELETE FROM strategy_runs WHERE strategy_id = ANY($1::uuid[])', [strategyIds]);
  await pool.query('DELETE FROM strategies WHERE strategy_id = ANY($1::uuid[])', [strategyIds]);
  await pool.query('DELETE FROM algorithm_versions WHERE algorithm_id = ANY($1::uuid[])', [algorithmIds]);
  await pool.query('DELETE FROM algorithms WHERE algorithm_id = ANY($1::uuid[])', [algorithmIds]);
  if (grantId !== undefined) await pool.query('DELETE FROM user_credits WHERE id = $1', [grantId]);
  await pool.query(`UPDATE user_app_configs SET meta_data = meta_data || '{"theme":"dark"}' WHERE subcategory = 'global' AND user_id = $1`, [userId]);
  await pool.end();
});

describe('backtest results', () => {
  const session = useBrowser({ viewport: { width: 1400, height: 900 } });

  it('follows the runs live, cancels a long run, then shows results that match the database', async () => {
    const { page } = session();
    // The worker takes one run at a time: the eighteen minute-bar runs of the busy backtests go first, so the long and main runs wait IN PROGRESS.
    const busy = [
      await runBacktest({ name: `btresults busy ${SUFFIX}`, dateRanges: LONG_RANGES, intervals: [1, 2, 3] }),
      await runBacktest({ name: `btresults busy too ${SUFFIX}`, dateRanges: LONG_RANGES, intervals: [1, 2, 3] }),
    ];
    const long = await runBacktest({ name: `btresults long ${SUFFIX}`, dateRanges: [{ from: '2026-08-03', to: '2026-10-30' }], intervals: [1] });
    const main = await runBacktest({ name: `btresults main ${SUFFIX}`, dateRanges: [MAIN_RANGE], intervals: [5, 15] });
    const [first, second] = main.runIds as [string, string];

    await signIn(page, 'advanced');
    await page.goto(url(`/backtest/${main.strategyId}`));
    await page.getByTestId(`bt-progress-${first}`).waitFor({ timeout: 15_000 });
    await page.getByTestId(`bt-progress-${second}`).waitFor();
    await screenshot(page, 'backtest-results-progress');

    // Cancel the long backtest's run (waiting behind the busy one) from its own page, with the confirmation.
    await page.goto(url(`/backtest/${long.strategyId}`));
    const last = long.runIds[0] as string;
    await page.getByTestId(`bt-cancel-${last}`).click();
    await page.getByRole('button', { name: 'Cancel run' }).click();
    await page.getByTestId(`bt-error-${last}`).waitFor({ timeout: 15_000 });
    expect(await page.getByTestId(`bt-error-${last}`).textContent()).toMatch(/^cancelled by the user at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} IST$/);
    expect(await page.getByTestId(`bt-status-${last}`).getAttribute('data-status')).toBe('ERROR');
    const cancelled = (await runRows(long.strategyId)).find((row) => row.run_id === last);
    expect({ status: cancelled?.status, error: cancelled?.error?.startsWith('cancelled by the user') }).toEqual({ status: 'ERROR', error: true });

    // Back on the main backtest, still waiting; the busy runs are cancelled through the API so the main runs get the worker.
    await page.goto(url(`/backtest/${main.strategyId}`));
    await page.getByTestId(`bt-progress-${first}`).waitFor({ timeout: 15_000 });
    for (const runId of busy.flatMap((request) => request.runIds)) {
      await graphql('mutation Cancel($run_id: uuid!) { cancel_backtest(run_id: $run_id) { status } }', { run_id: runId });
    }

    // The main runs complete; their results load without a reload.
    await expect.poll(async () => page.getByTestId(`bt-status-${first}`).getAttribute('data-status'), { timeout: 120_000 }).toBe('COMPLETE');
    const rows = await runRows(main.strategyId);
    const run = rows.find((row) => row.run_id === first) as RunRow;
    expect(run.status).toBe('COMPLETE');
    const metrics = run.metrics as { netPnl: number; trades: number; chargesPaid: number };
    await expect.poll(() => page.getByTestId('bt-net-pnl').textContent(), { timeout: 15_000 }).toBe(formatRupees(metrics.netPnl));
    expect(await page.getByTestId('bt-trade-count').textContent()).toBe(metrics.trades.toLocaleString('en-IN'));
    expect(await page.getByTestId('bt-charges').textContent()).toBe(formatRupees(metrics.chargesPaid));
    expect(metrics.chargesPaid).toBeGreaterThan(0);
    await page.locator('[data-testid="bt-equity-chart"] canvas').first().waitFor();

    // The trade list: every order and fill, the first page of 50, charge totals equal to the fills' and to the run's.
    const { rows: [counts] } = await pool.query<{ orders: number; fills: number; unfilled: number; charges: string }>(
      `SELECT (SELECT count(*)::int FROM orders WHERE run_id = $1) AS orders,
              (SELECT count(*)::int FROM fills f JOIN orders o USING (order_id) WHERE o.run_id = $1) AS fills,
              (SELECT count(*)::int FROM orders o WHERE o.run_id = $1 AND NOT EXISTS (SELECT 1 FROM fills f WHERE f.order_id = o.order_id)) AS unfilled,
              (SELECT coalesce(sum(v.value::bigint), 0) FROM fills f JOIN orders o USING (order_id), jsonb_each_text(f.charges_paise) v WHERE o.run_id = $1) AS charges`, [first]);
    const listed = (counts?.fills ?? 0) + (counts?.unfilled ?? 0);
    await expect.poll(() => page.getByTestId('bt-trade-row').count(), { timeout: 30_000 }).toBe(Math.min(50, listed));
    expect(Number(counts?.charges)).toBe(metrics.chargesPaid);
    expect(await page.getByTestId('bt-charges-total').textContent()).toBe(formatRupees(metrics.chargesPaid));
    expect(await page.getByTestId('bt-charges-reconcile').textContent()).toContain('add up to the run');
    expect(await page.getByTestId('bt-trade-charges').first().textContent()).toMatch(/^₹\d/);
    expect(await page.getByTestId('bt-trade-summary').textContent()).toContain(`${counts?.orders.toLocaleString('en-IN')} orders, ${counts?.fills.toLocaleString('en-IN')} fills`);

    // The heatmap CSV: a header and one row per daily_pnl row of the run.
    const { rows: [days] } = await pool.query<{ count: number }>('SELECT count(*)::int AS count FROM daily_pnl WHERE run_id = $1', [first]);
    const csv = await downloaded(page, () => page.getByTestId('bt-heatmap-csv').click());
    expect(csv.download.suggestedFilename()).toMatch(/_backtest-heatmap-2026-08-03-to-2026-09-30_\d{8}-\d{6}\.csv$/);
    const lines = csv.bytes.toString('utf8').trimEnd().split('\n');
    expect(lines[0]).toBe('date,pnl,orders');
    expect(lines.length - 1).toBe(days?.count);

    // Save as image: the chart's own PNG.
    const image = await downloaded(page, () => page.getByTestId('bt-save-image').click());
    expect(image.download.suggestedFilename()).toMatch(/_backtest-equity_\d{8}-\d{6}\.png$/);
    expect(image.bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

    // Two runs side by side: both frequencies of the one request.
    await expect.poll(async () => page.getByTestId(`bt-status-${second}`).getAttribute('data-status'), { timeout: 120_000 }).toBe('COMPLETE');
    await page.getByTestId(`bt-compare-${first}`).check();
    await page.getByTestId(`bt-compare-${second}`).check();
    await page.getByTestId('bt-compare').waitFor();
    await page.locator('[data-testid="bt-compare-chart"] canvas').first().waitFor();
    expect(await page.getByTestId('bt-chart-legend').textContent()).toContain('15 min');
    await expect.poll(() => page.getByTestId('bt-metric-column').count()).toBe(2);
    const secondMetrics = (await runRows(main.strategyId)).find((row) => row.run_id === second)?.metrics as { netPnl: number };
    const netCells = await page.getByTestId('bt-metric-netPnl').locator('td').allTextContents();
    expect(netCells.slice(1)).toEqual([formatRupees(metrics.netPnl), formatRupees(secondMetrics.netPnl)]);
    await page.getByTestId('bt-correlation').waitFor();
    await page.getByTestId('bt-capital-max').waitFor({ timeout: 30_000 });

    await screenshot(page, 'backtest-results-dark');
    await page.getByTestId('theme-toggle').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await page.locator('[data-testid="bt-equity-chart"] canvas').first().waitFor();
    await screenshot(page, 'backtest-results-light');
    await page.getByTestId('theme-toggle').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  });

  it('shows a run without trades as empty, not as an error', async () => {
    const { page } = session();
    const quiet = await runBacktest({ name: `btresults quiet ${SUFFIX}`, dateRanges: [{ from: '2026-08-03', to: '2026-08-07' }], intervals: [15], algorithm: quietAlgorithmId, legs: null });
    const runId = quiet.runIds[0] as string;
    await signIn(page, 'advanced');
    await page.goto(url(`/backtest/${quiet.strategyId}`));
    await expect.poll(async () => page.getByTestId(`bt-status-${runId}`).getAttribute('data-status'), { timeout: 60_000 }).toBe('COMPLETE');
    await page.getByTestId('bt-trades-empty').waitFor({ timeout: 15_000 });
    const metrics = (await runRows(quiet.strategyId))[0]?.metrics as { trades: number; netPnl: number } | null;
    expect(await page.getByTestId('bt-trade-count').textContent()).toBe(metrics === null ? '—' : String(metrics.trades));
    expect(await page.getByTestId('bt-net-pnl').textContent()).toBe(metrics === null ? '—' : formatRupees(metrics.netPnl));
    expect(await page.getByTestId('bt-trade-row').count()).toBe(0);

    // Side by side with a run of another backtest of the user (the main one's 15-minute run).
    await page.getByTestId(`bt-compare-${runId}`).check();
    await page.getByTestId('bt-compare-other').click();
    await page.getByRole('option', { name: new RegExp(`btresults main ${SUFFIX}: .* 15 min`) }).click();
    await page.getByTestId('bt-compare').waitFor();
    await expect.poll(() => page.getByTestId('bt-metric-column').count()).toBe(2);
    expect(await page.getByTestId('bt-chart-legend').textContent()).toContain('15 min');
  });
});
