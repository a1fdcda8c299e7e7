// Option legs on the simulated market, one whole session on a manual clock: a short straddle on
// NIFTY 50 (sell 1 lot each of the ATM CE and PE of the current weekly expiry at 09:20, a stop on
// each leg's premium, intraday). The market ticks NIFTY 50 and INDIA VIX once a second, the run
// prices each leg at every tick from the index's tick and the bar's VIX, its stops work at the
// paper venue on those premiums (60 a minute), and its kernel adopts the venue's stop fills.
// - Orders and fills of both legs are stored; a stop filled at the venue is the kernel's stop fill,
//   to the paisa and the millisecond; what is still open at 15:15 is squared off then; the
//   positions are the sum of the fills.
// - A run handed over mid-session and resumed (another worker) ends with the fills of one never
//   interrupted.
// - Swing: the leg a stop left open is held overnight (NRML) into the same run's next session.
// - MANUAL: the rule's signals wait as pending signals; the legs open only at the bar after the
//   accepted one was taken, and the rest expire at the close.
import { isoDate, istEpochMs } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { parseOptionsLegsConfig, serializeDeployableConfig } from '@vyuha/engine';
import type { BacktestResult, DeployableConfig } from '@vyuha/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runtimeIssues } from '../../src/trading/deploy-checks';
import { confirmSignal } from '../../src/trading/deployments';
import type { SimulatedMarket } from '../../src/trading/feeds/simulated-market';
import { runMarketSession } from '../../src/trading/runner/market-run';
import { RELEASE } from '../../src/trading/runner/replay-run';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { indexId, storeSyntheticHistory } from '../trading-feeds/feed-test-support';
import { algorithm, createTrader, deployable, storedFills, strategyOf } from './runner-test-support';
import type { FillRow } from './runner-test-support';
import { openMarketSession } from './market-session-support';
import type { OpenMarket } from './market-session-support';
import type { MarketSource } from '../../src/trading/runner/market-run';

/** Wednesday; Tuesday 2026-11-24 is an NSE holiday, so the session before is Monday 2026-11-23. */
const TODAY = isoDate('2026-11-25');
const HISTORY_FROM = isoDate('2026-11-09');
const LAST_SESSION = isoDate('2026-11-23');
const NEXT_SESSION = isoDate('2026-11-26');
const INSTRUMENTS = ['NIFTY 50', 'INDIA VIX'] as const;
/** Tuned to the session: the put's premium rises through it, the call's does not (asserted below). */
const STOP_PERCENT = 50;

const leg = (option: 'CE' | 'PE'): object => ({ option, side: 'sell', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1, stopLoss: { percent: STOP_PERCENT } });
const STRADDLE = parseOptionsLegsConfig({ underlying: 'NIFTY', onBuy: [leg('CE'), leg('PE')], maxEntriesPerDay: 1 });

let db: TestDatabase;
let nifty: number;
let userId: string;
let config: DeployableConfig;

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  await storeSyntheticHistory(db.pool, { from: HISTORY_FROM, to: LAST_SESSION, instruments: [...INSTRUMENTS], seed: 'vyuha-demo-world' });
  nifty = await indexId(db.pool, 'NIFTY 50');
  userId = await createTrader(db.pool);
  // The demo world's straddle rule: a Buy from the 09:15 bar's close on (one entry a day).
  const ref = await algorithm(db.pool, userId, { buy: 'time() >= "09:15"', sell: 'time() >= "23:59"' });
  config = deployable(ref, { interval: 5, legs: STRADDLE });
}, 120_000);

afterAll(async () => {
  await db?.close();
});

/** A PAPER run on the market (no replay) of a new strategy, started at `startedAt`. */
async function marketRunRow(startedAt: number, runConfig: DeployableConfig = config): Promise<string> {
  const strategyId = await strategyOf(db.pool, { userId, instrumentId: nifty, config: runConfig });
  const params = { mode: 'PAPER', config: serializeDeployableConfig(runConfig), instrumentId: nifty, intervalMinutes: runConfig.interval, replay: null };
  const { rows } = await db.pool.query<{ run_id: string }>(
    `INSERT INTO strategy_runs (strategy_id, user_id, kind, params, started_at) VALUES ($1, $2, 'PAPER', $3, timestamptz 'epoch' + $4 * interval '1 millisecond') RETURNING run_id`,
    [strategyId, userId, JSON.stringify(params), startedAt]);
  return rows[0]!.run_id;
}

/** The simulated market of NIFTY 50 and INDIA VIX from TODAY 09:14 on a manual clock, with its past ticks for a resumed run. */
async function openSession(): Promise<{ market: SimulatedMarket; scheduler: OpenMarket['scheduler']; source: MarketSource; play: (session?: { date?: IsoDate; until?: number; consumers?: number }) => Promise<void> }> {
  const open = await openMarketSession({ pool: db.pool, today: TODAY, instruments: [...INSTRUMENTS] });
  const source = { feed: open.feed, pastTicks: (id: number, from: number, to: number) => open.market.pastTicks(id, from, to) };
  return { market: open.market, scheduler: open.scheduler, source, play: (session) => open.play(undefined, session) };
}

function ledgerRows(result: BacktestResult): FillRow[] {
  return result.fills.map((fill) => ({ instrument: fill.instrument, side: fill.side, quantity: fill.quantity, price: fill.price, time: fill.time, charges: fill.chargesTotal }));
}

/** Each position of the run is the sum of its fills. */
async function positionsMatchFills(runId: string): Promise<void> {
  const { rows } = await db.pool.query<{ instrument_id: number; net_quantity: number; from_fills: number }>(
    `SELECT p.instrument_id, p.net_quantity,
            (SELECT coalesce(sum(CASE WHEN o.side = 'BUY' THEN f.quantity ELSE -f.quantity END), 0)::int FROM fills f JOIN orders o ON o.order_id = f.order_id
             WHERE o.run_id = p.run_id AND o.instrument_id = p.instrument_id) AS from_fills
     FROM positions p WHERE p.run_id = $1`, [runId]);
  expect(rows.length).toBe(2);
  for (const row of rows) expect(row.net_quantity).toBe(row.from_fills);
}

describe('option legs on the simulated market', () => {
  it('are deployable intraday or swing without a replay, MANUAL or not; an at-cost re-entry is still refused', () => {
    expect(runtimeIssues({ type: 'intraday', legs: STRADDLE, manual: false }, null)).toEqual([]);
    expect(runtimeIssues({ type: 'intraday', legs: STRADDLE, manual: true }, null)).toEqual([]);
    expect(runtimeIssues({ type: 'swing', legs: STRADDLE, manual: false }, null)).toEqual([]);
    const atCost = parseOptionsLegsConfig({ underlying: 'NIFTY', onBuy: [{ ...leg('CE'), reEntry: { mode: 'at-cost', maxTimes: 1 } }, leg('PE')], maxEntriesPerDay: 1 });
    expect(runtimeIssues({ type: 'swing', legs: atCost, manual: false }, null).map((issue) => [issue.field, issue.message]))
      .toEqual([['config.legs', 'config.legs: onBuy[0].reEntry: at-cost re-entries are not run on paper yet']]);
  });

  it('swing: hold a leg overnight from one session\'s run to the same run\'s next session, as NRML, with the kernel\'s fills over both', async () => {
    const runId = await marketRunRow(istEpochMs(TODAY, '08:00'), { ...config, type: 'swing' });
    const open = await openSession();
    const first = runMarketSession({ pool: db.pool, runId, market: open.source, scheduler: open.scheduler });
    await open.play();
    const day1 = await first;
    expect(day1).toMatchObject({ session: TODAY, sessionEnded: true, continues: true, squaredOff: 0 });
    // No 15:15 square-off: the leg the stop left is still sold at the close, valued at the session's last mark.
    expect(day1.result!.fills.some((fill) => fill.reason === 'square-off')).toBe(false);
    const { rows: overnight } = await db.pool.query<{ symbol: string; net_quantity: number; mark: string | null }>(
      `SELECT i.trading_symbol AS symbol, p.net_quantity, p.mark_price_paise::text AS mark FROM positions p JOIN instruments i ON i.instrument_id = p.instrument_id
       WHERE p.run_id = $1 AND p.net_quantity <> 0`, [runId]);
    expect(overnight.length).toBeGreaterThan(0);
    expect(overnight.every((row) => row.net_quantity < 0 && row.mark !== null)).toBe(true);
    const { rows: working } = await db.pool.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM orders WHERE run_id = $1 AND order_type = 'SL-M' AND status = 'OPEN'`, [runId]);
    expect(working[0]!.count).toBe(overnight.length);

    // The next session: the same run, its first session played again from the market's own ticks, then live.
    const second = runMarketSession({ pool: db.pool, runId, market: open.source, scheduler: open.scheduler });
    await open.play({ date: NEXT_SESSION });
    const day2 = await second;
    await open.market.stop();
    expect(day2).toMatchObject({ session: NEXT_SESSION, sessionEnded: true, continues: true });
    const stored = await storedFills(db.pool, runId);
    expect(ledgerRows(day2.result!)).toEqual(stored);
    // The first day's legs were sold once, at 09:20, and replayed as they were; no order was written
    // twice. (The next session may sell the legs again at 09:20 if the held leg's stop closed it
    // first: one entry a day.)
    const entries = day2.result!.fills.filter((fill) => fill.reason === 'entry');
    const nextOpen = istEpochMs(NEXT_SESSION, '09:15');
    expect(entries.filter((fill) => fill.time < nextOpen).map((fill) => fill.time)).toEqual([istEpochMs(TODAY, '09:20'), istEpochMs(TODAY, '09:20')]);
    const again = entries.filter((fill) => fill.time >= nextOpen);
    if (again.length > 0) {
      // Sold again only once the held leg was gone: its exit comes before the new entries.
      const heldExit = day2.result!.fills.find((fill) => fill.time >= nextOpen && fill.reason !== 'entry');
      expect(heldExit).toBeDefined();
      expect(heldExit!.time).toBeLessThanOrEqual(again[0]!.time);
      expect(again.map((fill) => fill.time)).toEqual([istEpochMs(NEXT_SESSION, '09:20'), istEpochMs(NEXT_SESSION, '09:20')]);
    }
    const { rows: orders } = await db.pool.query<{ products: string[]; dup: number }>(
      'SELECT array_agg(DISTINCT product) AS products, count(*)::int - count(DISTINCT client_order_id)::int AS dup FROM orders WHERE run_id = $1', [runId]);
    expect(orders[0]).toEqual({ products: ['NRML'], dup: 0 });
    await positionsMatchFills(runId);
  }, 600_000);

  it('in MANUAL mode open the legs only on the accepted signal, at the bar after it was taken; the other signals expire', async () => {
    const runId = await marketRunRow(istEpochMs(TODAY, '08:00'), { ...config, manual: true });
    const open = await openSession();
    const running = runMarketSession({ pool: db.pool, runId, market: open.source, scheduler: open.scheduler });
    // Until 09:32: the rule's Buy signal is pending, nothing traded.
    await open.play({ until: istEpochMs(TODAY, '09:32') });
    const { rows: pending } = await db.pool.query<{ pending_signal_id: string; payload: { action: string; instrument: string } }>(
      `SELECT pending_signal_id, payload FROM pending_signals WHERE run_id = $1 AND state = 'PENDING' ORDER BY created_at`, [runId]);
    expect(pending.length).toBeGreaterThanOrEqual(1);
    expect(pending.every((row) => row.payload.action === 'BUY' && row.payload.instrument === 'NIFTY 50')).toBe(true);
    const { rows: before } = await db.pool.query<{ count: number }>('SELECT count(*)::int AS count FROM orders WHERE run_id = $1', [runId]);
    expect(before[0]!.count).toBe(0);
    // The newest accepted, any earlier one rejected. This session is two days in the database's past: expiry moved past its clock.
    await db.pool.query(`UPDATE pending_signals SET expires_at = now() + interval '1 day' WHERE run_id = $1`, [runId]);
    const accepted = pending.at(-1)!.pending_signal_id;
    const rejected = pending.slice(0, -1).map((row) => row.pending_signal_id);
    for (const id of rejected) expect((await confirmSignal(db.pool, { actorId: userId, userId, pendingSignalId: id, accept: false })).ok).toBe(true);
    expect((await confirmSignal(db.pool, { actorId: userId, userId, pendingSignalId: accepted, accept: true })).ok).toBe(true);
    await open.play();
    const outcome = await running;
    await open.market.stop();
    expect(outcome).toMatchObject({ session: TODAY, sessionEnded: true });

    const { rows: signals } = await db.pool.query<{ pending_signal_id: string; state: string; outcome: string; payload: { takenAt?: number } }>(
      'SELECT pending_signal_id, state, outcome, payload FROM pending_signals WHERE run_id = $1 ORDER BY created_at', [runId]);
    expect(signals.every((signal) => signal.state === 'PROCESSED')).toBe(true);
    expect(signals.filter((signal) => signal.outcome === 'ACCEPTED').map((signal) => signal.pending_signal_id)).toEqual([accepted]);
    expect(signals.filter((signal) => signal.outcome === 'REJECTED').map((signal) => signal.pending_signal_id)).toEqual(rejected);
    expect(signals.filter((signal) => !['ACCEPTED', 'REJECTED'].includes(signal.outcome)).every((signal) => signal.outcome === 'EXPIRED')).toBe(true);
    // Taken at the first bar close after the accept (the 09:30 bar's, at 09:35), the legs sold at the open of the bar after it.
    const takenAt = signals.find((signal) => signal.outcome === 'ACCEPTED')!.payload.takenAt!;
    expect(takenAt).toBeGreaterThanOrEqual(istEpochMs(TODAY, '09:30'));
    const entries = outcome.result!.fills.filter((fill) => fill.reason === 'entry');
    expect(entries.map((fill) => [fill.side, fill.time, fill.instrument.slice(-2)]).sort())
      .toEqual([['sell', takenAt + 5 * 60_000, 'CE'], ['sell', takenAt + 5 * 60_000, 'PE']]);
    expect(ledgerRows(outcome.result!)).toEqual(await storedFills(db.pool, runId));
    await positionsMatchFills(runId);
  }, 300_000);

  it('trade a short straddle through a session: the venue\'s stop is the kernel\'s stop fill, the rest squared off at 15:15', async () => {
    const runId = await marketRunRow(istEpochMs(TODAY, '08:00'));
    const open = await openSession();
    const running = runMarketSession({ pool: db.pool, runId, market: open.source, scheduler: open.scheduler });
    await open.play();
    const outcome = await running;
    await open.market.stop();
    expect(outcome).toMatchObject({ session: TODAY, sessionEnded: true, continues: false, stopped: false, released: false });
    const result = outcome.result!;
    const stored = await storedFills(db.pool, runId);
    // The kernel's ledger is what the database holds, fill for fill.
    expect(ledgerRows(result)).toEqual(stored);

    // Both legs sold at the 09:20 open: a CE and a PE of one strike and expiry.
    const entries = result.fills.filter((fill) => fill.reason === 'entry');
    expect(entries.map((fill) => [fill.side, fill.time, fill.instrument.slice(-2)]).sort())
      .toEqual([['sell', istEpochMs(TODAY, '09:20'), 'CE'], ['sell', istEpochMs(TODAY, '09:20'), 'PE']]);
    expect(entries[0]!.instrument.slice(0, -2)).toBe(entries[1]!.instrument.slice(0, -2));

    // At least one leg's stop: filled at the venue as an SL-M order, at the price and time the kernel recorded.
    const stops = result.fills.filter((fill) => fill.reason === 'stop');
    expect(stops.length).toBeGreaterThan(0);
    const { rows: slm } = await db.pool.query<{ symbol: string; price: string; ms: string; trigger: string }>(
      `SELECT i.trading_symbol AS symbol, f.price_paise::text AS price, (extract(epoch FROM f.ts) * 1000)::bigint::text AS ms, o.trigger_price_paise::text AS trigger
       FROM orders o JOIN fills f ON f.order_id = o.order_id JOIN instruments i ON i.instrument_id = o.instrument_id
       WHERE o.run_id = $1 AND o.order_type = 'SL-M' AND o.status = 'FILLED' ORDER BY f.ts`, [runId]);
    expect(slm.map((row) => [row.symbol, Number(row.price), Number(row.ms)])).toEqual(stops.map((fill) => [fill.instrument, fill.price, fill.time]));
    for (const stop of stops) {
      const entry = entries.find((fill) => fill.instrument === stop.instrument)!;
      // A short leg's stop 15% above its entry premium, on the nearest 0.05 tick; a buy-stop fills at or above it.
      const trigger = Number(slm.find((row) => row.symbol === stop.instrument)!.trigger);
      expect(trigger % 5).toBe(0);
      expect(Math.abs(trigger - (entry.price * (100 + STOP_PERCENT)) / 100)).toBeLessThanOrEqual(2.5);
      expect(stop.price).toBeGreaterThanOrEqual(trigger);
      expect(stop.time).toBeGreaterThan(istEpochMs(TODAY, '09:20'));
      expect(stop.time).toBeLessThan(istEpochMs(TODAY, '15:15'));
    }
    // At a second of the bar between the four of its tick path (75 s apart on 5-minute bars): the venue's tick, adopted.
    expect(stops.some((fill) => fill.time % 75_000 !== 0)).toBe(true);

    // Every leg the stops left open was bought back at 15:15, the square-off time; nothing else traded.
    const squaredOff = result.fills.filter((fill) => fill.reason === 'square-off');
    expect(squaredOff.length).toBeGreaterThan(0);
    expect(squaredOff.length + stops.length).toBe(2);
    for (const fill of squaredOff) expect([fill.side, fill.time]).toEqual(['buy', istEpochMs(TODAY, '15:15')]);
    expect(new Set([...stops, ...squaredOff].map((fill) => fill.instrument))).toEqual(new Set(entries.map((fill) => fill.instrument)));
    expect(outcome.squaredOff).toBe(squaredOff.reduce((units, fill) => units + fill.quantity, 0));
    await positionsMatchFills(runId);
    const { rows: flat } = await db.pool.query<{ count: number }>('SELECT count(*)::int AS count FROM positions WHERE run_id = $1 AND net_quantity <> 0', [runId]);
    expect(flat[0]!.count).toBe(0);
  }, 300_000);

  it('resumed mid-session (another worker took it over) ends with the fills of a run never interrupted', async () => {
    const straight = await marketRunRow(istEpochMs(TODAY, '08:00'));
    const resumed = await marketRunRow(istEpochMs(TODAY, '08:00'));
    const open = await openSession();
    const release = new AbortController();
    const whole = runMarketSession({ pool: db.pool, runId: straight, market: open.source, scheduler: open.scheduler });
    const firstPart = runMarketSession({ pool: db.pool, runId: resumed, market: open.source, scheduler: open.scheduler, signal: release.signal });
    // Handed over with both legs sold and their stops working at the venue.
    const handOver = istEpochMs(TODAY, '09:40:30');
    await open.play({ until: handOver, consumers: 2 });
    release.abort(RELEASE);
    expect(await firstPart).toMatchObject({ released: true });
    expect((await storedFills(db.pool, resumed)).length).toBeGreaterThanOrEqual(2);
    const { rows: working } = await db.pool.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM orders WHERE run_id = $1 AND order_type = 'SL-M' AND status = 'OPEN'`, [resumed]);
    expect(working[0]!.count).toBeGreaterThan(0);
    const rest = runMarketSession({ pool: db.pool, runId: resumed, market: open.source, scheduler: open.scheduler });
    await open.play({ consumers: 2 });
    const [straightOutcome, resumedOutcome] = await Promise.all([whole, rest]);
    await open.market.stop();
    expect(straightOutcome.sessionEnded && resumedOutcome.sessionEnded).toBe(true);
    const expected = await storedFills(db.pool, straight);
    expect(expected.length).toBe(4);
    expect(await storedFills(db.pool, resumed)).toEqual(expected);
    expect(ledgerRows(resumedOutcome.result!)).toEqual(expected);
    const { rows } = await db.pool.query<{ dup: number }>('SELECT count(*)::int - count(DISTINCT client_order_id)::int AS dup FROM orders WHERE run_id = $1', [resumed]);
    expect(rows[0]!.dup).toBe(0);
    await positionsMatchFills(resumed);
  }, 400_000);
});
