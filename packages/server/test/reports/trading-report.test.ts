// /reports' and /report's API as clients meet it (the platform on a seeded database, demo users
// signed in over HTTP): trading_report's totals equal the sum of the fills' P&L after charges for
// the range (folded here independently from the fills, and by hand for our seeded ones) with a
// BACKTEST run on the same days left out; PAPER and LIVE apart; the contract note's lines; the
// roles refused; a share link read anonymously, then revoked; an anonymous caller reads nothing else.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARE_NOT_VALID } from '../../src/graphql/actions/report-actions';
import { dataOf, startSpecServer } from '../graphql/spec-server';
import { insertFilledOrder } from '../helpers/filled-orders';
import type { GraphqlBody, SpecServer } from '../graphql/spec-server';

const FROM = '2021-03-01';
const TO = '2021-03-05';
const FIGURES = 'realised_paise charges_paise net_pnl_paise fills orders max_drawdown_paise charges { brokerage stt exchange ipft sebi stamp gst other }';
const REPORT = `from to mode total { ${FIGURES} } users { user_id name ${FIGURES} } strategies { user_id strategy_id name ${FIGURES} }
  accounts { user_id user_broker_id broker client_id ${FIGURES} } days { date user_id user_broker_id ${FIGURES} } note_date
  note { fill_id ts user_id client_id strategy_name instrument exchange side quantity price_paise value_paise realised_paise charges_paise net_pnl_paise charges { brokerage stt exchange ipft sebi stamp gst other } }`;
const TRADING_REPORT = `query ($from: date!, $to: date!, $mode: String!, $users: [uuid!], $note: date) {
  trading_report(from: $from, to: $to, mode: $mode, user_ids: $users, note_date: $note) { ${REPORT} } }`;
const SHARED_REPORT = `query ($token: String!, $note: date) { shared_report(token: $token, note_date: $note) { label report { ${REPORT} } } }`;
const CREATE_SHARE = `mutation ($from: date!, $to: date!, $mode: String!, $users: [uuid!], $label: String) {
  create_report_share(from: $from, to: $to, mode: $mode, user_ids: $users, label: $label) { token share { share_id label user_ids from to mode active revoked_at } } }`;
const REVOKE_SHARE = 'mutation ($id: uuid!) { revoke_report_share(share_id: $id) { share_id active revoked_at } }';
const MY_SHARES = 'query { my_report_shares { share_id active label } }';

interface Figures {
  realised_paise: number; charges_paise: number; net_pnl_paise: number; fills: number; orders: number; max_drawdown_paise: number;
  charges: Record<string, number>;
}
interface Report {
  total: Figures; users: Array<{ user_id: string } & Figures>; strategies: Array<{ strategy_id: string | null; name: string } & Figures>;
  accounts: Array<{ user_broker_id: string | null; client_id: string | null } & Figures>; days: Array<{ date: string } & Figures>;
  note: Array<{ side: string; quantity: number; price_paise: number; realised_paise: number; charges_paise: number; net_pnl_paise: number; client_id: string | null; charges: Record<string, number> }>;
}

let server: SpecServer;
let managerToken: string;
let managed: string;
let instrumentId: number;
let strategyId: string;
let brokerAccount: { id: string; clientId: string };
let orderSeq = 0;

/** A run of `kind` with one filled order per leg (each leg: side, quantity, price, charges, IST time). */
async function seedRun(kind: 'PAPER' | 'LIVE' | 'BACKTEST', legs: ReadonlyArray<{ side: 'BUY' | 'SELL'; qty: number; price: number; charges: Record<string, number>; at: string }>, userBrokerId: string | null): Promise<void> {
  const pool = server.db.pool;
  const { rows } = await pool.query<{ run_id: string }>(
    `INSERT INTO strategy_runs (strategy_id, user_id, kind, status, finished_at) VALUES ($1, $2, $3, 'COMPLETE', now()) RETURNING run_id`, [strategyId, managed, kind]);
  const runId = rows[0]?.run_id as string;
  for (const leg of legs) {
    orderSeq += 1;
    await insertFilledOrder(pool, {
      clientOrderId: `report-${orderSeq}`, tradeId: `t-${orderSeq}`, runId, strategyId, userId: managed, userBrokerId, instrumentId,
      side: leg.side, quantity: leg.qty, pricePaise: leg.price, charges: leg.charges, at: leg.at,
    });
  }
}

/**
 * The net P&L (realised less charges) of the users' fills of `kind` whose IST date is in the range,
 * folded here with average cost per run and instrument from each run's first fill.
 */
async function foldedNet(userIds: readonly string[], kind: string): Promise<{ net: number; fills: number }> {
  const { rows } = await server.db.pool.query<{ key: string; side: string; quantity: number; price: string; charges: string; day: string }>(
    `SELECT o.run_id || '/' || o.instrument_id AS key, o.side, f.quantity, f.price_paise::text AS price,
            (SELECT coalesce(sum(value::bigint), 0) FROM jsonb_each_text(f.charges_paise))::text AS charges,
            to_char(f.ts AT TIME ZONE 'Asia/Kolkata', 'YYYY-MM-DD') AS day
     FROM fills f JOIN orders o ON o.order_id = f.order_id JOIN strategy_runs r ON r.run_id = o.run_id
     WHERE r.user_id = ANY($1::uuid[]) AND r.kind = $2 ORDER BY f.created_at, f.fill_id`, [userIds, kind]);
  const held = new Map<string, { quantity: number; cost: number }>();
  let net = 0;
  let fills = 0;
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
    if (fill.day >= FROM && fill.day <= TO) {
      net += realised - Number(fill.charges);
      fills += 1;
    }
  }
  return { net, fills };
}

function errorOf(body: GraphqlBody): { code: string | undefined; message: string } {
  const error = body.errors?.[0];
  if (error === undefined) throw new Error(`expected an error, got ${JSON.stringify(body).slice(0, 300)}`);
  return { code: error.extensions?.code, message: error.message };
}

beforeAll(async () => {
  server = await startSpecServer();
  managerToken = await server.token('manager');
  managed = await server.userId('basic');
  const pool = server.db.pool;
  instrumentId = (await pool.query<{ instrument_id: number }>(`SELECT instrument_id FROM instruments WHERE name = 'NIFTY 50' AND kind = 'index'`)).rows[0]?.instrument_id as number;
  strategyId = (await pool.query<{ strategy_id: string }>(
    `INSERT INTO strategies (user_id, name, kind) VALUES ($1, 'Report test basket', 'basket') RETURNING strategy_id`, [managed])).rows[0]?.strategy_id as string;
  const account = await pool.query<{ user_broker_id: string; client_id: string }>(
    `INSERT INTO user_brokers (user_id, broker, client_id) VALUES ($1, (SELECT broker FROM brokers ORDER BY broker LIMIT 1), 'RPT0001') RETURNING user_broker_id, client_id`, [managed]);
  brokerAccount = { id: account.rows[0]?.user_broker_id as string, clientId: account.rows[0]?.client_id as string };
  // PAPER: buy 10 at 100.00 on the 1st, sell 10 at 105.00 on the 2nd (+5000 realised), sell 4 short
  // at 200.00 and buy them back at 210.00 on the 3rd (-4000).
  await seedRun('PAPER', [
    { side: 'BUY', qty: 10, price: 10_000, charges: { brokerage: 2000, stt: 0, exchangeTransaction: 35, investorProtection: 1, sebiFee: 1, stampDuty: 3, gst: 367 }, at: '2021-03-01T10:00:00+05:30' },
    { side: 'SELL', qty: 10, price: 10_500, charges: { brokerage: 2000, stt: 66, exchangeTransaction: 37, investorProtection: 1, sebiFee: 1, stampDuty: 0, gst: 367 }, at: '2021-03-02T11:00:00+05:30' },
    { side: 'SELL', qty: 4, price: 20_000, charges: { brokerage: 1000 }, at: '2021-03-03T09:30:00+05:30' },
    { side: 'BUY', qty: 4, price: 21_000, charges: { brokerage: 1000 }, at: '2021-03-03T14:00:00+05:30' },
  ], null);
  // LIVE on the broker account: buy 2 at 300.00 on Feb 26th (before the range), sell 2 at 320.00 on the 4th (+4000).
  await seedRun('LIVE', [
    { side: 'BUY', qty: 2, price: 30_000, charges: { brokerage: 2000 }, at: '2021-02-26T10:00:00+05:30' },
    { side: 'SELL', qty: 2, price: 32_000, charges: { brokerage: 2000, stt: 16 }, at: '2021-03-04T10:00:00+05:30' },
  ], brokerAccount.id);
  // A BACKTEST on the same days, with a large gain: never counted.
  await seedRun('BACKTEST', [
    { side: 'BUY', qty: 100, price: 10_000, charges: { brokerage: 2000 }, at: '2021-03-02T10:00:00+05:30' },
    { side: 'SELL', qty: 100, price: 19_000, charges: { brokerage: 2000 }, at: '2021-03-02T15:00:00+05:30' },
  ], null);
}, 120_000);

afterAll(async () => {
  await server.close();
});

async function report(variables: Record<string, unknown>, token = managerToken): Promise<Report> {
  return dataOf(await server.graphql({ query: TRADING_REPORT, variables }, { token }))['trading_report'] as Report;
}

describe('trading_report', () => {
  it("totals are the sum of the range's PAPER fills' P&L after charges, by hand and folded independently; the backtest is left out", async () => {
    const paper = await report({ from: FROM, to: TO, mode: 'PAPER', users: [managed], note: '2021-03-02' });
    const charges = 2000 + 35 + 1 + 1 + 3 + 367 + 2000 + 66 + 37 + 1 + 1 + 367 + 1000 + 1000;
    expect(paper.total).toMatchObject({ realised_paise: 5000 - 4000, charges_paise: charges, net_pnl_paise: 1000 - charges, fills: 4, orders: 4 });
    expect(paper.total.net_pnl_paise).toBe((await foldedNet([managed], 'PAPER')).net);
    expect(paper.total.charges).toEqual({ brokerage: 6000, stt: 66, exchange: 72, ipft: 2, sebi: 2, stamp: 3, gst: 734, other: 0 });
    // Each fill's net in time order; the drawdown is the largest fall of their running sum from a peak.
    const steps = [-2407, 5000 - 2472, -1000, -4000 - 1000];
    let running = 0; let peak = 0; let drawdown = 0;
    for (const step of steps) { running += step; peak = Math.max(peak, running); drawdown = Math.max(drawdown, peak - running); }
    expect(paper.total.max_drawdown_paise).toBe(drawdown);
    expect(paper.users).toHaveLength(1);
    expect(paper.users[0]?.net_pnl_paise).toBe(paper.total.net_pnl_paise);
    expect(paper.strategies.map((row) => [row.name, row.net_pnl_paise])).toEqual([['Report test basket', paper.total.net_pnl_paise]]);
    expect(paper.accounts.map((row) => row.user_broker_id)).toEqual([null]);
    expect(paper.days.map((day) => day.date)).toEqual(['2021-03-03', '2021-03-02', '2021-03-01']);
    expect(paper.days.reduce((sum, day) => sum + day.net_pnl_paise, 0)).toBe(paper.total.net_pnl_paise);
    // The contract note of the 2nd: the sell that booked +5000, its charges by component.
    expect(paper.note).toEqual([expect.objectContaining({
      side: 'SELL', quantity: 10, price_paise: 10_500, realised_paise: 5000, charges_paise: 2472, net_pnl_paise: 2528,
      charges: { brokerage: 2000, stt: 66, exchange: 37, ipft: 1, sebi: 1, stamp: 0, gst: 367, other: 0 },
    })]);
  });

  it('LIVE is reported apart, per broker account, its cost basis from a fill before the range', async () => {
    const live = await report({ from: FROM, to: TO, mode: 'LIVE', users: [managed] });
    expect(live.total).toMatchObject({ realised_paise: 4000, charges_paise: 2016, net_pnl_paise: 1984, fills: 1, orders: 1 });
    expect(live.total.net_pnl_paise).toBe((await foldedNet([managed], 'LIVE')).net);
    expect(live.accounts.map((row) => [row.user_broker_id, row.client_id])).toEqual([[brokerAccount.id, brokerAccount.clientId]]);
  });

  it("without user_ids a manager's report covers every user they manage, and equals the fold over them", async () => {
    const all = await report({ from: FROM, to: TO, mode: 'PAPER' });
    const managedIds = (await server.db.pool.query<{ user_id: string }>(
      'SELECT user_id FROM managers WHERE manager_id = $1', [await server.userId('manager')])).rows.map((row) => row.user_id);
    expect(all.users.map((row) => row.user_id).sort()).toEqual([...managedIds].sort());
    const folded = await foldedNet(managedIds, 'PAPER');
    expect(all.total.net_pnl_paise).toBe(folded.net);
    expect(all.total.fills).toBe(folded.fills);
  });

  it('refuses other roles, users a manager does not manage, and bad arguments (naming them)', async () => {
    for (const role of ['trial', 'advanced', 'administrator', 'support'] as const) {
      const body = await server.graphql({ query: TRADING_REPORT, variables: { from: FROM, to: TO, mode: 'PAPER' } }, { token: await server.token(role) });
      expect(errorOf(body).code, role).toBe('validation-failed');
      expect(errorOf(body).message, role).toMatch(/trading_report/);
    }
    const stranger = await server.userId('superadmin');
    const foreign = await server.graphql({ query: TRADING_REPORT, variables: { from: FROM, to: TO, mode: 'PAPER', users: [stranger] } }, { token: managerToken });
    expect(errorOf(foreign)).toEqual({ code: 'access-denied', message: `you do not manage user ${stranger}` });
    const backtest = await server.graphql({ query: TRADING_REPORT, variables: { from: FROM, to: TO, mode: 'BACKTEST' } }, { token: managerToken });
    expect(errorOf(backtest).message).toMatch(/^mode must be PAPER or LIVE/);
    const reversed = await server.graphql({ query: TRADING_REPORT, variables: { from: TO, to: FROM, mode: 'PAPER' } }, { token: managerToken });
    expect(errorOf(reversed).message).toMatch(/^from \(2021-03-05\) must be on or before to/);
    // A superadmin may name any user.
    const superadmin = await report({ from: FROM, to: TO, mode: 'PAPER', users: [managed] }, await server.token('superadmin'));
    expect(superadmin.total.fills).toBe(4);
  });
});

describe('report share links', () => {
  it('a link shows the same report anonymously, keeps only a hash, and once revoked says only that it is no longer valid', async () => {
    const created = dataOf(await server.graphql(
      { query: CREATE_SHARE, variables: { from: FROM, to: TO, mode: 'PAPER', users: [managed], label: 'March week' } }, { token: managerToken }),
    )['create_report_share'] as { token: string; share: { share_id: string; active: boolean } };
    expect(created.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(created.share.active).toBe(true);
    const stored = await server.db.pool.query<{ hash: Buffer; row: string }>(
      'SELECT token_sha256 AS hash, row_to_json(s)::text AS row FROM report_shares s WHERE share_id = $1', [created.share.share_id]);
    expect(stored.rows[0]?.hash.equals(createHash('sha256').update(created.token).digest())).toBe(true);
    expect(stored.rows[0]?.row).not.toContain(created.token);

    const shared = dataOf(await server.graphql({ query: SHARED_REPORT, variables: { token: created.token, note: '2021-03-02' } }, {}))['shared_report'] as { label: string; report: Report };
    const direct = await report({ from: FROM, to: TO, mode: 'PAPER', users: [managed], note: '2021-03-02' });
    expect(shared.label).toBe('March week');
    expect(shared.report).toEqual(direct);

    const listed = dataOf(await server.graphql({ query: MY_SHARES }, { token: managerToken }))['my_report_shares'] as Array<{ share_id: string; active: boolean }>;
    expect(listed.find((share) => share.share_id === created.share.share_id)?.active).toBe(true);
    // Another manager-level user cannot revoke it.
    const notTheirs = await server.graphql({ query: REVOKE_SHARE, variables: { id: created.share.share_id } }, { token: await server.token('superadmin') });
    expect(errorOf(notTheirs).code).toBe('not-found');

    const revoked = dataOf(await server.graphql({ query: REVOKE_SHARE, variables: { id: created.share.share_id } }, { token: managerToken }))['revoke_report_share'] as { active: boolean; revoked_at: string | null };
    expect(revoked.active).toBe(false);
    expect(revoked.revoked_at).not.toBeNull();
    const after = await server.graphql({ query: SHARED_REPORT, variables: { token: created.token } }, {});
    expect(after.data ?? null).toBeNull();
    expect(errorOf(after)).toEqual({ code: 'not-found', message: SHARE_NOT_VALID });
  });

  it('an unknown token gets the same answer; anonymous callers reach neither the reports nor the trading tables', async () => {
    for (const token of ['x'.repeat(43), 'short', createHash('sha256').update('guess').digest('base64url')]) {
      expect(errorOf(await server.graphql({ query: SHARED_REPORT, variables: { token } }, {}))).toEqual({ code: 'not-found', message: SHARE_NOT_VALID });
    }
    for (const query of [
      TRADING_REPORT, MY_SHARES, 'query { fills { fill_id } }', 'query { orders { order_id } }',
      'query { daily_pnl { pnl_paise } }', 'query { users { name } }',
    ]) {
      const body = await server.graphql({ query, variables: { from: FROM, to: TO, mode: 'PAPER' } }, {});
      expect(errorOf(body).code, query).toBe('validation-failed');
    }
    const create = await server.graphql({ query: CREATE_SHARE, variables: { from: FROM, to: TO, mode: 'PAPER' } }, {});
    expect(errorOf(create).code).toBe('validation-failed');
  });

  it("a manager's link drops a user they no longer manage, and is no longer valid with none left", async () => {
    const created = dataOf(await server.graphql(
      { query: CREATE_SHARE, variables: { from: FROM, to: TO, mode: 'PAPER', users: [managed] } }, { token: managerToken }),
    )['create_report_share'] as { token: string };
    const managerId = await server.userId('manager');
    await server.db.pool.query('DELETE FROM managers WHERE manager_id = $1 AND user_id = $2', [managerId, managed]);
    try {
      expect(errorOf(await server.graphql({ query: SHARED_REPORT, variables: { token: created.token } }, {}))).toEqual({ code: 'not-found', message: SHARE_NOT_VALID });
    } finally {
      await server.db.pool.query('INSERT INTO managers (manager_id, user_id) VALUES ($1, $2)', [managerId, managed]);
    }
    const back = dataOf(await server.graphql({ query: SHARED_REPORT, variables: { token: created.token } }, {}))['shared_report'] as { report: Report };
    expect(back.report.total.fills).toBe(4);
  });
});
