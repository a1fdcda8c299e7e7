// /userAccounts as the demo manager: a trader of our own, linked to the manager, with a broker account
// and a copy of the demo EMA strategy deployed on paper for that account (600x replay through
// GraphQL). Once the run holds a position, the manager turns the account stop on from the page
// (first refused in words without a level, then sl and default_sl typed inline, then enableSl);
// the runtime's account watch hits the stop, the run's runner squares the position off and ends
// the run, and the page shows the halt on the replayed day's record. Both themes at both layouts.
// A trader role is refused at the route and at the API.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail, DEMO_PASSWORD, screenshot, screenshotLayouts, signIn, url, useBrowser } from './browser';
import {
  accessToken, copyDemoStrategy, graphql, graphqlAnswer, newTrader, openDatabase, removeStrategies, settleShell, userIdOf,
} from './trading-support';

const SUFFIX = randomBytes(3).toString('hex');
const CLIENT_ID = `ZU${SUFFIX.toUpperCase()}`;
const STRATEGY_NAME = `Account stop ${SUFFIX}`;
const DEPLOY = `mutation Deploy($id: uuid!, $replay: deploy_replay_input, $account: uuid) {
  deploy_strategy(strategy_id: $id, mode: "PAPER", replay: $replay, user_broker_id: $account) { run_id } }`;
const UPDATE = `mutation Update($ids: [uuid!]!, $changes: account_risk_changes!) {
  set_account_risk(user_broker_ids: $ids, changes: $changes) { user_broker_ids } }`;

let pool: pg.Pool;
const strategyIds: string[] = [];
let traderId: string;
let accountId: string;
let managerId: string;

function accountRow(page: Page) {
  return page.locator(`[data-testid="account-row"][data-client-id="${CLIENT_ID}"]`);
}

async function ready(page: Page): Promise<void> {
  await accountRow(page).waitFor({ timeout: 30_000 });
}

/** Before a layout check: nothing focused, the top of the page (the phone header hides on scroll), the shell at rest. */
async function settled(page: Page): Promise<void> {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  await settleShell(page);
  await ready(page);
}

/** Types `text` into a level cell of our account and saves it with Enter. */
async function typeLevel(page: Page, specKey: string, text: string): Promise<void> {
  const row = accountRow(page);
  await row.getByTestId(`risk-${specKey}`).click();
  await row.getByTestId(`risk-${specKey}-input`).fill(text);
  await row.getByTestId(`risk-${specKey}-input`).press('Enter');
  await row.getByTestId(`risk-${specKey}-input`).waitFor({ state: 'detached' });
}

async function runState(runId: string): Promise<{ status: string; open: number }> {
  const { rows } = await pool.query<{ status: string; open: number }>(
    `SELECT r.status, (SELECT count(*) FROM positions p WHERE p.run_id = r.run_id AND p.net_quantity <> 0)::int AS open
       FROM strategy_runs r WHERE r.run_id = $1`, [runId]);
  return rows[0] as { status: string; open: number };
}

beforeAll(async () => {
  pool = openDatabase();
  managerId = await userIdOf(pool, demoEmail('manager'));
  const trader = await newTrader(pool, {
    email: `account-stop-${SUFFIX}@example.com`, password: `Account-stop-${SUFFIX}-pw`, tier: 'advanced', permissions: ['strategy:deploy'], licenceSlots: 1,
  });
  traderId = trader.userId;
  await pool.query('UPDATE users SET name = $2 WHERE user_id = $1', [traderId, `Stop trader ${SUFFIX}`]);
  await pool.query('INSERT INTO managers (manager_id, user_id) VALUES ($1, $2)', [managerId, traderId]);
  const { rows } = await pool.query<{ user_broker_id: string }>(
    `INSERT INTO user_brokers (user_id, broker, client_id, investment_amt_paise) VALUES ($1, 'zerodha', $2, 100000000) RETURNING user_broker_id`, [traderId, CLIENT_ID]);
  accountId = rows[0]?.user_broker_id as string;
  // Without its stop and target the copy holds a position until the algorithm's exit.
  const strategyId = await copyDemoStrategy(pool, {
    userId: traderId, name: STRATEGY_NAME, intervalMinutes: 5,
    config: ({ stopLoss: _stop, target: _target, trailingStop: _trailing, ...rest }) => rest,
  });
  strategyIds.push(strategyId);
  const token = await accessToken(trader.email, trader.password);
  await graphql(token, DEPLOY, { id: strategyId, replay: { from: '2026-08-10', to: '2026-08-21', speed: 600 }, account: accountId });
});

afterAll(async () => {
  if (pool === undefined) return;
  await removeStrategies(pool, strategyIds);
  await pool.query('DELETE FROM managers WHERE manager_id = $1 AND user_id = $2', [managerId, traderId]);
  await pool.end();
});

describe('user accounts', () => {
  const session = useBrowser();

  it("lets the manager set a managed account's stop, and the runtime squares its paper position off when it is hit", async () => {
    const { page } = session();
    const { rows: runs } = await pool.query<{ run_id: string }>('SELECT run_id FROM strategy_runs WHERE strategy_id = $1', [strategyIds[0]]);
    const runId = runs[0]?.run_id as string;
    await expect.poll(async () => (await runState(runId)).open, { timeout: 420_000, interval: 500, message: 'the paper run to hold a position' }).toBe(1);

    await signIn(page, 'manager');
    await page.goto(url('/userAccounts'));
    await ready(page);
    const row = accountRow(page);
    // Turning the stop on without a level is refused in words, and nothing changes.
    await row.getByRole('switch', { name: `enableSl of ${CLIENT_ID}` }).click({ force: true });
    await expect.poll(() => row.getByTestId('risk-enableSl-error').textContent()).toContain('sl: set a stop-loss above 0 to turn enableSl on');
    expect((await pool.query('SELECT 1 FROM account_risk WHERE user_broker_id = $1', [accountId])).rowCount).toBe(0);
    // A bad level is refused before it is sent.
    await row.getByTestId('risk-sl').click();
    await row.getByTestId('risk-sl-input').fill('-5');
    await row.getByTestId('risk-sl-input').press('Enter');
    await expect.poll(() => row.getByTestId('risk-sl-error').textContent()).toContain('sl: type rupees, 0 or more');
    await row.getByTestId('risk-sl-input').press('Escape');

    // A stop of one paisa: the first moment the account's day P&L is below 0 (an entry's charges) it is hit.
    await typeLevel(page, 'sl', '0.01');
    await typeLevel(page, 'default_sl', '0.01');
    await row.getByRole('switch', { name: `enableSl of ${CLIENT_ID}` }).click({ force: true });
    await expect.poll(async () => (await pool.query<{ enable_sl: boolean }>('SELECT enable_sl FROM account_risk WHERE user_broker_id = $1', [accountId])).rows[0]?.enable_sl,
      { timeout: 10_000 }).toBe(true);
    expect(await row.getByTestId('risk-sl').textContent()).toBe('₹0.01');
    await screenshot(page, 'user-accounts-manager-stop-set');

    // The runtime halts the account, the runner squares the position off (one order, never doubled) and ends the run.
    await expect.poll(async () => (await runState(runId)).status, { timeout: 180_000, interval: 500, message: 'the run to end squared off' })
      .toBe('COMPLETE: SQUARED OFF');
    expect((await runState(runId)).open).toBe(0);
    const { rows: halts } = await pool.query<{ day: string; message: string }>(
      `SELECT to_char(trading_day, 'YYYY-MM-DD') AS day, halt_message AS message FROM account_risk_days WHERE user_broker_id = $1 AND halted_at IS NOT NULL`, [accountId]);
    expect(halts).toHaveLength(1);
    expect(halts[0]?.message).toMatch(new RegExp(`^Account stop-loss of ₹0\\.01 hit on ${CLIENT_ID} \\(day P&L -₹[\\d,.]+\\): positions squared off`));
    const { rows: squareOffs } = await pool.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM orders WHERE run_id = $1 AND square_off AND created_at > (SELECT max(created_at) FROM orders WHERE run_id = $1 AND NOT square_off)`, [runId]);
    expect(squareOffs[0]?.count).toBe(1);
    const { rows: alerts } = await pool.query<{ message: string }>(`SELECT message FROM trading_alerts WHERE user_broker_id = $1 AND kind = 'account-risk'`, [accountId]);
    expect(alerts.map((alert) => alert.message)).toEqual([halts[0]?.message]);

    // The replayed day's record on the page: the day's P&L (at 600x the market moves a few bars between the hit and the
    // square-off's fill, so the day may end either side of 0), nothing open, the halt.
    await page.getByTestId('selected-date').fill(halts[0]?.day as string);
    await row.getByTestId('account-halted').waitFor({ timeout: 15_000 });
    expect(await row.getByTestId('account-day-pnl').textContent()).toMatch(/^-?₹[\d,]+\.\d\d$/);
    await expect.poll(() => row.getByTestId('account-open-positions').textContent(), { timeout: 15_000 }).toBe('0');
    // Bulk edit of one column for the selected rows: a value the server refuses is shown and changes nothing; a good one is written.
    await row.getByRole('checkbox', { name: `Select ${CLIENT_ID}` }).click({ force: true });
    await page.getByTestId('bulk-column').selectOption('enable_target');
    await page.getByTestId('bulk-value').selectOption('on');
    await page.getByTestId('bulk-apply').click();
    await expect.poll(() => page.getByTestId('bulk-error').textContent()).toContain('tgt: set a target above 0 to turn enableTarget on');
    await page.getByTestId('bulk-column').selectOption('default_tgt');
    await page.getByTestId('bulk-value').fill('2500');
    await page.getByTestId('bulk-apply').click();
    await page.getByTestId('bulk-done').waitFor();
    const { rows: risk } = await pool.query<{ enable_target: boolean; default_tgt: string }>(
      'SELECT enable_target, default_tgt::text FROM account_risk WHERE user_broker_id = $1', [accountId]);
    expect(risk).toEqual([{ enable_target: false, default_tgt: '250000' }]);
    await row.getByRole('checkbox', { name: `Select ${CLIENT_ID}` }).click({ force: true });
    await screenshotLayouts(page, 'user-accounts-manager', settled);
  }, 720_000);

  it('refuses a trader at the route and at the API', async () => {
    const { page } = session();
    await signIn(page, 'advanced');
    await page.goto(url('/userAccounts'));
    await page.getByTestId('forbidden').waitFor();
    expect(await page.getByTestId('forbidden').textContent()).toContain('The User Accounts screen is not part of the advanced plan.');
    await screenshot(page, 'user-accounts-advanced-refused');
    const token = await accessToken(demoEmail('advanced'), DEMO_PASSWORD);
    const answer = await graphqlAnswer(token, UPDATE, { ids: [accountId], changes: { enable_sl: false } });
    // The action is not in the advanced role's schema at all.
    expect(answer.errors?.map((error) => error.message)).toContain("field 'set_account_risk' not found in type: 'mutation_root'");
    expect(answer.data ?? null).toBeNull();
    // The manager's own API call for an account of a user they do not manage is refused too.
    const { rows } = await pool.query<{ user_broker_id: string }>(
      `SELECT b.user_broker_id FROM user_brokers b JOIN auth.users u ON u.id = b.user_id WHERE u.email = $1 LIMIT 1`, [demoEmail('demo')]);
    const manager = await accessToken(demoEmail('manager'), DEMO_PASSWORD);
    const foreign = await graphqlAnswer(manager, UPDATE, { ids: [rows[0]?.user_broker_id], changes: { enable_sl: false } });
    expect(foreign.errors?.[0]?.message).toContain('no broker account');
  });
});
