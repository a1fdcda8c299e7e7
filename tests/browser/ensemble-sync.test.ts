// /ensembleSync and /ensembleSync/{id} (issue 19 item 4) in a real browser, on rows of the test's
// own: a member algo strategy (a copy of the demo EMA strategy) whose PAPER run holds 2 lots of
// NIFTY's monthly future on an investment of Rs 10 lakh, and two paper accounts investing Rs 20
// lakh (target 4 lots) and Rs 7.5 lakh (1.5 lots, rounded down to 1).
// - The demo administrator creates an ensemble in the form, sees both accounts drifted, is
//   refused an as-of date before 2021-01-01 in the form, previews (the exact orders: 4 lots and 1
//   lot bought), applies, and sees the orders placed, both accounts in sync and the history row;
//   screenshots of both screens in both themes at both layouts. The member then closes its
//   position and the screen shows the drift again without a reload (its positions subscription).
// - A manager is refused at both routes and at the API.
import { randomBytes } from 'node:crypto';
import { istDate } from '@vyuha/core';
import { buildTradingSymbol, lotSize, nextExpiry } from '@vyuha/market';
import type pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractInstrumentId } from '../../packages/server/src/jobs/backtest-results';
import { DEMO_PASSWORD, demoEmail, screenshotLayouts, signIn, url, useBrowser } from './browser';
import { accessToken, copyDemoStrategy, graphqlAnswer, newTrader, openDatabase, waitForNoToasts, type TraderAccount } from './trading-support';

const SUFFIX = randomBytes(3).toString('hex');
const WAIT = { timeout: 30_000 } as const;

let pool: pg.Pool;
let owner: TraderAccount;
let holders: TraderAccount[] = [];
let accounts: string[] = [];
let clients: string[] = [];
let memberId: string;
let memberRun: string;
let future: string;
let lot: number;
let ensembleId: string | undefined;

beforeAll(async () => {
  pool = openDatabase();
  const today = istDate(Date.now());
  const expiry = nextExpiry('NIFTY', today, 'monthly');
  if (expiry === undefined) throw new Error(`no NIFTY monthly expiry after ${today}`);
  future = buildTradingSymbol({ kind: 'future', underlying: 'NIFTY', expiry: expiry.date });
  lot = lotSize({ symbol: 'NIFTY', tradeDate: today, expiry: expiry.date });
  const { rows: nifty } = await pool.query<{ instrument_id: number; price: number }>(
    `SELECT i.instrument_id, l.price_paise::float8 AS price FROM instruments i JOIN instrument_last_prices l USING (instrument_id) WHERE i.kind = 'index' AND i.trading_symbol = 'NIFTY'`);
  const index = nifty[0];
  if (index === undefined) throw new Error('NIFTY has no last price on the test server');
  const futureId = await contractInstrumentId(pool, { underlying: { instrumentId: index.instrument_id, tradingSymbol: 'NIFTY' }, symbol: future, tradeDate: today });

  owner = await newTrader(pool, { email: `ensemble-owner-${SUFFIX}@example.in`, password: `ensemble owner ${SUFFIX}`, tier: 'advanced' });
  memberId = await copyDemoStrategy(pool, { userId: owner.userId, name: `Ensemble member ${SUFFIX}` });
  // A PAPER run in progress no runner takes (its heartbeat is in the future): the member's signals' fills are seeded.
  const { rows: runs } = await pool.query<{ run_id: string }>(
    `INSERT INTO strategy_runs (strategy_id, user_id, kind, status, params, heartbeat_at, lease_owner, started_at)
     VALUES ($1, $2, 'PAPER', 'IN PROGRESS', $3, '2100-01-01', 'ensemble-browser-test', now() - interval '1 hour') RETURNING run_id`,
    [memberId, owner.userId, JSON.stringify({ mode: 'PAPER', config: { investment: 100_000_000 } })]);
  memberRun = runs[0]!.run_id;
  const { rows: order } = await pool.query<{ order_id: string }>(
    `INSERT INTO orders (client_order_id, run_id, strategy_id, user_id, instrument_id, side, quantity, filled_quantity, order_type, product, status, average_price_paise)
     VALUES ($1, $2, $3, $4, $5, 'BUY', $6, $6, 'MARKET', 'NRML', 'FILLED', $7) RETURNING order_id`,
    [`ens-${SUFFIX}-1`, memberRun, memberId, owner.userId, futureId, 2 * lot, Math.round(index.price)]);
  await pool.query(`INSERT INTO fills (order_id, trade_id, quantity, price_paise, ts) VALUES ($1, 't1', $2, $3, now() - interval '30 minutes')`,
    [order[0]!.order_id, 2 * lot, Math.round(index.price)]);

  holders = [];
  accounts = [];
  clients = [];
  for (const which of ['a', 'b']) {
    const holder = await newTrader(pool, { email: `ensemble-${which}-${SUFFIX}@example.in`, password: `ensemble ${which} ${SUFFIX}`, tier: 'basic' });
    await pool.query('UPDATE users SET name = $2 WHERE user_id = $1', [holder.userId, `Ensemble holder ${which.toUpperCase()} ${SUFFIX}`]);
    const client = `EN${which.toUpperCase()}${SUFFIX.toUpperCase()}`;
    const { rows } = await pool.query<{ user_broker_id: string }>(
      `INSERT INTO user_brokers (user_id, broker, client_id) VALUES ($1, 'zerodha', $2) RETURNING user_broker_id`, [holder.userId, client]);
    holders.push(holder);
    accounts.push(rows[0]!.user_broker_id);
    clients.push(client);
  }
});

afterAll(async () => {
  if (ensembleId !== undefined) await pool.query('DELETE FROM strategies WHERE strategy_id = $1', [ensembleId]);
  await pool.query('DELETE FROM strategy_runs WHERE user_id = ANY($1::uuid[])', [[owner.userId, ...holders.map((holder) => holder.userId)]]);
  await pool.query('DELETE FROM strategies WHERE strategy_id = $1', [memberId]);
  await pool.end();
});

async function detailReady(page: Page): Promise<void> {
  await page.getByTestId('ensemble-history-row').first().waitFor();
  await waitForNoToasts(page);
  await page.evaluate(() => window.scrollTo(0, 0));
}

function badgeOf(page: Page, client: string) {
  return page.locator(`[data-testid="ensemble-account"][data-client="${client}"]`).getByTestId('ensemble-account-badge');
}

describe('ensemble sync', () => {
  const session = useBrowser();

  it('an administrator creates an ensemble, previews and applies a sync, and sees the accounts in sync and the history', async () => {
    const { page } = session();
    await signIn(page, 'administrator');
    await page.goto(url('/ensembleSync'));
    await page.getByTestId('ensemble-list').waitFor();
    await page.getByTestId('ensemble-new-name').fill(`Index momentum ${SUFFIX}`);
    await page.getByTestId('ensemble-create').click();
    await page.waitForURL(/\/ensembleSync\/[0-9a-f-]{36}$/, WAIT);
    ensembleId = new URL(page.url()).pathname.split('/')[2];
    await page.getByTestId('ensemble-name').filter({ hasText: `Index momentum ${SUFFIX}` }).waitFor(WAIT);

    // The member and the two accounts, as the management actions would write them.
    await pool.query('INSERT INTO ensemble_members (ensemble_id, member_strategy_id) VALUES ($1, $2)', [ensembleId, memberId]);
    await pool.query(`INSERT INTO ensemble_accounts (ensemble_id, user_broker_id, investment_paise, mode) VALUES ($1, $2, 200000000, 'PAPER'), ($1, $3, 75000000, 'PAPER')`,
      [ensembleId, accounts[0], accounts[1]]);
    await page.reload();
    await badgeOf(page, clients[0]!).filter({ hasText: 'Drifted' }).waitFor(WAIT);
    await badgeOf(page, clients[1]!).filter({ hasText: 'Drifted' }).waitFor(WAIT);
    const driftA = await page.locator(`[data-testid="ensemble-account"][data-client="${clients[0]!}"]`).getByTestId('ensemble-drift').innerText();
    expect(driftA).toContain(future);
    expect(driftA).toContain(String(4 * lot));

    // An as-of date before 2021-01-01 is refused in the form, and preview is off.
    await page.getByTestId('ensemble-as-of').fill('2020-12-31');
    await page.getByText('As of: the earliest ensemble sync date is 2021-01-01').waitFor();
    expect(await page.getByTestId('ensemble-preview-button').isDisabled()).toBe(true);
    await page.getByTestId('ensemble-as-of').fill(istDate(Date.now()));

    await page.getByTestId('ensemble-preview-button').click();
    const preview = page.getByTestId('ensemble-preview');
    await preview.waitFor(WAIT);
    const rows = preview.locator('tbody tr');
    expect(await rows.count()).toBe(2);
    const previewText = await preview.innerText();
    for (const [client, quantity] of [[clients[0]!, 4 * lot], [clients[1]!, lot]] as const) {
      const row = rows.filter({ hasText: client });
      expect(await row.innerText()).toMatch(new RegExp(`${client}\\s+PAPER\\s+${future}\\s+BUY\\s+${quantity}\\s`));
    }
    expect(previewText).not.toContain('SELL');
    await page.getByTestId('ensemble-apply').click();
    await preview.waitFor({ state: 'detached', ...WAIT });

    await badgeOf(page, clients[0]!).filter({ hasText: 'In sync' }).waitFor(WAIT);
    await badgeOf(page, clients[1]!).filter({ hasText: 'In sync' }).waitFor(WAIT);
    const history = page.getByTestId('ensemble-history-row');
    await history.first().waitFor(WAIT);
    expect(await history.count()).toBe(1);
    expect(await history.first().innerText()).toContain('COMPLETE');
    await history.first().getByRole('button').first().click();
    // The placed orders show once the row has opened.
    await history.first().getByText(`${clients[0]!} (PAPER)`).first().waitFor(WAIT);
    const placed = await history.first().innerText();
    expect(placed).toContain(`${clients[1]!} (PAPER)`);
    expect(placed).toContain('FILLED');

    // The orders the sync placed are the previewed ones, each in the holder's own PAPER run.
    const { rows: orders } = await pool.query<{ client_id: string; side: string; quantity: number; status: string; owner: boolean }>(
      `SELECT b.client_id, o.side, o.quantity, o.status, r.user_id = b.user_id AS owner
         FROM orders o JOIN strategy_runs r ON r.run_id = o.run_id JOIN user_brokers b ON b.user_broker_id = (r.params ->> 'userBrokerId')::uuid
        WHERE r.params -> 'ensemble' ->> 'ensembleId' = $1 ORDER BY b.client_id`, [ensembleId]);
    expect(orders).toEqual([
      { client_id: clients[0], side: 'BUY', quantity: 4 * lot, status: 'FILLED', owner: true },
      { client_id: clients[1], side: 'BUY', quantity: lot, status: 'FILLED', owner: true },
    ]);

    await screenshotLayouts(page, 'ensemble-sync-detail-administrator', detailReady);

    // The member closes its position (a fill and its position row, as the runtime writes them): the
    // screen follows through its subscription, without a reload, and both accounts drift again.
    const { rows: closing } = await pool.query<{ order_id: string }>(
      `INSERT INTO orders (client_order_id, run_id, strategy_id, user_id, instrument_id, side, quantity, filled_quantity, order_type, product, status, average_price_paise)
       SELECT $1, run_id, strategy_id, user_id, instrument_id, 'SELL', quantity, quantity, 'MARKET', 'NRML', 'FILLED', average_price_paise FROM orders WHERE client_order_id = $2
       RETURNING order_id`, [`ens-${SUFFIX}-2`, `ens-${SUFFIX}-1`]);
    await pool.query(`INSERT INTO fills (order_id, trade_id, quantity, price_paise, ts) SELECT order_id, 't2', quantity, average_price_paise, now() FROM orders WHERE order_id = $1`,
      [closing[0]!.order_id]);
    await pool.query(`INSERT INTO positions (run_id, instrument_id, net_quantity) SELECT run_id, instrument_id, 0 FROM orders WHERE order_id = $1
                      ON CONFLICT (run_id, instrument_id) DO UPDATE SET net_quantity = 0, average_price_paise = 0`, [closing[0]!.order_id]);
    await badgeOf(page, clients[0]!).filter({ hasText: 'Drifted' }).waitFor(WAIT);
    expect(await page.locator(`[data-testid="ensemble-account"][data-client="${clients[0]!}"]`).getByTestId('ensemble-drift').innerText()).toContain(`-${4 * lot}`);
    await page.goto(url('/ensembleSync'));
    await page.getByTestId('ensemble-list').getByText(`Index momentum ${SUFFIX}`).waitFor(WAIT);
    await screenshotLayouts(page, 'ensemble-sync-list-administrator', async (ready) => {
      await ready.getByTestId('ensemble-list').waitFor();
      await waitForNoToasts(ready);
    });
  });

  it('a manager is refused at /ensembleSync, at an ensemble and at the API', async () => {
    const { page } = session();
    await signIn(page, 'manager');
    await page.goto(url('/ensembleSync'));
    await page.getByTestId('forbidden').waitFor(WAIT);
    await page.goto(url(`/ensembleSync/${ensembleId ?? '00000000-0000-0000-0000-000000000000'}`));
    await page.getByTestId('forbidden').waitFor(WAIT);
    const token = await accessToken(demoEmail('manager'), DEMO_PASSWORD);
    const answer = await graphqlAnswer<unknown>(token, '{ ensembles { ensemble_id name } }', {});
    expect(answer.data ?? null).toBeNull();
    expect(answer.errors?.[0]?.message).toContain('ensembles');
  });
});
