// /baskets in a real browser (issue 18, screen 7): a new advanced-tier trader (rows of their own:
// the shared server's demo users stay as they were) builds a basket of two NIFTY option legs,
// previews it (the charges shown equal @vyuha/engine's charge model on the previewed prices and
// quantities, computed here), sees LIVE offered disabled with the reason (no broker account),
// places it on paper and sees each leg filled; then a basket whose
// second leg is far beyond the freeze quantity's ten slices: the OMS's risk check refuses it, the
// first leg's fill is shown, the third is not sent, and squaring off closes the filled position.
import { randomBytes } from 'node:crypto';
import { chargeModelOf } from '@vyuha/engine';
import type pg from 'pg';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatRupees } from '../../packages/web/src/format/format';
import { measureFirstRender, screenshotLayouts, url, useBrowser } from './browser';
import { newTrader, openDatabase, settleShell, signInAs, type TraderAccount } from './trading-support';

const SUFFIX = randomBytes(3).toString('hex');
const PASSWORD = 'basket test passphrase';
const WAIT = { timeout: 30_000 } as const;

let pool: pg.Pool;
/** The test's own advanced-tier trader. */
let trader: TraderAccount;
/** NIFTY's at-the-money strike at its last price, rupees. */
let atm: number;

beforeAll(async () => {
  pool = openDatabase();
  trader = await newTrader(pool, { email: `baskets-${SUFFIX}@example.in`, password: PASSWORD, tier: 'advanced' });
  const { rows: price } = await pool.query<{ price: number }>(
    `SELECT l.price_paise::float8 AS price FROM instrument_last_prices l JOIN instruments i USING (instrument_id) WHERE i.kind = 'index' AND i.trading_symbol = 'NIFTY'`);
  atm = Math.round((price[0]?.price ?? 0) / 100 / 50) * 50;
  expect(atm).toBeGreaterThan(0);
});

afterAll(async () => {
  await pool.query('DELETE FROM strategy_runs WHERE user_id = $1', [trader.userId]);
  await pool.end();
});

/** Picks `option` in the row's select labelled `label`. */
async function pick(row: Locator, choice: { readonly label: string; readonly option: string }): Promise<void> {
  await row.locator(`input[aria-label="${choice.label}"]`).click();
  await row.page().getByRole('option', { name: choice.option, exact: true }).click();
}

/** Leg `index` as an option of NIFTY's first expiry offered. */
async function optionLeg(page: Page, index: number, leg: { readonly right: 'Call (CE)' | 'Put (PE)'; readonly strike: number; readonly side: 'BUY' | 'SELL' }): Promise<void> {
  const row = page.getByTestId(`basket-leg-${index}`);
  await pick(row, { label: 'Instrument', option: leg.right });
  await row.locator('input[aria-label="Strike"]').fill(String(leg.strike));
  await row.getByText(leg.side, { exact: true }).click();
}

async function newBasket(page: Page, name: string): Promise<string> {
  await page.goto(url('/baskets'));
  await page.getByTestId('basket-new').click();
  await page.getByTestId('basket-new-name').fill(name);
  await page.getByTestId('basket-new-create').click();
  await page.waitForURL(/\/baskets\/[0-9a-f-]{36}$/, WAIT);
  await page.getByTestId('basket-leg-0').waitFor(WAIT);
  return new URL(page.url()).pathname.split('/').pop() as string;
}

async function saveAndPreview(page: Page): Promise<void> {
  await page.getByTestId('basket-save').click();
  await expect.poll(() => page.getByTestId('basket-save').isDisabled(), WAIT).toBe(true);
  await page.getByTestId('basket-preview-button').click();
  await page.getByTestId('basket-preview-charges').waitFor(WAIT);
}

/** The charges @vyuha/engine gives the previewed legs: each at its price and quantity on the preview's date. */
async function engineCharges(page: Page): Promise<number> {
  const legs = await page.getByTestId('basket-preview-leg').evaluateAll((rows) => rows.map((row) => ({ ...(row as HTMLElement).dataset })));
  expect(legs.length).toBeGreaterThan(0);
  return legs.reduce((sum, leg) => sum + chargeModelOf({ kind: 'schedule', exchange: 'NSE', instrument: leg.kind === 'option' ? 'option' : 'future' })({
    date: leg.date as never, side: leg.side === 'BUY' ? 'buy' : 'sell', price: Number(leg.price) as never, quantity: Number(leg.quantity),
  }).total, 0);
}

async function outcomeStatuses(page: Page): Promise<string[]> {
  return page.getByTestId('basket-outcome').first().locator('tbody tr').evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.status ?? ''));
}

describe('baskets', () => {
  const session = useBrowser();

  it('previews a basket of two NIFTY legs with the engine\'s charges, places it on paper and shows each leg filled', async () => {
    const { page } = session();
    await signInAs(page, trader);
    await measureFirstRender(page, '/baskets', '[data-testid="basket-list"]');
    const strategyId = await newBasket(page, `Bull call spread ${SUFFIX}`);
    await optionLeg(page, 0, { right: 'Call (CE)', strike: atm, side: 'BUY' });
    await page.getByTestId('basket-add-leg').click();
    await optionLeg(page, 1, { right: 'Call (CE)', strike: atm + 200, side: 'SELL' });
    await saveAndPreview(page);
    // No broker account connected: LIVE is offered disabled, with the deploy dialog's reason in words.
    await expect.poll(() => page.getByTestId('basket-live-reason').textContent(), WAIT).toContain('connect a broker account');
    expect(await page.getByTestId('basket-mode').getByRole('radio', { name: 'Live' }).isDisabled()).toBe(true);
    expect(await page.getByTestId('basket-preview-charges').textContent()).toBe(formatRupees(await engineCharges(page)));
    await page.getByTestId('basket-payoff-chart').waitFor(WAIT);
    await page.getByTestId('basket-place').click();
    await expect.poll(() => outcomeStatuses(page), WAIT).toEqual(['FILLED', 'FILLED']);
    const { rows } = await pool.query<{ kind: string; status: string; filled: number }>(
      `SELECT r.kind, r.status, (SELECT count(*)::int FROM orders o WHERE o.run_id = r.run_id AND o.status = 'FILLED') AS filled
       FROM strategy_runs r WHERE r.strategy_id = $1`, [strategyId]);
    expect(rows).toEqual([{ kind: 'PAPER', status: 'COMPLETE', filled: 2 }]);
    // A fresh load, as a trader opening the basket later sees it: its placement and a new preview.
    await page.goto(url(`/baskets/${strategyId}`));
    await page.getByTestId('basket-preview-button').click();
    await page.getByTestId('basket-preview-charges').waitFor(WAIT);
    await settleShell(page);
    await screenshotLayouts(page, 'baskets-detail', async (current) => {
      await current.getByTestId('basket-outcome').first().waitFor(WAIT);
      await settleShell(current);
    });
    await page.goto(url('/baskets'));
    await page.getByTestId(`basket-row-${strategyId}`).waitFor(WAIT);
    await screenshotLayouts(page, 'baskets-list', async (current) => {
      await current.getByTestId(`basket-row-${strategyId}`).waitFor(WAIT);
      await settleShell(current);
    });
  });

  it('shows a leg refused by a risk check, the filled leg, and squares it off on request', async () => {
    const { page } = session();
    await signInAs(page, trader);
    const strategyId = await newBasket(page, `Too large ${SUFFIX}`);
    // Leg 1: one lot of the next future (the default). Leg 2: 1,000 lots, past ten slices of the freeze quantity.
    await page.getByTestId('basket-add-leg').click();
    await page.getByTestId('basket-leg-1').locator('input[aria-label="Lots"]').fill('1000');
    await page.getByTestId('basket-add-leg').click();
    await optionLeg(page, 2, { right: 'Call (CE)', strike: atm, side: 'SELL' });
    await saveAndPreview(page);
    await page.getByTestId('basket-place').click();
    await expect.poll(() => outcomeStatuses(page), WAIT).toEqual(['FILLED', 'REFUSED', 'NOT_SENT']);
    await expect.poll(() => page.getByTestId('basket-positions').locator('[data-net]').first().getAttribute('data-net'), WAIT).not.toBe('0');
    await page.getByTestId('basket-square-off').click();
    await page.getByTestId('basket-choice').filter({ hasText: 'squared' }).waitFor(WAIT);
    await expect.poll(() => page.getByTestId('basket-positions').locator('[data-net]').evaluateAll((badges) => badges.map((badge) => (badge as HTMLElement).dataset.net)), WAIT)
      .toEqual(['0']);
    const { rows } = await pool.query<{ status: string; choice: string; open: number }>(
      `SELECT r.status, r.result ->> 'choice' AS choice, (SELECT count(*)::int FROM positions p WHERE p.run_id = r.run_id AND p.net_quantity <> 0) AS open
       FROM strategy_runs r WHERE r.strategy_id = $1`, [strategyId]);
    expect(rows).toEqual([{ status: 'ERROR: SQUARED OFF', choice: 'square-off', open: 0 }]);
  });
});
