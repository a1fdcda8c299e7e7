// A PAPER run on the market as it happens: one NSE session of a strategy deployed without a replay
// range, on a live feed (the simulated market now: synthetic ticks continuing the demo world's
// history, a tick a second; a broker's ticker in issue 17). The same runtime as a replay
// (paper-run.ts: candle builder, stepped kernel, OMS, paper venue), with three differences:
//
// - Many ticks a bar. The kernel adopts the venue's stops and targets (engine kernel/adopted-venue.ts)
//   instead of checking them against its own four-tick match of the bar, and an index's futures
//   chain is priced bar by bar as the bars come (engine FuturesChain `live`; each tick's traded
//   price is the model on its bar's carry, so a bar's futures prices are its ticks').
// - Bars close on time. The session's last bar (and any bar of a quiet market) closes when its
//   window ends, without waiting for a next tick.
// - A session is a run, for an intraday strategy: it waits (leased, heartbeating) for the
//   session, warms its indicators up on the stored bars of the sessions before (WARM_UP_SESSIONS)
//   and of the session's minutes before the run started, and ends COMPLETE after the close; the
//   runner then opens the next session's run for the strategy (strategy-runners.ts).
// - A swing strategy's run goes on from session to session: after each close the runner calls
//   this again for the same run, which plays the run's earlier sessions again (as a restart does)
//   and then the new one live. A position held overnight stays in the run, the futures roll on the
//   expiry day as the backtest rolls them (engine FuturesChain, live), and the catch-up grows with
//   the run's age (a session of one index is 22,500 ticks, played in about a second).
//
// MANUAL. With `config.manual` the program's signals wait for the user (pending-signals.ts and
// engine kernel/confirmed-signals.ts): each becomes a pending signal, and the kernel acts on one
// at the first bar close after it was accepted (stops, targets and the square-off never wait).
// What is still pending when the session ends expires.
//
// Restarts. A run resumed mid-session (another worker took it over, the server restarted) plays
// what the market made since the start of the bar the run started in through the same paper run
// before it goes live: the simulated market's own ticks, regenerated exactly (`pastTicks`), or,
// from a market that cannot regenerate them, its stored 1-minute candles as four ticks each (the
// documented path: then a trailing stop may meet the levels in another order than it did live).
// Decisions stored before the restart are answered from their rows (never sent twice), and what
// it missed while down is decided and filled on paper at the prices of that time, as it would have
// been.
import { istDate } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { barStartOf, DEFAULT_BACKTEST_CONFIG, FuturesChain, GrowingBarSeries, startSteppedRun } from '@vyuha/engine';
import { contractInstrumentId } from '../../jobs/backtest-results';
import { ManualScheduler } from '../feeds/scheduler';
import { SIMULATED_MARKET_NOT_LIVE, withFollowers } from '../follow/follower-desk';
import type { RunMirror } from '../follow/run-mirror';
import { runLegsMarketSession } from './legs-market-run';
import { barsBetween, endSession, playLive, playPastTicks, playStoredMinutes, sessionFor, stepStoredBars, SWING_WAKE_BEFORE_OPEN_MS, WAKE_BEFORE_OPEN_MS, warmUpFrom } from './market-session';
import type { MarketRunOptions, MarketRunOutcome } from './market-session';
import { withPaperOms } from './paper-oms';
import { PaperDivergence, PaperRun, type RunVenue } from './paper-run';
import type { Oms } from '../oms/oms';
import { gatedProgram } from './pending-signals';
import { compiledAlgorithmOf, paperConfigOf, PaperRunFailure, prepareDeployedRange, readPaperRunParams, RELEASE, sizingOf } from './replay-run';
import type { PaperRunParams } from './replay-run';

export { CLOSE_GRACE_MS, WARM_UP_SESSIONS, warmUpFrom } from './market-session';
export type { MarketRunOptions, MarketRunOutcome, MarketSource } from './market-session';


/** What a run's session has prepared before it trades: the kernel warmed up, the session, the contract chain. */
export interface PreparedMarketSession {
  readonly run: { readonly user_id: string; readonly strategy_id: string | null; readonly algo_id: string | null };
  readonly params: PaperRunParams;
  readonly instrumentId: number;
  readonly swing: boolean;
  readonly first: ReturnType<typeof sessionFor>;
  readonly session: ReturnType<typeof sessionFor>;
  readonly ownFrom: number;
  readonly intervalMinutes: number;
  readonly series: GrowingBarSeries;
  readonly stepped: ReturnType<typeof startSteppedRun>;
  readonly chain: FuturesChain | undefined;
  readonly plan: Awaited<ReturnType<typeof prepareDeployedRange>>['plan'];
  readonly dailyMaxLoss: number | undefined;
  readonly gate: ReturnType<typeof gatedProgram>['gate'];
}

/** How a session's orders are executed: the paper venue (runMarketSession) or a broker's (live-run.ts). */
export interface MarketOrderSide {
  readonly oms: Oms;
  readonly venue: RunVenue;
  readonly fills: 'verify' | 'adopt';
  /** The market clock the run's PaperRun moves (the paper venue's and its OMS's clock on paper). */
  readonly clock: ManualScheduler;
  readonly entriesBlocked?: () => boolean;
  readonly brokerReady?: () => Promise<void>;
  readonly notSent?: (statusMessage: string | null) => boolean;
  /** A published strategy's followers on paper (follow/follower-desk.ts), copying this run's orders. */
  readonly mirror?: RunMirror;
}

/**
 * Runs one session of a PAPER strategy deployed on the market. The caller owns the run's status
 * (strategy-runners.ts); the run row's params name no replay.
 */
export async function runMarketSession(options: MarketRunOptions): Promise<MarketRunOutcome> {
  const prepared = await prepareMarketSession(options, 'PAPER');
  if (!('stepped' in prepared)) return prepared;
  const { stepped, ownFrom, run } = prepared;
  // Moved at every tick: no event-loop turns when nothing sleeps until then (scheduler.ts).
  const clock = new ManualScheduler(ownFrom, { settle: 'when-waking' });
  const orders = {
    pool: options.pool, runId: options.runId, userId: run.user_id, strategyId: run.strategy_id, algoId: run.algo_id, clock, killSwitches: options.killSwitches, log: options.log,
    rules: { tickSizePaise: stepped.config.tickSize, slippage: stepped.config.slippage }, charges: stepped.config.charges, strategyMaxLossPaise: prepared.dailyMaxLoss,
  };
  // A published strategy's subscribers follow the session on paper (follow/follower-desk.ts): its prices are
  // the simulated market's, so a LIVE subscription sends nothing to its broker and is told why. A swing run
  // going on with the next session keeps its followers' runs for it, as a hand-over does.
  const following = { ...orders, publisherRunId: options.runId, market: { liveRefused: SIMULATED_MARKET_NOT_LIVE } };
  const ending = {
    released: (outcome: MarketRunOutcome) => outcome.released || outcome.continues,
    isRunEnding: (error: unknown) => error instanceof PaperRunFailure || error instanceof PaperDivergence,
  };
  return withPaperOms(orders, ({ oms, venue }) => withFollowers(following, (mirror) =>
    tradeMarketSession(options, prepared, { oms, venue, fills: 'verify', clock, ...(mirror === undefined ? {} : { mirror }) }), ending));
}

/**
 * A run's session up to the moment it trades: the run row (of `kind`), the wait (leased) for the
 * session, the program, the stored bars the kernel warms up on, the futures chain of an index.
 * Returns the outcome instead when the run ends before its session (a stop or a hand-over).
 */
export async function prepareMarketSession(options: MarketRunOptions, kind: 'PAPER' | 'LIVE'): Promise<PreparedMarketSession | MarketRunOutcome> {
  const { pool, runId, scheduler, signal } = options;
  const { rows } = await pool.query<{ user_id: string; strategy_id: string | null; params: unknown; algo_id: string | null; started_ms: string }>(
    `SELECT r.user_id, r.strategy_id, r.params, s.algo_id, (extract(epoch FROM r.started_at) * 1000)::bigint::text AS started_ms
     FROM strategy_runs r LEFT JOIN strategies s ON s.strategy_id = r.strategy_id WHERE r.run_id = $1 AND r.kind = $2`, [runId, kind]);
  const run = rows[0];
  if (run === undefined) throw new PaperRunFailure(`run ${runId} is not a ${kind} run`);
  const params = readPaperRunParams(run.params);
  if (!params.ok) throw new PaperRunFailure(params.error);
  const { config, instrumentId } = params.value;
  if (params.value.replay !== null) throw new PaperRunFailure('this run replays stored history; the replay runner runs it');
  if (config.legs !== null) {
    if (kind === 'LIVE') throw new PaperRunFailure('option legs are not traded LIVE yet: deploy them on PAPER');
    return runLegsMarketSession(options, { run, config, legs: config.legs, instrumentId, pauses: params.value.pauses });
  }
  const swing = config.type === 'swing';

  // An intraday run is one session; a swing run goes on from session to session (the runner calls
  // this again after each close) and plays its earlier sessions again to rebuild its state.
  const first = sessionFor(Number(run.started_ms));
  const session = swing ? sessionFor(Math.max(scheduler.now(), first.open)) : first;
  const nothing = (released: boolean, at: IsoDate | undefined): MarketRunOutcome => ({
    bars: 0, fills: 0, stopped: !released, released, squaredOff: 0, session: at, sessionEnded: false, continues: false, result: undefined,
  });
  // Wait, leased, for the session (a run deployed in the evening trades tomorrow).
  // Read through a function: TypeScript would keep the first check's narrowing across the awaits.
  const aborted = (): boolean => signal?.aborted === true;
  await scheduler.sleepUntil(session.open - (swing ? SWING_WAKE_BEFORE_OPEN_MS : WAKE_BEFORE_OPEN_MS), signal);
  if (aborted()) return nothing(signal?.reason === RELEASE, undefined);

  const program = await compiledAlgorithmOf(pool, config);
  const intervalMinutes = config.interval;
  // Bars from the start of the bar the run started in are the run's own: played as ticks (a resume) or live.
  const runStart = Math.max(Number(run.started_ms), first.open);
  const ownFrom = barStartOf(runStart, intervalMinutes);
  const prepared = await prepareDeployedRange(pool, {
    config, instrumentId, dateRange: { from: warmUpFrom(first.date), to: session.date }, needs: 'the strategy needs stored bars to warm up on',
  });
  const stored = prepared.series;
  let warmUp = 0;
  while (warmUp < stored.length && (stored.time[warmUp] as number) < ownFrom) warmUp += 1;
  const series = new GrowingBarSeries(warmUp + barsBetween({ from: ownFrom, first, last: session, intervalMinutes }));
  const { plan } = prepared;
  const chain = plan.kind === 'index-futures'
    ? new FuturesChain({
      underlying: plan.underlying, index: series, type: config.type, rollTime: DEFAULT_BACKTEST_CONFIG.squareOff, live: true, intervalMinutes, sizing: sizingOf(config).futuresSizing,
    })
    : undefined;
  // MANUAL: the program's signals wait for the user's confirmation (pending-signals.ts).
  const { gate, source } = gatedProgram(program, {
    manual: config.manual, pool, runId, strategyId: run.strategy_id, userId: run.user_id, instrument: config.instrument, series, expiresAt: session.close, signalsFrom: warmUp,
  });
  const stepped = startSteppedRun({
    series, program: source, intervalMinutes, config: paperConfigOf(prepared, config), signalsFrom: warmUp, adoptFills: true,
    ...(chain === undefined ? {} : { contracts: chain }),
  });
  if (gate !== undefined) gate.direction = stepped.config.direction;
  stepStoredBars(stepped, stored, warmUp);
  return {
    run, params: params.value, instrumentId, swing, first, session, ownFrom, intervalMinutes, series, stepped, chain, plan,
    dailyMaxLoss: prepared.config.dailyMaxLoss, gate,
  };
}

/**
 * The session traded: the run's PaperRun on the given order side, the minutes it missed played
 * (a resume), then the market live until the session closes or the run is stopped.
 */
export async function tradeMarketSession(options: MarketRunOptions, prepared: PreparedMarketSession, side: MarketOrderSide): Promise<MarketRunOutcome> {
  const { pool, runId, scheduler, signal } = options;
  const { instrumentId, swing, first, session, ownFrom, intervalMinutes, series, stepped, chain, plan, gate } = prepared;
  const { oms, venue, clock } = side;
  const feed = options.market.feed();
  try {
    const underlying = { instrumentId, tradingSymbol: plan.kind === 'index-futures' ? plan.underlying : stepped.config.instrument };
    const paper = new PaperRun({
      runId, stepped, series, intervalMinutes, exchange: 'NSE', signalInstrumentId: instrumentId, oms, venue, clock, fills: side.fills,
      product: !swing ? 'MIS' : plan.kind === 'index-futures' ? 'NRML' : 'CNC',
      ...(chain === undefined ? {} : {
        tradedPrices: chain.prices, contractAt: (index: number) => chain.symbolAt(index),
        tradedTickPrice: (index: number, price: number) => chain.tickPrice(index, price),
      }),
      instrumentIdOf: async (symbol) => (symbol === stepped.config.instrument ? instrumentId
        : contractInstrumentId(pool, { underlying, symbol, tradeDate: istDate(clock.now()) })),
      ...(options.pauses === undefined ? {} : { pauses: options.pauses }),
      ...(gate === undefined ? {} : { signalGate: gate }),
      ...(side.entriesBlocked === undefined ? {} : { entriesBlocked: side.entriesBlocked }),
      ...(side.brokerReady === undefined ? {} : { brokerReady: side.brokerReady }),
      ...(side.notSent === undefined ? {} : { notSent: side.notSent }),
      ...(side.mirror === undefined ? {} : { mirror: side.mirror }),
      ...(options.log === undefined ? {} : { log: options.log }),
    });
    options.onPaperRun?.(paper);
    // Subscribed before the stored minutes are read: a minute stored meanwhile is in the queue.
    const subscribed = feed.subscribe([instrumentId]);
    if (!subscribed.ok) throw new PaperRunFailure(subscribed.error.map((issue) => `${issue.field}: ${issue.message}`).join('; '));
    const until = scheduler.now();
    const past = options.market.pastTicks?.(instrumentId, ownFrom, until);
    const liveFrom = past === undefined
      ? await playStoredMinutes({ pool, paper, instrumentId, dates: { from: first.date, to: session.date }, from: ownFrom, until })
      : await playPastTicks(paper, past, { from: ownFrom, until });

    const played = await playLive({ feed, scheduler, signal, session, intervalMinutes, run: paper, liveFrom });
    return await endSession({ played, signal, run: paper, oms, gate, stepped, session, continues: swing });
  } finally {
    feed.stop();
  }
}
