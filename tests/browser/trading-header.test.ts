// The signed-in shell's trading controls (issue 18, screens 2 and 5, and the trading alerts), as a
// trader of our own making (advanced tier, its own licence) uses them:
// - the kill switch: on after a confirmation, a red badge on every page; a paper replay of the
//   demo EMA strategy (as fast as it goes: speed 0) deployed meanwhile places no order (its run
//   stops on the switch); off after another confirmation, and the same strategy deployed again
//   places orders and plays its range to the end; the kill_switches row says what the screen says;
// - a MANUAL strategy on a replay as fast as it goes: the replay holds still at each signal; the
//   one accepted in the header's queue places its order at the bar after the bar that took it, the
//   one rejected places none;
// - the queue itself: the header's count, what each order will be and its time left, accept,
//   reject, and the batched dismissal, on signals of a run of our own that the test holds;
// - an open trading alert, its link and its acknowledgement;
// - the trial tier sees none of it.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAYOUT_VIEWPORTS, screenshot, screenshotLayouts, setTheme, signIn, url, useBrowser } from './browser';
import {
  accessToken, copyDemoStrategy, countRunOrders, demoReplayDays, graphqlAnswer, newTrader, openDatabase, settleShell, signInAs,
  STOP_AND_SQUARE_OFF_MUTATION, tryDeployPaperReplay, type TraderAccount,
} from './trading-support';

const SUFFIX = randomBytes(3).toString('hex');
const PASSWORD = 'trading header test passphrase';

let pool: pg.Pool;
const strategyIds: string[] = [];

interface Trader extends TraderAccount { readonly token: string }

/** A new account on the advanced tier with the trading permissions and a licence of two deployment slots. */
async function newAdvancedTrader(name: string): Promise<Trader> {
  const account = await newTrader(pool, {
    email: `${name}-${SUFFIX}@example.in`, password: PASSWORD, tier: 'advanced',
    permissions: ['strategy:backtest', 'strategy:deploy', 'strategy:manual'], licenceSlots: 2,
  });
  return { ...account, token: await accessToken(account.email, account.password) };
}

/** A copy of the demo world's EMA paper strategy for `userId`, its config changed by `change`; cleaned up after the file. */
async function copyDemo(userId: string, name: string, change?: (config: Record<string, unknown>) => Record<string, unknown>): Promise<string> {
  const strategyId = await copyDemoStrategy(pool, { userId, name, config: change });
  strategyIds.push(strategyId);
  return strategyId;
}

/** The week up to the latest session the demo replay traded in, IST dates. */
async function demoTradedWeek(): Promise<{ from: string; to: string }> {
  const day = (await demoReplayDays(pool, 'traded')).at(-1);
  expect(day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  const from = new Date(Date.parse(`${day as string}T00:00:00Z`) - 6 * 86_400_000).toISOString().slice(0, 10);
  return { from, to: day as string };
}

async function switchRow(userId: string): Promise<{ is_on: boolean; square_off: boolean; changed_by: string | null } | undefined> {
  const { rows } = await pool.query<{ is_on: boolean; square_off: boolean; changed_by: string | null }>(
    'SELECT is_on, square_off, changed_by FROM kill_switches WHERE user_id = $1', [userId]);
  return rows[0];
}

/**
 * Layout problems inside the open signals drawer: wider than the window, a control past its right
 * edge, or two of its controls overlapping (layoutProblems' rules, kept to the drawer: the page
 * under a drawer is covered on purpose).
 */
async function drawerProblems(page: Page): Promise<string[]> {
  return page.getByTestId('signals-drawer').locator('.mantine-Drawer-content').evaluate((drawer) => {
    const problems: string[] = [];
    const width = document.documentElement.clientWidth;
    const box = drawer.getBoundingClientRect();
    if (box.right > width + 1 || box.left < -1) problems.push(`the drawer spans ${Math.round(box.left)}..${Math.round(box.right)}px in a ${width}px window`);
    if (drawer.scrollWidth > drawer.clientWidth + 1) problems.push(`the drawer scrolls sideways (${drawer.scrollWidth}px in ${drawer.clientWidth}px)`);
    const controls = [...drawer.querySelectorAll('button, a[href], input:not([type="hidden"]), h1, h2, h3, h4, .mantine-Badge-root')]
      .map((element) => ({ element, rect: element.getBoundingClientRect() }))
      .filter((entry) => entry.rect.width >= 1 && entry.rect.height >= 1 && getComputedStyle(entry.element).opacity !== '0');
    const name = (element: Element): string => `<${element.tagName.toLowerCase()}> "${(element.textContent ?? '').trim().slice(0, 30)}"`;
    for (const { element, rect } of controls) if (rect.right > box.right + 1) problems.push(`${name(element)} ends past the drawer`);
    for (let i = 0; i < controls.length; i += 1) {
      for (let j = i + 1; j < controls.length; j += 1) {
        const a = controls[i] as { element: Element; rect: DOMRect };
        const b = controls[j] as { element: Element; rect: DOMRect };
        if (a.element.contains(b.element) || b.element.contains(a.element)) continue;
        const x = Math.min(a.rect.right, b.rect.right) - Math.max(a.rect.left, b.rect.left);
        const y = Math.min(a.rect.bottom, b.rect.bottom) - Math.max(a.rect.top, b.rect.top);
        if (x > 2 && y > 2) problems.push(`${name(a.element)} overlaps ${name(b.element)}`);
      }
    }
    return problems;
  });
}

/**
 * screenshotLayouts' `ready`: no toast over the header, and the side menu closed at every width
 * (on a phone it lies over the page, which is the shell's way, not the header's).
 */
async function headerAlone(page: Page): Promise<void> {
  await settleShell(page, { desktopMenu: 'closed' });
}

/** The open queue in both themes at both layout sizes (the theme toggle sits under the drawer, so it closes for the switch). */
async function screenshotOpenQueue(page: Page, name: string): Promise<void> {
  const problems: string[] = [];
  for (const theme of ['dark', 'light'] as const) {
    if (await page.getByTestId('signals-drawer').locator('.mantine-Drawer-content').isVisible()) {
      await page.keyboard.press('Escape');
      await page.getByTestId('signals-drawer').locator('.mantine-Drawer-content').waitFor({ state: 'hidden' });
    }
    await headerAlone(page);
    await setTheme(page, theme);
    for (const viewport of LAYOUT_VIEWPORTS) {
      await page.setViewportSize(viewport);
      if (!await page.getByTestId('signals-drawer').locator('.mantine-Drawer-content').isVisible()) await page.getByTestId('signals-button').click();
      await page.getByTestId('signal-card').first().waitFor();
      // The drawer slides in from the right: wait until it has come to rest before measuring.
      const content = page.getByTestId('signals-drawer').locator('.mantine-Drawer-content');
      const restingRight = (): Promise<number> => content.evaluate((element) => Math.round(element.getBoundingClientRect().right));
      await expect.poll(async () => { const before = await restingRight(); await page.waitForTimeout(100); return (await restingRight()) - before; }).toBe(0);
      const label = `${name}-${theme}-${viewport.width}x${viewport.height}`;
      await screenshot(page, label);
      for (const problem of await drawerProblems(page)) problems.push(`${label}: ${problem}`);
    }
  }
  await page.setViewportSize(LAYOUT_VIEWPORTS[0]);
  expect(problems, 'layout problems in the signals drawer').toEqual([]);
}

beforeAll(async () => {
  pool = openDatabase(3);
});

afterAll(async () => {
  if (pool === undefined) return;
  await pool.query(`UPDATE strategy_runs SET status = 'ERROR', error = 'test cleanup', finished_at = now() WHERE strategy_id = ANY($1::uuid[]) AND status = 'IN PROGRESS'`, [strategyIds]);
  await pool.end();
});

describe('trading header', () => {
  const session = useBrowser({ viewport: { width: 1440, height: 900 } });

  it('kill switch: on after a confirmation, shown on every page, no order while on; off again, and orders flow', async () => {
    const { page } = session();
    const trader = await newAdvancedTrader('kill');
    const strategyId = await copyDemo(trader.userId, `Kill switch replay ${SUFFIX}`);
    const week = await demoTradedWeek();
    await signInAs(page, trader);
    await page.goto(url('/dashboard'));

    await page.getByTestId('kill-switch-button').click();
    await page.getByTestId('kill-switch-dialog').getByText('Also square off every open position').waitFor();
    await page.getByTestId('kill-switch-confirm').click();
    await page.getByTestId('kill-switch-banner').waitFor();
    await expect.poll(() => switchRow(trader.userId)).toEqual({ is_on: true, square_off: false, changed_by: trader.userId });
    // What it did is listed right away: nothing was working, nothing held.
    const details = page.getByTestId('kill-switch-details');
    await details.getByTestId('kill-switch-cancelled').getByText('Orders cancelled (0)').waitFor();
    expect(await details.textContent()).toContain('Open positions were left as they were.');
    // The time shown is the row's.
    const { rows: setAt } = await pool.query<{ ist: string }>(
      `SELECT to_char(changed_at AT TIME ZONE 'Asia/Kolkata', 'YYYY-MM-DD HH24:MI:SS') AS ist FROM kill_switches WHERE user_id = $1`, [trader.userId]);
    expect(await details.textContent()).toContain(`On since ${setAt[0]?.ist as string} IST.`);
    await page.keyboard.press('Escape');

    await page.goto(url('/strategies'));
    await page.getByTestId('kill-switch-banner').waitFor();
    await page.goto(url('/dashboard'));
    await page.getByTestId('kill-switch-banner').waitFor();

    // A replay deployed while the switch is on places nothing: its run stops at its first order.
    const held = await tryDeployPaperReplay(trader.token, strategyId, { ...week, speed: 0 });
    expect(held.error).toBeUndefined();
    const heldRun = held.runId as string;
    await expect.poll(async () => (await pool.query<{ status: string }>('SELECT status FROM strategy_runs WHERE run_id = $1', [heldRun])).rows[0]?.status,
      { timeout: 240_000, interval: 1_000 }).not.toBe('IN PROGRESS');
    const { rows: ended } = await pool.query<{ status: string; text: string }>(
      `SELECT status, concat_ws(' ', status_reason, error) AS text FROM strategy_runs WHERE run_id = $1`, [heldRun]);
    expect({ ...ended[0], orders: await countRunOrders(pool, heldRun) }).toEqual({ status: 'ERROR', text: expect.stringContaining('kill switch') as unknown, orders: 0 });
    expect(await page.getByTestId('kill-switch-banner').isVisible()).toBe(true);

    await screenshotLayouts(page, 'trading-header-kill-switch-on', async (current) => {
      await headerAlone(current);
      await current.getByTestId('kill-switch-banner').waitFor();
    });

    // Off, after its own confirmation.
    await page.getByTestId('kill-switch-banner').click();
    await page.getByTestId('kill-switch-off').click();
    await page.getByRole('button', { name: 'Turn off' }).click();
    await page.getByTestId('kill-switch-button').waitFor();
    expect(await page.getByTestId('kill-switch-banner').count()).toBe(0);
    await expect.poll(async () => (await switchRow(trader.userId))?.is_on).toBe(false);

    // The same strategy deployed again now trades, and nothing stops it: its run plays the week to the end.
    const flowing = await tryDeployPaperReplay(trader.token, strategyId, { ...week, speed: 0 });
    expect(flowing.error).toBeUndefined();
    const flowingRun = flowing.runId as string;
    await expect.poll(() => countRunOrders(pool, flowingRun), { timeout: 240_000, interval: 500 }).toBeGreaterThan(0);
    await expect.poll(async () => (await pool.query<{ status: string }>('SELECT status FROM strategy_runs WHERE run_id = $1', [flowingRun])).rows[0]?.status,
      { timeout: 240_000, interval: 500 }).not.toBe('IN PROGRESS');
    const { rows: played } = await pool.query<{ status: string; text: string }>(
      `SELECT status, concat_ws(' ', status_reason, error) AS text FROM strategy_runs WHERE run_id = $1`, [flowingRun]);
    expect(played[0]?.status).toMatch(/^COMPLETE/);
    expect(played[0]?.text).not.toContain('kill switch');
  }, 600_000);

  it('manual mode on a replay as fast as it goes: the accepted signal places its order at the bar after, the rejected one places none', async () => {
    const { page } = session();
    const trader = await newAdvancedTrader('manual-replay');
    const strategyId = await copyDemo(trader.userId, `Manual replay ${SUFFIX}`, (config) => ({ ...config, manual: true }));
    const { rows: strategyRows } = await pool.query<{ interval_minutes: number }>('SELECT interval_minutes FROM strategies WHERE strategy_id = $1', [strategyId]);
    const barMs = (strategyRows[0]?.interval_minutes ?? 0) * 60_000;
    expect(barMs).toBeGreaterThan(0);
    await signInAs(page, trader);
    await page.goto(url('/dashboard'));
    // As fast as it goes (speed 0): the replay waits only while a signal is pending, so a replay
    // that did not hold would be far past the signal's bar by the time the user decides.
    const deployed = await tryDeployPaperReplay(trader.token, strategyId, { ...await demoTradedWeek(), speed: 0 });
    expect(deployed.error).toBeUndefined();
    const runId = deployed.runId as string;
    const pending = async (): Promise<Array<{ id: string; bar: number }>> => (await pool.query<{ id: string; bar: string }>(
      `SELECT pending_signal_id AS id, payload->>'bar' AS bar FROM pending_signals WHERE run_id = $1 AND state = 'PENDING'`, [runId])).rows
      .map((row) => ({ id: row.id, bar: Number(row.bar) }));
    const fillTimes = async (): Promise<number[]> => (await pool.query<{ ms: string }>(
      `SELECT (extract(epoch FROM f.ts) * 1000)::bigint::text AS ms FROM fills f JOIN orders o ON o.order_id = f.order_id WHERE o.run_id = $1`, [runId])).rows
      .map((row) => Number(row.ms));
    const drawer = page.getByTestId('signals-drawer');
    const decide = async (id: string, button: 'signal-accept' | 'signal-reject'): Promise<void> => {
      if (!await drawer.locator('.mantine-Drawer-content').isVisible()) await page.getByTestId('signals-button').click();
      await drawer.locator(`[data-signal-id="${id}"]`).getByTestId(button).click();
    };

    // The first signal holds the replay until it is decided: accepted, its order goes out at the open after the bar that took it.
    await expect.poll(() => page.getByTestId('signals-count').textContent(), { timeout: 240_000, interval: 500 }).toBe('1');
    const first = (await pending())[0] as { id: string; bar: number };
    expect(await countRunOrders(pool, runId)).toBe(0);
    await decide(first.id, 'signal-accept');
    await expect.poll(() => countRunOrders(pool, runId), { timeout: 120_000, interval: 500 }).toBeGreaterThan(0);
    const { rows: taken } = await pool.query<{ taken: string }>(`SELECT payload->>'takenAt' AS taken FROM pending_signals WHERE pending_signal_id = $1`, [first.id]);
    expect(Number(taken[0]?.taken)).toBe(first.bar + barMs);
    await expect.poll(fillTimes, { timeout: 60_000 }).toContain(first.bar + 2 * barMs);

    // The next one, rejected: nothing trades at the open where it would have.
    await expect.poll(async () => (await pending()).length, { timeout: 240_000, interval: 500 }).toBe(1);
    const second = (await pending())[0] as { id: string; bar: number };
    await decide(second.id, 'signal-reject');
    const wouldTradeAt = second.bar + 2 * barMs;
    // Wait until the replay is past that open: a later signal (the replay holds at it) or the run's end.
    await expect.poll(async () => {
      const { rows } = await pool.query<{ ended: boolean; later: boolean }>(
        `SELECT r.status <> 'IN PROGRESS' AS ended, EXISTS (SELECT 1 FROM pending_signals p WHERE p.run_id = r.run_id AND (p.payload->>'bar')::bigint > $2) AS later
         FROM strategy_runs r WHERE r.run_id = $1`, [runId, wouldTradeAt]);
      return rows[0]?.ended === true || rows[0]?.later === true;
    }, { timeout: 240_000, interval: 500 }).toBe(true);
    expect(await fillTimes()).not.toContain(wouldTradeAt);
    const { rows: rejected } = await pool.query<{ outcome: string; taken: string | null }>(
      `SELECT outcome, payload->>'takenAt' AS taken FROM pending_signals WHERE pending_signal_id = $1`, [second.id]);
    expect(rejected[0]).toEqual({ outcome: 'REJECTED', taken: null });
    // Stopped unless the replay has already played to its end (then there is nothing to stop); held at a later signal, it waits to be stopped.
    const { rows: running } = await pool.query<{ status: string }>('SELECT status FROM strategy_runs WHERE run_id = $1', [runId]);
    if (running[0]?.status === 'IN PROGRESS') {
      const stopped = await graphqlAnswer(trader.token, STOP_AND_SQUARE_OFF_MUTATION, { id: strategyId });
      expect(stopped.errors).toBeUndefined();
    }
  }, 600_000);

  it('manual mode: pending signals in the header, accepted, rejected and dismissed in a batch', async () => {
    const { page } = session();
    const trader = await newAdvancedTrader('manual');
    const strategyId = await copyDemo(trader.userId, `Manual signals ${SUFFIX}`, (config) => ({ ...config, manual: true }));
    const week = await demoTradedWeek();

    // Its signals, as the runner writes them, on a PAPER run of the strategy that this test holds in progress
    // (a heartbeat in the future: no runner takes it over), expiring in ten minutes.
    const { rows: runs } = await pool.query<{ run_id: string }>(
      `INSERT INTO strategy_runs (strategy_id, user_id, kind, status, params, heartbeat_at, lease_owner)
       SELECT strategy_id, user_id, 'PAPER', 'IN PROGRESS', jsonb_build_object('mode', 'PAPER', 'config', config, 'replay', null), now() + interval '1 day', 'trading-header-test'
       FROM strategies WHERE strategy_id = $1 RETURNING run_id`, [strategyId]);
    const runId = runs[0]?.run_id as string;
    const bar = Date.parse(`${week.to}T04:00:00Z`);
    const signalIds: string[] = [];
    for (const [index, action] of ['BUY', 'SELL', 'EXIT'].entries()) {
      const payload = { action, instrument: 'NIFTY 50', bar: bar + index * 300_000, barTime: new Date(bar + index * 300_000).toISOString(), closePaise: 2_450_025 + index * 100 };
      const { rows } = await pool.query<{ pending_signal_id: string }>(
        `INSERT INTO pending_signals (strategy_id, user_id, run_id, payload, expires_at) VALUES ($1, $2, $3, $4, now() + interval '10 minutes') RETURNING pending_signal_id`,
        [strategyId, trader.userId, runId, JSON.stringify(payload)]);
      signalIds.push(rows[0]?.pending_signal_id as string);
    }

    await signInAs(page, trader);
    await page.goto(url('/dashboard'));
    await expect.poll(() => page.getByTestId('signals-count').textContent()).toBe('3');
    await page.getByTestId('signals-button').click();
    const drawer = page.getByTestId('signals-drawer');
    const cards = drawer.getByTestId('signal-card');
    await expect.poll(() => cards.count()).toBe(3);
    const first = drawer.locator(`[data-signal-id="${signalIds[0]}"]`);
    expect(await first.getByTestId('signal-action').textContent()).toBe('BUY');
    expect(await first.textContent()).toContain('₹24,500.25');
    expect(await first.textContent()).toContain(`Manual signals ${SUFFIX}`);
    // The countdown ticks.
    const leftBefore = await first.getByTestId('signal-time-left').textContent();
    expect(leftBefore).toMatch(/^(9|10)m \d{2}s left$/);
    await expect.poll(() => first.getByTestId('signal-time-left').textContent(), { timeout: 5_000 }).not.toBe(leftBefore);

    await page.keyboard.press('Escape');
    await drawer.locator('.mantine-Drawer-content').waitFor({ state: 'hidden' });
    await screenshotLayouts(page, 'trading-header-signals-badge', async (current) => {
      await headerAlone(current);
      await expect.poll(() => current.getByTestId('signals-count').textContent()).toBe('3');
    });
    await screenshotOpenQueue(page, 'trading-header-signals-queue');
    if (!await drawer.locator('.mantine-Drawer-content').isVisible()) await page.getByTestId('signals-button').click();

    const outcome = async (id: string): Promise<string | null | undefined> =>
      (await pool.query<{ outcome: string | null }>('SELECT outcome FROM pending_signals WHERE pending_signal_id = $1', [id])).rows[0]?.outcome;
    await first.getByTestId('signal-accept').click();
    await expect.poll(() => outcome(signalIds[0] as string)).toBe('ACCEPTED');
    const second = drawer.locator(`[data-signal-id="${signalIds[1]}"]`);
    await second.getByTestId('signal-reject').click();
    await expect.poll(() => outcome(signalIds[1] as string)).toBe('REJECTED');
    await expect.poll(() => cards.count()).toBe(1);
    // The last one through the batched update_pending_signals_by_pk: recorded REJECTED.
    await drawer.locator(`[data-signal-id="${signalIds[2]}"]`).getByRole('checkbox').check();
    await drawer.getByTestId('signals-reject-selected').click();
    await expect.poll(() => outcome(signalIds[2] as string)).toBe('REJECTED');
    await drawer.getByTestId('signals-empty').waitFor();
    expect(await page.getByTestId('signals-count').textContent()).toBe('0');
    // Nothing placed an order for the rejected ones (this run has no runner; the accepted one waits for its bar).
    expect(await countRunOrders(pool, runId)).toBe(0);
  }, 180_000);

  it('shows an open trading alert in words with its link, until acknowledged', async () => {
    const { page } = session();
    const trader = await newAdvancedTrader('alerts');
    const loginPath = '/api/broker_login/kite/ZX1234';
    const { rows } = await pool.query<{ trading_alert_id: string }>(
      `INSERT INTO trading_alerts (user_id, kind, message, action_path) VALUES ($1, 'broker-session-lost', $2, $3) RETURNING trading_alert_id`,
      [trader.userId, 'Zerodha ended the session of ZX1234: log in again to trade today.', loginPath]);
    await signInAs(page, trader);
    await page.goto(url('/dashboard'));
    await page.getByTestId('trading-alerts-button').click();
    const alert = page.getByTestId('trading-alert');
    await alert.getByText('Broker session ended').waitFor();
    expect(await alert.textContent()).toContain('log in again to trade today');
    expect(await alert.getByTestId('trading-alert-link').getAttribute('href')).toBe(loginPath);
    await alert.getByTestId('trading-alert-ack').click();
    await page.getByTestId('trading-alerts-button').waitFor({ state: 'detached' });
    const { rows: after } = await pool.query<{ acknowledged: boolean }>('SELECT acknowledged_at IS NOT NULL AS acknowledged FROM trading_alerts WHERE trading_alert_id = $1', [rows[0]?.trading_alert_id]);
    expect(after[0]?.acknowledged).toBe(true);
  });

  it('gives the trial tier no kill switch and no signals', async () => {
    const { page } = session();
    await signIn(page, 'trial');
    await page.goto(url('/dashboard'));
    await page.getByTestId('theme-toggle').waitFor();
    await page.getByTestId('account-menu').waitFor();
    expect(await page.getByTestId('trading-header').count()).toBe(0);
    expect(await page.getByTestId('kill-switch-button').count()).toBe(0);
    expect(await page.getByTestId('signals-button').count()).toBe(0);
  });
});
