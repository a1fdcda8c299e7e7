// Ticks -> candles of a strategy's interval, as the runtime's kernel consumes them. The bars are
// exactly the backtest's: aligned to each IST day's 09:15 open by bar-window.ts (the alignment
// the server's candle reader aggregates with), the last bar of a session shorter, stamped with
// the bar's start. So a replay of stored candles, cut into their tick paths and rebuilt here,
// gives back the stored bars (property test beside this file; and against the server's
// aggregation in packages/server/test/trading-feeds/).
//
// Rules:
//   - a candle closes on the first tick of a later bar of its instrument, or when the clock
//     passes its end (`closeDue(now)`), so a quiet market still closes its bars;
//   - a bar that saw no tick makes no candle: the runtime never invents a price (the backtest's
//     stored history has no such bar either);
//   - open = first tick, high = max, low = min, close = last, volume = sum; `synthetic` when any
//     tick was synthetic;
//   - a tick outside its exchange's session that day (pre-open, after the close, a holiday) is
//     not used and is counted: stored history has no bars there;
//   - a tick for a bar already closed (late) is not used and is counted.
import { sessionOf } from '@vyuha/market';
import type { SessionExchange } from '@vyuha/market';
import { dateOfEpochDay, istEpochDay, IST_OFFSET_MS } from '@vyuha/core';
import { barStartOf, barWindowOf, isBarInterval } from './bar-window';
import type { FeedTick } from './feed-port';

/** A closed bar of one instrument; prices in paise. */
export interface BuiltCandle {
  readonly instrumentId: number;
  /** The bar's start, as the backtest stamps it. */
  readonly time: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volume: number;
  readonly synthetic: boolean;
  /** Ticks it was built from. */
  readonly ticks: number;
}

export interface CandleBuilderOptions {
  /** The strategy's interval, 1 to 1440 minutes. */
  readonly intervalMinutes: number;
  /** Whose calendar (sessions, holidays, special sessions) the bars follow. */
  readonly exchange: SessionExchange;
}

/** Ticks the builder did not use, by reason. */
export interface UnusedTicks {
  readonly late: number;
  readonly outsideSession: number;
}

interface OpenBar {
  start: number;
  end: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  synthetic: boolean;
  ticks: number;
}

interface InstrumentState {
  bar: OpenBar | undefined;
  /** Start of the last bar closed; a tick of a bar at or before it is late. */
  lastClosedStart: number;
}

const MS_PER_MINUTE = 60_000;
const MS_PER_DAY = 86_400_000;

/**
 * Builds candles of one interval for any number of instruments.
 * @example const builder = new CandleBuilder({ intervalMinutes: 5, exchange: 'NSE' }); builder.push(tick) // a candle when the tick starts a new bar
 */
export class CandleBuilder {
  readonly intervalMinutes: number;
  readonly exchange: SessionExchange;
  private readonly states = new Map<number, InstrumentState>();
  private late = 0;
  private outsideSession = 0;
  /** The last day's session bounds, so a session lookup is made once per day, not per tick. */
  private sessionDay = Number.NaN;
  private sessionOpen = 0;
  private sessionClose = 0;

  constructor(options: CandleBuilderOptions) {
    if (!isBarInterval(options.intervalMinutes)) {
      throw new RangeError(`intervalMinutes must be a whole number from 1 to 1440, got ${options.intervalMinutes}`);
    }
    this.intervalMinutes = options.intervalMinutes;
    this.exchange = options.exchange;
  }

  /** Ticks not used so far. */
  get unused(): UnusedTicks {
    return { late: this.late, outsideSession: this.outsideSession };
  }

  /** Takes one tick; returns the candle of the instrument's previous bar when this tick closed it. */
  push(tick: FeedTick): BuiltCandle | undefined {
    checkTick(tick);
    if (!this.inSession(tick.time)) {
      this.outsideSession += 1;
      return undefined;
    }
    let state = this.states.get(tick.instrumentId);
    if (state === undefined) {
      state = { bar: undefined, lastClosedStart: Number.NEGATIVE_INFINITY };
      this.states.set(tick.instrumentId, state);
    }
    const start = barStartOf(tick.time, this.intervalMinutes);
    const bar = state.bar;
    if (bar !== undefined && start === bar.start) {
      if (tick.price > bar.high) bar.high = tick.price;
      if (tick.price < bar.low) bar.low = tick.price;
      bar.close = tick.price;
      bar.volume += tick.volume;
      bar.synthetic ||= tick.synthetic;
      bar.ticks += 1;
      return undefined;
    }
    if (start <= state.lastClosedStart || (bar !== undefined && start < bar.start)) {
      this.late += 1;
      return undefined;
    }
    const closed = bar === undefined ? undefined : this.close(tick.instrumentId, state, bar);
    const window = barWindowOf({ start, intervalMinutes: this.intervalMinutes, exchange: this.exchange });
    state.bar = {
      start, end: window.end, open: tick.price, high: tick.price, low: tick.price, close: tick.price,
      volume: tick.volume, synthetic: tick.synthetic, ticks: 1,
    };
    return closed;
  }

  /**
   * Closes every bar whose end is at or before `now` (epoch ms), in instrument order of first
   * tick; call it from the clock so quiet instruments still close their bars.
   */
  closeDue(now: number): BuiltCandle[] {
    const closed: BuiltCandle[] = [];
    for (const [instrumentId, state] of this.states) {
      if (state.bar !== undefined && state.bar.end <= now) closed.push(this.close(instrumentId, state, state.bar));
    }
    return closed;
  }

  /** The bar of `instrumentId` being built: its start, end and how many ticks it has (1: the tick just pushed opened it). */
  forming(instrumentId: number): { readonly start: number; readonly end: number; readonly ticks: number } | undefined {
    const bar = this.states.get(instrumentId)?.bar;
    return bar === undefined ? undefined : { start: bar.start, end: bar.end, ticks: bar.ticks };
  }

  /** The end (epoch ms) of the earliest open bar: when `closeDue` next has work; undefined when none is open. */
  nextDue(): number | undefined {
    let earliest: number | undefined;
    for (const state of this.states.values()) {
      if (state.bar !== undefined && (earliest === undefined || state.bar.end < earliest)) earliest = state.bar.end;
    }
    return earliest;
  }

  private close(instrumentId: number, state: InstrumentState, bar: OpenBar): BuiltCandle {
    state.bar = undefined;
    state.lastClosedStart = bar.start;
    return {
      instrumentId, time: bar.start, open: bar.open, high: bar.high, low: bar.low, close: bar.close,
      volume: bar.volume, synthetic: bar.synthetic, ticks: bar.ticks,
    };
  }

  private inSession(time: number): boolean {
    const day = istEpochDay(time);
    if (day !== this.sessionDay) {
      const session = sessionOf(this.exchange, dateOfEpochDay(day));
      this.sessionDay = day;
      this.sessionOpen = session === undefined ? 0 : session.open;
      this.sessionClose = session === undefined ? 0 : session.close;
    }
    const minuteOfDay = Math.floor((time + IST_OFFSET_MS - day * MS_PER_DAY) / MS_PER_MINUTE);
    return minuteOfDay >= this.sessionOpen && minuteOfDay < this.sessionClose;
  }
}

function checkTick(tick: FeedTick): void {
  if (!Number.isSafeInteger(tick.instrumentId) || tick.instrumentId <= 0) throw new RangeError(`tick.instrumentId must be a positive whole number, got ${tick.instrumentId}`);
  if (!Number.isSafeInteger(tick.time)) throw new RangeError(`tick.time must be whole epoch milliseconds, got ${tick.time}`);
  if (!Number.isSafeInteger(tick.price) || tick.price <= 0) throw new RangeError(`tick.price must be positive whole paise, got ${tick.price}`);
  if (!Number.isFinite(tick.volume) || tick.volume < 0) throw new RangeError(`tick.volume must be a number of units >= 0, got ${tick.volume}`);
}
