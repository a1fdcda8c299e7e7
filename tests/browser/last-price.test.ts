// One last price everywhere (issue 15, item 14): /chart, its option chain and /payoff show NIFTY
// 50 at the same price, the close of the latest candle the browser world stores (global-setup.ts
// BROWSER_HISTORY, synthetic minutes to 2026-10-30), as of the end of that minute. Before, /payoff
// showed a seeded month-end close (23,547.75) while the chart's option chain showed 21,443.20;
// and /payoff said "No expiries are listed" while its Expiry field offered one.
import { formatIstDateTime, formatPrice } from '@vyuha/core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { screenshot, signIn, url, useBrowser } from './browser';

/** How long a step may take: the machine is shared. */
const WAIT = { timeout: 20_000 } as const;

let pool: pg.Pool;
/** '21,443.20 as of 2026-10-30 15:30:00' for the latest stored NIFTY 50 minute. */
let expectedText: string;
let expectedPrice: string;

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 1 });
  const { rows } = await pool.query<{ close_paise: number; ts_ms: string }>(
    `SELECT c.close_paise, (extract(epoch FROM c.ts) * 1000)::bigint AS ts_ms
     FROM candles c JOIN instruments i USING (instrument_id)
     WHERE i.kind = 'index' AND i.name = 'NIFTY 50' ORDER BY c.ts DESC LIMIT 1`);
  const last = rows[0];
  if (last === undefined) throw new Error('the browser world stores no NIFTY 50 candles');
  expectedPrice = formatPrice(last.close_paise);
  expectedText = `${expectedPrice} as of ${formatIstDateTime(Number(last.ts_ms) + 60_000)}`;
});

afterAll(async () => {
  await pool?.end();
});

describe('the last price', () => {
  const session = useBrowser();

  it('is the same on /chart, its option chain and /payoff: the latest stored candle', async () => {
    const { page } = session();
    await page.setViewportSize({ width: 1400, height: 1000 });
    await signIn(page, 'advanced');

    await page.goto(url('/chart'));
    await expect.poll(() => page.getByTestId('chart-instrument').inputValue(), WAIT).toBe('NIFTY 50');
    await expect.poll(() => page.getByTestId('chart-last-price').textContent(), WAIT).toBe(`Last price ${expectedText}`);
    await page.getByTestId('option-chain').waitFor(WAIT);
    expect(await page.getByTestId('oc-spot').textContent()).toBe(expectedPrice);
    await screenshot(page, 'last-price-chart-advanced');

    await page.goto(url('/payoff'));
    await expect.poll(() => page.getByTestId('payoff-index').inputValue(), WAIT).toBe('NIFTY 50');
    await expect.poll(() => page.getByTestId('payoff-last-price').textContent(), WAIT).toBe(`NIFTY 50 last price ${expectedText}`);
    await screenshot(page, 'last-price-payoff-advanced');
  });

  it('regression: /payoff never says no expiries are listed while it offers an expiry', async () => {
    const { page } = session();
    await signIn(page, 'advanced');
    await page.goto(url('/payoff'));
    await expect.poll(() => page.getByTestId('payoff-index').inputValue(), WAIT).toBe('NIFTY 50');
    // The browser world imports no bhavcopy, so the expiries come from the exchange's rules.
    await expect.poll(() => page.getByTestId('payoff-expiry').inputValue(), WAIT).toMatch(/^\d{4}-\d{2}-\d{2} \((weekly|monthly)\)$/);
    await expect.poll(() => page.getByTestId('payoff-expiry-note').textContent(), WAIT).toContain("from the exchange's expiry rules");
    expect(await page.getByText(/no expiries/i).count()).toBe(0);
  });
});
