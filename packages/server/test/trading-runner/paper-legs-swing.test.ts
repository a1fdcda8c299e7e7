// Parity for swing option legs: a short straddle held from session to session (NRML), its legs
// leaving by their stops or held to their weekly expiry's close, where the kernel settles them at
// intrinsic value (an in-the-money leg exercised, the other expiring worthless), replayed through
// the paper runtime over three weeks of stored synthetic NIFTY 50 and INDIA VIX history. The paper
// run's fills and expiry settlements are the backtest's to the paisa (contract, time, side,
// quantity, price, charges), every position ends flat with the backtest's realised P&L, and a
// settlement asked again (a restart from the first bar) writes nothing twice.
import { isoDate } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import type { CompiledAlgorithm, LedgerFill } from '@vyuha/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPrepared } from '../../src/backtest/stored-run';
import type { PreparedRun } from '../../src/backtest/stored-run';
import { positionsOf } from '../../src/jobs/backtest-rows';
import { recordExpirySettlement } from '../../src/trading/oms/expiry-settlement';
import { runLegsPaperReplay } from '../../src/trading/runner/legs-replay';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { bareRunRow, legsWorld, prepareLegs, storedFills } from './runner-test-support';
import type { FillRow } from './runner-test-support';

let db: TestDatabase;
let nifty: number;
let userId: string;
let program: CompiledAlgorithm;

// Three weeks of sessions: the weekly expiries of 9, 16 and 23 January 2025 among them.
const RANGE = { from: isoDate('2025-01-06'), to: isoDate('2025-01-24') };
const INTERVAL = 5;

/**
 * The demo straddle held overnight: the call with a 60% stop, the put unprotected, so legs reach
 * their expiry both out of the money (worthless) and, on 9 January, in it (exercised).
 */
const SWING_STRADDLE = {
  underlying: 'NIFTY',
  onBuy: [
    { option: 'CE', side: 'sell', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1, stopLoss: { percent: 60 } },
    { option: 'PE', side: 'sell', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1 },
  ],
  maxEntriesPerDay: 1,
};

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  ({ nifty, userId, program } = await legsWorld(db.pool, RANGE));
}, 120_000);

afterAll(async () => {
  await db.close();
});

/** The swing straddle prepared over `range` as run_backtest prepares it (Rs 3 lakh, swing, 5-minute bars). */
async function prepareSwing(range: { from: IsoDate; to: IsoDate }): Promise<PreparedRun> {
  return prepareLegs(db.pool, { instrumentId: nifty, range, legs: SWING_STRADDLE, strategyType: 'swing', intervalMinutes: INTERVAL });
}

async function paperRunRow(): Promise<string> {
  return bareRunRow(db.pool, userId);
}

async function replay(runId: string): ReturnType<typeof runLegsPaperReplay> {
  return runLegsPaperReplay({
    pool: db.pool, runId, userId, strategyId: null, algoId: null, instrumentId: nifty, prepared: await prepareSwing(RANGE), program,
    intervalMinutes: INTERVAL, replay: { ...RANGE, speed: 0 },
  });
}

function ordered(fills: readonly FillRow[]): FillRow[] {
  return [...fills].sort((a, b) => a.time - b.time || a.instrument.localeCompare(b.instrument) || a.side.localeCompare(b.side));
}

function rowsOf(fills: readonly LedgerFill[]): FillRow[] {
  return fills.map((fill) => ({ instrument: fill.instrument, side: fill.side, quantity: fill.quantity, price: fill.price, time: fill.time, charges: fill.chargesTotal }));
}

/** The run's expiry settlement orders (filled, never sent) as fills: price 0 and no charges for a worthless one. */
async function settlementsOf(runId: string): Promise<Array<FillRow & { product: string; message: string }>> {
  const { rows } = await db.pool.query<{ symbol: string; side: string; quantity: number; price: string | null; ms: string; charges: string; product: string; message: string }>(
    `SELECT i.trading_symbol AS symbol, o.side, o.filled_quantity AS quantity, o.average_price_paise::text AS price,
            (extract(epoch FROM o.created_at) * 1000)::bigint::text AS ms, o.product, o.status_message AS message,
            (SELECT coalesce(sum(value::bigint), 0) FROM fills f, jsonb_each_text(f.charges_paise) WHERE f.order_id = o.order_id)::text AS charges
     FROM orders o JOIN instruments i ON i.instrument_id = o.instrument_id
     WHERE o.run_id = $1 AND o.status = 'FILLED' AND o.submitted_at IS NULL AND o.broker_order_id IS NULL`, [runId]);
  return rows.map((row) => ({
    instrument: row.symbol, side: row.side === 'BUY' ? 'buy' : 'sell', quantity: row.quantity, price: Number(row.price ?? 0), time: Number(row.ms),
    charges: Number(row.charges), product: row.product, message: row.message,
  }));
}

async function counts(runId: string): Promise<{ orders: number; distinctIds: number; fills: number; audits: number }> {
  const { rows } = await db.pool.query<{ orders: number; distinct_ids: number; fills: number; audits: number }>(
    `SELECT (SELECT count(*)::int FROM orders WHERE run_id = $1) AS orders,
            (SELECT count(DISTINCT client_order_id)::int FROM orders WHERE run_id = $1) AS distinct_ids,
            (SELECT count(*)::int FROM fills f JOIN orders o ON o.order_id = f.order_id WHERE o.run_id = $1) AS fills,
            (SELECT count(*)::int FROM audit_log a WHERE a.action = 'order.expiry-settled' AND a.entity_id LIKE $1::text || '-%') AS audits`, [runId]);
  const row = rows[0]!;
  return { orders: row.orders, distinctIds: row.distinct_ids, fills: row.fills, audits: row.audits };
}

async function positionsOfRun(runId: string): Promise<Array<{ symbol: string; net: number; netRealised: number }>> {
  const { rows } = await db.pool.query<{ symbol: string; net: number; realised: string; charges: string }>(
    `SELECT i.trading_symbol AS symbol, p.net_quantity AS net, p.realised_pnl_paise::text AS realised, p.charges_paise::text AS charges
     FROM positions p JOIN instruments i ON i.instrument_id = p.instrument_id WHERE p.run_id = $1 ORDER BY 1`, [runId]);
  return rows.map((row) => ({ symbol: row.symbol, net: row.net, netRealised: Number(row.realised) - Number(row.charges) }));
}

describe('swing option legs replayed on paper', () => {
  let runId: string;
  let backtest: readonly LedgerFill[];

  it('hold overnight, settle at expiry and make exactly the backtest\'s fills and settlements', async () => {
    runId = await paperRunRow();
    const outcome = await replay(runId);
    backtest = (await runPrepared(db.pool, { prepared: await prepareSwing(RANGE), program, dateRange: RANGE, intervalMinutes: INTERVAL })).fills;
    expect(outcome.result.fills.length).toBe(backtest.length);

    // What the test means to cover happened: legs held past a session's end, stops, an exercise and a worthless expiry.
    const settled = backtest.filter((fill) => fill.reason === 'expiry');
    expect(settled.some((fill) => fill.price > 0)).toBe(true);
    expect(settled.some((fill) => fill.price === 0)).toBe(true);
    expect(backtest.some((fill) => fill.reason === 'stop')).toBe(true);
    const day = (time: number): number => Math.floor((time + 19_800_000) / 86_400_000);
    const overnight = backtest.filter((fill) => fill.reason === 'entry').some((entry) => {
      const exit = backtest.find((fill) => fill.instrument === entry.instrument && fill.reason !== 'entry' && fill.time > entry.time);
      return exit !== undefined && day(exit.time) > day(entry.time);
    });
    expect(overnight).toBe(true);

    // Every fill row is the backtest's (a worthless expiry has none), and every settlement is the kernel's.
    expect(ordered(await storedFills(db.pool, runId))).toEqual(ordered(rowsOf(backtest.filter((fill) => fill.price > 0))));
    const settlements = await settlementsOf(runId);
    expect(ordered(settlements.map(({ product: _product, message: _message, ...fill }) => fill))).toEqual(ordered(rowsOf(settled)));
    expect(settlements.every((row) => row.product === 'NRML')).toBe(true);
    expect(settlements.filter((row) => row.price === 0).every((row) => row.message.includes('expired worthless') && row.charges === 0)).toBe(true);
    expect(settlements.filter((row) => row.price > 0).every((row) => row.message.includes('exercised at its intrinsic value') && row.charges > 0)).toBe(true);
    expect(outcome.fills).toBe((await storedFills(db.pool, runId)).length);

    // Orders held overnight were NRML; every position is flat with the backtest's realised P&L net of charges.
    const { rows } = await db.pool.query<{ product: string }>('SELECT DISTINCT product FROM orders WHERE run_id = $1', [runId]);
    expect(rows.map((row) => row.product)).toEqual(['NRML']);
    const positions = await positionsOfRun(runId);
    const expected = positionsOf(backtest).map((row) => ({ symbol: row.instrument, net: row.netQuantity, netRealised: row.realisedPnlPaise }))
      .sort((a, b) => a.symbol.localeCompare(b.symbol));
    expect(positions).toEqual(expected);
    expect(positions.every((position) => position.net === 0)).toBe(true);
  }, 240_000);

  it('records a settlement once: asked again it answers the stored row; a restart from the first bar writes nothing twice', async () => {
    const before = await counts(runId);
    expect(before.orders).toBe(before.distinctIds);
    expect(before.audits).toBe(backtest.filter((fill) => fill.reason === 'expiry').length);
    const positions = await positionsOfRun(runId);

    // The worthless settlement's decision asked again, directly.
    const { rows } = await db.pool.query<{ client_order_id: string; instrument_id: number; side: 'BUY' | 'SELL'; quantity: number; ms: string }>(
      `SELECT client_order_id, instrument_id, side, quantity, (extract(epoch FROM created_at) * 1000)::bigint::text AS ms FROM orders
       WHERE run_id = $1 AND status = 'FILLED' AND submitted_at IS NULL AND average_price_paise IS NULL LIMIT 1`, [runId]);
    const worthless = rows[0]!;
    const decision = Number(worthless.client_order_id.slice(runId.length + 1)) / 10;
    const run = { runId, userId, strategyId: null, userBrokerId: null, algoId: null, charges: { kind: 'none' as const } };
    const request = {
      run, decision, instrumentId: worthless.instrument_id, side: worthless.side, quantity: worthless.quantity, event: 'expire-worthless' as const,
      settlementPricePaise: 0, atMs: Number(worthless.ms), product: 'NRML',
    };
    const again = await recordExpirySettlement(db.pool, request);
    expect(again.ok && again.value.existing).toBe(true);
    expect(again.ok && again.value.clientOrderId).toBe(worthless.client_order_id);
    expect(again.ok && again.value.fill).toBeUndefined();
    // The same decision for another order is refused, naming the decision.
    const other = await recordExpirySettlement(db.pool, { ...request, quantity: worthless.quantity * 2 });
    expect(other.ok ? [] : other.error.map((issue) => [issue.field, issue.code])).toEqual([['decision', 'decision-taken']]);
    const bad = await recordExpirySettlement(db.pool, { ...request, event: 'exercise' });
    expect(bad.ok ? [] : bad.error.map((issue) => issue.field)).toEqual(['settlementPricePaise']);

    // The whole range again under the same run (another worker took it over): every decision is answered from its rows.
    const outcome = await replay(runId);
    expect(outcome.result.fills.length).toBe(backtest.length);
    expect(await counts(runId)).toEqual(before);
    expect(await positionsOfRun(runId)).toEqual(positions);
    expect(ordered(await storedFills(db.pool, runId))).toEqual(ordered(rowsOf(backtest.filter((fill) => fill.price > 0))));
    // Its reconciliation at the start found the venue's positions explained: a settled contract is gone from both.
    const alerts = await db.pool.query<{ count: number }>(`SELECT count(*)::int AS count FROM audit_log WHERE action = 'oms.alert' AND entity_id = $1`, [userId]);
    expect(alerts.rows[0]!.count).toBe(0);
  }, 240_000);
});
