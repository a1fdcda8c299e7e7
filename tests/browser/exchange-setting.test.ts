// The exchange and time-zone preference (issue 19 item 6) in a real browser, on a new advanced
// trader of the test's own (the demo users keep NSE):
// - the trader picks BSE in the account menu's dialog: the setting is saved to the account, the
//   /payoff entry goes (docs/PRODUCT.md section 2: listed only while the exchange is NSE) and the market
//   hours under the menu follow the exchange (CDS 09:00-17:00, XCBO in Chicago time and dollars);
// - a second tab of the same browser shows the exchange-refresh dialog naming the new exchange,
//   its own tab never does, and the dialog's button brings the second tab onto the new exchange;
// - switching back to NSE brings /payoff back, in both tabs.
// Screenshots of the shell and the dialogs in both themes at both layouts.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAYOUT_VIEWPORTS, layoutProblems, screenshot, screenshotLayouts, setTheme, url, useBrowser } from './browser';
import { newTrader, openDatabase, signInAs, type TraderAccount } from './trading-support';

const SUFFIX = randomBytes(3).toString('hex');
const WAIT = { timeout: 15_000 } as const;

let pool: pg.Pool;
let trader: TraderAccount;

beforeAll(async () => {
  pool = openDatabase();
  trader = await newTrader(pool, { email: `exchange-${SUFFIX}@example.test`, password: `exchange-${SUFFIX}-password`, tier: 'advanced' });
});

afterAll(async () => {
  await pool?.end();
});

/** The time-zone object saved in the trader's global preferences. */
async function savedTimeZone(): Promise<unknown> {
  const { rows } = await pool.query<{ timezone: unknown }>(
    `SELECT meta_data->'timezone' AS timezone FROM user_app_configs WHERE user_id = $1 AND category = 'application' AND subcategory = 'global'`,
    [trader.userId]);
  return rows[0]?.timezone;
}

const marketHours = (page: Page): Promise<string | null> => page.getByTestId('market-hours').textContent();
const hasPayoff = (page: Page): Promise<number> => page.getByTestId('side-menu').getByTestId('menu-payoff').count();

async function openSettings(page: Page): Promise<void> {
  await page.getByTestId('account-menu').click();
  await page.getByTestId('menu-exchange').click();
  await page.getByTestId('exchange-select').waitFor(WAIT);
}

/** Picks an option of a select in the dialog (no Escape afterwards: it would close the dialog). */
async function pick(page: Page, testId: string, name: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name, exact: true }).click();
}

/** Picks `exchange` (and first its time zone, when given) in the dialog and saves. */
async function chooseExchange(page: Page, exchange: string, tz?: string): Promise<void> {
  await openSettings(page);
  if (tz !== undefined) await pick(page, 'timezone-select', tz);
  await pick(page, 'exchange-select', exchange);
  await page.getByTestId('exchange-save').click();
  await page.getByTestId('exchange-select').waitFor({ state: 'detached', ...WAIT });
}

/** Screenshots of an open dialog (opened by `open`) in both themes at both layouts; nothing may overflow. */
async function screenshotDialog(page: Page, name: string, dialog: { open(page: Page): Promise<void>; close(page: Page): Promise<void> }): Promise<void> {
  const problems: string[] = [];
  for (const theme of ['dark', 'light'] as const) {
    await setTheme(page, theme);
    await page.locator('.mantine-Notification-root').first().waitFor({ state: 'detached', timeout: 15_000 });
    for (const viewport of LAYOUT_VIEWPORTS) {
      await page.setViewportSize(viewport);
      await dialog.open(page);
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      const label = `${name}-${theme}-${viewport.width}x${viewport.height}`;
      await screenshot(page, label);
      for (const problem of await layoutProblems(page)) problems.push(`${label}: ${problem.kind}: ${problem.detail}`);
      await dialog.close(page);
    }
  }
  expect(problems, 'layout problems').toEqual([]);
}

describe('the exchange setting', () => {
  const session = useBrowser();

  it('follows the picked exchange in menu and market hours, and tells the other tab', async () => {
    const { page, context } = session();
    await signInAs(page, trader);
    await page.getByTestId('side-menu').waitFor(WAIT);
    // The default: NSE in Indian time, with /payoff listed.
    await expect.poll(() => hasPayoff(page), WAIT).toBe(1);
    await expect.poll(() => marketHours(page), WAIT).toBe('Market NSE 09:15–15:30 Asia/Kolkata · ₹ INR');

    const other = await context.newPage();
    await other.goto(url('/dashboard'));
    await other.getByTestId('side-menu').waitFor(WAIT);
    await expect.poll(() => hasPayoff(other), WAIT).toBe(1);

    await chooseExchange(page, 'BSE');
    await expect.poll(savedTimeZone, WAIT).toEqual({ exchange: 'BSE', tz: 'Asia/Kolkata' });
    await expect.poll(() => hasPayoff(page), WAIT).toBe(0);
    expect(await marketHours(page)).toBe('Market BSE 09:15–15:30 Asia/Kolkata · ₹ INR');
    // The tab that made the change has nothing to refresh.
    expect(await page.getByTestId('exchange-refresh-dialog').count()).toBe(0);

    // The other tab is told, and its button brings it onto BSE.
    const dialog = other.getByTestId('exchange-refresh-dialog');
    await dialog.waitFor(WAIT);
    expect(await dialog.textContent()).toContain('The exchange changed to BSE (Asia/Kolkata) in another tab.');
    await screenshot(other, 'exchange-refresh-dialog');
    await other.getByTestId('exchange-refresh').click();
    await other.waitForLoadState('load');
    await other.getByTestId('side-menu').waitFor(WAIT);
    await expect.poll(() => marketHours(other), WAIT).toBe('Market BSE 09:15–15:30 Asia/Kolkata · ₹ INR');
    expect(await hasPayoff(other)).toBe(0);
    expect(await other.getByTestId('exchange-refresh-dialog').count()).toBe(0);

    // Currency derivatives trade longer; the US options exchange trades in Chicago time and dollars.
    await chooseExchange(page, 'CDS');
    await expect.poll(() => marketHours(page), WAIT).toBe('Market CDS 09:00–17:00 Asia/Kolkata · ₹ INR');
    await chooseExchange(page, 'XCBO', 'America/Chicago');
    await expect.poll(savedTimeZone, WAIT).toEqual({ exchange: 'XCBO', tz: 'America/Chicago' });
    await expect.poll(() => marketHours(page), WAIT).toBe('Market XCBO 08:30–15:00 America/Chicago · $ USD');
    // A reload keeps it: the saved preference and the exchanges of its zone load again.
    await page.reload();
    await page.getByTestId('side-menu').waitFor(WAIT);
    await expect.poll(() => marketHours(page), WAIT).toBe('Market XCBO 08:30–15:00 America/Chicago · $ USD');
    await other.getByTestId('exchange-refresh-dialog').waitFor(WAIT);
    expect(await other.getByTestId('exchange-refresh-dialog').textContent()).toContain('XCBO (America/Chicago)');
    await screenshotLayouts(page, 'exchange-setting-xcbo', async (shown) => { await shown.getByTestId('account-menu').waitFor(); });

    // Back to NSE: /payoff returns in both tabs.
    await chooseExchange(page, 'NSE', 'Asia/Kolkata');
    await expect.poll(savedTimeZone, WAIT).toEqual({ exchange: 'NSE', tz: 'Asia/Kolkata' });
    await expect.poll(() => hasPayoff(page), WAIT).toBe(1);
    expect(await marketHours(page)).toBe('Market NSE 09:15–15:30 Asia/Kolkata · ₹ INR');
    await other.getByTestId('exchange-refresh').click();
    await other.waitForLoadState('load');
    await other.getByTestId('side-menu').waitFor(WAIT);
    await expect.poll(() => hasPayoff(other), WAIT).toBe(1);
    await other.close();

    await screenshotLayouts(page, 'exchange-setting-nse', async (shown) => { await shown.getByTestId('account-menu').waitFor(); });
    await screenshotDialog(page, 'exchange-setting-dialog', {
      open: openSettings,
      close: async (shown) => {
        await shown.keyboard.press('Escape');
        await shown.getByTestId('exchange-select').waitFor({ state: 'detached', ...WAIT });
      },
    });
  }, 300_000);
});
