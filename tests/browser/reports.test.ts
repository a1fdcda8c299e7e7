// /reports and /report: a manager of our own, managing one trader of our own with PAPER fills and a
// BACKTEST run on the same days, opens /reports; the total equals the sum of the fills' P&L after
// charges folded here from the database (the backtest left out); the CSV's name (the profile
// name's first two letters uppercased plus a timestamp) and content; a day's contract note; both
// themes' layouts; a share link made, opened signed out, revoked, and then refused with only
// "This report link is no longer valid". A trader is refused at the route and at the API.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertFilledOrder } from '../../packages/server/test/helpers/filled-orders';
import { formatRupees } from '../../packages/web/src/format/format';
import { demoEmail, DEMO_PASSWORD, LAYOUT_VIEWPORTS, layoutProblems, screenshot, screenshotLayouts, signIn, url, useBrowser } from './browser';
import { istDay } from './ist-day';
import { accessToken, graphqlAnswer, newTrader, openDatabase, signInAs, type TraderAccount } from './trading-support';

const SUFFIX = randomBytes(3).toString('hex');
const NOT_VALID = 'This report link is no longer valid';

let pool: pg.Pool;
let manager: TraderAccount;
let trader: TraderAccount;
const strategyIds: string[] = [];

const DAY_1 = istDay(-3);
const DAY_2 = istDay(-2);
let seq = 0;

/** A run of `kind` of the trader's strategy with one filled order per leg. */
async function seedRun(kind: 'PAPER' | 'BACKTEST', legs: ReadonlyArray<{ side: 'BUY' | 'SELL'; qty: number; price: number; charges: Record<string, number>; at: string }>): Promise<void> {
  const instrumentId = (await pool.query<{ instrument_id: number }>(`SELECT instrument_id FROM instruments WHERE kind = 'index' AND name = 'NIFTY 50'`)).rows[0]?.instrument_id;
  const { rows } = await pool.query<{ run_id: string }>(
    `INSERT INTO strategy_runs (strategy_id, user_id, kind, status, finished_at) VALUES ($1, $2, $3, 'COMPLETE', now()) RETURNING run_id`,
    [strategyIds[0], trader.userId, kind]);
  for (const leg of legs) {
    seq += 1;
    await insertFilledOrder(pool, {
      clientOrderId: `rep-${SUFFIX}-${seq}`, tradeId: `rep-${SUFFIX}-${seq}`, runId: rows[0]?.run_id as string, strategyId: strategyIds[0] as string,
      userId: trader.userId, instrumentId: instrumentId as number, side: leg.side, quantity: leg.qty, pricePaise: leg.price, charges: leg.charges, at: leg.at,
    });
  }
}

/** The trader's PAPER fills' realised P&L less charges over [from, to] (IST), folded here with average cost per run and instrument. */
async function bookedFromFills(from: string, to: string): Promise<number> {
  const { rows } = await pool.query<{ key: string; side: string; quantity: number; price: string; charges: string; day: string }>(
    `SELECT o.run_id || '/' || o.instrument_id AS key, o.side, f.quantity, f.price_paise::text AS price,
            (SELECT coalesce(sum(value::bigint), 0) FROM jsonb_each_text(f.charges_paise))::text AS charges,
            to_char(f.ts AT TIME ZONE 'Asia/Kolkata', 'YYYY-MM-DD') AS day
     FROM fills f JOIN orders o ON o.order_id = f.order_id JOIN strategy_runs r ON r.run_id = o.run_id
     WHERE r.user_id = $1 AND r.kind = 'PAPER' ORDER BY f.created_at, f.fill_id`, [trader.userId]);
  const held = new Map<string, { quantity: number; cost: number }>();
  let booked = 0;
  for (const fill of rows) {
    const position = held.get(fill.key) ?? { quantity: 0, cost: 0 };
    const signed = fill.side === 'BUY' ? fill.quantity : -fill.quantity;
    const price = Number(fill.price);
    let realised = 0;
    if (position.quantity === 0 || Math.sign(position.quantity) === Math.sign(signed)) {
      position.cost += fill.quantity * price;
    } else {
      const open = Math.abs(position.quantity);
      const closed = Math.min(open, fill.quantity);
      const costClosed = Math.round((position.cost * closed) / open);
      realised = position.quantity > 0 ? closed * price - costClosed : costClosed - closed * price;
      position.cost += -costClosed + (fill.quantity - closed) * price;
    }
    position.quantity += signed;
    held.set(fill.key, position);
    if (fill.day >= from && fill.day <= to) booked += realised - Number(fill.charges);
  }
  return booked;
}

beforeAll(async () => {
  pool = openDatabase();
  manager = await newTrader(pool, { email: `reports-manager-${SUFFIX}@example.in`, password: 'reports manager passphrase', tier: 'manager' });
  trader = await newTrader(pool, { email: `reports-trader-${SUFFIX}@example.in`, password: 'reports trader passphrase' });
  await pool.query('INSERT INTO managers (manager_id, user_id) VALUES ($1, $2)', [manager.userId, trader.userId]);
  const { rows } = await pool.query<{ strategy_id: string }>(
    `INSERT INTO strategies (user_id, name, kind) VALUES ($1, $2, 'basket') RETURNING strategy_id`, [trader.userId, `Reports seeded ${SUFFIX}`]);
  strategyIds.push(rows[0]?.strategy_id as string);
  // DAY_1: buy 25 at 210.00, sell them at 224.50 (+36,250 realised); DAY_2: short 10 at 300.00, cover at 312.00 (-12,000).
  await seedRun('PAPER', [
    { side: 'BUY', qty: 25, price: 21_000, charges: { brokerage: 2000, exchangeTransaction: 260, investorProtection: 3, sebiFee: 5, stampDuty: 16, gst: 408 }, at: `${DAY_1}T09:45:00+05:30` },
    { side: 'SELL', qty: 25, price: 22_450, charges: { brokerage: 2000, stt: 351, exchangeTransaction: 279, investorProtection: 3, sebiFee: 6, gst: 411 }, at: `${DAY_1}T13:20:00+05:30` },
    { side: 'SELL', qty: 10, price: 30_000, charges: { brokerage: 2000, stt: 188, exchangeTransaction: 148, gst: 387 }, at: `${DAY_2}T10:05:00+05:30` },
    { side: 'BUY', qty: 10, price: 31_200, charges: { brokerage: 2000, exchangeTransaction: 154, stampDuty: 9, gst: 388 }, at: `${DAY_2}T15:10:00+05:30` },
  ]);
  // A backtest on the same days with a large gain: never part of a report.
  await seedRun('BACKTEST', [
    { side: 'BUY', qty: 500, price: 20_000, charges: { brokerage: 2000 }, at: `${DAY_1}T10:00:00+05:30` },
    { side: 'SELL', qty: 500, price: 29_000, charges: { brokerage: 2000 }, at: `${DAY_1}T14:00:00+05:30` },
  ]);
});

afterAll(async () => {
  if (pool === undefined) return;
  await pool.query('DELETE FROM report_shares WHERE owner_id = $1', [manager.userId]);
  await pool.query('DELETE FROM managers WHERE manager_id = $1', [manager.userId]);
  await pool.query('DELETE FROM strategy_runs WHERE user_id = $1', [trader.userId]);
  await pool.query('DELETE FROM strategies WHERE strategy_id = ANY($1::uuid[])', [strategyIds]);
  await pool.end();
});

describe('reports', () => {
  const session = useBrowser({ viewport: { width: 1400, height: 900 } });

  it("a manager's total equals the fills' P&L after charges; CSV, contract note, layouts; a share link opened signed out, then revoked", async () => {
    const { page, browser } = session();
    await signInAs(page, manager);
    await page.goto(url('/reports'));
    const total = page.getByTestId('report-total-net-value');
    await total.waitFor({ timeout: 20_000 });
    const from = await page.getByTestId('report-from').inputValue();
    const to = await page.getByTestId('report-to').inputValue();
    const expected = await bookedFromFills(from, to);
    // 36,250 - 2,692 - 3,050 - 12,000 - 2,723 - 2,551: the backtest's 45,00,000 is nowhere.
    expect(expected).toBe(36_250 - 2_692 - 3_050 - 12_000 - 2_723 - 2_551);
    await expect.poll(() => total.getAttribute('data-paise')).toBe(String(expected));
    expect(await total.textContent()).toBe(formatRupees(expected));
    expect(await page.getByTestId('report-total-fills').textContent()).toContain('4');
    expect(await page.getByTestId('report-users').locator('tbody tr').count()).toBe(1);

    // The CSV: the profile name's first two letters, uppercased, then the report and a timestamp.
    const { rows: names } = await pool.query<{ display_name: string }>('SELECT display_name FROM auth.users WHERE id = $1', [manager.userId]);
    const prefix = (names[0]?.display_name.match(/\p{L}/gu) ?? []).slice(0, 2).join('').toUpperCase();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-csv').click()]);
    const name = download.suggestedFilename();
    expect(name).toMatch(new RegExp(`^${prefix === '' ? '' : `${prefix}_`}report-paper-${from}-${to}_\\d{8}-\\d{6}\\.csv$`));
    const csv = (await readFile(await download.path(), 'utf8')).trim().split('\r\n');
    expect(csv[0]).toMatch(/^section,mode,from,to,date,time,user,strategy,broker,client_id,instrument,side,quantity,price,realised,charges,charges_brokerage,/);
    const totalRow = csv[1]?.split(',') ?? [];
    expect(totalRow.slice(0, 4)).toEqual(['total', 'PAPER', from, to]);
    expect(totalRow[csv[0]?.split(',').indexOf('net_pnl') ?? -1]).toBe((expected / 100).toFixed(2));
    expect(csv.filter((line) => line.startsWith('day,'))).toHaveLength(2);

    // The contract note of DAY_1: two fills, with the charges by component.
    await page.getByTestId(`report-note-${DAY_1}`).click();
    const note = page.getByTestId('report-note-table');
    await note.waitFor();
    expect(await note.locator('tbody tr').count()).toBe(2);
    expect(await note.locator('tbody tr').first().textContent()).toContain('09:45:00');
    expect(await note.locator('tfoot').textContent()).toContain(formatRupees(36_250 - 2_692 - 3_050));
    await screenshotLayouts(page, 'reports', async (shown) => { await shown.getByTestId('report-total-net-value').waitFor(); });

    // Printed: no header, side menu or controls, and every table (the contract note's 18 columns too)
    // within the width of an A4 landscape page less its margins (277 mm at 96 px to the inch).
    const A4_WIDTH_PX = Math.floor((277 / 25.4) * 96);
    await page.emulateMedia({ media: 'print' });
    await page.setViewportSize({ width: A4_WIDTH_PX, height: 900 });
    const printed = await page.evaluate(() => ({
      hidden: ['.mantine-AppShell-header', '.mantine-AppShell-navbar', '[data-testid="report-csv"]', '[data-testid="report-shares"]']
        .map((selector) => { const element = document.querySelector(selector); return element === null ? 'missing' : element.checkVisibility() ? 'shown' : 'hidden'; }),
      tables: [...document.querySelectorAll('.report-table')].map((table) => Math.ceil(table.getBoundingClientRect().right)),
      width: document.documentElement.clientWidth,
    }));
    expect(printed.hidden).toEqual(['hidden', 'hidden', 'hidden', 'hidden']);
    expect(printed.tables.length).toBeGreaterThanOrEqual(6);
    for (const right of printed.tables) expect(right).toBeLessThanOrEqual(printed.width);
    await screenshot(page, 'reports-print');
    await page.emulateMedia({ media: 'screen' });
    await page.setViewportSize(LAYOUT_VIEWPORTS[0]);

    // A share link: shown once, opened by someone signed out.
    await page.getByTestId('report-share-label').fill(`Client week ${SUFFIX}`);
    await page.getByTestId('report-share-create').click();
    const link = (await page.getByTestId('report-share-url').textContent()) ?? '';
    expect(link).toMatch(/\/report#token=[A-Za-z0-9_-]{43}$/);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    const outsider = await browser.newContext({ viewport: { width: 1400, height: 900 }, locale: 'en-IN', timezoneId: 'Asia/Kolkata' });
    try {
      const reader = await outsider.newPage();
      await reader.goto(link);
      const shared = reader.getByTestId('report-total-net-value');
      await shared.waitFor({ timeout: 20_000 });
      expect(await shared.getAttribute('data-paise')).toBe(String(expected));
      expect(await reader.getByText(`Client week ${SUFFIX}`).count()).toBe(1);
      // Both themes (the reader's own choice, kept in the tab's session storage) at both sizes.
      const sharedProblems: string[] = [];
      for (const theme of ['dark', 'light'] as const) {
        await reader.evaluate((chosen) => sessionStorage.setItem('vyuha-app', JSON.stringify({ state: { theme: chosen }, version: 0 })), theme);
        await reader.reload();
        await shared.waitFor({ timeout: 20_000 });
        expect(await reader.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
        for (const viewport of LAYOUT_VIEWPORTS) {
          await reader.setViewportSize(viewport);
          await reader.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
          await screenshot(reader, `report-shared-${theme}-${viewport.width}x${viewport.height}`);
          for (const problem of await layoutProblems(reader)) sharedProblems.push(`${theme} ${viewport.width}: ${problem.kind}: ${problem.detail}`);
        }
      }
      expect(sharedProblems).toEqual([]);

      // Revoked: the same address now says only that the link is no longer valid.
      const row = page.getByTestId('report-share-row').filter({ hasText: `Client week ${SUFFIX}` });
      await row.getByTestId('report-share-revoke').click();
      await expect.poll(() => row.textContent()).toContain('Revoked');
      await reader.reload();
      const refused = reader.getByTestId('shared-report-invalid');
      await refused.waitFor({ timeout: 20_000 });
      expect(await refused.textContent()).toContain(NOT_VALID);
      expect(await reader.getByTestId('shared-report').count()).toBe(0);
      expect(await reader.getByTestId('report-total-net-value').count()).toBe(0);
      await screenshot(reader, 'report-shared-revoked');
      const { rows: stored } = await pool.query<{ revoked: boolean }>(
        `SELECT revoked_at IS NOT NULL AS revoked FROM report_shares WHERE owner_id = $1 AND label = $2`, [manager.userId, `Client week ${SUFFIX}`]);
      expect(stored).toEqual([{ revoked: true }]);
    } finally {
      await outsider.close();
    }
  }, 240_000);

  it('a trader is refused at the route and at the API; anonymous callers reach no report without a token', async () => {
    const { page } = session();
    await signIn(page, 'advanced');
    await page.goto(url('/reports'));
    await page.getByTestId('forbidden').waitFor();
    expect(await page.getByTestId('forbidden').textContent()).toContain('Reports');
    await screenshot(page, 'reports-refused-advanced');
    const token = await accessToken(demoEmail('advanced'), DEMO_PASSWORD);
    const query = 'query ($from: date!, $to: date!) { trading_report(from: $from, to: $to, mode: "PAPER") { total { net_pnl_paise } } }';
    const answer = await graphqlAnswer(token, query, { from: DAY_1, to: DAY_2 });
    expect(answer.data ?? null).toBeNull();
    expect(answer.errors?.[0]?.message).toMatch(/trading_report/);
    const anonymous = await fetch(url('/v1/graphql'), {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'query { shared_report(token: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA") { label } }' }),
    });
    expect(((await anonymous.json()) as { errors?: Array<{ message: string }> }).errors?.[0]?.message).toBe(NOT_VALID);
  }, 120_000);
});
