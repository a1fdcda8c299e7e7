// /payoff in a real browser (issue 18, screen 8): a new advanced-tier trader types a short
// straddle, and every number the screen shows (breakevens, maximum profit and loss, probability of
// profit, net and per-leg greeks, the P&L at a chosen level at expiry and on the valuation date)
// equals what @vyuha/engine computes here from the same inputs: the legs the screen stored (read
// from the database), the spot, IV and valuation moment the screen used. Positions are stored per
// index: NIFTY 50's set replaced leaves NIFTY BANK's as it was, across a reload. The trader's open
// positions come from PAPER runs only, never a backtest's. The menu entry goes when the exchange
// setting is not NSE.
import { randomBytes } from 'node:crypto';
import {
  breakevens, expiryCloseEpochMs, netGreeks, payoffAtExpiry, positionValue, probabilityOfProfit, profitAndLossBounds, SYNTHETIC_RATE,
  type NetGreeks, type PayoffLeg,
} from '@vyuha/engine';
import type pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatRupeesAmount } from '../../packages/web/src/format/format';
import { boundText, breakevensText, GREEK_NAMES, greekText, probabilityText } from '../../packages/web/src/pages/trading/payoff/payoff-format';
import { chooseOption, measureFirstRender, screenshotLayouts, url, useBrowser } from './browser';
import { newTrader, openDatabase, settleShell, signInAs, type TraderAccount } from './trading-support';

const SUFFIX = randomBytes(3).toString('hex');
const PASSWORD = 'payoff test passphrase';
const WAIT = { timeout: 20_000 } as const;
const DAY_MS = 86_400_000;

let pool: pg.Pool;
/** The test's own advanced-tier trader. */
let trader: TraderAccount;
let niftyId: number;
const runIds: string[] = [];
const instrumentIds: number[] = [];

beforeAll(async () => {
  pool = openDatabase();
  trader = await newTrader(pool, { email: `payoff-${SUFFIX}@example.in`, password: PASSWORD, tier: 'advanced' });
  const { rows: nifty } = await pool.query<{ instrument_id: number }>(`SELECT instrument_id FROM instruments WHERE kind = 'index' AND name = 'NIFTY 50'`);
  niftyId = nifty[0]?.instrument_id as number;
});

afterAll(async () => {
  await pool.query('DELETE FROM strategy_runs WHERE run_id = ANY($1::uuid[])', [runIds]);
  await pool.query('DELETE FROM instruments WHERE instrument_id = ANY($1::int[])', [instrumentIds]);
  await pool.end();
});

interface StoredLeg extends PayoffLeg { readonly indice: string; readonly timestamp: number }

/** The trader's stored payoff positions of one index (its user_app_configs row), as the screen saved them. */
async function storedLegs(subcategory: string): Promise<StoredLeg[] | undefined> {
  const { rows } = await pool.query<{ meta_data: { positions: StoredLeg[] } }>(
    `SELECT meta_data FROM user_app_configs WHERE user_id = $1 AND category = 'payoff' AND subcategory = $2`, [trader.userId, subcategory]);
  return rows[0]?.meta_data.positions;
}

/** Adds one leg through the form: contract, side, lots 1, premium; strike left at the ATM placeholder. */
async function addLeg(page: Page, leg: { contract: 'CE' | 'PE' | 'FUT'; side: 'Buy' | 'Sell'; premium: number; strike?: number; replace?: boolean }): Promise<void> {
  await page.getByTestId('payoff-contract').getByText(leg.contract, { exact: true }).click();
  await page.getByTestId('payoff-side').getByText(leg.side, { exact: true }).click();
  if (leg.strike !== undefined) await page.getByTestId('payoff-strike').fill(String(leg.strike));
  await page.getByTestId('payoff-lots').fill('1');
  await page.getByTestId('payoff-premium').fill(String(leg.premium));
  const replace = page.getByTestId('payoff-replace');
  if ((await replace.isChecked()) !== (leg.replace ?? false)) await replace.click();
  await page.getByTestId('payoff-add').click();
}

/** Ready for a layout check: the shell settled (no toast, the phone's menu closed), the analysis and chart shown. */
async function settle(page: Page): Promise<void> {
  await settleShell(page);
  await page.getByTestId('payoff-analysis').waitFor(WAIT);
  await page.getByTestId('payoff-chart').waitFor(WAIT);
}

const text = async (page: Page, testId: string): Promise<string> => (await page.getByTestId(testId).first().textContent()) ?? '';
const greekTexts = (greeks: NetGreeks): string[] => GREEK_NAMES.map((name) => greekText[name](greeks[name]));
const rowGreeks = (row: ReturnType<Page['getByTestId']>): Promise<string[]> =>
  row.locator('[data-greek]').evaluateAll((cells) => cells.map((cell) => cell.textContent ?? ''));

/**
 * Reads the inputs the screen used (its data-* attributes: valuation moment, spot, IV, level) and
 * checks every number shown against the engine's, computed here from the stored legs.
 */
async function expectEngineNumbers(page: Page, stored: readonly StoredLeg[]): Promise<void> {
  const analysis = page.getByTestId('payoff-analysis');
  const read = async (name: string): Promise<number> => Number(await analysis.getAttribute(`data-${name}`));
  const [at, spot, vol, price] = [await read('at'), await read('spot'), await read('vol'), await read('price')];
  expect(vol).toBeGreaterThan(0);
  const legs: PayoffLeg[] = stored.map(({ iv: _own, ...leg }) => leg);
  const market = { nowEpochMs: at, spot, rate: SYNTHETIC_RATE, vol };
  const bounds = profitAndLossBounds(legs);
  const days = Math.max(0, expiryCloseEpochMs(legs[0]?.expiry ?? '') - at) / DAY_MS;
  await expect.poll(() => text(page, 'payoff-breakevens'), WAIT).toBe(breakevensText(breakevens(legs)));
  expect(await text(page, 'payoff-max-profit')).toBe(boundText(bounds.maxProfit));
  expect(await text(page, 'payoff-max-loss')).toBe(boundText(bounds.maxLoss));
  await expect.poll(() => text(page, 'payoff-pop'), WAIT).toBe(probabilityText(probabilityOfProfit(legs, { spot, vol, rate: SYNTHETIC_RATE, days })));
  await expect.poll(() => text(page, 'payoff-at-expiry'), WAIT).toBe(formatRupeesAmount(payoffAtExpiry(legs, price)));
  await expect.poll(() => text(page, 'payoff-at-valuation'), WAIT).toBe(formatRupeesAmount(positionValue(legs, { ...market, spot: price })));
  await expect.poll(() => rowGreeks(page.getByTestId('payoff-greeks-net')), WAIT).toEqual(greekTexts(netGreeks(legs, market)));
  const legRows = page.getByTestId('payoff-greeks-leg');
  expect(await legRows.count()).toBe(legs.length);
  for (const [index, leg] of legs.entries()) expect(await rowGreeks(legRows.nth(index))).toEqual(greekTexts(netGreeks([leg], market)));
}

describe('/payoff', () => {
  const session = useBrowser({ viewport: { width: 1400, height: 1000 } });

  it('shows the engine numbers of a typed short straddle, stores each index apart, and takes open PAPER positions only', async () => {
    const { page } = session();
    await signInAs(page, trader);
    await page.getByTestId('menu-payoff').waitFor(WAIT);
    await page.goto(url('/payoff'));
    await expect.poll(() => page.getByTestId('payoff-index').inputValue(), WAIT).toBe('NIFTY 50');
    await expect.poll(() => page.getByTestId('payoff-expiry').inputValue(), WAIT).toMatch(/^\d{4}-\d{2}-\d{2} /);
    await expect.poll(() => page.getByTestId('payoff-strike').getAttribute('placeholder'), WAIT).toMatch(/^\d+$/);
    const strike = Number(await page.getByTestId('payoff-strike').getAttribute('placeholder'));

    // A short straddle at the ATM strike: one lot of each sold, ₹150 and ₹140 received.
    await addLeg(page, { contract: 'CE', side: 'Sell', premium: 150 });
    await expect.poll(async () => (await storedLegs('nifty_50'))?.length, WAIT).toBe(1);
    await addLeg(page, { contract: 'PE', side: 'Sell', premium: 140 });
    await expect.poll(async () => (await storedLegs('nifty_50'))?.length, WAIT).toBe(2);
    const straddle = (await storedLegs('nifty_50')) ?? [];
    expect(straddle.map((leg) => [leg.kind, leg.optionType, leg.strike, Math.sign(leg.quantity), leg.entryPrice])).toEqual([
      ['option', 'CE', strike, -1, 150], ['option', 'PE', strike, -1, 140],
    ]);
    await page.getByTestId('payoff-analysis').waitFor(WAIT);
    // A short straddle: the loss above is unlimited, said in words.
    expect(await text(page, 'payoff-max-loss')).toBe('Unlimited');
    await page.getByTestId('payoff-price').fill(String(strike + 123));
    await expectEngineNumbers(page, straddle);

    // Two days on and another IV: the "today" numbers move, and still equal the engine's.
    const atBefore = await page.getByTestId('payoff-analysis').getAttribute('data-at');
    await page.getByTestId('payoff-days').locator('[role="slider"]').focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    // Two days on, never past the expiry's close: with the nearest expiry a day or less away (a Monday
    // after 15:30 IST for a Tuesday expiry) the slider stops at one day and the moment at the close.
    const close = expiryCloseEpochMs(straddle[0]?.expiry ?? '');
    await expect.poll(async () => Number(await page.getByTestId('payoff-analysis').getAttribute('data-at')), WAIT)
      .toBe(Math.min(Number(atBefore) + 2 * DAY_MS, close));
    expect(Number(atBefore)).toBeLessThan(close);
    await page.getByTestId('payoff-iv').fill('17.5');
    await expect.poll(() => page.getByTestId('payoff-analysis').getAttribute('data-vol'), WAIT).toBe('0.175');
    await expectEngineNumbers(page, straddle);
    await page.getByTestId('payoff-chart').waitFor(WAIT);
    expect(Number(await page.getByTestId('payoff-chart').getAttribute('data-points'))).toBeGreaterThan(200);

    // NIFTY BANK's own set, then NIFTY 50's replaced by one long future: NIFTY BANK's stays as it was.
    await chooseOption(page, 'payoff-index', { name: 'NIFTY BANK' });
    await addLeg(page, { contract: 'CE', side: 'Buy', premium: 310 });
    await expect.poll(async () => (await storedLegs('nifty_bank'))?.length, WAIT).toBe(1);
    const bank = await storedLegs('nifty_bank');
    await chooseOption(page, 'payoff-index', { name: 'NIFTY 50' });
    await addLeg(page, { contract: 'FUT', side: 'Buy', premium: 24_000, replace: true });
    await expect.poll(async () => (await storedLegs('nifty_50'))?.map((leg) => leg.kind), WAIT).toEqual(['future']);
    expect(await storedLegs('nifty_bank')).toEqual(bank);
    await page.reload();
    await expect.poll(() => page.getByTestId('payoff-group').evaluateAll((groups) => groups.map((group) => group.getAttribute('data-indice'))), WAIT)
      .toEqual(['NIFTY 50', 'NIFTY BANK']);

    // Open positions: a PAPER run short one NIFTY call, and a backtest long a put that must not count.
    const expiry = straddle[0]?.expiry as string;
    const paperCost = await seedPosition({ kind: 'PAPER', optionType: 'CE', strike, expiry, quantity: -65, averagePaise: 12_345 });
    await seedPosition({ kind: 'BACKTEST', optionType: 'PE', strike, expiry, quantity: 65, averagePaise: 9_900 });
    await expect.poll(() => text(page, 'payoff-use-live'), WAIT).toContain('(1)');
    await page.getByTestId('payoff-use-live').click();
    await expect.poll(async () => (await storedLegs('nifty_50'))?.map((leg) => [leg.kind, leg.optionType, leg.strike, leg.quantity, leg.entryPrice]), WAIT)
      .toEqual([['option', 'CE', strike, -65, paperCost / 65 / 100]]);
    expect(await storedLegs('nifty_bank')).toEqual(bank);
    await page.getByTestId('payoff-analysis').waitFor(WAIT);
    await expectEngineNumbers(page, (await storedLegs('nifty_50')) ?? []);

    await measureFirstRender(page, '/payoff', '[data-testid="payoff-analysis"]');
    await settle(page);
    await screenshotLayouts(page, 'payoff-legs', settle);
  });

  it('is not in the menu when the exchange setting is not NSE', async () => {
    const { page } = session();
    await signInAs(page, trader);
    await page.getByTestId('menu-payoff').waitFor(WAIT);
    await pool.query(
      `UPDATE user_app_configs SET meta_data = jsonb_set(meta_data, '{timezone,exchange}', '"BSE"')
       WHERE user_id = $1 AND category = 'application' AND subcategory = 'global'`, [trader.userId]);
    await page.reload();
    await page.getByTestId('menu-dashboard').waitFor(WAIT);
    await expect.poll(() => page.evaluate(() => sessionStorage.getItem('vyuha-app') ?? ''), WAIT).toContain('BSE');
    expect(await page.getByTestId('menu-payoff').count()).toBe(0);
  });
});

/** A strategy run of `kind` holding an open position in a NIFTY option of the test's own; answers the open cost in paise. */
async function seedPosition(input: { kind: 'PAPER' | 'BACKTEST'; optionType: 'CE' | 'PE'; strike: number; expiry: string; quantity: number; averagePaise: number }): Promise<number> {
  const symbol = `PAYOFFT${SUFFIX}${input.kind}${input.optionType}`.toUpperCase();
  const { rows: instruments } = await pool.query<{ instrument_id: number }>(
    `INSERT INTO instruments (exchange, segment, kind, trading_symbol, name, underlying_instrument_id, expiry, strike_paise, option_type, lot_size)
     VALUES ('NFO', 'OPT', 'option', $1, 'NIFTY', $2, $3, $4, $5, 65) RETURNING instrument_id`,
    [symbol, niftyId, input.expiry, input.strike * 100, input.optionType]);
  const instrumentId = instruments[0]?.instrument_id as number;
  instrumentIds.push(instrumentId);
  // A run of no strategy (strategy_id may be null): nothing of the runtime picks it up.
  const { rows: runs } = await pool.query<{ run_id: string }>(
    `INSERT INTO strategy_runs (user_id, kind, status, finished_at) VALUES ($1, $2, 'COMPLETE', now()) RETURNING run_id`, [trader.userId, input.kind]);
  runIds.push(runs[0]?.run_id as string);
  const openCost = Math.abs(input.quantity) * input.averagePaise + 7;
  await pool.query(
    `INSERT INTO positions (run_id, instrument_id, net_quantity, average_price_paise, open_cost_paise) VALUES ($1, $2, $3, $4, $5)`,
    [runs[0]?.run_id, instrumentId, input.quantity, input.averagePaise, openCost]);
  return openCost;
}
