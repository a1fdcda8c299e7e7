// /strategies: as 'advanced', a strategy made from scratch (the demo EMA crossover on NIFTY 50,
// 15-minute, intraday) deployed on PAPER with a 600x replay of sessions in the browser world's
// history; its status, orders and today's P&L change in the list without a reload (the replay's
// orders land through the subscription); pause and resume, publish, then stop and square off
// through the confirmation. A negative stop-loss is refused at its field before anything is sent.
// The 'demo' role sees LIVE disabled with the reason. On LIVE, each Zerodha account offered says
// whether it logged in today, with the login link and what deploying meets when it did not, and
// turns to "logged in today" as soon as a login is stored, without a reload. Layouts of the list and the open dialog;
// the list's first render is printed.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail, LAYOUT_VIEWPORTS, layoutProblems, measureFirstRender, screenshot, screenshotLayouts, setTheme, signIn, url, useBrowser } from './browser';
import { closeToasts, copyDemoStrategy, grantLicence, openDatabase, removeStrategies, settleShell, userIdOf } from './trading-support';

const SUFFIX = randomBytes(3).toString('hex');
const EMA_ALGORITHM = /^EMA crossover 9\/21 \(NIFTY 50\)$/;
/** Sessions of BROWSER_HISTORY (global-setup.ts) the replay plays: a week ending with its last day. */
const REPLAY = { from: '2026-10-26', to: '2026-10-30' };
/** The replay at 600x plays a 375-minute session in about 38 s; its first order comes within a few sessions. */
const FIRST_ORDER_MS = 240_000;

let pool: pg.Pool;
const licenceIds: string[] = [];

beforeAll(async () => {
  pool = openDatabase();
  // A licence slot of our own, so this file deploys whatever the other files have running for 'advanced'.
  licenceIds.push(await grantLicence(pool, await userIdOf(pool, demoEmail('advanced')), 1));
});

afterAll(async () => {
  // Our stop gave the slot back; a row a run still holds stays (the test failed before its stop).
  await pool.query('DELETE FROM deployed_strategies WHERE id = ANY($1::uuid[]) AND utilized = 0', [licenceIds]).catch(() => undefined);
  await pool.end();
});

/**
 * A layout's start: the toasts closed (the theme switch's own toast sits over the toggle on a phone),
 * and the side menu closed on a phone (where it covers the page) and open on a desktop.
 */
async function settleLayout(page: Page): Promise<void> {
  await settleShell(page, { desktopMenu: 'open', closeToasts: true });
}

/** Picks a Mantine select's option inside a modal (chooseOption's Escape would close the modal). */
async function pick(page: Page, testId: string, option: { type?: string; name: RegExp | string }): Promise<void> {
  const input = page.getByTestId(testId);
  await input.click();
  if (option.type !== undefined) await input.fill(option.type);
  await page.getByRole('option', { name: option.name }).click();
}

/**
 * screenshotLayouts for an open dialog: its overlay covers the header's theme toggle, so the dialog
 * is closed for each theme switch and opened again (`open`), then shot and checked at both viewports.
 */
async function dialogLayouts(page: Page, name: string, open: () => Promise<void>): Promise<void> {
  const problems: string[] = [];
  const startSize = page.viewportSize();
  for (const theme of ['dark', 'light'] as const) {
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await page.setViewportSize(LAYOUT_VIEWPORTS[0]);
    await settleLayout(page);
    await setTheme(page, theme);
    await open();
    for (const viewport of LAYOUT_VIEWPORTS) {
      await page.setViewportSize(viewport);
      // The dialog stays open across the switch between the table and the phone's cards.
      await page.getByRole('dialog').waitFor();
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      const label = `${name}-${theme}-${viewport.width}x${viewport.height}`;
      await screenshot(page, label);
      // The page behind the overlay is covered, and a toast passes: only the dialog's own controls are measured.
      await page.evaluate(() => {
        const covered = [...document.body.children, ...document.querySelectorAll('.mantine-Notifications-root')];
        for (const child of covered) {
          if (child instanceof HTMLElement && child.querySelector('[role="dialog"]') === null) child.dataset.layoutHidden = child.style.visibility || 'visible';
        }
        for (const child of document.querySelectorAll<HTMLElement>('[data-layout-hidden]')) child.style.visibility = 'hidden';
      });
      for (const problem of await layoutProblems(page)) problems.push(`${label}: ${problem.kind}: ${problem.detail}`);
      await page.evaluate(() => {
        for (const child of document.querySelectorAll<HTMLElement>('[data-layout-hidden]')) {
          child.style.visibility = child.dataset.layoutHidden === 'visible' ? '' : child.dataset.layoutHidden ?? '';
          delete child.dataset.layoutHidden;
        }
      });
    }
  }
  await setThemeWithDialog(page, open);
  if (startSize !== null) await page.setViewportSize(startSize);
  expect(problems, 'layout problems').toEqual([]);
}

/** Back to the dark theme (the account's default) with the dialog open again. */
async function setThemeWithDialog(page: Page, open: () => Promise<void>): Promise<void> {
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'hidden' });
  await page.setViewportSize(LAYOUT_VIEWPORTS[0]);
  await settleLayout(page);
  await setTheme(page, 'dark');
  await open();
}

/** Creates a DRAFT from scratch through the New strategy dialog; the row it lands in. */
async function createFromScratch(page: Page, name: string): Promise<Locator> {
  await page.getByTestId('strategy-new').click();
  await page.getByTestId('create-name').fill(name);
  await pick(page, 'create-algorithm', { type: 'EMA crossover', name: EMA_ALGORITHM });
  await pick(page, 'bt-instrument', { name: 'NIFTY 50 (NSE:NIFTY)' });
  await page.getByTestId('create-interval').selectOption('15');
  await page.getByTestId('create-submit').click();
  const row = page.locator('[data-testid^="strategy-row-"]', { hasText: name });
  await row.waitFor();
  await expect.poll(() => row.getByTestId('strategy-status').textContent()).toBe('DRAFT');
  return row;
}

/** Accepts the confirmation dialog after checking it says `words`. */
async function confirmDialog(page: Page, words: RegExp, accept: string): Promise<void> {
  const dialog = page.getByRole('dialog');
  await expect.poll(() => dialog.textContent()).toMatch(words);
  await dialog.getByRole('button', { name: accept, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

describe('/strategies', () => {
  const session = useBrowser();

  it('creates, deploys on a 600x paper replay, follows its orders live, pauses, resumes, publishes, stops and squares off', { timeout: 480_000 }, async () => {
    const { page } = session();
    await signIn(page, 'advanced');
    await measureFirstRender(page, '/strategies', '[data-testid="strategy-table"]');
    const name = `EMA browser ${SUFFIX}`;
    const row = await createFromScratch(page, name);

    await row.getByRole('button', { name: 'Deploy', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await page.getByTestId('deploy-replay-from').waitFor();
    await dialogLayouts(page, 'strategies-deploy-dialog-advanced', async () => {
      await row.getByRole('button', { name: 'Deploy', exact: true }).click();
      await page.getByTestId('deploy-replay-from').waitFor();
    });
    // A negative stop-loss is refused at its field by the engine's own check; nothing is deployed.
    await page.getByTestId('deploy-stopLoss-kind').selectOption('percent');
    await page.getByTestId('deploy-stopLoss').fill('-1');
    await page.getByTestId('deploy-submit').click();
    await expect.poll(() => dialog.getByText(/^stopLoss\.percent /).count()).toBe(1);
    expect(await row.getByTestId('strategy-status').textContent()).toBe('DRAFT');

    await page.getByTestId('deploy-stopLoss').fill('0.5');
    await page.getByTestId('deploy-replay-from').fill(REPLAY.from);
    await page.getByTestId('deploy-replay-to').fill(REPLAY.to);
    expect(await page.getByTestId('deploy-speed').inputValue()).toBe('600');
    const ordersBefore = await row.getByTestId('strategy-orders').textContent();
    const pnlBefore = await row.getByTestId('strategy-pnl').textContent();
    await page.getByTestId('deploy-submit').click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => row.getByTestId('strategy-status').textContent()).toBe('ACTIVE');

    // The replay's orders arrive through the subscription: no reload happens here.
    await expect.poll(() => row.getByTestId('strategy-orders').textContent(), { timeout: FIRST_ORDER_MS }).not.toBe(ordersBefore);
    expect(Number(await row.getByTestId('strategy-orders').textContent())).toBeGreaterThan(0);
    await expect.poll(() => row.getByTestId('strategy-pnl').textContent()).not.toBe(pnlBefore);
    expect(await row.getByTestId('strategy-pnl').textContent()).toMatch(/₹.*replay day 2026-10-(2[6-9]|30)/);

    await row.getByRole('button', { name: 'Pause', exact: true }).click();
    await confirmDialog(page, /stops taking new PAPER entries/, 'Pause');
    await expect.poll(() => row.getByTestId('strategy-status').textContent()).toBe('PAUSED');
    await row.getByRole('button', { name: 'Resume', exact: true }).click();
    await confirmDialog(page, /carrying on its run/, 'Resume');
    await expect.poll(() => row.getByTestId('strategy-status').textContent()).toBe('ACTIVE');

    await row.getByRole('button', { name: 'Publish', exact: true }).click();
    await confirmDialog(page, /marketplace/, 'Publish');
    await row.getByTestId('strategy-published').waitFor();
    await closeToasts(page);
    await screenshotLayouts(page, 'strategies-list-advanced', async () => {
      await settleLayout(page);
      await row.waitFor();
    });

    await row.getByRole('button', { name: 'Stop and square off', exact: true }).click();
    await confirmDialog(page, /every open position of its run is closed at market \(on paper\)/, 'Stop and square off');
    // Stopped strategies leave Current for History.
    await row.waitFor({ state: 'detached' });
    await page.getByTestId('strategies-period').getByText('History', { exact: true }).click();
    const stopped = page.locator('[data-testid^="strategy-row-"]', { hasText: name });
    await expect.poll(() => stopped.getByTestId('strategy-status').textContent()).toBe('STOPPED');
    const { rows } = await pool.query<{ stop_square_off: boolean }>(
      `SELECT r.stop_square_off FROM strategy_runs r JOIN strategies s ON s.strategy_id = r.strategy_id WHERE s.name = $1 AND r.kind = 'PAPER'`, [name]);
    expect(rows).toEqual([{ stop_square_off: true }]);
  });

  it('says on LIVE whether each Zerodha account logged in today, and follows a login without reloading', async () => {
    const userId = await userIdOf(pool, demoEmail('advanced'));
    const clientId = `LT${SUFFIX.toUpperCase()}`;
    const { rows } = await pool.query<{ user_broker_id: string }>(
      `INSERT INTO user_brokers (user_id, broker, client_id, api_key) VALUES ($1, 'zerodha', $2, 'kite-key') RETURNING user_broker_id`, [userId, clientId]);
    const accountId = rows[0]?.user_broker_id as string;
    const strategyId = await copyDemoStrategy(pool, { userId, name: `Live login check ${SUFFIX}` });
    try {
      const { page } = session();
      await signIn(page, 'advanced');
      await page.goto(url(`/strategies/${strategyId}`));
      await page.getByRole('button', { name: 'Deploy', exact: true }).click();
      await page.getByRole('dialog').getByText('LIVE', { exact: true }).click();
      const line = page.locator(`[data-testid="deploy-session"][data-account="${accountId}"]`);
      await expect.poll(() => line.getAttribute('data-logged-in')).toBe('false');
      expect(await line.textContent()).toContain(`Zerodha ${clientId}: not logged in today. Log in to Zerodha for today.`);
      expect(await line.getByRole('link', { name: 'Log in to Zerodha' }).getAttribute('href')).toBe(`/api/broker_login/zerodha/${clientId}`);
      await pick(page, 'deploy-account', { name: new RegExp(`^Zerodha ${clientId} `) });
      await expect.poll(() => page.getByTestId('deploy-session-note').textContent()).toMatch(/^This account has not logged in to Zerodha today: the server refuses to deploy LIVE/);
      // What a successful login stores on the account (the server's broker-ownership.ts); the open dialog follows it.
      await pool.query(`UPDATE user_brokers SET ownership = 'verified', ownership_checked_at = now() WHERE user_broker_id = $1`, [accountId]);
      await expect.poll(() => line.getAttribute('data-logged-in'), { timeout: 20_000 }).toBe('true');
      expect(await line.textContent()).toMatch(new RegExp(`^Zerodha ${clientId}: logged in today at \\d\\d:\\d\\d IST\\.`));
      expect(await page.getByTestId('deploy-session-note').count()).toBe(0);
    } finally {
      await removeStrategies(pool, [strategyId]);
      await pool.query('DELETE FROM user_brokers WHERE user_broker_id = $1', [accountId]);
    }
  });

  it("shows the demo role LIVE disabled with the reason", async () => {
    const { page } = session();
    await signIn(page, 'demo');
    await page.goto(url('/strategies'));
    const row = await createFromScratch(page, `Demo live check ${SUFFIX}`);
    await row.getByRole('button', { name: 'Deploy', exact: true }).click();
    await expect.poll(() => page.getByTestId('deploy-live-reason').textContent()).toMatch(/LIVE is unavailable: Your plan \(demo\) trades on paper only\./);
    await expect.poll(() => page.getByTestId('deploy-mode').locator('input[value="LIVE"]').isDisabled()).toBe(true);
  });
});
