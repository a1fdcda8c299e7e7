// What the trading screens' browser tests share: GraphQL and the auth API as a signed-in trader
// uses them, new trader accounts of a tier (with permissions and a licence when asked), the demo
// world's EMA paper strategy and its replay (copies of it, its traded days, waiting for it to be
// over), and the shell made quiet before a layout check (no toast, the phone's side menu shut).
// Nothing here keeps state between calls: each test file opens its own pool and keeps the ids of
// the rows it makes, and passes them in.
import pg from 'pg';
import type { Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { baseUrl, demoEmail, url } from './browser';

/** The advanced demo user's paper strategy; its replay of 40 sessions runs in the browser world. */
export const DEMO_PAPER_NAME = 'Paper (synthetic data): EMA crossover 9/21 on NIFTY 50, intraday, 0.5% stop, 1% target';

export const DEPLOY_REPLAY_MUTATION =
  'mutation Deploy($id: uuid!, $replay: deploy_replay_input) { deploy_strategy(strategy_id: $id, mode: "PAPER", replay: $replay) { run_id } }';

export const STOP_AND_SQUARE_OFF_MUTATION = 'mutation Stop($id: uuid!) { stop_strategy(strategy_id: $id, square_off: true) { run_id } }';

/** The shell's phone layout starts below this width (Mantine's `sm` breakpoint, 48em). */
const PHONE_WIDTH = 768;
const TOAST = '.mantine-Notification-root';

/** A pool on the browser world's database (superuser), for the file's beforeAll; the file ends it. */
export function openDatabase(max = 2): pg.Pool {
  return new pg.Pool({ connectionString: inject('databaseUrl'), max });
}

/** What GraphQL answered, errors included. */
export interface GraphqlAnswer<T> {
  readonly data?: T;
  readonly errors?: ReadonlyArray<{ readonly message: string }>;
}

/** Sends `query` to the server's GraphQL as the holder of `token`, and answers the body as it came. */
export async function graphqlAnswer<T>(token: string, query: string, variables: Record<string, unknown>): Promise<GraphqlAnswer<T>> {
  const response = await fetch(`${baseUrl()}/v1/graphql`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ query, variables }),
  });
  return await response.json() as GraphqlAnswer<T>;
}

/** Like graphqlAnswer, for a call that must work: its data, or a thrown error listing GraphQL's errors. */
export async function graphql<T>(token: string, query: string, variables: Record<string, unknown>): Promise<T> {
  const body = await graphqlAnswer<T>(token, query, variables);
  if (body.errors !== undefined || body.data === undefined) throw new Error(`GraphQL: ${JSON.stringify(body.errors)}`);
  return body.data;
}

/** An access token for `email`, signed in through the auth API with a password. */
export async function accessToken(email: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl()}/v1/auth/signin/email-password`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }),
  });
  return ((await response.json()) as { session: { accessToken: string } }).session.accessToken;
}

/** The auth user id of `email` (a demo user's: `userIdOf(pool, demoEmail('advanced'))`). */
export async function userIdOf(pool: pg.Pool, email: string): Promise<string> {
  const { rows } = await pool.query<{ id: string }>('SELECT id FROM auth.users WHERE email = $1', [email]);
  return rows[0]?.id as string;
}

/** A licence of `slots` deployments for `userId`, valid 30 days from today in IST; answers its id. */
export async function grantLicence(pool: pg.Pool, userId: string, slots: number): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO deployed_strategies (user_id, available, expiry) VALUES ($1, $2, (now() AT TIME ZONE 'Asia/Kolkata')::date + 30) RETURNING id`, [userId, slots]);
  return rows[0]?.id as string;
}

/** An account a test made, with what signs it in. */
export interface TraderAccount {
  readonly email: string;
  readonly password: string;
  readonly userId: string;
}

export interface NewTraderOptions {
  readonly email: string;
  readonly password: string;
  /** The tier (and role) it trades on; left out, the account keeps what sign-up gave it. */
  readonly tier?: string;
  /** Permissions granted on top of the tier's (`strategy:deploy`, say). */
  readonly permissions?: readonly string[];
  /** A licence of this many deployment slots (none when left out). */
  readonly licenceSlots?: number;
}

/**
 * A new account signed up through the auth API, its e-mail marked verified, then set up in the
 * database as `options` asks: rows of the test's own, so the shared demo users stay as they were.
 */
export async function newTrader(pool: pg.Pool, options: NewTraderOptions): Promise<TraderAccount> {
  const { email, password } = options;
  const signUp = await fetch(url('/v1/auth/signup/email-password'), {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }),
  });
  expect(signUp.status).toBe(200);
  const { rows } = await pool.query<{ id: string }>(
    `UPDATE auth.users SET email_verified = true, default_role = coalesce($2, default_role) WHERE email = $1 RETURNING id`, [email, options.tier ?? null]);
  const userId = rows[0]?.id as string;
  if (options.tier !== undefined) {
    await pool.query('INSERT INTO auth.user_roles (user_id, role) VALUES ($1, $2) ON CONFLICT DO NOTHING', [userId, options.tier]);
    await pool.query('UPDATE users SET tier = $2 WHERE user_id = $1', [userId, options.tier]);
  }
  if (options.permissions !== undefined && options.permissions.length > 0) {
    await pool.query('INSERT INTO user_permissions (user_id, permission) SELECT $1, unnest($2::text[])', [userId, options.permissions]);
  }
  if (options.licenceSlots !== undefined) await grantLicence(pool, userId, options.licenceSlots);
  return { email, password, userId };
}

/**
 * Signs `page` in as `account` through the real sign-in page, and waits until the app has left
 * /authenticate/ (browser.ts's signIn does the same for the demo users).
 */
export async function signInAs(page: Page, account: { readonly email: string; readonly password: string }): Promise<void> {
  await page.goto(url('/authenticate/signin'));
  await page.getByTestId('signin-email').fill(account.email);
  await page.getByTestId('signin-password').fill(account.password);
  await page.getByTestId('signin-submit').click();
  await page.waitForURL((address) => !address.pathname.startsWith('/authenticate/'), { timeout: 15_000 });
}

/** The demo paper strategy: its id, its owner (the advanced demo user) and its config. */
export async function demoPaperStrategy(pool: pg.Pool): Promise<{ strategyId: string; userId: string; config: Record<string, unknown> }> {
  const { rows } = await pool.query<{ strategy_id: string; user_id: string; config: Record<string, unknown> }>(
    `SELECT s.strategy_id, s.user_id, s.config FROM strategies s JOIN auth.users u ON u.id = s.user_id WHERE u.email = $1 AND s.name = $2`,
    [demoEmail('advanced'), DEMO_PAPER_NAME]);
  const demo = rows[0];
  expect(demo, 'the demo paper strategy of the advanced user').toBeDefined();
  return { strategyId: demo?.strategy_id as string, userId: demo?.user_id as string, config: demo?.config ?? {} };
}

export interface DemoCopy {
  /** Whose strategy the copy is. */
  readonly userId: string;
  readonly name: string;
  /** Its bar interval; left out, the demo's own. */
  readonly intervalMinutes?: number;
  /** Its config made from the demo's (left out: the demo's as it is). */
  readonly config?: ((config: Record<string, unknown>) => Record<string, unknown>) | undefined;
  /** Listed in the marketplace from the start. */
  readonly published?: boolean;
}

/**
 * A DRAFT PAPER copy of the demo world's EMA paper strategy (same algorithm, instrument and type)
 * for `copy.userId`; answers its id, which the caller keeps for its own clean-up.
 */
export async function copyDemoStrategy(pool: pg.Pool, copy: DemoCopy): Promise<string> {
  const demo = await demoPaperStrategy(pool);
  const config = copy.config === undefined ? demo.config : copy.config(demo.config);
  const { rows } = await pool.query<{ strategy_id: string }>(
    `INSERT INTO strategies (user_id, name, kind, mode, algorithm_id, algorithm_version, instrument_id, interval_minutes, strategy_type, config, published)
     SELECT $2, $3, kind, 'PAPER', algorithm_id, algorithm_version, instrument_id, coalesce($4, interval_minutes), strategy_type, $5, $6
     FROM strategies WHERE strategy_id = $1 RETURNING strategy_id`,
    [demo.strategyId, copy.userId, copy.name, copy.intervalMinutes ?? null, JSON.stringify(config), copy.published ?? false]);
  return rows[0]?.strategy_id as string;
}

/** The sessions a replay plays (IST dates, both included) and how fast (600x when left out: a 375-minute session in about 38 s). */
export interface ReplayRange {
  readonly from: string;
  readonly to: string;
  readonly speed?: number;
}

/**
 * Deploys `strategyId` on PAPER, as the holder of `token`, with a replay of `replay`. Answers the
 * run, or GraphQL's refusal in words (a test may expect one).
 */
export async function tryDeployPaperReplay(token: string, strategyId: string, replay: ReplayRange): Promise<{ runId?: string; error?: string }> {
  const answer = await graphqlAnswer<{ deploy_strategy: { run_id: string } }>(token, DEPLOY_REPLAY_MUTATION,
    { id: strategyId, replay: { from: replay.from, to: replay.to, speed: replay.speed ?? 600 } });
  if (answer.errors !== undefined) return { error: answer.errors.map((error) => error.message).join('; ') };
  return { runId: answer.data?.deploy_strategy.run_id as string };
}

/** tryDeployPaperReplay for a deployment that must work: its run id, or a thrown error. */
export async function deployPaperReplay(token: string, strategyId: string, replay: ReplayRange): Promise<string> {
  const deployed = await tryDeployPaperReplay(token, strategyId, replay);
  if (deployed.runId === undefined) throw new Error(`GraphQL: deploy_strategy refused: ${deployed.error ?? 'no run'}`);
  return deployed.runId;
}

/**
 * The IST dates of the demo paper strategy's replay, oldest first: `played`, every session its
 * runs booked a day of (daily_pnl); `traded`, the days its runs placed orders on.
 */
export async function demoReplayDays(pool: pg.Pool, which: 'played' | 'traded'): Promise<string[]> {
  const { strategyId } = await demoPaperStrategy(pool);
  const { rows } = await pool.query<{ day: string }>(which === 'played'
    ? `SELECT DISTINCT to_char(d.date, 'YYYY-MM-DD') AS day FROM daily_pnl d JOIN strategy_runs r ON r.run_id = d.run_id
        WHERE r.strategy_id = $1 ORDER BY 1`
    : `SELECT DISTINCT to_char(o.created_at AT TIME ZONE 'Asia/Kolkata', 'YYYY-MM-DD') AS day FROM orders o JOIN strategy_runs r ON r.run_id = o.run_id
        WHERE r.strategy_id = $1 ORDER BY 1`, [strategyId]);
  return rows.map((row) => row.day);
}

/** How many orders run `runId` has placed. */
export async function countRunOrders(pool: pg.Pool, runId: string): Promise<number> {
  const { rows } = await pool.query<{ count: number }>('SELECT count(*)::int AS count FROM orders WHERE run_id = $1', [runId]);
  return rows[0]?.count ?? 0;
}

/** Waits (polling, never timing) until no PAPER or LIVE run of the demo paper strategy is in progress: its replay is over. */
export async function waitForDemoReplayOver(pool: pg.Pool, options: { timeoutMs?: number; intervalMs?: number } = {}): Promise<void> {
  const { strategyId } = await demoPaperStrategy(pool);
  await expect.poll(async () => (await pool.query(
    `SELECT 1 FROM strategy_runs WHERE strategy_id = $1 AND kind IN ('PAPER', 'LIVE') AND status = 'IN PROGRESS'`, [strategyId])).rowCount,
  { timeout: options.timeoutMs ?? 300_000, interval: options.intervalMs ?? 2_000, message: 'the demo replay to finish' }).toBe(0);
}

/**
 * Waits until the PAPER and LIVE runs of `userId` hold no open position, and with `finished` until
 * none is in progress either. A paper run's start reconciles the account's recorded positions
 * against its own venue and pauses its strategy on one it cannot explain, so a test deploying for a
 * demo user waits for that user's replays first.
 */
export async function waitForAccountFlat(pool: pg.Pool, userId: string, options: { finished?: boolean; timeoutMs?: number; intervalMs?: number } = {}): Promise<void> {
  await expect.poll(async () => (await pool.query<{ busy: boolean }>(
    `SELECT ($2 AND EXISTS (SELECT 1 FROM strategy_runs WHERE user_id = $1 AND kind IN ('PAPER', 'LIVE') AND status = 'IN PROGRESS'))
         OR EXISTS (SELECT 1 FROM positions p JOIN strategy_runs r ON r.run_id = p.run_id
                     WHERE r.user_id = $1 AND r.kind IN ('PAPER', 'LIVE') AND p.net_quantity <> 0) AS busy`,
    [userId, options.finished ?? false])).rows[0]?.busy,
  { timeout: options.timeoutMs ?? 300_000, interval: options.intervalMs ?? 2_000, message: `the account's paper runs to be flat` }).toBe(false);
}

/**
 * Deletes strategies a file made, with their runs (a run still in progress is ended first, so no
 * runner goes on with it).
 */
export async function removeStrategies(pool: pg.Pool, strategyIds: readonly string[]): Promise<void> {
  await pool.query(`UPDATE strategy_runs SET status = 'ERROR', error = 'test cleanup', finished_at = greatest(now(), started_at)
    WHERE strategy_id = ANY($1::uuid[]) AND status = 'IN PROGRESS'`, [strategyIds]);
  await pool.query('DELETE FROM strategy_runs WHERE strategy_id = ANY($1::uuid[])', [strategyIds]);
  await pool.query('DELETE FROM strategies WHERE strategy_id = ANY($1::uuid[])', [strategyIds]);
}

/** Waits, without clicking, until no toast is on screen (they time out on their own; the pointer must not rest on one). */
export async function waitForNoToasts(page: Page, timeoutMs = 20_000): Promise<void> {
  await expect.poll(() => page.locator(TOAST).count(), { timeout: timeoutMs }).toBe(0);
}

/** Closes the toasts on screen with their close buttons, rather than waiting for them to time out. */
export async function closeToasts(page: Page): Promise<void> {
  const close = page.locator(`${TOAST} button`);
  // A toast already leaving moves and detaches under the click: try again until none is left.
  await expect.poll(async () => {
    const open = await close.count();
    if (open > 0) await close.first().click({ timeout: 1_000 }).catch(() => undefined);
    return open;
  }, { timeout: 20_000 }).toBe(0);
}

export interface SettleShellOptions {
  /** At a desktop width: open or close the side menu (left as it is when not given). On a phone it is always closed. */
  readonly desktopMenu?: 'open' | 'closed';
  /** Close the toasts with their buttons instead of waiting for them to time out. */
  readonly closeToasts?: boolean;
}

/**
 * The shell as a reader sees it before a screenshot or layout check: no toast left (they sit over
 * the header, and one stays while the pointer rests on it, so the pointer moves off first), and the
 * side menu closed on a phone (where it lies over the page), as a phone user would close it. A
 * theme change saved shows a toast and applies the account's preferences again a moment later (the
 * desktop menu's too), so this looks until all is still for two looks in a row.
 */
export async function settleShell(page: Page, options: SettleShellOptions = {}): Promise<void> {
  const viewport = page.viewportSize() ?? { width: 1440, height: 900 };
  const phone = viewport.width < PHONE_WIDTH;
  const wanted = phone ? 'closed' : options.desktopMenu;
  const burger = page.getByRole('button', { name: 'Toggle the menu' });
  const navbar = page.locator('nav.mantine-AppShell-navbar');
  // A collapsed menu slides off the left edge rather than being hidden: at rest it is fully in or fully out.
  const atRest = async (): Promise<boolean> => {
    const box = await navbar.boundingBox();
    return wanted === 'open' ? box !== null && box.x >= 0 && box.width > 1 : box === null || box.x + box.width <= 1;
  };
  await page.mouse.move(1, viewport.height - 1);
  let quiet = 0;
  for (let look = 0; quiet < 2; look += 1) {
    if (look > 100) throw new Error('the page did not settle: a toast or the side menu kept coming back');
    if (await page.locator(TOAST).count() > 0) {
      quiet = 0;
      if (options.closeToasts === true) await closeToasts(page);
    } else if (wanted !== undefined && (await burger.locator('[data-opened]').count() > 0) !== (wanted === 'open')) {
      quiet = 0;
      await burger.click();
    } else if (wanted !== undefined && !await atRest()) {
      quiet = 0;
    } else {
      quiet += 1;
    }
    await page.waitForTimeout(300);
  }
}
