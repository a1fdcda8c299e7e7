// The chaos test of LIVE trading: a worker trading through Kite (the stand-in, in this process, so
// the broker outlives the worker) killed with SIGKILL at each of the OMS's five fault points
// (src/trading/chaos.ts), at every time a clean run reaches it, then restarted without the fault:
// it opens the account again, reconciles with Kite and finishes its script (live-chaos-child.ts).
// Whatever the moment of death, afterwards:
// - nothing doubled: every order at Kite is exactly one of ours, each tag once; one row per decision;
// - nothing lost: every order is final; one Kite has carries Kite's status and fills; one Kite
//   never received (its send began, the worker died before it left) is REJECTED "not received";
// - every trade id once, each order's filled quantity its fills' sum, and the account's position at
//   Kite what the stored fills add up to.
// A kill at a point's n-th hit, for every n from 1 to the number of times a clean run reaches it
// (at most KILLS_PER_POINT of them, helpers/kill-hits.ts).
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { istDate } from '@vyuha/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeVerifiedSession } from '../../src/brokers/broker-ownership';
import { encryptBrokerSecret, generateBrokerSecretKey } from '../../src/brokers/broker-secrets';
import { exchangeKiteRequestToken } from '../../src/brokers/kite/kite-http';
import { kiteSessionExpiry, kiteSessionForm } from '../../src/brokers/kite/kite-login';
import { CHAOS_POINTS } from '../../src/trading/chaos';
import type { ChaosPoint } from '../../src/trading/chaos';
import { repoRoot } from '../../src/paths';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { killHits } from '../helpers/kill-hits';
import { pooled } from '../helpers/pooled';
import { startKiteStandIn, type KiteStandIn } from '../kite-stand-in/stand-in';
import { createTrader } from '../trading-runner/runner-test-support';
import { RELIANCE_TOKEN } from './live-test-support';

/** A point reached more often than this is killed at this many of its hits, drawn once. */
const KILLS_PER_POINT = 20;
/** Workers alive at once: each mostly waits on its 300 ms reads of Kite's books, so six keep the machine busy, not overloaded (250 s under a loaded machine, against 414 s quiet with three). */
const CONCURRENCY = 6;
/** One point's 10 to 15 kills and restarts: under a minute alone on CI; the limit leaves room for a busy machine. */
const POINT_TIMEOUT_MS = 420_000;
const CHILD_SOURCE = fileURLToPath(new URL('./live-chaos-child.ts', import.meta.url));
const CHILD = join(repoRoot, 'node_modules', '.cache', 'vyuha-live-chaos', `child-${process.pid}.mjs`);
const key = generateBrokerSecretKey();
const PRICE = 120_000;

let db: TestDatabase;
let standIn: KiteStandIn;
let reliance: number;
let accounts = 0;
let clean: { hits: Map<string, number> };

interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly output: string;
}

interface Trader {
  readonly userId: string;
  readonly userBrokerId: string;
  readonly clientId: string;
  readonly runId: string;
  readonly strategyId: string;
}

/** A new trader with their own Zerodha account at the stand-in, logged in for today, and a LIVE run row. */
async function newTrader(): Promise<Trader> {
  accounts += 1;
  const clientId = `ZC${1000 + accounts}`;
  const apiKey = `chaoskey${accounts}`;
  const apiSecret = `chaos-secret-${accounts}`;
  standIn.addAccount({ apiKey, apiSecret, userId: clientId, cashPaise: 50_00_00_000_00 });
  const userId = await createTrader(db.pool);
  const secret = encryptBrokerSecret(key, apiSecret);
  const { rows: [account] } = await db.pool.query<{ user_broker_id: string }>(
    `INSERT INTO user_brokers (user_id, broker, client_id, api_key, api_secret_ciphertext, api_secret_nonce, api_secret_key_id)
     VALUES ($1, 'zerodha', $2, $3, $4, $5, $6) RETURNING user_broker_id`, [userId, clientId, apiKey, secret.ciphertext, secret.nonce, secret.keyId]);
  const session = await exchangeKiteRequestToken({ baseUrl: standIn.apiUrl, form: kiteSessionForm({ apiKey, requestToken: standIn.issueRequestToken(apiKey), apiSecret }) });
  if (!session.ok) throw new Error(session.error.reason);
  await storeVerifiedSession(db.pool, {
    userBrokerId: account!.user_broker_id, broker: 'zerodha', clientId, brokerUserId: clientId, token: encryptBrokerSecret(key, session.value.accessToken),
    expiresAt: new Date(kiteSessionExpiry(Date.now())), actorUserId: userId, ip: null,
  });
  const { rows: [strategy] } = await db.pool.query<{ strategy_id: string }>(
    `INSERT INTO strategies (user_id, name, kind, mode, algo_id) VALUES ($1, 'chaos', 'basket', 'LIVE', 'ALGO-CHAOS') RETURNING strategy_id`, [userId]);
  const { rows: [run] } = await db.pool.query<{ run_id: string }>(
    `INSERT INTO strategy_runs (strategy_id, user_id, kind, params) VALUES ($1, $2, 'LIVE', $3) RETURNING run_id`,
    [strategy!.strategy_id, userId, JSON.stringify({ mode: 'LIVE', userBrokerId: account!.user_broker_id })]);
  return { userId, userBrokerId: account!.user_broker_id, clientId, runId: run!.run_id, strategyId: strategy!.strategy_id };
}

function worker(trader: Trader, env: Record<string, string>): Promise<Ended> {
  const child = spawn(process.execPath, [CHILD, db.url, trader.userBrokerId, trader.runId, trader.strategyId, trader.userId, String(reliance)], {
    cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env, VYUHA_CHAOS: '', VYUHA_CHAOS_COUNT: '', LOG_LEVEL: 'warn', VYUHA_TEST_BROKER_KEY: key.key.toString('base64'),
      KITE_API_URL: standIn.apiUrl, KITE_TICKER_URL: standIn.tickerUrl, ...env,
    },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal, output })));
}

/** Every invariant the chaos must not break, as a list of what broke (empty: none). */
async function brokenInvariants(trader: Trader): Promise<string[]> {
  const broken: string[] = [];
  const { rows: orders } = await db.pool.query<{ client_order_id: string; status: string; status_message: string | null; broker_order_id: string | null; tag: string; filled_quantity: number }>(
    'SELECT client_order_id, status, status_message, broker_order_id, tag, filled_quantity FROM orders WHERE run_id = $1', [trader.runId]);
  const atKite = standIn.orders(trader.clientId);
  const tags = atKite.map((order) => String(order.tag));
  if (new Set(tags).size !== tags.length) broken.push(`an order doubled at Kite: tags ${JSON.stringify(tags)}`);
  if (new Set(orders.map((order) => order.tag)).size !== orders.length) broken.push('two rows with one tag');
  const ours = new Set(orders.flatMap((order) => (order.broker_order_id === null ? [] : [order.broker_order_id])));
  const strangers = atKite.filter((order) => !ours.has(String(order.order_id)));
  if (strangers.length > 0) broken.push(`orders at Kite that are none of ours: ${JSON.stringify(strangers.map((order) => order.tag))}`);
  for (const order of orders) {
    if (!['FILLED', 'CANCELLED', 'REJECTED'].includes(order.status)) broken.push(`${order.client_order_id} is ${order.status}, not final`);
    const kite = atKite.find((candidate) => candidate.tag === order.tag);
    if (kite === undefined) {
      if (order.status !== 'REJECTED' || order.broker_order_id !== null) broken.push(`${order.client_order_id} (${order.status}) is not at Kite`);
      continue;
    }
    const status = { COMPLETE: 'FILLED', CANCELLED: 'CANCELLED', REJECTED: 'REJECTED' }[String(kite.status)];
    if (status !== order.status || kite.filled_quantity !== order.filled_quantity || String(kite.order_id) !== order.broker_order_id) {
      broken.push(`${order.client_order_id}: ours ${order.status} ${order.filled_quantity} ${order.broker_order_id}, Kite's ${String(kite.status)} ${String(kite.filled_quantity)} ${String(kite.order_id)}`);
    }
  }
  const { rows: doubled } = await db.pool.query(
    `SELECT f.trade_id FROM fills f JOIN orders o ON o.order_id = f.order_id WHERE o.run_id = $1 GROUP BY f.trade_id HAVING count(*) > 1`, [trader.runId]);
  if (doubled.length > 0) broken.push(`trade ids stored twice: ${JSON.stringify(doubled)}`);
  const { rows: unsummed } = await db.pool.query(
    `SELECT o.client_order_id FROM orders o LEFT JOIN fills f ON f.order_id = o.order_id WHERE o.run_id = $1
     GROUP BY o.order_id HAVING o.filled_quantity <> coalesce(sum(f.quantity), 0)`, [trader.runId]);
  if (unsummed.length > 0) broken.push(`filled quantities that are not their fills' sum: ${JSON.stringify(unsummed)}`);
  const { rows: [net] } = await db.pool.query<{ net: number }>(
    `SELECT coalesce(sum(CASE WHEN o.side = 'BUY' THEN f.quantity ELSE -f.quantity END), 0)::int AS net FROM fills f JOIN orders o ON o.order_id = f.order_id WHERE o.run_id = $1`, [trader.runId]);
  const kiteNet = (standIn.positions(trader.clientId).net as Array<{ quantity: number }>).reduce((sum, row) => sum + row.quantity, 0);
  if (kiteNet !== net!.net) broken.push(`Kite holds ${kiteNet}, the stored fills add up to ${net!.net}`);
  return broken;
}

async function killAndRestart(point: ChaosPoint, n: number): Promise<string[]> {
  const trader = await newTrader();
  const killed = await worker(trader, { VYUHA_CHAOS: `${point}:${n}` });
  if (killed.signal !== 'SIGKILL') return [`not killed (exit ${killed.code}, signal ${killed.signal}): ${killed.output.slice(-2_000)}`];
  const restarted = await worker(trader, {});
  if (restarted.code !== 0) return [`the restart did not finish (exit ${restarted.code}, signal ${restarted.signal}): ${restarted.output.slice(-2_000)}`];
  return brokenInvariants(trader);
}


beforeAll(async () => {
  await build({
    entryPoints: [CHILD_SOURCE], outfile: CHILD, bundle: true, platform: 'node', format: 'esm', target: 'node20',
    external: ['pg', 'pg-copy-streams', 'ws'], logLevel: 'warning',
  });
  db = await freshDatabase({ seeded: true });
  const { rows } = await db.pool.query<{ instrument_id: number }>(
    `INSERT INTO instruments (exchange, segment, kind, trading_symbol, name, lot_size, tick_size_paise)
     VALUES ('NSE', 'EQ', 'equity', 'RELIANCE', 'RELIANCE INDUSTRIES', 1, 5) RETURNING instrument_id`);
  reliance = rows[0]!.instrument_id;
  await db.pool.query(`INSERT INTO ltps (instrument_id, ltp_paise, ts) VALUES ($1, $2, now())`, [reliance, PRICE]).catch(() => undefined);
  standIn = await startKiteStandIn();
  standIn.addInstrument({
    instrumentToken: RELIANCE_TOKEN, exchangeToken: 2885, tradingSymbol: 'RELIANCE', name: 'RELIANCE INDUSTRIES', exchange: 'NSE', segment: 'NSE',
    instrumentType: 'EQ', tickSizePaise: 5, lotSize: 1,
  });
  standIn.tick(RELIANCE_TOKEN, PRICE);
  const trader = await newTrader();
  const run = await worker(trader, { VYUHA_CHAOS_COUNT: '1' });
  if (run.code !== 0) throw new Error(`the clean run failed: ${run.output}`);
  const hits = new Map<string, number>();
  for (const match of run.output.matchAll(/^chaos-point (\S+)$/gm)) hits.set(match[1] as string, (hits.get(match[1] as string) ?? 0) + 1);
  clean = { hits };
  // The clean run placed, moved and cancelled its stops and closed every entry.
  expect(await brokenInvariants(trader)).toEqual([]);
  const { rows: statuses } = await db.pool.query<{ status: string; n: number }>(
    'SELECT status, count(*)::int AS n FROM orders WHERE run_id = $1 GROUP BY status ORDER BY status', [trader.runId]);
  expect(statuses).toEqual([{ status: 'CANCELLED', n: 5 }, { status: 'FILLED', n: 10 }]);
  expect(istDate(Date.now())).toBeDefined();
}, 180_000);

afterAll(async () => {
  await rm(CHILD, { force: true });
  await standIn?.close();
  await db?.close();
});

describe('a LIVE worker killed with SIGKILL at a fault point and restarted', () => {
  for (const point of CHAOS_POINTS) {
    it(`reconciles with Kite and loses and doubles nothing when killed at ${point}, at each hit`, async () => {
      const hits = killHits(clean.hits.get(point) ?? 0, KILLS_PER_POINT, `live-chaos-${point}`);
      expect(hits.length).toBeGreaterThan(0);
      const outcomes = await pooled(hits, CONCURRENCY, async (n) => ({ n, broken: await killAndRestart(point, n) }));
      const failed = outcomes.flatMap((outcome) => (outcome.broken.length === 0 ? [] : [`hit ${outcome.n}: ${(outcome.broken[0] as string).slice(0, 400)}`]));
      expect(failed).toEqual([]);
    }, POINT_TIMEOUT_MS);
  }
});
