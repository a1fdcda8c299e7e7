// The "Sweep and walk-forward" tab of a backtest run (issue 20): the advanced demo user saves an
// SMA crossover that declares $fast and $slow through GraphQL (and one without parameters), runs
// its backtest, then from the results screen edits a range (the estimate follows, a bad step is
// refused under its field), starts a 6-combination sweep, and reads its heatmap, its sortable
// table (the top row is the summary's best cell) and the stability; then a walk-forward, whose
// windows and overfitting gap match what the server stored. Everything made here is deleted after.
import { randomBytes } from 'node:crypto';
import { algorithmFromExpressions } from '@vyuha/engine';
import type { Page } from 'playwright-core';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { percent } from '../../packages/web/src/format/format';
import { demoEmail, DEMO_PASSWORD, screenshot, signIn, url, useBrowser } from './browser';
import { accessToken, graphql, openDatabase, userIdOf } from './trading-support';

const SUFFIX = randomBytes(3).toString('hex');
/** Extra BACKTEST credits for this file (removed afterwards, with every run and sweep made here). */
const GRANT = 500_000;

let pool: pg.Pool;
let token: string;
let userId: string;
let grantId: string | undefined;
const algorithmIds: string[] = [];
const strategyIds: string[] = [];

/** An algorithm of the signed-in user, version 1, saved through GraphQL as the editor saves it. */
async function saveAlgorithm(name: string, graph: object): Promise<string> {
  const created = await graphql<{ insert_algorithms_one: { algorithm_id: string } }>(token,
    'mutation New($object: algorithms_insert_input!) { insert_algorithms_one(object: $object) { algorithm_id } }', { object: { name, description: 'sweep browser test' } });
  const algorithmId = created.insert_algorithms_one.algorithm_id;
  algorithmIds.push(algorithmId);
  await graphql(token, `mutation Version($algorithm_id: uuid!, $graph: jsonb!) {
      insert_algorithm_versions_one(object: { algorithm_id: $algorithm_id, version: 1, graph: $graph, schema_version: 1 }) { version }
      update_algorithms_by_pk(pk_columns: { algorithm_id: $algorithm_id }, _set: { latest_version: 1 }) { algorithm_id }
    }`, { algorithm_id: algorithmId, graph });
  return algorithmId;
}

async function status(page: Page, testId: string): Promise<string | null> {
  return page.getByTestId(testId).getAttribute('data-status');
}

async function latestSweep(runId: string): Promise<{ sweep_id: string; summary: Record<string, unknown> | null; combinations: number }> {
  const { rows } = await pool.query('SELECT sweep_id, summary, combinations FROM sweeps WHERE run_id = $1 ORDER BY created_at DESC LIMIT 1', [runId]);
  return rows[0];
}

beforeAll(async () => {
  pool = openDatabase();
  userId = await userIdOf(pool, demoEmail('advanced'));
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO user_credits (user_id, credits, expiry, category, subcategory) VALUES ($1, $2, (now() AT TIME ZONE 'Asia/Kolkata')::date + 30, 'BACKTEST', 'CANDLES') RETURNING id`,
    [userId, GRANT]);
  grantId = rows[0]?.id;
  token = await accessToken(demoEmail('advanced'), DEMO_PASSWORD);
});

afterAll(async () => {
  if (pool === undefined) return;
  await pool.query('DELETE FROM sweeps WHERE user_id = $1 AND algorithm_id = ANY($2::uuid[])', [userId, algorithmIds]);
  await pool.query(`UPDATE strategy_runs SET status = 'ERROR', error = 'test cleanup', finished_at = now() WHERE strategy_id = ANY($1::uuid[]) AND status = 'IN PROGRESS'`, [strategyIds]);
  await pool.query('DELETE FROM strategy_runs WHERE strategy_id = ANY($1::uuid[])', [strategyIds]);
  await pool.query('DELETE FROM strategies WHERE strategy_id = ANY($1::uuid[])', [strategyIds]);
  await pool.query('DELETE FROM algorithm_versions WHERE algorithm_id = ANY($1::uuid[])', [algorithmIds]);
  await pool.query('DELETE FROM algorithms WHERE algorithm_id = ANY($1::uuid[])', [algorithmIds]);
  if (grantId !== undefined) await pool.query('DELETE FROM user_credits WHERE id = $1', [grantId]);
  await pool.end();
});

describe('sweeps and walk-forward on the backtest results', () => {
  const session = useBrowser({ viewport: { width: 1400, height: 900 } });

  it('starts a sweep and a walk-forward from a run and shows their results', { timeout: 120_000 }, async () => {
    const { page } = session();
    const crossover = {
      ...algorithmFromExpressions({ entry: 'sma(close, $fast) > sma(close, $slow)', exit: 'sma(close, $fast) < sma(close, $slow)' }),
      parameters: [{ name: 'fast', default: 2, from: 2, to: 6, step: 2 }, { name: 'slow', default: 8, from: 8, to: 16, step: 4 }],
      constraints: ['$fast < $slow'],
    };
    const swept = await saveAlgorithm(`sweep crossover ${SUFFIX}`, crossover);
    const plain = await saveAlgorithm(`sweep plain ${SUFFIX}`, algorithmFromExpressions({ entry: 'close > sma(close, 10)', exit: 'close < sma(close, 10)' }));
    const started = await graphql<{ run_backtest: { strategy_id: string; run_ids: string[] } }>(token,
      'mutation Run($input: run_backtest_input!) { run_backtest(input: $input) { strategy_id run_ids } }',
      { input: {
        name: `sweep ${SUFFIX}`, strategyType: 'intraday', algorithms: [swept, plain], instrument: 'NIFTY 50', dateRanges: [{ from: '2026-08-03', to: '2026-09-30' }],
        window: 5, frequenciesAndInvestments: [{ interval: 15, investment: 500_000 }], tradeInstrumentsConfig: null,
      } });
    const strategyId = started.run_backtest.strategy_id;
    strategyIds.push(strategyId);
    const { rows: runs } = await pool.query<{ run_id: string; algorithm_id: string }>(
      `SELECT run_id, params->'algorithm'->>'algorithmId' AS algorithm_id FROM strategy_runs WHERE strategy_id = $1`, [strategyId]);
    const runId = runs.find((run) => run.algorithm_id === swept)?.run_id as string;
    const plainRunId = runs.find((run) => run.algorithm_id === plain)?.run_id as string;

    await signIn(page, 'advanced');
    await page.goto(url(`/backtest/${strategyId}`));
    for (const id of [runId, plainRunId]) await expect.poll(() => status(page, `bt-status-${id}`), { timeout: 60_000 }).toBe('COMPLETE');

    // The run of the algorithm without parameters says how to declare them, with no form.
    await page.getByTestId(`bt-run-${plainRunId}`).click();
    await page.getByTestId('bt-tab-sweeps').click();
    await page.getByTestId('sweep-no-parameters').waitFor();
    expect(await page.getByTestId('sweep-form').count()).toBe(0);

    // The parametrised run: the form holds the declared ranges; the estimate follows the edits.
    await page.getByTestId('bt-tab-results').click();
    await page.getByTestId(`bt-run-${runId}`).click();
    await page.getByTestId('bt-tab-sweeps').click();
    await page.getByTestId('sweep-form').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('sweep-to-slow').inputValue()).toBe('16');
    expect(await page.getByTestId('sweep-constraints').inputValue()).toBe('$fast < $slow');
    await expect.poll(() => page.getByTestId('sweep-estimate').getAttribute('data-combinations')).toBe('9');
    // A field that is not a number is named before anything is asked of the server.
    await page.getByTestId('sweep-from-slow').fill('eight');
    await expect.poll(() => page.getByTestId('sweep-from-slow').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('sweep-estimate').textContent()).toBe('No estimate: correct the fields marked above.');
    await page.getByTestId('sweep-from-slow').fill('8');
    await page.getByTestId('sweep-step-fast').fill('3');
    // The server's refusal is shown under the field it names.
    await expect.poll(() => page.getByTestId('sweep-step-fast').getAttribute('aria-invalid'), { timeout: 10_000 }).toBe('true');
    const describedBy = await page.getByTestId('sweep-step-fast').getAttribute('aria-describedby');
    expect(await page.locator(`[id="${(describedBy ?? '').split(' ').find((id) => id.endsWith('error'))}"]`).textContent()).toContain('(to - from) / step must be a whole number');
    expect(await page.getByTestId('sweep-start').isDisabled()).toBe(true);
    await page.getByTestId('sweep-step-fast').fill('2');
    await page.getByTestId('sweep-step-slow').fill('8');
    await expect.poll(() => page.getByTestId('sweep-estimate').getAttribute('data-combinations')).toBe('6');
    expect(await page.getByTestId('sweep-estimate').textContent()).toMatch(/Cost: [\d,]+ BACKTEST credits; you have [\d,]+ left\./);

    // Start the sweep: it is listed, completes, and opens.
    await page.getByTestId('sweep-start').click();
    await expect.poll(async () => (await latestSweep(runId))?.sweep_id, { timeout: 10_000 }).toBeDefined();
    const sweep = await latestSweep(runId);
    await expect.poll(() => status(page, `sweep-status-${sweep.sweep_id}`), { timeout: 30_000 }).toBe('COMPLETE');
    await page.getByTestId(`sweep-results-${sweep.sweep_id}`).waitFor();

    // Heatmap: $fast (2, 4, 6) across, $slow (8, 16) down, every cell ran.
    await expect.poll(() => page.getByTestId('sweep-cell').count(), { timeout: 15_000 }).toBe(6);
    expect((await page.getByTestId('sweep-cell').evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-value')))).filter((value) => value !== '').length).toBeGreaterThan(0);
    // The table: six rows, best first; its top row is the summary's best cell, outlined on the heatmap.
    await expect.poll(() => page.getByTestId('sweep-table-row').count()).toBe(6);
    const done = await latestSweep(runId);
    const best = (done.summary as { best: { position: number; bindings: { fast: number; slow: number } } }).best;
    expect(await page.getByTestId('sweep-table-row').first().getAttribute('data-position')).toBe(String(best.position));
    expect(await page.getByTestId('sweep-best-cell').getAttribute('data-position')).toBe(String(best.position));
    const outlined = page.locator('[data-testid="sweep-cell"][data-best="true"]');
    expect([await outlined.getAttribute('data-x'), await outlined.getAttribute('data-y')]).toEqual([String(best.bindings.fast), String(best.bindings.slow)]);
    await page.getByTestId('sweep-stability').waitFor();
    // Sorting by net P&L (best first), then the other way: the column's values come in order.
    const netPnls = async (): Promise<number[]> => (await page.locator('[data-testid="sweep-table-row"] td[data-metric="netPnl"]').evaluateAll(
      (cells) => cells.map((cell) => Number(cell.getAttribute('data-value')))));
    await page.getByTestId('sweep-sort-netPnl').click();
    const descending = await netPnls();
    expect(descending).toEqual([...descending].sort((a, b) => b - a));
    await page.getByTestId('sweep-sort-netPnl').click();
    expect(await netPnls()).toEqual([...descending].reverse().sort((a, b) => a - b));
    expect(await page.getByTestId('sweep-sort-netPnl').getAttribute('data-sorted')).toBe('ascending');
    await screenshot(page, 'backtest-sweep');

    // A walk-forward of the same grid: 10 in-sample and 5 out-of-sample days.
    await page.getByTestId('sweep-kind').getByText('Walk-forward').click();
    await page.getByTestId('wf-in-sample').fill('10');
    await page.getByTestId('wf-out-of-sample').fill('5');
    await expect.poll(async () => Number(await page.getByTestId('sweep-estimate').getAttribute('data-windows')), { timeout: 10_000 }).toBeGreaterThan(1);
    const windows = Number(await page.getByTestId('sweep-estimate').getAttribute('data-windows'));
    await page.getByTestId('sweep-start').click();
    await expect.poll(async () => (await latestSweep(runId))?.sweep_id, { timeout: 10_000 }).not.toBe(sweep.sweep_id);
    const walk = await latestSweep(runId);
    await expect.poll(() => status(page, `sweep-status-${walk.sweep_id}`), { timeout: 40_000 }).toBe('COMPLETE');
    await expect.poll(() => page.getByTestId('wf-window').count(), { timeout: 15_000 }).toBe(windows);
    const stored = (await latestSweep(runId)).summary as { overfitting: { gapPercent: number; outOfSampleAnnualReturnPercent: number } };
    const gapText = await page.getByTestId('wf-gap').textContent();
    expect(gapText).toContain(`${percent(stored.overfitting.outOfSampleAnnualReturnPercent)} a year (out of sample)`);
    expect(gapText).toContain(stored.overfitting.gapPercent > 0 ? `${percent(stored.overfitting.gapPercent).replace('%', '')} points a year lost` : 'No gap');
    await page.locator('[data-testid="wf-equity-chart"] canvas').first().waitFor();
    expect(await page.getByTestId('wf-metrics').locator('tbody tr').count()).toBe(8);
    await screenshot(page, 'backtest-walk-forward');
  });
});
