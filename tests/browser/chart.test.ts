// The /chart screen in a real browser (docs/PRODUCT.md sections 2, 3 and 9): as the advanced user, NIFTY 50
// at 5 minutes over a month inside the browser world's history (global-setup.ts BROWSER_HISTORY:
// synthetic minutes 2026-08-03 .. 2026-10-30). The chart must hold exactly the candles the
// database implies, re-aggregate at another interval, open panes for an oscillator group, keep a
// horizontal line and a ray across a reload (user_app_configs), show an option chain with greeks, mark the
// signals of an algorithm of the test's own, and say that the data is synthetic.
import { algorithmFromExpressions } from '@vyuha/engine';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PROGRESSIVE_ABOVE } from '../../packages/web/src/pages/trading/chart/chart-candles';
import { chooseOption, demoEmail, screenshot, setTheme, signIn, url, useBrowser } from './browser';

/** October 2026, inside BROWSER_HISTORY. */
const RANGE = { from: '2026-10-01', to: '2026-10-30' } as const;
const STAMP = Date.now().toString(36);
/** How long a step may take: the machine is shared, and a GraphQL answer or a worker result can take seconds. */
const WAIT = { timeout: 20_000 } as const;
const ALGORITHM_NAME = `chart crossover ${STAMP}`;

let pool: pg.Pool;
let userId: string;
let niftyId: number;
/** 1-minute NIFTY 50 candles in RANGE: complete 375-minute sessions, so 5- and 15-minute bars divide them exactly. */
let minuteCount: number;

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
  const { rows: users } = await pool.query<{ id: string }>('SELECT id FROM auth.users WHERE email = $1', [demoEmail('advanced')]);
  userId = users[0]?.id ?? '';
  if (userId === '') throw new Error('the demo world has no advanced user');
  const { rows: instruments } = await pool.query<{ instrument_id: number }>(`SELECT instrument_id FROM instruments WHERE kind = 'index' AND name = 'NIFTY 50'`);
  niftyId = instruments[0]?.instrument_id ?? 0;
  const { rows: counted } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM candles WHERE instrument_id = $1 AND ts >= $2::date - interval '5 hours 30 minutes' AND ts < $3::date + interval '1 day' - interval '5 hours 30 minutes'`,
    [niftyId, RANGE.from, RANGE.to]);
  minuteCount = counted[0]?.n ?? 0;
  const graph = algorithmFromExpressions({ entry: 'close > sma(close, 20)', exit: 'close < sma(close, 20)' });
  const { rows } = await pool.query<{ algorithm_id: string }>(
    'INSERT INTO algorithms (user_id, name, published, latest_version) VALUES ($1, $2, false, 1) RETURNING algorithm_id', [userId, ALGORITHM_NAME]);
  await pool.query('INSERT INTO algorithm_versions (algorithm_id, version, graph, schema_version, created_by) VALUES ($1, 1, $2, 1, $3)',
    [(rows[0] as { algorithm_id: string }).algorithm_id, JSON.stringify(graph), userId]);
  await pool.query(`DELETE FROM user_app_configs WHERE user_id = $1 AND category = 'chart'`, [userId]);
});

afterAll(async () => {
  await pool?.query(`DELETE FROM user_app_configs WHERE user_id = $1 AND category = 'chart'`, [userId]);
  await pool?.end();
});

async function setRange(page: Page): Promise<void> {
  await page.getByTestId('chart-from').fill(RANGE.from);
  await page.getByTestId('chart-to').fill(RANGE.to);
}

const chartData = (page: Page, name: string): Promise<string | null> => page.getByTestId('price-chart').getAttribute(`data-${name}`);

/** Clicks the price pane at a share of its width and `y` px below its top (found afresh: the layout above may have moved it). */
async function clickPricePane(page: Page, point: { share: number; y: number }): Promise<void> {
  const chart = page.getByTestId('price-chart');
  const box = await chart.boundingBox();
  if (box === null) throw new Error('the chart has no box');
  await chart.click({ position: { x: Math.round(box.width * point.share), y: point.y } });
}

async function savedDrawings(): Promise<unknown[]> {
  const { rows } = await pool.query<{ meta_data: { drawings?: unknown[] } }>(
    `SELECT meta_data FROM user_app_configs WHERE user_id = $1 AND category = 'chart' AND subcategory = $2`, [userId, `drawings_${niftyId}`]);
  return rows[0]?.meta_data.drawings ?? [];
}

describe('the chart screen', () => {
  const session = useBrowser();

  it('draws candles, indicators, drawings, the option chain and signals', async () => {
    expect(minuteCount).toBeGreaterThan(375 * 15);
    expect(minuteCount % 375).toBe(0);
    const { page } = session();
    await page.setViewportSize({ width: 1400, height: 1000 });
    await signIn(page, 'advanced');
    await page.goto(url('/chart'));
    await expect.poll(() => page.getByTestId('chart-instrument').inputValue(), WAIT).toBe('NIFTY 50');
    await expect.poll(() => page.getByTestId('chart-interval').inputValue(), WAIT).toBe('5 min');
    await setRange(page);

    // Candles: what the page reports, what the library holds, and what the database implies agree.
    await expect.poll(() => chartData(page, 'candles'), WAIT).toBe(String(minuteCount / 5));
    await expect.poll(() => page.getByTestId('chart-candle-count').textContent(), WAIT).toBe((minuteCount / 5).toLocaleString('en-IN'));
    expect(await page.getByTestId('price-chart').locator('canvas').count()).toBeGreaterThan(0);
    await page.getByTestId('chart-synthetic').waitFor();
    expect(await page.getByTestId('chart-synthetic').textContent()).toContain('Synthetic');

    // Another interval re-aggregates on the server.
    await chooseOption(page, 'chart-interval', { name: '15 min' });
    await expect.poll(() => chartData(page, 'candles'), WAIT).toBe(String(minuteCount / 15));

    // A long series (1-minute bars, more than PriceChart's PROGRESSIVE_ABOVE) paints its latest
    // candles first and then reaches the library whole.
    expect(minuteCount).toBeGreaterThan(PROGRESSIVE_ABOVE);
    await chooseOption(page, 'chart-interval', { name: '1 min' });
    await expect.poll(() => chartData(page, 'candles'), WAIT).toBe(String(minuteCount));
    await chooseOption(page, 'chart-interval', { name: '15 min' });
    await expect.poll(() => chartData(page, 'candles'), WAIT).toBe(String(minuteCount / 15));

    // An oscillator group opens a pane per indicator (RSI and MACD below the price pane).
    expect(await chartData(page, 'panes')).toBe('1');
    await chooseOption(page, 'indicator-group', { name: 'Momentum' });
    await expect.poll(() => chartData(page, 'panes'), WAIT).toBe('3');

    // A horizontal line and a ray, saved for the user and the instrument.
    await page.getByTestId('drawing-tool').getByText('Horizontal Line').click();
    await clickPricePane(page, { share: 0.5, y: 120 });
    await expect.poll(() => chartData(page, 'drawings'), WAIT).toBe('1');
    await expect.poll(() => page.getByTestId('drawing-item').count(), WAIT).toBe(1);
    await expect.poll(async () => (await savedDrawings()).length, WAIT).toBe(1);
    await page.getByTestId('drawing-tool').getByText('Ray').click();
    await clickPricePane(page, { share: 0.33, y: 260 });
    await expect.poll(() => chartData(page, 'drawings'), WAIT).toBe('2');
    await expect.poll(async () => (await savedDrawings()).map((drawing) => (drawing as { kind: string }).kind), WAIT).toEqual(['horizontal', 'ray']);

    // The option chain around ATM, priced with greeks; OI is unknown for a model, so a dash.
    await page.getByTestId('option-chain').waitFor(WAIT);
    expect(await page.getByTestId('option-chain-row').count()).toBe(11);
    const atm = page.locator('[data-testid="option-chain-row"][data-atm="true"]');
    expect(await atm.count()).toBe(1);
    const cells = await atm.locator('td').allTextContents();
    expect(cells).toHaveLength(15);
    expect(cells[0]).toBe('—');
    expect(Number(cells[4])).toBeGreaterThan(0.2); // CE delta
    expect(Number(cells[4])).toBeLessThan(0.8);
    expect(Number(cells[10])).toBeLessThan(-0.2); // PE delta
    expect(cells[6]).toMatch(/^₹[\d,]+\.\d\d$/);
    expect(await page.getByTestId('option-chain').textContent()).toContain('Synthetic');

    // Signals of the test's algorithm, marked on the chart.
    await chooseOption(page, 'chart-algorithm', { type: 'chart crossover', name: ALGORITHM_NAME });
    await page.getByTestId('chart-signal-count').waitFor(WAIT);
    const badge = await page.getByTestId('chart-signal-count').textContent();
    const signalCount = Number(/^(\d+) signals$/.exec(badge ?? '')?.[1]);
    expect(signalCount).toBeGreaterThan(0);
    await expect.poll(() => chartData(page, 'markers'), WAIT).toBe(String(signalCount));

    await setTheme(page, 'dark', WAIT.timeout);
    await screenshot(page, 'chart-dark');
    await setTheme(page, 'light', WAIT.timeout);
    await screenshot(page, 'chart-light');
    await setTheme(page, 'dark', WAIT.timeout);

    // After a reload the drawings are still there.
    await page.reload();
    await setRange(page);
    await expect.poll(() => chartData(page, 'candles'), WAIT).toBe(String(minuteCount / 5));
    await expect.poll(() => chartData(page, 'drawings'), WAIT).toBe('2');
    expect(await page.getByTestId('drawing-item').count()).toBe(2);

    // And they can be deleted.
    await page.getByTestId('drawing-item').first().getByRole('button').click();
    await expect.poll(() => chartData(page, 'drawings'), WAIT).toBe('1');
    await expect.poll(async () => (await savedDrawings()).map((drawing) => (drawing as { kind: string }).kind), WAIT).toEqual(['ray']);
    await page.getByTestId('drawing-item').first().getByRole('button').click();
    await expect.poll(() => chartData(page, 'drawings'), WAIT).toBe('0');
    await expect.poll(async () => (await savedDrawings()).length, WAIT).toBe(0);
  });

  it('selects option-chain instruments, nets their greeks and opens them in payoff', async () => {
    const { page } = session();
    await page.setViewportSize({ width: 1400, height: 1000 });
    await signIn(page, 'advanced');
    await page.goto(url('/chart'));
    await expect.poll(() => page.getByTestId('chart-instrument').inputValue(), WAIT).toBe('NIFTY 50');
    await setRange(page);
    await page.getByTestId('option-chain').waitFor(WAIT);
    const atm = page.locator('[data-testid="option-chain-row"][data-atm="true"]');
    const sellCe = atm.locator('[data-testid^="oc-sell-CE-"]');
    const strike = Number((await sellCe.getAttribute('data-testid'))?.replace('oc-sell-CE-', ''));
    expect(strike % 50).toBe(0);
    // The chain's expiry is the first NIFTY expiry after 30 Oct 2026: a 65-unit lot (market lot rules).
    const lot = 65;

    // A short straddle at ATM: one lot of each, sold.
    await page.getByTestId(`oc-sell-CE-${strike}`).click();
    await page.getByTestId(`oc-sell-PE-${strike}`).click();
    const selected = page.getByTestId('oc-selected').getByTestId('oc-selected-row');
    await expect.poll(() => selected.count(), WAIT).toBe(2);
    const symbols = await selected.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-symbol') ?? ''));
    expect(symbols[0]).toMatch(new RegExp(`^NIFTY26.+${strike}CE$`));
    expect(symbols[1]).toMatch(new RegExp(`^NIFTY26.+${strike}PE$`));
    expect(await selected.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-quantity')))).toEqual([String(-lot), String(-lot)]);

    // The CE goes to two lots; a zero is refused with a reason and changes nothing.
    const ceLots = page.getByTestId(`oc-selected-qty-${symbols[0] ?? ''}`);
    await ceLots.fill('0');
    await page.getByText('Quantity must not be zero: remove the instrument instead').waitFor(WAIT);
    expect(await selected.first().getAttribute('data-quantity')).toBe(String(-lot));
    await ceLots.fill('2');
    await expect.poll(() => selected.first().getAttribute('data-quantity'), WAIT).toBe(String(-2 * lot));

    // Net greeks of a short straddle: short gamma and vega, long theta.
    const greeks = page.getByTestId('oc-net-greeks');
    await greeks.waitFor(WAIT);
    expect(await greeks.locator('[data-greek="gamma"]').textContent()).toMatch(/^Gamma -\d/);
    expect(await greeks.locator('[data-greek="vega"]').textContent()).toMatch(/^Vega -₹/);
    expect(await greeks.locator('[data-greek="theta"]').textContent()).toMatch(/^Theta ₹[\d,]+\.\d\d\/day$/);
    await screenshot(page, 'chart-option-selection');

    // Open in payoff: the two legs under NIFTY 50, both sold, 130 and 65 units.
    await page.getByTestId('oc-open-payoff').click();
    await expect.poll(() => new URL(page.url()).pathname, WAIT).toBe('/payoff');
    await page.getByText(/^NIFTY 50 · expiry 2026-/).waitFor(WAIT);
    const legs = page.getByRole('row').filter({ hasText: String(strike.toLocaleString('en-IN')) }).filter({ hasText: 'Sell' });
    await expect.poll(() => legs.count(), WAIT).toBe(2);
    const legTexts = await legs.allTextContents();
    expect(legTexts.some((text) => text.includes('CE') && text.includes(String(2 * lot)))).toBe(true);
    expect(legTexts.some((text) => text.includes('PE') && text.includes(String(lot)))).toBe(true);
    await screenshot(page, 'chart-option-selection-payoff');
  });
});
