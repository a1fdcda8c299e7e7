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
import { istDate, istEpochMs } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { barStartOf, barWindowOf, candleTickColumns, candleTicks, ConfirmedSignals, DEFAULT_BACKTEST_CONFIG, FuturesChain, GrowingBarSeries, startSteppedRun } from '@vyuha/engine';
import type { BacktestResult, FeedPort, FeedTick } from '@vyuha/engine';
import { previousTradingDay, sessionOf, tradingDaysBetween } from '@vyuha/market';
import type pg from 'pg';
import { loadRunCandles } from '../../backtest/stored-candles';
import { contractInstrumentId } from '../../jobs/backtest-results';
import { ManualScheduler } from '../feeds/scheduler';
import type { Scheduler } from '../feeds/scheduler';
import { withPaperOms } from './paper-oms';
import { PaperDivergence, PaperRun } from './paper-run';
import { PendingSignalGate } from './pending-signals';
import { compiledAlgorithmOf, paperConfigOf, PaperRunFailure, prepareDeployedRange, readPaperRunParams, RELEASE, sizingOf } from './replay-run';
import type { PaperReplayControl, PaperReplaySummary } from './replay-run';

/** Sessions of stored bars before the run's session that warm its indicators up. */
export const WARM_UP_SESSIONS = 5;
/** After a bar's window ends, how long the run waits for late ticks before closing it on time. */
export const CLOSE_GRACE_MS = 1_500;
/** A run wakes this long before its session opens, to load its warm-up ... */
const WAKE_BEFORE_OPEN_MS = 60_000;
/** ... and a swing run this long, to play its earlier sessions again first. */
const SWING_WAKE_BEFORE_OPEN_MS = 20 * 60_000;
const MS_PER_MINUTE = 60_000;

/** The market a run trades on: its live feed, and the ticks it made before (when it can say). */
export interface MarketSource {
  /** A new feed of the market (one per run: the simulated market's `feed()`). */
  feed(): FeedPort;
  /**
   * The ticks of `instrumentId` the market made from `fromMs` until before `toMs`, exactly as it
   * made them live (the simulated market regenerates its sessions); undefined when it cannot
   * (then a resume plays the stored 1-minute candles instead).
   */
  pastTicks?(instrumentId: number, fromMs: number, toMs: number): AsyncIterable<FeedTick>;
}

export interface MarketRunOptions extends Omit<PaperReplayControl, 'pacing'> {
  readonly pool: pg.Pool;
  readonly runId: string;
  readonly market: MarketSource;
  /** The wall clock (a manual one in tests): when sessions open and bars end. */
  readonly scheduler: Scheduler;
}

/** What a market run did: a replay's summary, the kernel's result (none when it ended before its session), and the session. */
export interface MarketRunOutcome extends PaperReplaySummary {
  readonly result: BacktestResult | undefined;
  /** The session's date; undefined when the run ended before a session began. */
  readonly session: IsoDate | undefined;
  /** True when the session closed with the run still going: the strategy goes on with the next session's run. */
  readonly sessionEnded: boolean;
  /** With `sessionEnded`: the same run goes on with the next session (a swing strategy holds across sessions). */
  readonly continues: boolean;
}

/** Epoch ms of an IST date's minute of day. */
function minuteMs(date: IsoDate, minute: number): number {
  return istEpochMs(date, '00:00') + minute * MS_PER_MINUTE;
}

/** The session a run started at `startedAt` plays: the one open then, or the next to open. */
function sessionFor(startedAt: number): { date: IsoDate; open: number; close: number } {
  let date = istDate(startedAt);
  for (let guard = 0; guard < 30; guard += 1) {
    const session = sessionOf('NSE', date);
    if (session !== undefined && minuteMs(date, session.close) > startedAt) {
      return { date, open: minuteMs(date, session.open), close: minuteMs(date, session.close) };
    }
    date = istDate(istEpochMs(date, '12:00') + 86_400_000);
  }
  throw new PaperRunFailure(`no NSE session in the 30 days after ${istDate(startedAt)}`);
}

/** The first day of a session's warm-up: WARM_UP_SESSIONS trading days before it. @example warmUpFrom('2026-11-25') // '2026-11-17' */
export function warmUpFrom(date: IsoDate): IsoDate {
  let day = date;
  for (let step = 0; step < WARM_UP_SESSIONS; step += 1) day = previousTradingDay('NSE', day);
  return day;
}

/**
 * Runs one session of a PAPER strategy deployed on the market. The caller owns the run's status
 * (strategy-runners.ts); the run row's params name no replay.
 */
export async function runMarketSession(options: MarketRunOptions): Promise<MarketRunOutcome> {
  const { pool, runId, scheduler, signal } = options;
  const { rows } = await pool.query<{ user_id: string; strategy_id: string | null; params: unknown; algo_id: string | null; started_ms: string }>(
    `SELECT r.user_id, r.strategy_id, r.params, s.algo_id, (extract(epoch FROM r.started_at) * 1000)::bigint::text AS started_ms
     FROM strategy_runs r LEFT JOIN strategies s ON s.strategy_id = r.strategy_id WHERE r.run_id = $1 AND r.kind = 'PAPER'`, [runId]);
  const run = rows[0];
  if (run === undefined) throw new PaperRunFailure(`run ${runId} is not a PAPER run`);
  const params = readPaperRunParams(run.params);
  if (!params.ok) throw new PaperRunFailure(params.error);
  const { config, instrumentId } = params.value;
  if (params.value.replay !== null) throw new PaperRunFailure('this run replays stored history; the replay runner runs it');
  if (config.legs !== null) throw new PaperRunFailure('option legs are not run on the market yet');
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
  const gate = config.manual && run.strategy_id !== null
    ? new PendingSignalGate({
      pool, runId, strategyId: run.strategy_id, userId: run.user_id, instrument: config.instrument, series, expiresAt: session.close, signalsFrom: warmUp,
    })
    : undefined;
  const source = gate === undefined ? program : {
    exits: program.exits,
    createProgram: (grown: GrowingBarSeries, created: { intervalMinutes: number }) => new ConfirmedSignals(program.createProgram(grown, created), gate),
  };
  const stepped = startSteppedRun({
    series, program: source, intervalMinutes, config: paperConfigOf(prepared, config), signalsFrom: warmUp, adoptFills: true,
    ...(chain === undefined ? {} : { contracts: chain }),
  });
  if (gate !== undefined) gate.direction = stepped.config.direction;
  for (let index = 0; index < warmUp; index += 1) {
    stepped.append({
      time: stored.time[index] as number, open: stored.open[index] as number, high: stored.high[index] as number,
      low: stored.low[index] as number, close: stored.close[index] as number, volume: stored.volume[index] as number,
    });
    stepped.step();
  }

  const clock = new ManualScheduler(ownFrom);
  const orders = {
    pool, runId, userId: run.user_id, strategyId: run.strategy_id, algoId: run.algo_id, clock, killSwitches: options.killSwitches, log: options.log,
    rules: { tickSizePaise: stepped.config.tickSize, slippage: stepped.config.slippage }, charges: stepped.config.charges, strategyMaxLossPaise: prepared.config.dailyMaxLoss,
  };
  const feed = options.market.feed();
  try {
    return await withPaperOms(orders, async ({ oms, venue }) => {
      const underlying = { instrumentId, tradingSymbol: plan.kind === 'index-futures' ? plan.underlying : stepped.config.instrument };
      const paper = new PaperRun({
        runId, stepped, series, intervalMinutes, exchange: 'NSE', signalInstrumentId: instrumentId, oms, venue, clock,
        product: !swing ? 'MIS' : plan.kind === 'index-futures' ? 'NRML' : 'CNC',
        ...(chain === undefined ? {} : {
          tradedPrices: chain.prices, contractAt: (index: number) => chain.symbolAt(index),
          tradedTickPrice: (index: number, price: number) => chain.tickPrice(index, price),
        }),
        instrumentIdOf: async (symbol) => (symbol === stepped.config.instrument ? instrumentId
          : contractInstrumentId(pool, { underlying, symbol, tradeDate: istDate(clock.now()) })),
        ...(options.pauses === undefined ? {} : { pauses: options.pauses }),
        ...(gate === undefined ? {} : { signalGate: gate }),
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

      // Ticks and bar closes on time, one at a time.
      let work: Promise<unknown> = Promise.resolve();
      const serially = <T>(step: () => Promise<T>): Promise<T> => {
        const next = work.then(step);
        work = next.catch(() => undefined);
        return next;
      };
      let failure: unknown;
      const closer = (async () => {
        let barEnd = barWindowOf({ start: barStartOf(Math.max(scheduler.now(), session.open), intervalMinutes), intervalMinutes, exchange: 'NSE' }).end;
        while (!aborted() && failure === undefined) {
          await scheduler.sleepUntil(barEnd + CLOSE_GRACE_MS, signal);
          if (aborted()) break;
          await serially(() => paper.closeDue(barEnd));
          if (barEnd >= session.close) break;
          barEnd = barWindowOf({ start: barEnd, intervalMinutes, exchange: 'NSE' }).end;
        }
        feed.stop();
      })().catch((error: unknown) => {
        failure ??= error;
        feed.stop();
      });
      const stop = (): void => feed.stop();
      signal?.addEventListener('abort', stop, { once: true });
      const end = await feed.run({
        onTick: (tick: FeedTick) => (tick.time < liveFrom || tick.time >= session.close ? undefined : serially(() => paper.onTick(tick))),
      });
      signal?.removeEventListener('abort', stop);
      await closer;
      await work;
      const outcome = (summary: { stopped: boolean; released: boolean; squaredOff: number; sessionEnded: boolean; continues: boolean }): MarketRunOutcome => ({
        bars: paper.barsProcessed, fills: paper.fills, ...summary, session: session.date, result: stepped.result(),
      });
      if (failure !== undefined || end.reason === 'failed') {
        const reason = failure !== undefined ? failure : new PaperRunFailure(end.reason === 'failed' ? end.message : 'the feed failed');
        if (!(reason instanceof PaperRunFailure) && !(reason instanceof PaperDivergence)) throw reason;
        await oms.settled();
        const squaredOff = await paper.stop({ squareOff: true }).catch(() => 0);
        await gate?.expire().catch(() => 0);
        if (reason instanceof PaperRunFailure) reason.squaredOff = squaredOff;
        throw reason;
      }
      if (aborted() && signal?.reason === RELEASE) {
        paper.detach();
        return outcome({ stopped: false, released: true, squaredOff: 0, sessionEnded: false, continues: false });
      }
      if (aborted()) {
        const squareOff = (signal?.reason as { squareOff?: unknown } | undefined)?.squareOff === true;
        const squaredOff = await paper.stop({ squareOff });
        await gate?.expire();
        return outcome({ stopped: true, released: false, squaredOff, sessionEnded: false, continues: false });
      }
      await paper.finish();
      await gate?.expire();
      // The day ends "squared off" when the intraday square-off closed what was open.
      const sessionDay = istDate(session.open);
      const squaredOff = stepped.ledger.fills.filter((fill) => fill.reason === 'square-off' && istDate(fill.time) === sessionDay)
        .reduce((units, fill) => units + fill.quantity, 0);
      return outcome({ stopped: false, released: false, squaredOff, sessionEnded: true, continues: swing });
    });
  } finally {
    feed.stop();
  }
}

/**
 * Plays the stored 1-minute candles of the instrument from `from` (a bar start) to the last one
 * stored before `until` through the paper run, four ticks each (the documented path, as a replay
 * plays them). Returns the time live ticks take over from: the end of the last minute played (or
 * `from`).
 */
async function playStoredMinutes(request: {
  pool: pg.Pool; paper: PaperRun; instrumentId: number; dates: { from: IsoDate; to: IsoDate }; from: number; until: number;
}): Promise<number> {
  const { paper, from, until } = request;
  if (until <= from) return from;
  const candles = await loadRunCandles({ pool: request.pool, instrumentId: request.instrumentId, dateRange: request.dates, intervalMinutes: 1 });
  const ticks = candleTickColumns();
  let liveFrom = from;
  for (let index = 0; index < candles.length; index += 1) {
    const start = candles.time[index] as number;
    if (start < from) continue;
    const window = barWindowOf({ start, intervalMinutes: 1, exchange: 'NSE' });
    if (window.end > until) break;
    candleTicks({
      open: candles.open[index] as number, high: candles.high[index] as number, low: candles.low[index] as number,
      close: candles.close[index] as number, volume: candles.volume[index] as number,
    }, window, ticks);
    for (let tick = 0; tick < ticks.time.length; tick += 1) {
      await paper.onTick({ instrumentId: request.instrumentId, time: ticks.time[tick] as number, price: ticks.price[tick] as number, volume: ticks.volume[tick] as number, synthetic: true });
    }
    liveFrom = window.end;
  }
  return liveFrom;
}

/** Plays the market's own past ticks from `from` until before `until` through the paper run; returns `until` (live ticks take over there). */
async function playPastTicks(paper: PaperRun, ticks: AsyncIterable<FeedTick>, span: { from: number; until: number }): Promise<number> {
  for await (const tick of ticks) {
    if (tick.time >= span.from && tick.time < span.until) await paper.onTick(tick);
  }
  return Math.max(span.from, span.until);
}

/**
 * Bars of `intervalMinutes` a run may hold from `from` (a bar start in session `first`) to the
 * close of session `last`: each trading day's session split into bars, so the series never
 * outgrows its columns.
 */
function barsBetween(request: { from: number; first: { date: IsoDate; close: number }; last: { date: IsoDate }; intervalMinutes: number }): number {
  const { from, first, last, intervalMinutes } = request;
  const width = intervalMinutes * MS_PER_MINUTE;
  let bars = Math.ceil((first.close - from) / width) + 1;
  for (const date of tradingDaysBetween('NSE', first.date, last.date)) {
    if (date === first.date) continue;
    const day = sessionOf('NSE', date);
    if (day !== undefined) bars += Math.ceil(((day.close - day.open) * MS_PER_MINUTE) / width) + 1;
  }
  return bars;
}
