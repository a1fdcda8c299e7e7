// The /backtest form in a real browser (docs/PRODUCT.md sections 3, 5, 8 and 9): as the advanced user, with an
// algorithm of the test's own, fill the form for NIFTY 50 at 5 minutes inside the browser world's
// history, see the credits estimate, see an overlapping range refused AT that range and an
// investment of 0 AT that investment, see what trading NIFTY 50 means (its near-month future) and
// INDIA VIX refused, see a server refusal at the field it names, submit, land on
// /backtest/{strategy_id} and wait for the run to be COMPLETE in the database.
import { estimateCandles, algorithmFromExpressions } from '@vyuha/engine';
import { isoDate } from '@vyuha/core';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chooseOption, demoEmail, screenshot, setTheme, signIn, url, useBrowser } from './browser';

/** A month inside BROWSER_HISTORY (global-setup.ts: 2026-08-03 .. 2026-10-30). */
const RANGE = { from: '2026-09-01', to: '2026-09-30' } as const;
const SECOND_RANGE = { from: '2026-10-01', to: '2026-10-09' } as const;
const STAMP = Date.now().toString(36);
const ALGORITHM_NAME = `bt-form crossover ${STAMP}`;
const BACKTEST_NAME = `bt-form NIFTY ${STAMP}`;

let pool: pg.Pool;
let algorithmId: string;

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
  const { rows: users } = await pool.query<{ id: string }>('SELECT id FROM auth.users WHERE email = $1', [demoEmail('advanced')]);
  const userId = users[0]?.id;
  if (userId === undefined) throw new Error('the demo world has no advanced user');
  const graph = algorithmFromExpressions({ entry: 'close > sma(close, 10)', exit: 'close < sma(close, 10)' });
  const { rows } = await pool.query<{ algorithm_id: string }>(
    'INSERT INTO algorithms (user_id, name, published, latest_version) VALUES ($1, $2, false, 1) RETURNING algorithm_id', [userId, ALGORITHM_NAME]);
  algorithmId = (rows[0] as { algorithm_id: string }).algorithm_id;
  await pool.query('INSERT INTO algorithm_versions (algorithm_id, version, graph, schema_version, created_by) VALUES ($1, 1, $2, 1, $3)',
    [algorithmId, JSON.stringify(graph), userId]);
});

afterAll(async () => {
  await pool?.end();
});

async function fillRange(page: Page, index: number, range: { from: string; to: string }): Promise<void> {
  await page.getByTestId(`bt-range-from-${index}`).fill(range.from);
  await page.getByTestId(`bt-range-to-${index}`).fill(range.to);
}

/** Sets a native select of the form. */
async function select(page: Page, testId: string, value: string): Promise<void> {
  await page.getByTestId(testId).selectOption(value);
}

async function runStatuses(strategyId: string): Promise<string[]> {
  const { rows } = await pool.query<{ status: string }>('SELECT status FROM strategy_runs WHERE strategy_id = $1 ORDER BY started_at', [strategyId]);
  return rows.map((row) => row.status);
}

describe('the backtest form', () => {
  const session = useBrowser();

  it('estimates credits, refuses overlaps and bad investments at their fields, runs, and the run completes', async () => {
    const { page } = session();
    await signIn(page, 'advanced');
    await page.goto(url('/backtest'));
    await page.getByTestId('bt-form').waitFor();

    await page.getByTestId('bt-name').fill(BACKTEST_NAME);
    await chooseOption(page, 'bt-algos', { type: 'bt-form crossover', name: new RegExp(ALGORITHM_NAME) });
    await chooseOption(page, 'bt-instrument', { name: 'NIFTY 50 (NSE:NIFTY)' });
    await fillRange(page, 0, RANGE);
    await page.getByTestId('bt-interval-0').selectOption('5');
    await page.getByTestId('bt-investment-0').fill('200000');

    // The estimate is the server's: the sessions of September 2026 at 5 minutes on NIFTY's calendar.
    const september = estimateCandles({ dateRange: { from: isoDate(RANGE.from), to: isoDate(RANGE.to) }, interval: 5, instrument: 'NIFTY' });
    await expect.poll(() => page.getByTestId('bt-credits').textContent()).toMatch(new RegExp(`^Uses ${september.toLocaleString('en-IN')} of [\\d,]+ available credits$`));
    await expect.poll(() => page.getByTestId('bt-submit').isEnabled()).toBe(true);

    // A second range starting before the first ends: the error is at the second range, not the first.
    await page.getByTestId('bt-add-range').click();
    await fillRange(page, 1, { from: '2026-09-20', to: '2026-10-09' });
    await expect(page.getByTestId('bt-range-error-1').textContent()).resolves.toContain('overlaps dateRanges[0] (2026-09-01 to 2026-09-30)');
    expect(await page.getByTestId('bt-range-error-0').count()).toBe(0);
    expect(await page.getByTestId('bt-submit').isDisabled()).toBe(true);
    await fillRange(page, 1, SECOND_RANGE);
    await expect.poll(() => page.getByTestId('bt-range-error-1').count()).toBe(0);
    const october = estimateCandles({ dateRange: { from: isoDate(SECOND_RANGE.from), to: isoDate(SECOND_RANGE.to) }, interval: 5, instrument: 'NIFTY' });
    await expect.poll(() => page.getByTestId('bt-credits').textContent()).toContain(`Uses ${(september + october).toLocaleString('en-IN')} of`);

    // An investment of 0 is refused at that investment.
    await page.getByTestId('bt-investment-0').fill('0');
    await expect.poll(() => page.getByTestId('bt-investment-0').getAttribute('aria-invalid')).toBe('true');
    await expect(page.getByTestId('bt-pair-0').textContent()).resolves.toContain('must be rupees above 0');
    expect(await page.getByTestId('bt-submit').isDisabled()).toBe(true);
    await page.getByTestId('bt-investment-0').fill('200000');
    await expect.poll(() => page.getByTestId('bt-submit').isEnabled()).toBe(true);

    // NIFTY 50 is traded as its near-month future, and the form says so; INDIA VIX, an index
    // without futures, is refused on the form with the reason before anything is sent.
    expect(await page.getByTestId('bt-trade-description').textContent()).toMatch(/^Trades NIFTY's near-month future \(NIFTY26OCTFUT on 2026-10-09: lot 65\)/);
    await chooseOption(page, 'bt-instrument', { name: 'NSE:INDIA VIX' });
    await expect.poll(() => page.getByTestId('bt-trade-description').textContent()).toMatch(/^INDIA VIX cannot be traded: an index is traded through its futures or options/);
    expect(await page.getByTestId('bt-submit').isDisabled()).toBe(true);
    await chooseOption(page, 'bt-instrument', { name: 'NIFTY 50 (NSE:NIFTY)' });
    await expect.poll(() => page.getByTestId('bt-submit').isEnabled()).toBe(true);

    await setTheme(page, 'dark');
    await screenshot(page, 'backtest-form-dark');
    await setTheme(page, 'light');
    await page.getByText('Settings updated successfully').waitFor({ state: 'hidden' });
    await page.mouse.move(0, 0);
    await screenshot(page, 'backtest-form-light');
    await setTheme(page, 'dark');

    // A refusal only the server can make (the algorithm lost its saved version) shows at the algorithms.
    await pool.query('UPDATE algorithms SET latest_version = NULL WHERE algorithm_id = $1', [algorithmId]);
    await page.getByTestId('bt-submit').click();
    await expect.poll(() => page.getByTestId('bt-form').textContent()).toContain(`algorithm ${ALGORITHM_NAME} has no saved version yet`);
    expect(page.url()).toBe(url('/backtest'));
    await pool.query('UPDATE algorithms SET latest_version = 1 WHERE algorithm_id = $1', [algorithmId]);

    await page.getByTestId('bt-submit').click();
    await page.waitForURL(/\/backtest\/[0-9a-f-]{36}$/, { timeout: 15_000 });
    const strategyId = new URL(page.url()).pathname.split('/').pop() as string;
    const { rows } = await pool.query<{ name: string; candles: string }>(
      `SELECT s.name, sum((r.params->>'estimatedCandles')::bigint) AS candles
       FROM strategies s JOIN strategy_runs r USING (strategy_id) WHERE s.strategy_id = $1 GROUP BY s.name`, [strategyId]);
    expect(rows[0]?.name).toBe(BACKTEST_NAME);
    expect(Number(rows[0]?.candles)).toBe(september + october);
    await expect.poll(() => runStatuses(strategyId), { timeout: 60_000, interval: 1_000 }).toEqual(['COMPLETE', 'COMPLETE']);

    // Back on /backtest the form is as it was left, and the list links to the new backtest.
    await page.goto(url('/backtest'));
    await expect(page.getByTestId('bt-name').inputValue()).resolves.toBe(BACKTEST_NAME);
    await expect(page.getByTestId('bt-range-from-1').inputValue()).resolves.toBe(SECOND_RANGE.from);
    await page.getByRole('link', { name: BACKTEST_NAME }).first().waitFor();

    // Reset: the defaults again (one range, no name).
    await page.getByTestId('bt-reset').click();
    await expect(page.getByTestId('bt-name').inputValue()).resolves.toBe('');
    expect(await page.getByTestId('bt-range-from-1').count()).toBe(0);
  });

  it('runs option legs, with each legs problem at its control', async () => {
    const { page } = session();
    await signIn(page, 'advanced');
    await page.goto(url('/backtest'));
    await page.getByTestId('bt-form').waitFor();
    const name = `${BACKTEST_NAME} legs`;
    await page.getByTestId('bt-name').fill(name);
    await chooseOption(page, 'bt-algos', { type: 'bt-form crossover', name: new RegExp(ALGORITHM_NAME) });
    await chooseOption(page, 'bt-instrument', { name: 'NIFTY 50 (NSE:NIFTY)' });
    await fillRange(page, 0, { from: '2026-10-05', to: '2026-10-09' });
    await page.getByTestId('bt-trade-mode').getByText('Option legs').click();

    // A BUY signal sells an ATM call with a 30% stop; a SELL signal buys an ATM put (the defaults).
    await select(page, 'bt-leg-onBuy-0-side', 'sell');
    await select(page, 'bt-leg-onBuy-0-stopLoss-unit', 'percent');
    await page.getByTestId('bt-leg-onBuy-0-stopLoss').fill('30');

    await page.getByTestId('bt-leg-onBuy-0-lots').fill('0');
    await expect.poll(() => page.getByTestId('bt-leg-onBuy-0-lots').getAttribute('aria-invalid')).toBe('true');
    await expect(page.getByTestId('bt-leg-onBuy-0').textContent()).resolves.toContain('must be a whole number between 1 and 500, got 0');
    expect(await page.getByTestId('bt-submit').isDisabled()).toBe(true);
    await page.getByTestId('bt-leg-onBuy-0-lots').fill('1');

    await select(page, 'bt-leg-onSell-0-reentry', 'asap');
    await expect(page.getByTestId('bt-leg-onSell-0').textContent()).resolves.toContain('needs a stopLoss or trailingStop');
    await screenshot(page, 'backtest-form-legs');
    await select(page, 'bt-leg-onSell-0-reentry', 'none');
    await expect.poll(() => page.getByTestId('bt-submit').isEnabled()).toBe(true);

    await page.getByTestId('bt-submit').click();
    await page.waitForURL(/\/backtest\/[0-9a-f-]{36}$/, { timeout: 15_000 });
    const strategyId = new URL(page.url()).pathname.split('/').pop() as string;
    const { rows } = await pool.query<{ config: unknown }>(`SELECT params->'tradeInstrumentsConfig' AS config FROM strategy_runs WHERE strategy_id = $1`, [strategyId]);
    expect(rows[0]?.config).toMatchObject({
      underlying: 'NIFTY',
      onBuy: [{ option: 'CE', side: 'sell', strike: { by: 'atm-offset', steps: 0 }, lots: 1, stopLoss: { percent: 30 } }],
      onSell: [{ option: 'PE', side: 'buy' }],
    });
    await expect.poll(() => runStatuses(strategyId), { timeout: 60_000, interval: 1_000 }).toEqual(['COMPLETE']);
  });
});
