// Replay: stored candles of a past range played as ticks through the same path the runtime
// takes live, at 1x, 10x, 60x or 600x market time or as fast as the consumer goes (speed 0), so
// a trader can forward-test at any hour and watch the strategy trade.
//
// - The bars are the strategy's: read by the backtest's own loader (backtest/stored-candles.ts)
//   at the strategy's interval, so the runtime's candle builder rebuilds exactly the bars a
//   backtest of the same range sees. That is what makes a paper replay equal to the backtest.
// - Each bar becomes its four ticks (the engine's candleTicks: the one tick path, at the times
//   it defines, inside the bar's window); several instruments interleave by tick time, ties in
//   the order the instruments were asked for.
// - Pacing: a tick is due when the market time since the last anchor, divided by the speed, has
//   passed on the scheduler. Nights, weekends and holidays are skipped: the first tick of a new
//   IST day re-anchors (it is due at once). Pause freezes market time; resume continues from it.
//   Speed 0 uses no timer at all: the next tick goes when the consumer's handler has settled
//   (the loop yields to the event loop every few hundred ticks so stop and pause get in).
// - Ticks are labelled synthetic when the instrument's stored candles in the range include
//   synthetic ones (the demo world's history).
//
// Option and futures contracts: any instrument with stored candles can be listed in
// `instrumentIds` and is played beside the index. Contracts chosen while the strategy runs (an
// ATM leg picked at the signal) would be found the way the backtest finds them (stored-candles.ts:
// StoredLegCandles.find lists the underlying's contracts with candles in the range) and loaded
// when subscribed; that is not built yet. Legs without stored candles need no feed: the
// option-legs trader prices them from the index's bars, as the backtest does.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { addDays, err, istEpochDay, istEpochMs, ok } from '@vyuha/core';
import type { Result } from '@vyuha/core';
import { barWindowOf, candleTickColumns, candleTicks, subscriptionIssues, TICKS_PER_CANDLE } from '@vyuha/engine';
import type { CandleTickColumns, FeedEnd, FeedIssue, FeedPort, FeedTick, TickSink } from '@vyuha/engine';
import type { CandleColumns, SessionExchange } from '@vyuha/market';
import type pg from 'pg';
import { loadRunCandles } from '../../backtest/stored-candles';
import { checkReplayRequest } from './replay-request';
import type { CheckedReplayRequest, ReplayRequest, ReplaySpeed } from './replay-request';
import type { Scheduler } from './scheduler';

/** At speed 0, ticks delivered between two turns of the event loop. */
const TICKS_PER_TURN = 256;

/** Where a replay is. */
export type ReplayState = 'ready' | 'running' | 'paused' | 'ended';

interface Track {
  readonly instrumentId: number;
  readonly exchange: SessionExchange;
  readonly candles: CandleColumns;
  readonly synthetic: boolean;
  readonly intervalMinutes: number;
  bar: number;
  tick: number;
  readonly ticks: CandleTickColumns;
}

export interface ReplayFeedOptions {
  readonly pool: pg.Pool;
  readonly scheduler: Scheduler;
  readonly request: ReplayRequest;
}

/**
 * A replay of stored candles; every instrument asked for is subscribed at the start.
 * @example const feed = await ReplayFeed.load({ pool, scheduler: new WallScheduler(), request: { instrumentIds: [1], from: '2024-06-03', to: '2024-06-07', intervalMinutes: 5, speed: 60 } })
 */
export class ReplayFeed implements FeedPort {
  readonly kind = 'replay' as const;
  readonly speed: ReplaySpeed;
  private readonly subscribed: Set<number>;
  private stateNow: ReplayState = 'ready';
  private delivered = 0;
  private lastTickTime: number | undefined;
  /** Market time and scheduler time of the last anchor (pacing). */
  private anchorMarket = 0;
  private anchorWall = 0;
  /** Market time at the pause, while paused. */
  private pausedAt: number | undefined;
  private wake: AbortController | undefined;
  private resumed: (() => void) | undefined;
  private endedBeforeRun = false;

  private constructor(private readonly scheduler: Scheduler, private readonly tracks: readonly Track[], speed: ReplaySpeed) {
    this.speed = speed;
    this.subscribed = new Set(tracks.map((track) => track.instrumentId));
  }

  /** Checks the request (issues name the field) and reads the candles; nothing starts yet. */
  static async load(options: ReplayFeedOptions): Promise<Result<ReplayFeed, FeedIssue[]>> {
    const checked = await checkReplayRequest(options.pool, options.request);
    if (!checked.ok) return checked;
    const tracks: Track[] = [];
    for (const instrument of checked.value.instruments) tracks.push(await loadTrack(options.pool, checked.value, instrument));
    const { from, to } = checked.value;
    const empty: FeedIssue[] = checked.value.instruments.flatMap((instrument, index) => (tracks[index]?.candles.length === 0
      ? [{ field: `instrumentIds[${index}]`, message: `${instrument.tradingSymbol} has no stored candles from ${from} to ${to}` }]
      : []));
    if (empty.length > 0) return err(empty);
    return ok(new ReplayFeed(options.scheduler, tracks, checked.value.speed));
  }

  get state(): ReplayState {
    return this.stateNow;
  }

  /** Ticks in the whole replay (every instrument), and how many were delivered. */
  get progress(): { readonly delivered: number; readonly total: number } {
    return { delivered: this.delivered, total: this.tracks.reduce((sum, track) => sum + track.candles.length * TICKS_PER_CANDLE, 0) };
  }

  /** Stored bars of each instrument in the replay. */
  barCount(instrumentId: number): number {
    return this.tracks.find((track) => track.instrumentId === instrumentId)?.candles.length ?? 0;
  }

  /**
   * The replay's market time (epoch ms): where its clock is between ticks at speeds above 0
   * (never past the next tick), the last tick's time at speed 0 or while paused; undefined
   * before the first tick.
   */
  marketTime(): number | undefined {
    if (this.lastTickTime === undefined) return undefined;
    if (this.pausedAt !== undefined) return this.pausedAt;
    if (this.speed === 0 || this.stateNow !== 'running') return this.lastTickTime;
    const next = this.nextTrack();
    const flowing = this.anchorMarket + (this.scheduler.now() - this.anchorWall) * this.speed;
    const bound = next === undefined ? flowing : Math.min(flowing, next.ticks.time[next.tick] as number);
    return Math.max(this.lastTickTime, bound);
  }

  subscribe(instrumentIds: readonly number[]): Result<void, FeedIssue[]> {
    const issues = subscriptionIssues(instrumentIds, new Set(this.tracks.map((track) => track.instrumentId)));
    if (issues.length > 0) return err(issues);
    for (const id of instrumentIds) this.subscribed.add(id);
    return ok(undefined);
  }

  unsubscribe(instrumentIds: readonly number[]): void {
    for (const id of instrumentIds) this.subscribed.delete(id);
  }

  /** Freezes market time; the tick being delivered finishes. */
  pause(): void {
    if (this.stateNow !== 'running') return;
    this.pausedAt = this.marketTime();
    this.stateNow = 'paused';
    this.wake?.abort();
  }

  /** Continues from the market time of the pause. */
  resume(): void {
    if (this.stateNow !== 'paused') return;
    this.anchorWall = this.scheduler.now();
    if (this.pausedAt !== undefined) this.anchorMarket = this.pausedAt;
    this.pausedAt = undefined;
    this.stateNow = 'running';
    this.resumed?.();
  }

  stop(): void {
    if (this.stateNow === 'ended') return;
    const wasReady = this.stateNow === 'ready';
    this.stateNow = 'ended';
    this.wake?.abort();
    this.resumed?.();
    if (wasReady) this.endedBeforeRun = true;
  }

  async run(sink: TickSink): Promise<FeedEnd> {
    if (this.stateNow !== 'ready') return this.endedBeforeRun ? { reason: 'stopped' } : { reason: 'failed', message: 'a replay runs once' };
    this.stateNow = 'running';
    this.anchorWall = this.scheduler.now();
    let sinceTurn = 0;
    for (;;) {
      const state = this.currentState();
      if (state === 'ended') return { reason: 'stopped' };
      if (state === 'paused') {
        await new Promise<void>((resolve) => { this.resumed = resolve; });
        this.resumed = undefined;
        continue;
      }
      const track = this.nextTrack();
      if (track === undefined) break;
      const tick = this.tickOf(track);
      if (!this.subscribed.has(track.instrumentId)) {
        this.advance(track);
        continue;
      }
      if (this.speed > 0) {
        if (this.lastTickTime === undefined || istEpochDay(tick.time) !== istEpochDay(this.lastTickTime)) {
          // A new session starts at once: nights and holidays are not waited for.
          this.anchorMarket = tick.time;
          this.anchorWall = this.scheduler.now();
        }
        const due = this.anchorWall + (tick.time - this.anchorMarket) / this.speed;
        if (due > this.scheduler.now()) {
          this.wake = new AbortController();
          await this.scheduler.sleepUntil(due, this.wake.signal);
          this.wake = undefined;
          continue;
        }
      } else if (++sinceTurn >= TICKS_PER_TURN) {
        sinceTurn = 0;
        await nextTurn();
        continue;
      }
      this.advance(track);
      this.lastTickTime = tick.time;
      this.delivered += 1;
      try {
        await sink.onTick(tick);
      } catch (error) {
        this.stateNow = 'ended';
        return { reason: 'failed', message: `the consumer failed at tick ${this.delivered}: ${(error as Error).message}` };
      }
    }
    this.stateNow = 'ended';
    return { reason: 'finished' };
  }

  /** The state as of now (stop and pause change it while `run` awaits). */
  private currentState(): ReplayState {
    return this.stateNow;
  }

  /** The instrument whose next tick is earliest (ties: the order asked for). */
  private nextTrack(): Track | undefined {
    let best: Track | undefined;
    for (const track of this.tracks) {
      if (track.bar >= track.candles.length) continue;
      if (best === undefined || (track.ticks.time[track.tick] as number) < (best.ticks.time[best.tick] as number)) best = track;
    }
    return best;
  }

  private tickOf(track: Track): FeedTick {
    return {
      instrumentId: track.instrumentId, time: track.ticks.time[track.tick] as number, price: track.ticks.price[track.tick] as number,
      volume: track.ticks.volume[track.tick] as number, synthetic: track.synthetic,
    };
  }

  private advance(track: Track): void {
    track.tick += 1;
    if (track.tick < TICKS_PER_CANDLE) return;
    track.tick = 0;
    track.bar += 1;
    if (track.bar < track.candles.length) fillTicks(track);
  }
}

async function loadTrack(pool: pg.Pool, request: CheckedReplayRequest, instrument: CheckedReplayRequest['instruments'][number]): Promise<Track> {
  const { from, to, intervalMinutes } = request;
  const candles = await loadRunCandles({ pool, instrumentId: instrument.instrumentId, dateRange: { from, to }, intervalMinutes });
  const { rows } = await pool.query<{ synthetic: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM candles WHERE instrument_id = $1 AND source = 'synthetic'
       AND ts >= timestamptz 'epoch' + $2::bigint * interval '1 millisecond'
       AND ts < timestamptz 'epoch' + $3::bigint * interval '1 millisecond') AS synthetic`,
    [instrument.instrumentId, istEpochMs(from, '00:00'), istEpochMs(addDays(to, 1), '00:00')]);
  const track: Track = {
    instrumentId: instrument.instrumentId, exchange: instrument.exchange, candles, synthetic: rows[0]?.synthetic === true,
    intervalMinutes, bar: 0, tick: 0, ticks: candleTickColumns(),
  };
  if (candles.length > 0) fillTicks(track);
  return track;
}

function fillTicks(track: Track): void {
  const { candles, bar } = track;
  const window = barWindowOf({ start: candles.time[bar] as number, intervalMinutes: track.intervalMinutes, exchange: track.exchange });
  candleTicks({
    open: candles.open[bar] as number, high: candles.high[bar] as number, low: candles.low[bar] as number,
    close: candles.close[bar] as number, volume: candles.volume[bar] as number,
  }, window, track.ticks);
}
