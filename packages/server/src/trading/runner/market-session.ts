// What every market session shares, a rule strategy's (market-run.ts) or option legs'
// (legs-market-run.ts): the session a run plays, its warm-up, the live loop that plays the feed's
// ticks and closes bars on time, and the catch-up of a resumed run from the market's past ticks or
// the stored minutes.
import { istDate, istEpochMs } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { barStartOf, barWindowOf, candleTickColumns, candleTicks } from '@vyuha/engine';
import type { BacktestResult, BarSeries, FeedEnd, FeedPort, FeedTick, SteppedRun } from '@vyuha/engine';
import { previousTradingDay, sessionOf, tradingDaysBetween } from '@vyuha/market';
import type pg from 'pg';
import { loadRunCandles } from '../../backtest/stored-candles';
import type { Scheduler } from '../feeds/scheduler';
import { PaperDivergence } from './paper-run';
import { PaperRunFailure, RELEASE } from './replay-common';
import type { PaperReplayControl, PaperReplaySummary } from './replay-common';

/** Sessions of stored bars before the run's session that warm its indicators up. */
export const WARM_UP_SESSIONS = 5;
/** After a bar's window ends, how long the run waits for late ticks before closing it on time. */
export const CLOSE_GRACE_MS = 1_500;
/** A run wakes this long before its session opens, to load its warm-up ... */
export const WAKE_BEFORE_OPEN_MS = 60_000;
/** ... and a swing run this long, to play its earlier sessions again first. */
export const SWING_WAKE_BEFORE_OPEN_MS = 20 * 60_000;
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
export function sessionFor(startedAt: number): { date: IsoDate; open: number; close: number } {
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

/** What a market session plays ticks into and closes bars of on time (PaperRun, LegsPaperRun). */
export interface MarketSessionRun {
  onTick(tick: FeedTick): Promise<void>;
  closeDue(now: number): Promise<boolean>;
}

/**
 * The live part of a session (a rule strategy's or option legs'): the feed's ticks from
 * `liveFrom` until the close through the run, and each bar closed on time (CLOSE_GRACE_MS after
 * its window ends, without waiting for a next tick), one at a time, until the session's last bar
 * closed or `signal` aborted. Returns how the feed ended and the first failure of a bar close,
 * which ends the feed.
 */
export async function playLive(request: {
  feed: FeedPort; scheduler: Scheduler; signal: AbortSignal | undefined; session: { open: number; close: number }; intervalMinutes: number;
  run: MarketSessionRun; liveFrom: number;
}): Promise<{ end: FeedEnd; failure: unknown }> {
  const { feed, scheduler, signal, session, intervalMinutes, run } = request;
  const aborted = (): boolean => signal?.aborted === true;
  // Ticks and bar closes on time, one at a time.
  let work: Promise<unknown> = Promise.resolve();
  const serially = <T>(step: () => Promise<T>): Promise<T> => {
    const next = work.then(step);
    work = next.catch(() => undefined);
    return next;
  };
  let failure: unknown;
  // The feed failed (a tick's handling threw): the closer stops too, not at the session's close. A
  // feed the market stopped keeps the closer going until the run is released or the session ends.
  const feedEnded = new AbortController();
  const closerSignal = signal === undefined ? feedEnded.signal : AbortSignal.any([signal, feedEnded.signal]);
  const closer = (async () => {
    let barEnd = barWindowOf({ start: barStartOf(Math.max(scheduler.now(), session.open), intervalMinutes), intervalMinutes, exchange: 'NSE' }).end;
    while (!aborted() && !feedEnded.signal.aborted && failure === undefined) {
      await scheduler.sleepUntil(barEnd + CLOSE_GRACE_MS, closerSignal);
      if (aborted() || feedEnded.signal.aborted) break;
      await serially(() => run.closeDue(barEnd));
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
    onTick: (tick: FeedTick) => (tick.time < request.liveFrom || tick.time >= session.close ? undefined : serially(() => run.onTick(tick))),
  });
  signal?.removeEventListener('abort', stop);
  if (end.reason === 'failed') feedEnded.abort();
  await closer;
  await work;
  return { end, failure };
}

/**
 * Plays the stored 1-minute candles of the instrument from `from` (a bar start) to the last one
 * stored before `until` through the paper run, four ticks each (the documented path, as a replay
 * plays them). Returns the time live ticks take over from: the end of the last minute played (or
 * `from`).
 */
export async function playStoredMinutes(request: {
  pool: pg.Pool; paper: Pick<MarketSessionRun, 'onTick'>; instrumentId: number; dates: { from: IsoDate; to: IsoDate }; from: number; until: number;
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
export async function playPastTicks(paper: Pick<MarketSessionRun, 'onTick'>, ticks: AsyncIterable<FeedTick>, span: { from: number; until: number }): Promise<number> {
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
export function barsBetween(request: { from: number; first: { date: IsoDate; close: number }; last: { date: IsoDate }; intervalMinutes: number }): number {
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

/** The warm-up: the first `count` stored bars stepped through the kernel, as a replay steps them. */
export function stepStoredBars(stepped: Pick<SteppedRun, 'append' | 'step'>, stored: BarSeries, count: number): void {
  for (let index = 0; index < count; index += 1) {
    stepped.append({
      time: stored.time[index] as number, open: stored.open[index] as number, high: stored.high[index] as number,
      low: stored.low[index] as number, close: stored.close[index] as number, volume: stored.volume[index] as number,
    });
    stepped.step();
  }
}

/** What `endSession` needs of a session's paper run (PaperRun, LegsPaperRun). */
export interface EndingRun {
  readonly barsProcessed: number;
  readonly fills: number;
  stop(options: { readonly squareOff: boolean }): Promise<number>;
  detach(): void;
  finish(): Promise<void>;
}

/**
 * A live session's end, as its run reports it: a failed tick or feed squares off and throws (a
 * PaperRunFailure carrying what it squared off); a release leaves the run as it is for the next
 * holder; a stop squares off when asked; otherwise the session is over, and the day ends
 * "squared off" by the units its intraday square-off closed. Pending MANUAL signals expire unless
 * released.
 */
export async function endSession(request: {
  readonly played: { readonly end: FeedEnd; readonly failure: unknown };
  readonly signal: AbortSignal | undefined;
  readonly run: EndingRun;
  readonly oms: { settled(): Promise<void> };
  readonly gate: { expire(): Promise<number> } | undefined;
  readonly stepped: Pick<SteppedRun, 'ledger' | 'result'>;
  readonly session: { readonly date: IsoDate };
  /** A swing run goes on with the next session. */
  readonly continues: boolean;
}): Promise<MarketRunOutcome> {
  const { played, signal, run, gate, stepped, session } = request;
  const outcome = (summary: { stopped: boolean; released: boolean; squaredOff: number; sessionEnded: boolean; continues: boolean }): MarketRunOutcome => ({
    bars: run.barsProcessed, fills: run.fills, ...summary, session: session.date, result: stepped.result(),
  });
  if (played.failure !== undefined || played.end.reason === 'failed') {
    const reason = played.failure !== undefined ? played.failure : new PaperRunFailure(played.end.reason === 'failed' ? played.end.message : 'the feed failed');
    if (!(reason instanceof PaperRunFailure) && !(reason instanceof PaperDivergence)) throw reason;
    await request.oms.settled();
    const squaredOff = await run.stop({ squareOff: true }).catch(() => 0);
    await gate?.expire().catch(() => 0);
    if (reason instanceof PaperRunFailure) reason.squaredOff = squaredOff;
    throw reason;
  }
  if (signal?.aborted === true && signal.reason === RELEASE) {
    run.detach();
    return outcome({ stopped: false, released: true, squaredOff: 0, sessionEnded: false, continues: false });
  }
  if (signal?.aborted === true) {
    const squareOff = (signal.reason as { squareOff?: unknown } | undefined)?.squareOff === true;
    const squaredOff = await run.stop({ squareOff });
    await gate?.expire();
    return outcome({ stopped: true, released: false, squaredOff, sessionEnded: false, continues: false });
  }
  await run.finish();
  await gate?.expire();
  const squaredOff = stepped.ledger.fills.filter((fill) => fill.reason === 'square-off' && istDate(fill.time) === session.date)
    .reduce((units, fill) => units + fill.quantity, 0);
  return outcome({ stopped: false, released: false, squaredOff, sessionEnded: true, continues: request.continues });
}
