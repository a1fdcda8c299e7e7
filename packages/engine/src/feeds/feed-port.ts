// The feed port: where the trading runtime's ticks come from. Three sources implement it and the
// runtime cannot tell them apart: the replay of stored candles and the simulated market (both in
// packages/server/src/trading/feeds/), and a broker's live ticker (the broker venue's issue).
// It lives in the engine because the tick is the engine's input; the port is asynchronous (a
// consumer's handler may write to a database) but needs no timer, so it stays pure.
//
// Invariants every implementation keeps:
//   - ticks of one instrument arrive in time order; ticks of several interleave by time;
//   - `run` delivers one tick at a time and awaits the sink before the next (backpressure:
//     a replay at full speed goes exactly as fast as its consumer; a live feed queues);
//   - only subscribed instruments are delivered; subscribing to an instrument the feed cannot
//     serve is an issue naming it, and changes nothing;
//   - `run` resolves exactly once, with why the feed ended; no tick follows.
import type { Result } from '@vyuha/core';

/** Which source a feed is. */
export type FeedKind = 'live' | 'replay' | 'simulated';

/** One price at one instant. */
export interface FeedTick {
  readonly instrumentId: number;
  /** Epoch ms of the trade (market time, not the time it was delivered). */
  readonly time: number;
  /** Integer paise. */
  readonly price: number;
  /** Units traded at this tick; 0 when the source has none (indices). */
  readonly volume: number;
  /** True when the price never traded: made by the simulated market, or replayed from synthetic candles. */
  readonly synthetic: boolean;
}

/** Why a feed stopped. */
export type FeedEnd =
  | { readonly reason: 'finished' }
  | { readonly reason: 'stopped' }
  | { readonly reason: 'failed'; readonly message: string };

/** Where a feed delivers. */
export interface TickSink {
  /** Awaited before the next tick is delivered. A throw ends the feed as `failed`. */
  onTick(tick: FeedTick): void | Promise<void>;
}

/** A refused request, naming its field (`instrumentIds[2]`). */
export interface FeedIssue {
  readonly field: string;
  readonly message: string;
}

/** A source of ticks for a set of instruments. */
export interface FeedPort {
  readonly kind: FeedKind;
  /** Adds instruments to what `run` delivers (from the next tick on). */
  subscribe(instrumentIds: readonly number[]): Result<void, FeedIssue[]>;
  /** Stops delivering these instruments (unknown ones are ignored). */
  unsubscribe(instrumentIds: readonly number[]): void;
  /** Delivers ticks to `sink` until the feed ends; resolves with the end. Call once. */
  run(sink: TickSink): Promise<FeedEnd>;
  /** Ends the feed: `run` resolves with `stopped` after the tick being delivered, if any. */
  stop(): void;
}

/** `instrumentIds[i]` issues for ids that are not positive whole numbers or not in `known`. */
export function subscriptionIssues(instrumentIds: readonly number[], known: ReadonlySet<number>): FeedIssue[] {
  const issues: FeedIssue[] = [];
  instrumentIds.forEach((id, index) => {
    if (!Number.isSafeInteger(id) || id <= 0) issues.push({ field: `instrumentIds[${index}]`, message: `must be a positive whole number, got ${id}` });
    else if (!known.has(id)) issues.push({ field: `instrumentIds[${index}]`, message: `instrument ${id} is not served by this feed` });
  });
  return issues;
}
