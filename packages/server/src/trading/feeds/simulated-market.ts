// The simulated market: for users without a broker, the demo world's synthetic history continued
// in real time. During NSE sessions (the market calendar: holidays, special sessions, session
// times) it makes a tick a second for each demo index, stores each 1-minute candle when its
// minute ends (candle store, source 'synthetic') so charts and strategies see it, and records the
// latest prices in `ltps` so the last price (migration 0015's view) moves every second. Outside
// a session it makes nothing and says when the next one opens.
//
// - Continuity: each session starts from every index's last stored close before it, and is
//   decided in advance (simulated-session.ts), seeded by the seed and the date: a restart
//   mid-session stores the minutes already past at once (the same numbers: writes are
//   idempotent) and goes on with the same path. Several processes running it write the same rows.
// - Labels: every tick, and so every candle built from them, has `synthetic: true`; stored
//   candles have source 'synthetic', which the chart and option chain show as "Synthetic".
// - Consumers: `feed()` gives each consumer its own queued feed (queued-feed.ts); the market never
//   waits for a consumer. Database writes go through one queue in order; `flushed()` waits for it.
// - Time comes from a Scheduler: the wall clock in production, a manual clock in tests.
import { addDays, formatIstDateTime, istDate, istEpochMs, istParts } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import type { FeedPort, FeedTick } from '@vyuha/engine';
import { nextTradingDay, sessionOf, SYNTHETIC_INSTRUMENTS, SYNTHETIC_SOURCE, tradingDaysBetween } from '@vyuha/market';
import type { SyntheticInstrument, TradingSession } from '@vyuha/market';
import type pg from 'pg';
import { writeCandles } from '../../market-data/candle-store';
import { DEMO_HISTORY_SEED, demoHistoryReaches, lastFinishedSession, recordContinuedSession } from '../../market-data/demo-history';
import { QueuedFeed } from './queued-feed';
import type { Scheduler } from './scheduler';
import { SimulatedSession } from './simulated-session';
import type { SessionStart } from './simulated-session';

const MS_PER_SECOND = 1_000;
const MS_PER_MINUTE = 60_000;
/** Missed sessions `catchUp` stores at most; a longer gap is the history loader's to fill. */
export const MAX_CATCH_UP_SESSIONS = 10;
/** With no history to continue yet (the history loader still at work), the market looks again this often. */
const NO_HISTORY_RETRY_MS = 60_000;

export interface SimulatedMarketOptions {
  readonly pool: pg.Pool;
  readonly scheduler: Scheduler;
  readonly log: (message: string) => void;
  /** Default: the demo world history's seed, which the market continues. */
  readonly seed?: string;
  /** Which demo indices to continue; all six by default. */
  readonly instruments?: readonly SyntheticInstrument[];
}

/** What the market is doing. */
export type SimulatedMarketStatus =
  | { readonly state: 'stopped' }
  | { readonly state: 'open'; readonly date: IsoDate; readonly closesAt: number; readonly instruments: readonly string[]; readonly withoutHistory: readonly string[] }
  | { readonly state: 'closed'; readonly nextOpen: number; readonly message: string };

/**
 * The simulated market of one process.
 * @example const market = new SimulatedMarket({ pool, scheduler: new WallScheduler(), log }); await market.start(); market.feed().subscribe([niftyId])
 */
export class SimulatedMarket {
  private statusNow: SimulatedMarketStatus = { state: 'stopped' };
  private readonly feeds = new Set<QueuedFeed>();
  private knownIds: ReadonlySet<number> = new Set();
  private readonly abort = new AbortController();
  private loop: Promise<void> | undefined;
  private writes: Promise<void> = Promise.resolve();
  private readonly prices = new Map<number, FeedTick>();
  private pricesQueued = false;
  private lastLogged = '';
  /** Sessions with a candle write that failed: not recorded as stored. */
  private readonly incomplete = new Set<IsoDate>();
  private readonly seed: string;
  private readonly names: readonly SyntheticInstrument[];

  constructor(private readonly options: SimulatedMarketOptions) {
    this.seed = options.seed ?? DEMO_HISTORY_SEED;
    this.names = options.instruments ?? SYNTHETIC_INSTRUMENTS;
  }

  get status(): SimulatedMarketStatus {
    return this.statusNow;
  }

  /** Starts the market: reads which indices exist, then runs until `stop`. Resolves once it is open or closed. */
  async start(): Promise<void> {
    if (this.loop !== undefined) return;
    const { rows } = await this.options.pool.query<{ instrument_id: number }>(
      `SELECT instrument_id FROM instruments WHERE kind = 'index' AND name = ANY($1::text[])`, [this.names]);
    this.knownIds = new Set(rows.map((row) => row.instrument_id));
    let started: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => { started = resolve; });
    this.loop = this.run(started).catch((error: unknown) => {
      this.options.log(`simulated market stopped on an error: ${(error as Error).message}`);
      started();
    });
    await ready;
  }

  /** Stops the market, ends every feed (stopped) and waits for the writes. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop;
    for (const feed of this.feeds) feed.stop();
    this.statusNow = { state: 'stopped' };
    await this.flushed();
  }

  /**
   * The ticks this market made for `instrumentId` from `fromMs` until before `toMs`, regenerated
   * exactly as they were made live (each session is decided by the seed, its date and the closes
   * stored before it), a session at a time: what a strategy run resumed mid-session plays to
   * rebuild its state tick for tick. Nothing for a session without stored history to continue.
   * @example for await (const tick of market.pastTicks(niftyId, istEpochMs(date, '09:15'), Date.now())) ...
   */
  async *pastTicks(instrumentId: number, fromMs: number, toMs: number): AsyncGenerator<FeedTick> {
    if (toMs <= fromMs) return;
    for (const date of tradingDaysBetween('NSE', istDate(fromMs), istDate(toMs - 1))) {
      const session = sessionOf('NSE', date);
      const day = session === undefined ? undefined : await this.prepare(date, session);
      if (day === undefined) continue;
      const first = Math.max(day.openMs, Math.ceil(fromMs / MS_PER_SECOND) * MS_PER_SECOND);
      const last = Math.min(day.closeMs, toMs);
      for (let time = first; time < last; time += MS_PER_SECOND) {
        for (const tick of day.ticksAt(time)) if (tick.instrumentId === instrumentId) yield tick;
      }
    }
  }

  /** A feed of this market's ticks for one consumer (subscribe, after `start`, to the instruments it needs). */
  feed(): FeedPort {
    const feed: QueuedFeed = new QueuedFeed('simulated', () => this.knownIds, () => this.feeds.delete(feed));
    this.feeds.add(feed);
    return feed;
  }

  /**
   * Stores, whole, the sessions the demo world's history lacks between the last one it reaches and
   * the last finished one (the server was down, or stopped mid-session), each continued from the
   * close before it exactly as it would have run live, and moves the history marker on. Run it
   * before the history loader at a start (src/start.ts), so the loader finds the history complete
   * and leaves those sessions as they are. Does nothing for another seed, without a loaded
   * history, or when more than MAX_CATCH_UP_SESSIONS are missing (the loader regenerates those).
   * Returns the sessions stored.
   */
  async catchUp(): Promise<IsoDate[]> {
    if (this.seed !== DEMO_HISTORY_SEED) return [];
    const reaches = await demoHistoryReaches(this.options.pool);
    if (reaches === undefined) return [];
    const through = lastFinishedSession(this.options.scheduler.now());
    const missing = tradingDaysBetween('NSE', addDays(reaches, 1), through);
    if (missing.length === 0) return [];
    if (missing.length > MAX_CATCH_UP_SESSIONS) {
      this.options.log(`simulated market: the demo history is ${missing.length} sessions behind; the history loader fills them`);
      return [];
    }
    const stored: IsoDate[] = [];
    for (const date of missing) {
      const session = sessionOf('NSE', date);
      const day = session === undefined ? undefined : await this.prepare(date, session);
      if (day === undefined) break;
      // Written here, not through the queue: a failed write must throw before the marker moves.
      for (const { instrumentId, candles } of day.candles(0, day.minutes)) {
        await writeCandles(this.options.pool, { instrumentId, candles, source: SYNTHETIC_SOURCE });
      }
      if (!(await recordContinuedSession(this.options.pool, date))) break;
      stored.push(date);
    }
    if (stored.length > 0) this.options.log(`simulated market: stored the missed sessions ${stored.join(', ')}`);
    return stored;
  }

  /** Resolves when every candle and price queued so far is stored. */
  flushed(): Promise<void> {
    return this.writes;
  }

  private async run(started: () => void): Promise<void> {
    const { scheduler } = this.options;
    const signal = this.abort.signal;
    while (!signal.aborted) {
      const now = scheduler.now();
      const { date } = istParts(now);
      const session = sessionOf('NSE', date);
      const inSession = session !== undefined && now >= sessionMs(date, session.open) && now < sessionMs(date, session.close);
      const day = inSession ? await this.prepare(date, session) : undefined;
      if (day !== undefined) {
        await this.runSession(day, started);
        continue;
      }
      const nextOpen = nextSessionOpen(now);
      const message = inSession
        ? `no demo index has stored history to continue yet: the simulated market looks again in a minute (the next session opens at ${formatIstDateTime(nextOpen)} IST)`
        : `NSE is closed: the simulated market opens next at ${formatIstDateTime(nextOpen)} IST`;
      this.statusNow = { state: 'closed', nextOpen, message };
      this.logOnce(message);
      started();
      await scheduler.sleepUntil(inSession ? Math.min(nextOpen, now + NO_HISTORY_RETRY_MS) : nextOpen, signal);
    }
  }

  /** The session of `date` from the last stored closes before it; undefined when no index has history. */
  private async prepare(date: IsoDate, session: TradingSession): Promise<SimulatedSession | undefined> {
    const openMs = sessionMs(date, session.open);
    // The session before may still be on its way to the table (its last minutes queued at its
    // close): continued from a close not yet stored, the session would start from an earlier one.
    await this.flushed();
    const { rows } = await this.options.pool.query<{ instrument_id: number; name: SyntheticInstrument; close_paise: number | null }>(
      `SELECT i.instrument_id, i.name, last.close_paise
       FROM instruments i
       LEFT JOIN LATERAL (SELECT c.close_paise FROM candles c WHERE c.instrument_id = i.instrument_id
                          AND c.ts < timestamptz 'epoch' + $2::bigint * interval '1 millisecond' ORDER BY c.ts DESC LIMIT 1) last ON true
       WHERE i.kind = 'index' AND i.name = ANY($1::text[])`, [this.names, openMs]);
    const starts: SessionStart[] = [];
    for (const name of this.names) {
      const row = rows.find((candidate) => candidate.name === name);
      if (row?.close_paise != null) starts.push({ instrumentId: row.instrument_id, name, lastClosePaise: row.close_paise });
    }
    const without = this.names.filter((name) => !starts.some((start) => start.name === name));
    if (without.length > 0) this.logOnce(`simulated market ${date}: no stored history to continue for ${without.join(', ')}`);
    if (starts.length === 0) return undefined;
    return new SimulatedSession({ date, session, seed: this.seed, starts });
  }

  private async runSession(day: SimulatedSession, started: () => void): Promise<void> {
    const { scheduler } = this.options;
    const signal = this.abort.signal;
    const now = scheduler.now();
    // Minutes already over (a start or restart mid-session) are stored at once; their ticks are past.
    let stored = Math.min(day.minutes, Math.floor((now - day.openMs) / MS_PER_MINUTE));
    if (stored > 0) this.queueCandles(day, 0, stored);
    const names = day.instrumentNames;
    this.statusNow = { state: 'open', date: day.date, closesAt: day.closeMs, instruments: names, withoutHistory: this.names.filter((name) => !names.includes(name)) };
    this.options.log(`simulated market open for ${day.date} (${names.join(', ')}) until ${formatIstDateTime(day.closeMs)} IST`);
    started();
    // Ticks from the first whole second after a start mid-session (that instant has passed
    // before any consumer could subscribe); from the open itself when the market was waiting for
    // it (woken within the open's second), so the day's first minute opens at its open, as stored.
    const first = now < day.openMs + MS_PER_SECOND ? day.openMs : Math.floor(now / MS_PER_SECOND) * MS_PER_SECOND + MS_PER_SECOND;
    for (let time = first; time <= day.closeMs && !signal.aborted; time += MS_PER_SECOND) {
      await scheduler.sleepUntil(time, signal);
      if (signal.aborted) break;
      const ended = Math.min(day.minutes, Math.floor((time - day.openMs) / MS_PER_MINUTE));
      if (ended > stored) {
        this.queueCandles(day, stored, ended);
        stored = ended;
      }
      if (time === day.closeMs) {
        this.queueSessionStored(day);
        break;
      }
      const ticks = day.ticksAt(time);
      for (const tick of ticks) {
        for (const feed of this.feeds) feed.push(tick);
      }
      this.queuePrices(ticks);
    }
  }

  /** Logs a line unless it is the one logged last (the no-history retry would repeat it every minute). */
  private logOnce(message: string): void {
    if (message === this.lastLogged) return;
    this.lastLogged = message;
    this.options.log(message);
  }

  private queueCandles(day: SimulatedSession, from: number, to: number): void {
    const { pool, log } = this.options;
    this.enqueue(async () => {
      for (const { instrumentId, candles } of day.candles(from, to)) {
        await writeCandles(pool, { instrumentId, candles, source: SYNTHETIC_SOURCE });
      }
    }, (error) => {
      this.incomplete.add(day.date);
      log(`simulated market: storing ${day.date} minutes ${from}-${to - 1} failed: ${error.message}`);
    });
  }

  /** A whole session of the demo world's seed is stored: the history now reaches it (demo-history.ts). */
  private queueSessionStored(day: SimulatedSession): void {
    if (this.seed !== DEMO_HISTORY_SEED) return;
    this.enqueue(async () => {
      // A minute that failed to store leaves the session to catchUp at the next start.
      if (this.incomplete.has(day.date)) return;
      const recorded = await recordContinuedSession(this.options.pool, day.date);
      if (recorded) this.options.log(`simulated market: the demo world's history now reaches ${day.date}`);
    }, (error) => this.options.log(`simulated market: recording ${day.date} in the history marker failed: ${error.message}`));
  }

  private queuePrices(ticks: readonly FeedTick[]): void {
    for (const tick of ticks) this.prices.set(tick.instrumentId, tick);
    if (this.pricesQueued) return;
    this.pricesQueued = true;
    this.enqueue(async () => {
      this.pricesQueued = false;
      const latest = [...this.prices.values()];
      this.prices.clear();
      if (latest.length === 0) return;
      await this.options.pool.query(
        `INSERT INTO ltps (instrument_id, price_paise, updated_at)
         SELECT id, price, timestamptz 'epoch' + ms * interval '1 millisecond' FROM unnest($1::int[], $2::bigint[], $3::bigint[]) AS t(id, price, ms)
         ON CONFLICT (instrument_id) DO UPDATE SET price_paise = EXCLUDED.price_paise, updated_at = EXCLUDED.updated_at
         WHERE ltps.updated_at <= EXCLUDED.updated_at`,
        [latest.map((tick) => tick.instrumentId), latest.map((tick) => tick.price), latest.map((tick) => tick.time)]);
    }, (error) => this.options.log(`simulated market: recording last prices failed: ${error.message}`));
  }

  private enqueue(write: () => Promise<void>, onError: (error: Error) => void): void {
    this.writes = this.writes.then(write).catch((error: unknown) => onError(error as Error));
  }
}

/** The next NSE session open strictly after `now` (today's when it is still ahead). */
export function nextSessionOpen(now: number): number {
  const { date } = istParts(now);
  const today = sessionOf('NSE', date);
  if (today !== undefined && now < sessionMs(date, today.open)) return sessionMs(date, today.open);
  const next = nextTradingDay('NSE', date);
  const session = sessionOf('NSE', next);
  if (session === undefined) throw new Error(`the calendar calls ${next} a trading day without a session`);
  return sessionMs(next, session.open);
}

/** Epoch ms of a minute of an IST date. */
function sessionMs(date: IsoDate, minuteOfDay: number): number {
  return istEpochMs(date, '00:00') + minuteOfDay * MS_PER_MINUTE;
}
