// First render of each trading screen with the demo world, on a quiet machine: the browser tests
// print the same figure, but they measure it while other test files share the two cores. This
// bench builds the browser tests' world (tests/browser/global-setup.ts: embedded PostgreSQL, the
// demo world, its paper replays, the web build), waits until the demo replays have finished, then
// for each screen and each of RUNS fresh browser contexts: signs in as the screen's demo user,
// opens the screen from a blank page (first visit: the screen's own code never run in that
// context) and again (return: its code cached), each until the screen's data is shown. It prints
// the median of each, against a reference measured in the same run: the same user opening
// /brokersInfo (a public page: the app's entry and no data). Budget: 1 s per screen, first visit.
// Run: `npm run bench first-render` in packages/web (CHROMIUM_PATH points at another Chromium).
import pg from 'pg';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { DEMO_PASSWORD, demoEmail, type DemoRole } from '../../server/src/db/seed/demo-users';
import setupBrowserWorld from '../../../tests/browser/global-setup';

const RUNS = 5;
const BUDGET_MS = 1000;
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** The longest wait for the demo world's paper replays to finish before measuring. */
const REPLAYS_WAIT_MS = 300_000;

interface Screen {
  readonly path: string;
  readonly role: DemoRole;
  /** Shown once the screen has its data. */
  readonly ready: string;
  /** Done once per context before measuring (a screen that shows its figures only with something stored). */
  readonly prepare?: (page: Page, baseUrl: string) => Promise<void>;
}

/** One NIFTY future leg through the payoff form, so /payoff shows its analysis and chart. */
async function storePayoffLeg(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/payoff`);
  const analysis = page.getByTestId('payoff-analysis');
  await page.getByTestId('payoff-sources').waitFor();
  if (await analysis.isVisible()) return;
  await page.getByTestId('payoff-contract').getByText('FUT', { exact: true }).click();
  await page.getByTestId('payoff-side').getByText('Buy', { exact: true }).click();
  await page.getByTestId('payoff-lots').fill('1');
  await page.getByTestId('payoff-premium').fill('24000');
  await page.getByTestId('payoff-add').click();
  await analysis.waitFor({ timeout: 30_000 });
}

/** PAPER in the header's dashboard mode (saved to the account): the demo world trades on paper only. */
async function paperDashboard(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/dashboard`);
  await page.getByTestId('dashboard-mode').getByText('PAPER', { exact: true }).click();
  await page.locator('[data-testid="dashboard-heatmap"] rect[data-date]').first().waitFor({ timeout: 30_000 });
}

async function signIn(page: Page, baseUrl: string, role: DemoRole): Promise<void> {
  await page.goto(`${baseUrl}/authenticate/signin`);
  await page.getByTestId('signin-email').fill(demoEmail(role));
  await page.getByTestId('signin-password').fill(DEMO_PASSWORD);
  await page.getByTestId('signin-submit').click();
  await page.waitForURL((address) => !address.pathname.startsWith('/authenticate/'), { timeout: 30_000 });
}

/** Milliseconds from a blank page to `ready` shown at `path`. */
async function timed(page: Page, address: string, ready: string): Promise<number> {
  await page.goto('about:blank');
  await page.waitForTimeout(300);
  const started = performance.now();
  await page.goto(address);
  await page.locator(ready).first().waitFor({ state: 'visible', timeout: 30_000 });
  return performance.now() - started;
}

async function measure(browser: Browser, baseUrl: string, screen: Screen): Promise<{ first: number[]; returning: number[] }> {
  const first: number[] = [];
  const returning: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, baseUrl, screen.role);
    await screen.prepare?.(page, baseUrl);
    first.push(await timed(page, `${baseUrl}${screen.path}`, screen.ready));
    returning.push(await timed(page, `${baseUrl}${screen.path}`, screen.ready));
    await context.close();
  }
  return { first, returning };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The world's settings, as the browser tests' setup hands them to the tests. */
function worldProject(): { project: TestProject; provided: Map<string, string> } {
  const provided = new Map<string, string>();
  const project = { provide: (key: string, value: string) => provided.set(key, value) } as unknown as TestProject;
  return { project, provided };
}

async function waitForDemoReplays(databaseUrl: string): Promise<number> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const started = performance.now();
  try {
    for (;;) {
      const { rows } = await pool.query<{ running: string }>(`SELECT count(*) AS running FROM strategy_runs WHERE kind = 'PAPER' AND status = 'IN PROGRESS' AND jsonb_typeof(params -> 'replay') = 'object'`);
      if (rows[0]?.running === '0') return performance.now() - started;
      if (performance.now() - started > REPLAYS_WAIT_MS) throw new Error(`the demo replays were still running after ${REPLAYS_WAIT_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  } finally {
    await pool.end();
  }
}

async function demoPaperStrategyId(databaseUrl: string): Promise<string> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const { rows } = await pool.query<{ strategy_id: string }>(
      `SELECT s.strategy_id FROM strategies s JOIN auth.users u ON u.id = s.user_id WHERE u.email = $1 AND s.published ORDER BY s.created_at LIMIT 1`, [demoEmail('advanced')]);
    const id = rows[0]?.strategy_id;
    if (id === undefined) throw new Error('the demo world has no published paper strategy of the advanced demo user');
    return id;
  } finally {
    await pool.end();
  }
}

async function main(): Promise<void> {
  const { project, provided } = worldProject();
  const setupStarted = performance.now();
  const teardown = await setupBrowserWorld(project);
  try {
    const failure = provided.get('browserSetupError');
    if (failure) throw new Error(`the browser world's setup failed: ${failure}`);
    const baseUrl = provided.get('baseUrl') as string;
    const databaseUrl = provided.get('databaseUrl') as string;
    const replaysMs = await waitForDemoReplays(databaseUrl);
    process.stdout.write(`world ready in ${((performance.now() - setupStarted) / 1000).toFixed(0)} s (demo replays finished ${(replaysMs / 1000).toFixed(0)} s after the server started)\n`);
    const strategyId = await demoPaperStrategyId(databaseUrl);
    const screens: Screen[] = [
      { path: '/brokersInfo', role: 'advanced', ready: '[data-testid="live-trading-status"]' },
      { path: '/dashboard', role: 'advanced', ready: '[data-testid="dashboard-heatmap"] rect[data-date]', prepare: paperDashboard },
      { path: '/strategies', role: 'advanced', ready: '[data-testid="strategy-table"]' },
      { path: `/strategies/${strategyId}`, role: 'advanced', ready: '[data-testid="detail-name"]' },
      { path: '/positions', role: 'advanced', ready: '[data-testid="open-positions"], [data-testid="no-open-positions"]' },
      { path: '/subscriptions', role: 'basic', ready: '[data-testid="marketplace"]' },
      { path: '/baskets', role: 'advanced', ready: '[data-testid="basket-list"]' },
      { path: '/payoff', role: 'advanced', ready: '[data-testid="payoff-analysis"]', prepare: storePayoffLeg },
    ];
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    try {
      const rows: { path: string; first: number; returning: number }[] = [];
      for (const screen of screens) {
        const figures = await measure(browser, baseUrl, screen);
        rows.push({ path: screen.path.replace(strategyId, '{id}'), first: median(figures.first), returning: median(figures.returning) });
        process.stdout.write(`${screen.path.replace(strategyId, '{id}')}: first visits ${figures.first.map((ms) => ms.toFixed(0)).join(', ')} ms; returns ${figures.returning.map((ms) => ms.toFixed(0)).join(', ')} ms\n`);
      }
      const reference = rows[0] as { first: number; returning: number };
      process.stdout.write(`\nmedian of ${RUNS} fresh browser contexts each; reference /brokersInfo (the app's entry, no data)\n`);
      process.stdout.write('screen               first visit   return   first / reference   budget 1 s\n');
      for (const row of rows) {
        process.stdout.write(`${row.path.padEnd(20)} ${row.first.toFixed(0).padStart(8)} ms ${row.returning.toFixed(0).padStart(6)} ms ${(row.first / reference.first).toFixed(2).padStart(12)}x ${row.first <= BUDGET_MS ? 'within' : 'OVER'}\n`);
      }
    } finally {
      await browser.close();
    }
  } finally {
    await teardown();
  }
}

await main();
