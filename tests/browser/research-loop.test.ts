// The research loop end to end, as a trader does it (issue "Web app: the research loop"): build an
// algorithm in the /algo editor (with a live syntax error under its node on the way), save it,
// backtest it from the /backtest form on the browser world's synthetic NIFTY 50 history, follow
// the run's progress bar to the end, and read the results. The numbers on the screen are then
// checked against the engine run directly in this process, on the same stored candles, with the
// graph the editor saved: the whole path (editor -> document -> run_backtest -> worker -> rows ->
// results screen) must agree with the kernel to the paisa. NIFTY 50 is traded as its near-month
// future (the form says so before the run, the results name the contracts and "Model prices"),
// with futures charges on every fill.
import { randomBytes } from 'node:crypto';
import type { IsoDate, Paise } from '@vyuha/core';
import { compileAlgorithm, FuturesChain, runBacktest } from '@vyuha/engine';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CHARGES } from '../../packages/server/src/backtest/charges-presets';
import { seriesOf } from '../../packages/server/src/backtest/series';
import { loadRunCandles } from '../../packages/server/src/backtest/stored-candles';
import { formatRupees } from '../../packages/web/src/format/format';
import { chooseOption, screenshot, signIn, url, useBrowser } from './browser';

const TIMEOUT = 20_000;
/** Inside BROWSER_HISTORY (global-setup.ts: 2026-08-03 .. 2026-10-30). */
const RANGE = { from: '2026-09-01' as IsoDate, to: '2026-10-30' as IsoDate };
const INTERVAL = 15;
const INVESTMENT_RUPEES = 300_000;
const NAME = `Loop EMA 9-21 ${randomBytes(3).toString('hex')}`;
const ENTRY = 'crossover(ema(close, 9), ema(close, 21))';
const EXIT = 'crossunder(ema(close, 9), ema(close, 21))';

let pool: pg.Pool;

beforeAll(() => {
  pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
});

afterAll(async () => {
  await pool?.end();
});

async function setExpression(page: Page, nodeId: string, expression: string): Promise<void> {
  await page.getByTestId(`algo-expression-${nodeId}`).fill(expression, { timeout: TIMEOUT });
}

/**
 * Records, from now on, every value any backtest progress bar shows (its data-progress), so the
 * test sees the bar move even when the run is faster than a poll. Client-side navigation keeps
 * the observer alive.
 */
async function recordProgress(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: Record<string, number[]> = {};
    (window as unknown as { progressSeen: Record<string, number[]> }).progressSeen = seen;
    const note = (element: Element): void => {
      const id = element.getAttribute('data-testid');
      const value = element.getAttribute('data-progress');
      if (id === null || !id.startsWith('bt-progress-') || value === null) return;
      const values = (seen[id] ??= []);
      if (values[values.length - 1] !== Number(value)) values.push(Number(value));
    };
    new MutationObserver((records) => {
      for (const record of records) {
        if (record.type === 'attributes' && record.target instanceof Element) note(record.target);
        for (const node of record.addedNodes) {
          if (!(node instanceof Element)) continue;
          note(node);
          node.querySelectorAll('[data-progress]').forEach(note);
        }
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-progress'] });
  });
}

describe('the research loop', () => {
  const session = useBrowser();

  it('builds an algorithm, backtests it on synthetic NIFTY, follows the progress bar, and the results equal the engine run directly', { timeout: 240_000 }, async () => {
    const { page } = session();
    await signIn(page, 'advanced');

    // 1. The editor: condition -> Buy, condition -> Sell, with a typo caught under its node.
    await page.goto(url('/algo'));
    await page.getByTestId('algo-new').click({ timeout: TIMEOUT });
    await page.getByTestId('algo-name').fill(NAME, { timeout: TIMEOUT });
    await page.getByTestId('algo-add-condition').click();
    await setExpression(page, 'condition-1', 'crossover(ema(close, 9), ema(close, 21)');
    const error = page.getByTestId('algo-node-error-condition-1');
    await expect.poll(() => error.textContent(), { timeout: TIMEOUT }).toMatch(/^1:\d+: /);
    await setExpression(page, 'condition-1', ENTRY);
    await error.waitFor({ state: 'detached', timeout: TIMEOUT });
    await page.getByTestId('algo-add-buy').click();
    await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
    await page.getByTestId('algo-add-condition').click();
    await setExpression(page, 'condition-2', EXIT);
    await page.getByTestId('algo-add-sell').click();
    await page.getByTestId('algo-errors-none').waitFor({ timeout: TIMEOUT });
    await page.getByTestId('algo-save').click();
    await page.getByText(`Saved version 1 of ${NAME}`).first().waitFor({ timeout: TIMEOUT });
    await page.waitForURL(/algorithm=[0-9a-f-]{36}/, { timeout: TIMEOUT });
    const algorithmId = new URL(page.url()).searchParams.get('algorithm') as string;

    // 2. The form: this algorithm on NIFTY 50, 15 minutes, two months.
    await page.goto(url('/backtest'));
    await page.getByTestId('bt-form').waitFor({ timeout: TIMEOUT });
    await page.getByTestId('bt-name').fill(`${NAME} backtest`);
    await chooseOption(page, 'bt-algos', { type: NAME, name: new RegExp(NAME) });
    await chooseOption(page, 'bt-instrument', { name: 'NIFTY 50 (NSE:NIFTY)' });
    await page.getByTestId('bt-range-from-0').fill(RANGE.from);
    await page.getByTestId('bt-range-to-0').fill(RANGE.to);
    await page.getByTestId('bt-interval-0').selectOption(String(INTERVAL));
    await page.getByTestId('bt-investment-0').fill(String(INVESTMENT_RUPEES));
    await expect.poll(() => page.getByTestId('bt-credits').textContent(), { timeout: TIMEOUT }).toMatch(/^Uses [\d,]+ of [\d,]+ available credits$/);
    // What "trade the instrument" means for an index, said on the form before anything runs.
    expect(await page.getByTestId('bt-trade-mode').textContent()).toContain('Near-month future');
    expect(await page.getByTestId('bt-trade-description').textContent()).toMatch(/^Trades NIFTY's near-month future \(NIFTY26NOVFUT on 2026-10-30: lot 65\), squared off each day/);
    await expect.poll(() => page.getByTestId('bt-submit').isEnabled(), { timeout: TIMEOUT }).toBe(true);
    await recordProgress(page);
    await page.getByTestId('bt-submit').click();
    await page.waitForURL(/\/backtest\/[0-9a-f-]{36}$/, { timeout: TIMEOUT });
    const strategyId = new URL(page.url()).pathname.split('/').pop() as string;

    // 3. The progress bar of the run, followed to the end.
    const { rows: runs } = await pool.query<{ run_id: string }>('SELECT run_id FROM strategy_runs WHERE strategy_id = $1', [strategyId]);
    expect(runs).toHaveLength(1);
    const runId = (runs[0] as { run_id: string }).run_id;
    const status = page.getByTestId(`bt-status-${runId}`);
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 90_000 }).toBe('COMPLETE');
    // The bar was on screen while the run was in progress, and never went backwards; it gives way
    // to the COMPLETE status (the browser world's worker writes every progress step: global-setup.ts).
    const seen = await page.evaluate((id) => (window as unknown as { progressSeen: Record<string, number[]> }).progressSeen[id] ?? [], `bt-progress-${runId}`);
    process.stdout.write(`research loop: progress bar showed ${seen.join(', ')} % before COMPLETE\n`);
    expect(seen.length).toBeGreaterThan(0);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    expect(await page.getByTestId(`bt-progress-${runId}`).count()).toBe(0);
    await page.getByTestId(`bt-results-${runId}`).waitFor({ timeout: TIMEOUT });
    await page.locator('[data-testid="bt-equity-chart"] canvas').first().waitFor({ timeout: TIMEOUT });
    await screenshot(page, 'research-loop-results');

    // 4. The engine run directly: the saved graph on the stored candles, as the form asked.
    const { rows: versions } = await pool.query<{ graph: unknown }>('SELECT graph FROM algorithm_versions WHERE algorithm_id = $1 AND version = 1', [algorithmId]);
    const compiled = compileAlgorithm(versions[0]?.graph);
    if (!compiled.ok) throw new Error(`the saved graph does not compile: ${JSON.stringify(compiled.error)}`);
    const { rows: instruments } = await pool.query<{ instrument_id: number }>(`SELECT instrument_id FROM instruments WHERE kind = 'index' AND name = 'NIFTY 50'`);
    const candles = await loadRunCandles({ pool, instrumentId: (instruments[0] as { instrument_id: number }).instrument_id, dateRange: RANGE, intervalMinutes: INTERVAL });
    const series = seriesOf(candles);
    const direct = runBacktest({
      series, program: compiled.value, contracts: new FuturesChain({ underlying: 'NIFTY', index: series, type: 'intraday', rollTime: '15:15' }),
      config: { capital: (INVESTMENT_RUPEES * 100) as Paise, type: 'intraday', instrument: 'NIFTY', direction: 'long-only', charges: CHARGES['nse-futures'] },
    });
    // A run that never trades would make the comparison empty.
    expect(direct.summary.trades).toBeGreaterThan(0);
    expect(await page.getByTestId('bt-net-pnl').textContent()).toBe(formatRupees(direct.summary.netPnl));
    expect(await page.getByTestId('bt-trade-count').textContent()).toBe(direct.summary.trades.toLocaleString('en-IN'));
    expect(await page.getByTestId('bt-charges').textContent()).toBe(formatRupees(direct.summary.charges));
    expect(direct.summary.charges).toBeGreaterThan(0);
    expect(direct.fills.every((fill) => fill.chargesTotal > 0 && /^NIFTY26(SEP|OCT|NOV)FUT$/.test(fill.instrument))).toBe(true);
    const traded = [...new Set(direct.fills.map((fill) => fill.instrument))].join(', ');
    expect(await page.getByTestId('bt-traded').textContent()).toBe(`Traded: NIFTY's near-month futures: ${traded}, rolled at 15:15 on expiry day; NSE futures chargesModel prices`);
    await page.getByTestId('bt-model-prices').waitFor({ timeout: TIMEOUT });
    const { rows: stored } = await pool.query<{ candles: string; fills: string }>(
      `SELECT r.candles::text, (SELECT count(*) FROM fills f JOIN orders o USING (order_id) WHERE o.run_id = r.run_id)::text AS fills
         FROM strategy_runs r WHERE r.run_id = $1`, [runId]);
    // Credits used are the candles the kernel processed; every fill of the kernel is stored.
    expect(Number(stored[0]?.candles)).toBe(direct.candlesProcessed);
    expect(Number(stored[0]?.fills)).toBe(direct.fills.length);
  });
});
