// A PAPER run on the simulated market, one whole session on a manual clock: the market ticks once
// a second (continuing the stored synthetic history), the run builds its bars from those ticks,
// its kernel adopts the venue's stops and targets, and its index futures are priced bar by bar.
// - Without stops, its fills are exactly the backtest kernel's over the session's stored candles
//   (stepped with the same warm-up: the stored bars of the sessions before), to the paisa.
// - With a stop, a target and a trailing stop, the stops and targets are the venue's (at ticks
//   between the four of the bar's path), the kernel's ledger holds exactly the fills the
//   database holds, and the positions are the sum of the fills.
import { isoDate, istEpochMs } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { FuturesChain, GrowingBarSeries, serializeDeployableConfig, startSteppedRun } from '@vyuha/engine';
import type { BacktestResult, DeployableConfig } from '@vyuha/engine';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobQueue } from '../../src/jobs/job-queue';
import { enqueueStrategyRun } from '../../src/jobs/strategy-run-jobs';
import { confirmSignal, deployStrategy } from '../../src/trading/deployments';
import { runMarketSession, warmUpFrom } from '../../src/trading/runner/market-run';
import type { MarketRunOutcome } from '../../src/trading/runner/market-run';
import { startStrategyRunners } from '../../src/trading/runner/strategy-runners';
import type { RunOutcome } from '../../src/trading/runner/strategy-runners';
import { compiledAlgorithmOf, paperConfigOf, preparePaperReplay, readPaperRunParams, RELEASE, sizingOf } from '../../src/trading/runner/replay-run';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { indexId, storeSyntheticHistory } from '../trading-feeds/feed-test-support';
import { algorithm, createTrader, deployable, storedFills, strategyOf } from './runner-test-support';
import type { FillRow } from './runner-test-support';
import { openMarketSession } from './market-session-support';
import type { OpenMarket } from './market-session-support';

/** Wednesday; Tuesday 2026-11-24 is an NSE holiday, so the session before is Monday 2026-11-23. */
const TODAY = isoDate('2026-11-25');
const HISTORY_FROM = isoDate('2026-11-09');
const LAST_SESSION = isoDate('2026-11-23');
/** Thursday, the session after TODAY. */
const NEXT_SESSION = isoDate('2026-11-26');

let db: TestDatabase;
let nifty: number;
let userId: string;

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  await storeSyntheticHistory(db.pool, { from: HISTORY_FROM, to: LAST_SESSION, instruments: ['NIFTY 50'], seed: 'vyuha-demo-world' });
  nifty = await indexId(db.pool, 'NIFTY 50');
  userId = await createTrader(db.pool);
}, 120_000);

afterAll(async () => {
  await db?.close();
});

/** A PAPER run on the market (no replay) of a new strategy, started at `startedAt`. */
async function marketRunRow(config: DeployableConfig, startedAt: number): Promise<string> {
  const strategyId = await strategyOf(db.pool, { userId, instrumentId: nifty, config });
  const params = { mode: 'PAPER', config: serializeDeployableConfig(config), instrumentId: nifty, intervalMinutes: config.interval, replay: null };
  const { rows } = await db.pool.query<{ run_id: string }>(
    `INSERT INTO strategy_runs (strategy_id, user_id, kind, params, started_at) VALUES ($1, $2, 'PAPER', $3, timestamptz 'epoch' + $4 * interval '1 millisecond') RETURNING run_id`,
    [strategyId, userId, JSON.stringify(params), startedAt]);
  return rows[0]!.run_id;
}

/**
 * Runs one whole session of the market and the run on one manual clock, a second at a time; after
 * each second of the session it waits until the run has taken that second's tick (as the wall
 * clock gives a live run a second per tick).
 */
async function playSession(runId: string, everyMinute?: (time: number) => Promise<void>): Promise<MarketRunOutcome> {
  const session = await openSession();
  const running = runMarketSession({ pool: db.pool, runId, market: { feed: session.feed }, scheduler: session.scheduler });
  await session.play(everyMinute);
  const outcome = await running;
  await session.market.stop();
  return outcome;
}

/** The simulated market of NIFTY 50 from TODAY 09:14 on a manual clock. */
function openSession(): Promise<OpenMarket> {
  return openMarketSession({ pool: db.pool, today: TODAY, instruments: ['NIFTY 50'] });
}

/** The backtest kernel over the stored candles of the warm-up sessions and the run's sessions (TODAY to `last`), trading only the run's. */
async function referenceOf(runId: string, last: IsoDate = TODAY): Promise<BacktestResult> {
  const { rows } = await db.pool.query<{ params: { config: unknown } }>('SELECT params FROM strategy_runs WHERE run_id = $1', [runId]);
  const params = readPaperRunParams(rows[0]!.params);
  if (!params.ok) throw new Error(params.error);
  const { config } = params.value;
  const from = istEpochMs(TODAY, '00:00');
  const prepared = await preparePaperReplay(db.pool, { ...params.value, replay: { from: warmUpFrom(TODAY), to: last, speed: 0 } });
  const stored = prepared.series;
  let warmUp = 0;
  while ((stored.time[warmUp] as number) < from) warmUp += 1;
  const series = GrowingBarSeries.over(stored);
  const plan = prepared.plan;
  if (plan.kind !== 'index-futures') throw new Error('NIFTY 50 trades as its futures');
  const chain = new FuturesChain({ underlying: plan.underlying, index: stored, type: config.type, rollTime: '15:15', sizing: sizingOf(config).futuresSizing });
  const stepped = startSteppedRun({
    series, program: await compiledAlgorithmOf(db.pool, config), intervalMinutes: config.interval, config: paperConfigOf(prepared, config), signalsFrom: warmUp, contracts: chain,
  });
  for (let index = 0; index < stored.length; index += 1) {
    stepped.append({
      time: stored.time[index] as number, open: stored.open[index] as number, high: stored.high[index] as number,
      low: stored.low[index] as number, close: stored.close[index] as number, volume: stored.volume[index] as number,
    });
    stepped.step();
  }
  return stepped.result();
}

function ledgerRows(result: BacktestResult): FillRow[] {
  return result.fills.map((fill) => ({ instrument: fill.instrument, side: fill.side, quantity: fill.quantity, price: fill.price, time: fill.time, charges: fill.chargesTotal }));
}

async function positionsMatchFills(runId: string): Promise<void> {
  const { rows } = await db.pool.query<{ instrument_id: number; net_quantity: number; from_fills: number }>(
    `SELECT p.instrument_id, p.net_quantity,
            (SELECT coalesce(sum(CASE WHEN o.side = 'BUY' THEN f.quantity ELSE -f.quantity END), 0)::int FROM fills f JOIN orders o ON o.order_id = f.order_id
             WHERE o.run_id = p.run_id AND o.instrument_id = p.instrument_id) AS from_fills
     FROM positions p WHERE p.run_id = $1`, [runId]);
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) expect(row.net_quantity).toBe(row.from_fills);
}

describe('a paper run on the simulated market', () => {
  it('trades the session from its ticks and makes exactly the backtest kernel\'s fills over the stored candles', async () => {
    const ref = await algorithm(db.pool, userId, { buy: 'crossover(ema(close, 5), ema(close, 13))', sell: 'crossunder(ema(close, 5), ema(close, 13))' });
    const runId = await marketRunRow(deployable(ref, { interval: 5 }), istEpochMs(TODAY, '08:00'));
    const outcome = await playSession(runId);
    expect(outcome).toMatchObject({ session: TODAY, sessionEnded: true, stopped: false, released: false });
    const expected = ledgerRows(await referenceOf(runId));
    const actual = await storedFills(db.pool, runId);
    expect(expected.length).toBeGreaterThan(2);
    expect(actual).toEqual(expected);
    expect(ledgerRows(outcome.result!)).toEqual(actual);
    await positionsMatchFills(runId);
  }, 240_000);

  it('is followed by a published strategy\'s subscriber: the same moments and contracts, the subscriber\'s 2 lots', async () => {
    const ref = await algorithm(db.pool, userId, { buy: 'crossover(ema(close, 5), ema(close, 13))', sell: 'crossunder(ema(close, 5), ema(close, 13))' });
    const runId = await marketRunRow(deployable(ref, { interval: 5 }), istEpochMs(TODAY, '08:00'));
    const { rows: [strategy] } = await db.pool.query<{ strategy_id: string }>(
      'UPDATE strategies SET published = true WHERE strategy_id = (SELECT strategy_id FROM strategy_runs WHERE run_id = $1) RETURNING strategy_id', [runId]);
    const subscriber = await createTrader(db.pool, { tier: 'basic' });
    const { rows: [subscription] } = await db.pool.query<{ subscription_id: string }>(
      `INSERT INTO subscriptions (user_id, strategy_id, quantity, sizing) VALUES ($1, $2, 2, 'quantity') RETURNING subscription_id`, [subscriber, strategy!.strategy_id]);
    await playSession(runId);
    const published = await storedFills(db.pool, runId);
    expect(published.length).toBeGreaterThan(2);
    const { rows: [follower] } = await db.pool.query<{ run_id: string; user_id: string; status: string }>(
      `SELECT run_id, user_id, status FROM strategy_runs WHERE params -> 'follows' ->> 'subscriptionId' = $1`, [subscription!.subscription_id]);
    expect(follower).toMatchObject({ user_id: subscriber, status: 'COMPLETE' });
    const copied = await storedFills(db.pool, follower!.run_id);
    const moments = (fills: readonly FillRow[]) => fills.map(({ instrument, side, price, time }) => ({ instrument, side, price, time }));
    expect(moments(copied)).toEqual(moments(published));
    const { rows: lots } = await db.pool.query<{ trading_symbol: string; lot_size: number }>(
      'SELECT trading_symbol, lot_size FROM instruments WHERE trading_symbol = ANY($1)', [copied.map((fill) => fill.instrument)]);
    for (const fill of copied) expect(fill.quantity).toBe(2 * lots.find((row) => row.trading_symbol === fill.instrument)!.lot_size);
  }, 240_000);

  it('with a stop, a target and a trailing stop, adopts the venue\'s exits: the kernel\'s ledger is the database\'s fills', async () => {
    const ref = await algorithm(db.pool, userId, { buy: 'crossover(ema(close, 3), ema(close, 8))', sell: 'crossunder(ema(close, 3), ema(close, 8))' });
    const runId = await marketRunRow(deployable(ref, {
      interval: 3, stopLoss: { kind: 'percent', percent: 0.05 }, target: { kind: 'percent', percent: 0.08 }, trailingStop: { kind: 'percent', percent: 0.04 },
    }), istEpochMs(TODAY, '08:00'));
    const outcome = await playSession(runId);
    expect(outcome.sessionEnded).toBe(true);
    const actual = await storedFills(db.pool, runId);
    expect(ledgerRows(outcome.result!)).toEqual(actual);
    const reasons = new Set(outcome.result!.fills.map((fill) => fill.reason));
    expect([...reasons]).toEqual(expect.arrayContaining(['entry']));
    expect([...reasons].some((reason) => reason === 'stop' || reason === 'trailing' || reason === 'target')).toBe(true);
    // An exit at a tick between the bar path's four: the venue's second, not one of the path's.
    const protective = outcome.result!.fills.filter((fill) => fill.reason === 'stop' || fill.reason === 'trailing' || fill.reason === 'target');
    expect(protective.some((fill) => fill.time % 15_000 !== 0)).toBe(true);
    await positionsMatchFills(runId);
  }, 240_000);

  it('is run by the strategy runners: leased, played through its session, then the next session\'s run takes over the licence slot', async () => {
    const queue = createJobQueue({ connectionString: db.url, supervise: false });
    await queue.start();
    const trader = await createTrader(db.pool, { permissions: ['strategy:deploy'] });
    const { rows: licence } = await db.pool.query<{ id: string }>(
      `INSERT INTO deployed_strategies (user_id, available, utilized, expiry) VALUES ($1, 2, 0, DATE '2027-12-31') RETURNING id`, [trader]);
    const ref = await algorithm(db.pool, trader, { buy: 'crossover(ema(close, 5), ema(close, 13))', sell: 'crossunder(ema(close, 5), ema(close, 13))' });
    const strategyId = await strategyOf(db.pool, { userId: trader, instrumentId: nifty, config: deployable(ref, { interval: 5 }) });
    const deployed = await deployStrategy(db.pool, { actorId: trader, userId: trader, strategyId, mode: 'PAPER' }, {
      enqueue: (client: pg.PoolClient, runId: string) => enqueueStrategyRun(queue, { client, runId }),
    });
    if (!deployed.ok) throw new Error(deployed.error.map((issue) => issue.message).join('; '));
    const { runId } = deployed.value;
    // Deployed "this morning" on the test's clock.
    await db.pool.query(`UPDATE strategy_runs SET started_at = timestamptz 'epoch' + $2 * interval '1 millisecond' WHERE run_id = $1`, [runId, istEpochMs(TODAY, '08:00')]);
    const session = await openSession();
    const ended = new Map<string, RunOutcome>();
    const runners = await startStrategyRunners({
      pool: db.pool, queue, log: () => undefined, scanIntervalMs: 200, heartbeatMs: 100, market: { feed: session.feed }, marketClock: session.scheduler,
      onRunEnded: (id, outcome) => ended.set(id, outcome),
    });
    try {
      const started = Date.now();
      while (!runners.running.has(runId) && Date.now() - started < 20_000) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(runners.running.has(runId)).toBe(true);
      await session.play();
      while (!ended.has(runId) && Date.now() - started < 120_000) await new Promise((resolve) => setTimeout(resolve, 50));
      const outcome = ended.get(runId);
      const next = outcome !== undefined && 'nextRunId' in outcome ? outcome.nextRunId : undefined;
      expect(next).toBeDefined();
      const fills = await storedFills(db.pool, runId);
      expect(fills.length).toBeGreaterThan(2);
      // The day's status: squared off when the 15:15 square-off (a fill at that bar's open) closed a position.
      const status = fills.some((fill) => fill.time === istEpochMs(TODAY, '15:15')) ? 'COMPLETE: SQUARED OFF' : 'COMPLETE';
      expect(outcome).toMatchObject({ status });
      const { rows } = await db.pool.query<{ run_id: string; status: string; licence_id: string | null }>(
        'SELECT run_id, status, licence_id FROM strategy_runs WHERE strategy_id = $1 ORDER BY started_at', [strategyId]);
      expect(rows).toEqual([{ run_id: runId, status, licence_id: null }, { run_id: next, status: 'IN PROGRESS', licence_id: licence[0]!.id }]);
      const { rows: strategy } = await db.pool.query<{ status: string }>('SELECT status FROM strategies WHERE strategy_id = $1', [strategyId]);
      expect(strategy[0]!.status).toBe('ACTIVE');
      // The next session's run is leased at once and waits for its session.
      while (!runners.running.has(next!) && Date.now() - started < 150_000) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(runners.running.has(next!)).toBe(true);
    } finally {
      await runners.stop();
      await session.market.stop();
      await queue.stop({ graceful: false });
    }
  }, 240_000);

  it('in MANUAL mode raises each signal as a pending signal and trades only the accepted ones, at the next bar\'s open; the rest expire', async () => {
    const ref = await algorithm(db.pool, userId, { buy: 'crossover(ema(close, 5), ema(close, 13))', sell: 'crossunder(ema(close, 5), ema(close, 13))' });
    const config = deployable(ref, { interval: 5, manual: true });
    const runId = await marketRunRow(config, istEpochMs(TODAY, '08:00'));
    const decided: Array<{ id: string; accept: boolean }> = [];
    const outcome = await playSession(runId, async () => {
      const { rows } = await db.pool.query<{ pending_signal_id: string }>(
        `SELECT pending_signal_id FROM pending_signals WHERE run_id = $1 AND state = 'PENDING' ORDER BY created_at`, [runId]);
      for (const row of rows) {
        // The accept, reject, accept pattern; later ones are left to expire.
        if (decided.length >= 3) break;
        const accept = decided.length !== 1;
        // This session is two days in the database's past: its signals' expiry is moved past the database's clock.
        await db.pool.query(`UPDATE pending_signals SET expires_at = now() + interval '1 day' WHERE pending_signal_id = $1`, [row.pending_signal_id]);
        const confirmed = await confirmSignal(db.pool, { actorId: userId, userId, pendingSignalId: row.pending_signal_id, accept });
        expect(confirmed.ok).toBe(true);
        decided.push({ id: row.pending_signal_id, accept });
      }
    });
    expect(outcome.sessionEnded).toBe(true);
    expect(decided.length).toBe(3);
    const { rows: signals } = await db.pool.query<{ pending_signal_id: string; state: string; outcome: string; payload: { action: string; bar: number; takenAt?: number } }>(
      'SELECT pending_signal_id, state, outcome, payload FROM pending_signals WHERE run_id = $1 ORDER BY created_at', [runId]);
    expect(signals.length).toBeGreaterThan(3);
    expect(signals.every((signal) => signal.state === 'PROCESSED')).toBe(true);
    const accepted = signals.filter((signal) => signal.outcome === 'ACCEPTED');
    expect(accepted.map((signal) => signal.pending_signal_id)).toEqual(decided.filter((entry) => entry.accept).map((entry) => entry.id));
    expect(signals.filter((signal) => signal.outcome === 'REJECTED').map((signal) => signal.pending_signal_id)).toEqual([decided[1]!.id]);
    expect(signals.filter((signal) => !decided.some((entry) => entry.id === signal.pending_signal_id)).every((signal) => signal.outcome === 'EXPIRED')).toBe(true);
    // Each accepted signal was taken at a bar's close after it was raised and traded at the next bar's open; nothing else traded on a signal.
    const ledger = outcome.result!.fills;
    const signalled = ledger.filter((fill) => fill.reason === 'entry' || fill.reason === 'signal');
    expect(signalled.length).toBeGreaterThan(0);
    const takenOpens = accepted.map((signal) => {
      expect(signal.payload.takenAt).toBeGreaterThan(signal.payload.bar);
      return signal.payload.takenAt! + 5 * 60_000;
    });
    for (const fill of signalled) expect(takenOpens).toContain(fill.time);
    expect(ledgerRows(outcome.result!)).toEqual(await storedFills(db.pool, runId));
  }, 240_000);

  it('swing: holds a position overnight from one session\'s run to the same run\'s next session, with the backtest kernel\'s fills over both', async () => {
    const ref = await algorithm(db.pool, userId, { buy: 'time() >= "15:00"', sell: 'time() >= "09:30" and time() < "09:45"' });
    const runId = await marketRunRow(deployable(ref, { interval: 5, type: 'swing' }), istEpochMs(TODAY, '08:00'));
    const open = await openSession();
    const market = { feed: open.feed, pastTicks: (id: number, from: number, to: number) => open.market.pastTicks(id, from, to) };
    const first = runMarketSession({ pool: db.pool, runId, market, scheduler: open.scheduler });
    await open.play();
    const day1 = await first;
    expect(day1).toMatchObject({ session: TODAY, sessionEnded: true, continues: true });
    const { rows: overnight } = await db.pool.query<{ net_quantity: number; mark: string; cost: string; unrealised: string }>(
      `SELECT net_quantity, mark_price_paise::text AS mark, open_cost_paise::text AS cost, unrealised_pnl_paise::text AS unrealised
       FROM positions WHERE run_id = $1 AND net_quantity <> 0`, [runId]);
    expect(overnight.length).toBe(1);
    // Held overnight, valued at the session's last mark: long units x mark less their cost.
    const held = overnight[0]!;
    expect(held.net_quantity).toBeGreaterThan(0);
    expect(Number(held.unrealised)).toBe(held.net_quantity * Number(held.mark) - Number(held.cost));
    expect(Number(held.unrealised)).not.toBe(0);
    // The next session: the same run, its first session played again from the market's own ticks, then live.
    const second = runMarketSession({ pool: db.pool, runId, market, scheduler: open.scheduler });
    await open.play(undefined, { date: NEXT_SESSION });
    const day2 = await second;
    await open.market.stop();
    expect(day2).toMatchObject({ session: NEXT_SESSION, sessionEnded: true, continues: true });
    const expected = ledgerRows(await referenceOf(runId, NEXT_SESSION));
    const actual = await storedFills(db.pool, runId);
    expect(expected.length).toBeGreaterThanOrEqual(3);
    expect(actual).toEqual(expected);
    expect(ledgerRows(day2.result!)).toEqual(actual);
    const { rows: orders } = await db.pool.query<{ product: string }>('SELECT DISTINCT product FROM orders WHERE run_id = $1', [runId]);
    expect(orders).toEqual([{ product: 'NRML' }]);
    await positionsMatchFills(runId);
  }, 300_000);

  it('resumed mid-session (another worker took it over) plays the market\'s own ticks again and ends with the fills of a run never interrupted', async () => {
    const ref = await algorithm(db.pool, userId, { buy: 'crossover(ema(close, 3), ema(close, 8))', sell: 'crossunder(ema(close, 3), ema(close, 8))' });
    const config = deployable(ref, {
      interval: 3, stopLoss: { kind: 'percent', percent: 0.05 }, target: { kind: 'percent', percent: 0.08 }, trailingStop: { kind: 'percent', percent: 0.04 },
    });
    const straight = await marketRunRow(config, istEpochMs(TODAY, '08:00'));
    const resumed = await marketRunRow(config, istEpochMs(TODAY, '08:00'));
    const open = await openSession();
    const market = { feed: open.feed, pastTicks: (id: number, from: number, to: number) => open.market.pastTicks(id, from, to) };
    const release = new AbortController();
    const whole = runMarketSession({ pool: db.pool, runId: straight, market, scheduler: open.scheduler });
    const firstPart = runMarketSession({ pool: db.pool, runId: resumed, market, scheduler: open.scheduler, signal: release.signal });
    const noon = istEpochMs(TODAY, '12:00:30');
    await open.play(undefined, { until: noon, consumers: 2 });
    release.abort(RELEASE);
    expect(await firstPart).toMatchObject({ released: true });
    const before = (await storedFills(db.pool, resumed)).length;
    expect(before).toBeGreaterThan(0);
    const rest = runMarketSession({ pool: db.pool, runId: resumed, market, scheduler: open.scheduler });
    await open.play(undefined, { consumers: 2 });
    const [straightOutcome, resumedOutcome] = await Promise.all([whole, rest]);
    await open.market.stop();
    expect(straightOutcome.sessionEnded && resumedOutcome.sessionEnded).toBe(true);
    const expected = await storedFills(db.pool, straight);
    expect(expected.some((fill) => fill.time % 15_000 !== 0)).toBe(true);
    expect(await storedFills(db.pool, resumed)).toEqual(expected);
    expect(ledgerRows(resumedOutcome.result!)).toEqual(expected);
    const { rows } = await db.pool.query<{ dup: number }>('SELECT count(*)::int - count(DISTINCT client_order_id)::int AS dup FROM orders WHERE run_id = $1', [resumed]);
    expect(rows[0]!.dup).toBe(0);
  }, 300_000);
});
