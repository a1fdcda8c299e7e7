// The chaos test of the trading runtime: a PAPER replay at full speed, its worker process killed
// with SIGKILL at each of the OMS's fault points (src/trading/chaos.ts), at every time a clean run
// reaches it, then restarted without the fault until it finishes. Whatever the moment of death:
// - no order twice: one row per client order id, one order per decision, no two of a decision and slice;
// - no order lost: every decision of a clean run exists, once, final, as in the clean run;
// - every trade id once, and each position's net quantity is the sum of its fills;
// - the run's fills are the clean run's and the backtest's, to the paisa (the strongest check: a
//   fill doubled, lost, moved in time or in price would show).
// A kill at a point's n-th hit, for every n from 1 to the number of times a clean run reaches it
// (counted once, VYUHA_CHAOS_COUNT=1; at most KILLS_PER_POINT of them, helpers/kill-hits.ts).
// A point that never kills fails the test.
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { isoDate } from '@vyuha/core';
import type { DeployableConfig } from '@vyuha/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAOS_POINTS } from '../../src/trading/chaos';
import type { ChaosPoint } from '../../src/trading/chaos';
import { repoRoot } from '../../src/paths';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { killHits } from '../helpers/kill-hits';
import { pooled } from '../helpers/pooled';
import { indexId, storeSyntheticHistory } from '../trading-feeds/feed-test-support';
import { algorithm, backtestFillsOf, createTrader, deployable, paperRunRow, storedFills } from './runner-test-support';
import type { FillRow } from './runner-test-support';

/** A point reached more often than this is killed at this many of its hits, drawn once. */
const KILLS_PER_POINT = 20;
/** Workers at once: the machine has 2 cores, and each worker spends part of its time waiting on PostgreSQL. */
const CONCURRENCY = 3;
// Two sessions of 10-minute bars (76 bars, 304 ticks): enough for entries, trailing stops moved and
// hit, and the 15:15 square-off; small enough for its 49 kills and 49 restarts in the CI budget.
const FROM = isoDate('2025-02-03');
const TO = isoDate('2025-02-04');
const CHILD_SOURCE = fileURLToPath(new URL('./chaos-child.ts', import.meta.url));
// The child bundled once (esbuild, which tsx runs on) starts in half the time `node --import tsx`
// takes, and this test starts about 100 of them. It sits under node_modules so that `pg` resolves.
const CHILD = join(repoRoot, 'node_modules', '.cache', 'vyuha-chaos-sigkill', `child-${process.pid}.mjs`);

let db: TestDatabase;
let nifty: number;
let userId: string;
let config: DeployableConfig;
/** What a clean run does: its orders, its fills, and how often it reaches each fault point. */
let clean: { orders: OrderRow[]; fills: FillRow[]; hits: Map<string, number> };

interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly output: string;
}

/** One worker process replaying `runId`, with `env` on top of this process's environment (no fault unless it names one). */
function worker(runId: string, env: Record<string, string>): Promise<Ended> {
  const child = spawn(process.execPath, [CHILD, db.url, runId], {
    cwd: repoRoot, env: { ...process.env, VYUHA_CHAOS: '', VYUHA_CHAOS_COUNT: '', LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal, output })));
}

/** An order as the invariants compare it: its decision and slice (from the client order id), what it was and how it ended. */
interface OrderRow {
  readonly decision: number;
  readonly slice: number;
  readonly side: string;
  readonly quantity: number;
  readonly orderType: string;
  readonly squareOff: boolean;
  readonly status: string;
  readonly filled: number;
}

async function ordersOf(runId: string): Promise<OrderRow[]> {
  const { rows } = await db.pool.query<{ client_order_id: string; side: string; quantity: number; order_type: string; square_off: boolean; status: string; filled_quantity: number }>(
    'SELECT client_order_id, side, quantity, order_type, square_off, status, filled_quantity FROM orders WHERE run_id = $1', [runId]);
  return rows.map((row) => {
    const sequence = Number(row.client_order_id.slice(runId.length + 1));
    return {
      decision: Math.floor(sequence / 10), slice: sequence % 10, side: row.side, quantity: row.quantity, orderType: row.order_type,
      squareOff: row.square_off, status: row.status, filled: row.filled_quantity,
    };
  }).sort((a, b) => a.decision - b.decision || a.slice - b.slice);
}

/** Every invariant the chaos must not break, as a list of what broke (empty: none). */
async function brokenInvariants(runId: string): Promise<string[]> {
  const broken: string[] = [];
  const orders = await ordersOf(runId);
  const { rows: [ids] } = await db.pool.query<{ orders: string; distinct_ids: string; distinct_tags: string }>(
    'SELECT count(*) AS orders, count(DISTINCT client_order_id) AS distinct_ids, count(DISTINCT tag) AS distinct_tags FROM orders WHERE run_id = $1', [runId]);
  if (ids!.orders !== ids!.distinct_ids || ids!.orders !== ids!.distinct_tags) broken.push(`duplicate orders: ${JSON.stringify(ids)}`);
  const decisions = new Set(orders.map((order) => order.decision));
  const slices = new Set(orders.map((order) => `${order.decision}/${order.slice}`));
  if (decisions.size !== orders.length || slices.size !== orders.length) broken.push(`${orders.length} orders for ${decisions.size} decisions (${slices.size} decision slices)`);
  const open = orders.filter((order) => !['FILLED', 'CANCELLED', 'REJECTED'].includes(order.status));
  if (open.length > 0) broken.push(`orders not final: ${JSON.stringify(open)}`);
  const differ = (a: OrderRow | undefined, b: OrderRow | undefined): boolean => JSON.stringify(a) !== JSON.stringify(b);
  const length = Math.max(orders.length, clean.orders.length);
  for (let index = 0; index < length; index += 1) {
    if (differ(orders[index], clean.orders[index])) {
      broken.push(`order ${index} differs from the clean run's: ${JSON.stringify(orders[index])} vs ${JSON.stringify(clean.orders[index])}`);
      break;
    }
  }
  const trades = await db.pool.query<{ trade_id: string; count: string }>(
    `SELECT f.trade_id, count(*) AS count FROM fills f JOIN orders o ON o.order_id = f.order_id WHERE o.run_id = $1 GROUP BY f.trade_id HAVING count(*) > 1`, [runId]);
  if (trades.rows.length > 0) broken.push(`trade ids stored twice: ${JSON.stringify(trades.rows)}`);
  const filled = await db.pool.query<{ client_order_id: string; filled_quantity: number; summed: string }>(
    `SELECT o.client_order_id, o.filled_quantity, coalesce(sum(f.quantity), 0)::text AS summed FROM orders o LEFT JOIN fills f ON f.order_id = o.order_id
     WHERE o.run_id = $1 GROUP BY o.order_id HAVING o.filled_quantity <> coalesce(sum(f.quantity), 0)`, [runId]);
  if (filled.rows.length > 0) broken.push(`filled quantities that are not their fills' sum: ${JSON.stringify(filled.rows)}`);
  const positions = await db.pool.query<{ instrument_id: number; net_quantity: number | null; summed: string | null }>(
    `WITH summed AS (
       SELECT o.instrument_id, sum(CASE o.side WHEN 'BUY' THEN f.quantity ELSE -f.quantity END) AS net
       FROM fills f JOIN orders o ON o.order_id = f.order_id WHERE o.run_id = $1 GROUP BY o.instrument_id)
     SELECT coalesce(p.instrument_id, s.instrument_id) AS instrument_id, p.net_quantity, s.net::text AS summed
     FROM (SELECT * FROM positions WHERE run_id = $1) p FULL JOIN summed s ON s.instrument_id = p.instrument_id
     WHERE coalesce(p.net_quantity, 0) <> coalesce(s.net, 0)`, [runId]);
  if (positions.rows.length > 0) broken.push(`positions that are not the sum of their fills: ${JSON.stringify(positions.rows)}`);
  const fills = await storedFills(db.pool, runId);
  if (JSON.stringify(fills) !== JSON.stringify(clean.fills)) {
    const at = fills.findIndex((fill, index) => JSON.stringify(fill) !== JSON.stringify(clean.fills[index]));
    broken.push(`fills differ from the clean run's and the backtest's (${fills.length} vs ${clean.fills.length}) at fill ${at < 0 ? fills.length : at}: `
      + `${JSON.stringify(fills[at])} vs ${JSON.stringify(clean.fills[at < 0 ? fills.length : at])}`);
  }
  return broken;
}

/**
 * What the kill must have left behind, so that the restart had something to repair: each point's
 * n-th hit is one order (or fill) caught at that moment. Empty when it is so.
 */
interface LeftBehind {
  readonly orders: number;
  readonly fills: number;
  readonly unsent: number;
  readonly unacknowledged: number;
  readonly unplaced_square_offs: number;
}

async function leftBehind(point: ChaosPoint, runId: string, n: number): Promise<string[]> {
  const { rows: [found] } = await db.pool.query<LeftBehind>(
    `SELECT (SELECT count(*)::int FROM orders WHERE run_id = $1) AS orders,
            (SELECT count(*)::int FROM fills f JOIN orders o ON o.order_id = f.order_id WHERE o.run_id = $1) AS fills,
            (SELECT count(*)::int FROM orders WHERE run_id = $1 AND submitted_at IS NOT NULL AND broker_order_id IS NULL) AS unsent,
            (SELECT count(*)::int FROM orders WHERE run_id = $1 AND status = 'PENDING_SUBMIT' AND broker_order_id IS NOT NULL) AS unacknowledged,
            (SELECT count(*)::int FROM orders WHERE run_id = $1 AND square_off AND status = 'PENDING_SUBMIT' AND broker_order_id IS NULL) AS unplaced_square_offs`,
    [runId]);
  const expected: Record<ChaosPoint, Partial<LeftBehind>> = {
    // Every hit writes one decision (one slice each here): the n-th died before its rows.
    'before-write': { orders: n - 1 },
    'after-write-before-send': { unsent: 1 },
    'after-send-before-ack': { unacknowledged: 1 },
    // Every hit inserts one new fill: the n-th was never committed.
    'mid-fill': { fills: n - 1 },
    // A square-off's row is written with its send started (it may leave at once): the venue never heard of it.
    'mid-square-off': { unplaced_square_offs: 1, unsent: 1 },
  };
  const wanted = expected[point];
  const actual = Object.fromEntries(Object.keys(wanted).map((key) => [key, found![key as keyof LeftBehind]]));
  return JSON.stringify(actual) === JSON.stringify(wanted) ? [] : [`the kill left ${JSON.stringify(actual)}, expected ${JSON.stringify(wanted)}`];
}

/** Kills a new run at `point`'s `n`-th hit, restarts it without the fault; what went wrong, if anything. */
async function killAndRestart(point: ChaosPoint, n: number): Promise<string[]> {
  const runId = await newRun();
  const killed = await worker(runId, { VYUHA_CHAOS: `${point}:${n}` });
  if (killed.signal !== 'SIGKILL') return [`not killed (exit ${killed.code}, signal ${killed.signal}): ${killed.output.slice(-2_000)}`];
  const left = await leftBehind(point, runId, n);
  if (left.length > 0) return left;
  const restarted = await worker(runId, {});
  if (restarted.code !== 0) return [`the restart did not finish (exit ${restarted.code}, signal ${restarted.signal}): ${restarted.output.slice(-2_000)}`];
  return brokenInvariants(runId);
}

const runIdPattern = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;


function newRun(): Promise<string> {
  return paperRunRow(db.pool, { userId, instrumentId: nifty, config, range: { from: FROM, to: TO } });
}

beforeAll(async () => {
  await build({
    entryPoints: [CHILD_SOURCE], outfile: CHILD, bundle: true, platform: 'node', format: 'esm', target: 'node20',
    external: ['pg', 'pg-copy-streams'], logLevel: 'warning',
  });
  db = await freshDatabase({ seeded: true });
  await storeSyntheticHistory(db.pool, { from: FROM, to: TO, instruments: ['NIFTY 50'], seed: 'chaos-sigkill' });
  nifty = await indexId(db.pool, 'NIFTY 50');
  userId = await createTrader(db.pool);
  // Crossovers trade every few bars: a stop and a trailing stop go out with each entry, the
  // trailing stop is moved on most ticks and hit now and then, and the second day's last position
  // is held into the 15:15 square-off (checked below, on the backtest's exit reasons). The entries
  // and the square-off are MARKET orders; the stops are SL-M orders, modified as they trail.
  const ref = await algorithm(db.pool, userId, { buy: 'crossover(ema(close, 3), ema(close, 8))', sell: 'crossunder(ema(close, 3), ema(close, 8))' });
  config = deployable(ref, { interval: 10, stopLoss: { kind: 'percent', percent: 0.3 }, trailingStop: { kind: 'percent', percent: 0.25 } });
  const runId = await newRun();
  const run = await worker(runId, { VYUHA_CHAOS_COUNT: '1' });
  if (run.code !== 0) throw new Error(`the clean run failed: ${run.output}`);
  const hits = new Map<string, number>();
  for (const match of run.output.matchAll(/^chaos-point (\S+)$/gm)) hits.set(match[1] as string, (hits.get(match[1] as string) ?? 0) + 1);
  clean = { orders: await ordersOf(runId), fills: await storedFills(db.pool, runId), hits };
  const backtest = await backtestFillsOf(db.pool, runId);
  // The clean run is the backtest, and it covers what the kills are meant to interrupt.
  expect(clean.fills).toEqual(backtest.fills);
  expect([...backtest.reasons].sort()).toEqual(expect.arrayContaining(['entry', 'square-off', 'trailing']));
  const modified = await db.pool.query<{ count: string }>('SELECT count(*) AS count FROM orders WHERE run_id = $1 AND modify_count > 0', [runId]);
  expect(Number(modified.rows[0]!.count)).toBeGreaterThan(0);
  expect(await brokenInvariants(runId)).toEqual([]);
}, 120_000);

afterAll(async () => {
  await rm(CHILD, { force: true });
  await db.close();
});

describe('a paper replay killed with SIGKILL at a fault point and restarted', () => {
  for (const point of CHAOS_POINTS) {
    it(`loses and doubles nothing when killed at ${point}, at each hit`, async () => {
      const hits = killHits(clean.hits.get(point) ?? 0, KILLS_PER_POINT, `chaos-${point}`);
      expect(hits.length).toBeGreaterThan(0);
      const outcomes = await pooled(hits, CONCURRENCY, async (n) => ({ n, broken: await killAndRestart(point, n) }));
      // One line per failed kill (its hit and the first thing that broke), so a failure reads at a glance.
      const failed = outcomes.flatMap((outcome) => (outcome.broken.length === 0 ? []
        : [`hit ${outcome.n}: ${(outcome.broken[0] as string).replaceAll(runIdPattern, '<run>').slice(0, 400)}`]));
      expect(failed).toEqual([]);
    }, 120_000);
  }
});
