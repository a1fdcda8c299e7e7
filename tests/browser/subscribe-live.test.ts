// The subscribe and edit dialogs offer PAPER or LIVE following (packages/web/src/pages/trading/
// subscriptions/FollowModeFields.tsx): a basic trader with an active Zerodha account subscribes
// LIVE through it (the row says LIVE and names the account), then edits it back to PAPER; a demo
// trader sees LIVE disabled, with the reason in words. Accounts and the published strategy are
// the test's own, so the demo world's subscriptions stay as they were.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail, url, useBrowser } from './browser';
import { copyDemoStrategy, newTrader, openDatabase, removeStrategies, signInAs, userIdOf, waitForNoToasts } from './trading-support';

const SUFFIX = randomBytes(3).toString('hex');
const PUBLISHED_NAME = `Followed LIVE ${SUFFIX}`;
const PASSWORD = 'follow-live-Pass-2026';

let pool: pg.Pool;
const strategies: string[] = [];

beforeAll(async () => {
  pool = openDatabase();
  const publisher = await userIdOf(pool, demoEmail('advanced'));
  strategies.push(await copyDemoStrategy(pool, { userId: publisher, name: PUBLISHED_NAME, published: true }));
});

afterAll(async () => {
  if (pool === undefined) return;
  await pool.query('DELETE FROM subscriptions WHERE strategy_id = ANY($1::uuid[])', [strategies]);
  await removeStrategies(pool, strategies);
  await pool.end();
});

function card(page: Page) {
  return page.getByTestId('market-card').filter({ hasText: PUBLISHED_NAME });
}

async function subscriptionOf(userId: string): Promise<{ mode: string; user_broker_id: string | null } | undefined> {
  const { rows } = await pool.query<{ mode: string; user_broker_id: string | null }>(
    'SELECT mode, user_broker_id FROM subscriptions WHERE user_id = $1 AND strategy_id = $2', [userId, strategies[0]]);
  return rows[0];
}

describe('following LIVE from the subscribe and edit dialogs', () => {
  const session = useBrowser();

  it('subscribes LIVE through the Zerodha account, then edits back to PAPER', async () => {
    const { page } = session();
    const trader = await newTrader(pool, { email: `follow-live-${SUFFIX}@example.com`, password: PASSWORD, tier: 'basic' });
    const { rows: [account] } = await pool.query<{ user_broker_id: string }>(
      `INSERT INTO user_brokers (user_id, broker, client_id, active, api_key) VALUES ($1, 'zerodha', $2, true, 'followlivekey') RETURNING user_broker_id`,
      [trader.userId, `ZF${SUFFIX.toUpperCase()}`]);
    await signInAs(page, trader);
    await page.goto(url('/subscriptions'));
    await card(page).getByRole('button', { name: 'Subscribe' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByTestId('follow-live-blocker').count()).toBe(0);
    await dialog.locator('label', { hasText: /^LIVE$/ }).click();
    // LIVE offers only the Zerodha account, chosen already, and says what LIVE does.
    await dialog.getByText(/sent to this account as real orders/).waitFor();
    await expect.poll(() => dialog.getByTestId('follow-broker').inputValue()).toBe(`zerodha · ZF${SUFFIX.toUpperCase()}`);
    await dialog.getByRole('button', { name: 'Subscribe' }).click();
    await card(page).getByText('Subscribed').waitFor();
    expect(await subscriptionOf(trader.userId)).toEqual({ mode: 'LIVE', user_broker_id: account!.user_broker_id });

    // Edit: the dialog opens on LIVE with the account; back to PAPER, the account kept for the investment total.
    await waitForNoToasts(page);
    const row = page.getByTestId('subscription-row').filter({ hasText: PUBLISHED_NAME });
    await row.getByRole('button', { name: 'Edit' }).click();
    await dialog.getByText(/sent to this account as real orders/).waitFor();
    await dialog.locator('label', { hasText: /^PAPER$/ }).click();
    await dialog.getByText(/On PAPER the orders are placed on paper/).waitFor();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => subscriptionOf(trader.userId)).toEqual({ mode: 'PAPER', user_broker_id: account!.user_broker_id });
  }, 300_000);

  it('shows LIVE disabled with the reason on a paper-only plan', async () => {
    const { page } = session();
    const demo = await newTrader(pool, { email: `follow-live-demo-${SUFFIX}@example.com`, password: PASSWORD, tier: 'demo' });
    await pool.query(`INSERT INTO user_brokers (user_id, broker, client_id, active, api_key) VALUES ($1, 'zerodha', $2, true, 'followlivekey')`,
      [demo.userId, `ZD${SUFFIX.toUpperCase()}`]);
    await signInAs(page, demo);
    await page.goto(url('/subscriptions'));
    await card(page).getByRole('button', { name: 'Subscribe' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByTestId('follow-live-blocker').textContent()).toBe('LIVE: Your plan (demo) trades on paper only.');
    expect(await dialog.getByRole('radio', { name: 'LIVE' }).isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Subscribe' }).click();
    await card(page).getByText('Subscribed').waitFor();
    expect(await subscriptionOf(demo.userId)).toEqual({ mode: 'PAPER', user_broker_id: null });
  }, 300_000);
});
