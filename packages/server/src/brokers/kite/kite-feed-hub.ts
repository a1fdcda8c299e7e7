// Live market data for every strategy of one Kite account: ONE ticker connection per broker
// session (Kite allows 3 connections per API key and 3,000 instruments on each), shared by all
// the account's runs. `feed()` gives each run its own FeedPort (the engine's port, so the runtime
// cannot tell it from the simulated market), subscribed by our instrument ids; the hub asks Kite
// for the union of their tokens and lets a token go when no feed wants it any more.
//
// A FeedTick from a Kite tick:
// - price: the last traded price in paise (the packet's integer on every segment but the
//   currency ones, which we do not map); a tick with no positive whole price is left out;
// - time: the packet's exchange timestamp, else its last trade time, else the hub clock's now;
//   never earlier than the instrument's previous tick (the port promises time order, and the
//   packet's times have whole seconds only);
// - volume: how much the day's cumulative volume grew since the token's previous tick; 0 for an
//   index, for a packet without volume (LTP mode) and for a token's first tick (the day's volume
//   so far is not this tick's);
// - synthetic: false.
// A feed's `run` ends `stopped` when the hub (or its ticker) closes, and `failed` when Kite
// refuses the session.
import { err, ok } from '@vyuha/core';
import type { Result } from '@vyuha/core';
import type { FeedEnd, FeedIssue, FeedPort, FeedTick, TickSink } from '@vyuha/engine';
import { QueuedFeed } from '../../trading/feeds/queued-feed';
import type { KiteTickerConnection, KiteTickerStateChange } from './kite-ticker';
import type { KiteTick, KiteTickMode } from './kite-ticker-frames';

/** Our instruments and Kite's tokens (instrumentTokens in kite-instruments.ts). */
export interface KiteTokenLookup {
  tokenOf(instrumentId: number): number | undefined;
  instrumentOf(token: number): number | undefined;
}

/** Why feeds end when Kite refuses the session. */
export const SESSION_REFUSED_MESSAGE = 'Kite refused the session (HTTP 403 at the ticker): log in to Kite again';

export interface KiteFeedHubOptions {
  /** The session's ticker; the hub connects it when the first feed is made and closes it with `close`. */
  readonly connection: KiteTickerConnection;
  readonly lookup: KiteTokenLookup;
  /** For ticks without a time of their own. Default the wall clock. */
  readonly clock?: { now(): number };
  /** Default 'full': the only mode whose packets carry the exchange's timestamps. */
  readonly mode?: KiteTickMode;
}

interface TokenState {
  /** The day's cumulative volume at the token's previous tick. */
  volume: number | undefined;
  lastTime: number;
}

/**
 * The ticker of one Kite session, fanned out to a feed per run.
 * @example const hub = new KiteFeedHub({ connection, lookup }); const feed = hub.feed(); feed.subscribe([niftyId]); await feed.run(sink)
 */
export class KiteFeedHub {
  private readonly feeds = new Set<HubFeed>();
  private readonly tokens = new Map<number, TokenState>();
  private readonly clock: { now(): number };
  private readonly mode: KiteTickMode;
  private readonly unlisten: () => void;
  private ended: FeedEnd | undefined;

  constructor(private readonly options: KiteFeedHubOptions) {
    this.clock = options.clock ?? { now: () => Date.now() };
    this.mode = options.mode ?? 'full';
    this.unlisten = options.connection.listen({
      onTicks: (ticks, receivedAt) => this.deliver(ticks, receivedAt),
      onState: (change) => this.onState(change),
    });
  }

  /** The ticker (its state, stats and order updates are the platform's and the venue's). */
  get connection(): KiteTickerConnection {
    return this.options.connection;
  }

  /** Tokens subscribed at Kite now: the union of what the feeds want. */
  get subscribedTokens(): ReadonlySet<number> {
    return new Set(this.tokens.keys());
  }

  /** A new feed for one run; one that ends at once after `close` or a refused session. */
  feed(): FeedPort {
    const feed = new HubFeed(this);
    if (this.ended !== undefined) {
      feed.queue.end(this.ended);
      return feed;
    }
    this.feeds.add(feed);
    this.options.connection.connect();
    return feed;
  }

  /** A new login's token after a refused session: feeds can be made again. */
  renewSession(accessToken: string): void {
    if (this.ended?.reason === 'stopped') return;
    this.ended = undefined;
    this.options.connection.setAccessToken(accessToken);
    this.options.connection.connect();
  }

  /** Ends every feed (stopped) and closes the ticker. */
  close(): void {
    this.endAll({ reason: 'stopped' });
    this.unlisten();
    this.options.connection.close();
  }

  /** @internal A feed's tokens changed, or it ended. */
  refresh(): void {
    const wanted = new Set<number>();
    for (const feed of this.feeds) {
      for (const id of feed.instrumentIds) {
        const token = this.options.lookup.tokenOf(id);
        if (token !== undefined) wanted.add(token);
      }
    }
    const added = [...wanted].filter((token) => !this.tokens.has(token));
    const gone = [...this.tokens.keys()].filter((token) => !wanted.has(token));
    for (const token of gone) this.tokens.delete(token);
    for (const token of added) this.tokens.set(token, { volume: undefined, lastTime: Number.NEGATIVE_INFINITY });
    if (gone.length > 0) this.options.connection.unsubscribe(gone);
    if (added.length > 0) {
      const subscribed = this.options.connection.subscribe(added, this.mode);
      // The lookup's tokens come from the dump: a refusal is a bug there.
      if (!subscribed.ok) throw new Error(`the Kite feed could not subscribe: ${subscribed.error}`);
    }
  }

  /** @internal */
  release(feed: HubFeed): void {
    if (this.feeds.delete(feed)) this.refresh();
  }

  /** @internal */
  served(instrumentId: number): boolean {
    return this.options.lookup.tokenOf(instrumentId) !== undefined;
  }

  private deliver(ticks: readonly KiteTick[], receivedAt: number): void {
    for (const tick of ticks) {
      const state = this.tokens.get(tick.instrumentToken);
      const instrumentId = this.options.lookup.instrumentOf(tick.instrumentToken);
      if (state === undefined || instrumentId === undefined) continue;
      const price = tick.lastPricePaise;
      if (!Number.isSafeInteger(price) || price <= 0) continue;
      const feedTick: FeedTick = { instrumentId, price, time: this.timeOf(tick, state, receivedAt), volume: volumeOf(tick, state), synthetic: false };
      for (const feed of this.feeds) feed.queue.push(feedTick);
    }
  }

  private timeOf(tick: KiteTick, state: TokenState, receivedAt: number): number {
    const own = positive(tick.exchangeTimeMs) ?? positive(tick.lastTradeTimeMs) ?? positive(this.clock.now()) ?? receivedAt;
    state.lastTime = Math.max(own, state.lastTime);
    return state.lastTime;
  }

  private onState(change: KiteTickerStateChange): void {
    if (change.state === 'session-refused') this.endAll({ reason: 'failed', message: SESSION_REFUSED_MESSAGE });
    // The ticker closed by someone else: the hub is done, as if closed.
    if (change.state === 'closed') this.endAll({ reason: 'stopped' });
  }

  private endAll(end: FeedEnd): void {
    if (this.ended?.reason === 'stopped') return;
    this.ended = end;
    const feeds = [...this.feeds];
    this.feeds.clear();
    for (const feed of feeds) feed.queue.end(end);
    this.refresh();
  }
}

function positive(value: number | undefined): number | undefined {
  return value !== undefined && value > 0 ? value : undefined;
}

function volumeOf(tick: KiteTick, state: TokenState): number {
  const cumulative = tick.tradable ? tick.volumeTraded : undefined;
  if (cumulative === undefined) return 0;
  const previous = state.volume;
  state.volume = cumulative;
  // Below the previous count: a new day (or a packet out of order); counting starts again.
  return previous === undefined || cumulative < previous ? 0 : cumulative - previous;
}

/** One run's feed: a queue of the hub's ticks (queued-feed.ts), and the instruments it wants. */
class HubFeed implements FeedPort {
  readonly kind = 'live';
  readonly queue: QueuedFeed;
  private readonly ids = new Set<number>();
  /** What the queue's subscribe may accept: set just before each call. */
  private servable: ReadonlySet<number> = new Set();

  constructor(private readonly hub: KiteFeedHub) {
    this.queue = new QueuedFeed('live', () => this.servable, () => hub.release(this));
  }

  get instrumentIds(): ReadonlySet<number> {
    return this.ids;
  }

  subscribe(instrumentIds: readonly number[]): Result<void, FeedIssue[]> {
    this.servable = new Set(instrumentIds.filter((id) => Number.isSafeInteger(id) && this.hub.served(id)));
    const result = this.queue.subscribe(instrumentIds);
    this.servable = new Set();
    if (!result.ok) return err(result.error);
    for (const id of instrumentIds) this.ids.add(id);
    this.hub.refresh();
    return ok(undefined);
  }

  unsubscribe(instrumentIds: readonly number[]): void {
    this.queue.unsubscribe(instrumentIds);
    for (const id of instrumentIds) this.ids.delete(id);
    this.hub.refresh();
  }

  run(sink: TickSink): Promise<FeedEnd> {
    return this.queue.run(sink);
  }

  stop(): void {
    this.queue.stop();
    this.hub.release(this);
  }
}

/**
 * The hubs of a process, one per Kite user: a later login of the same user (a new access token)
 * renews that user's hub instead of opening a second connection.
 * @example const hub = hubs.hubFor({ kiteUserId: 'AB1234', accessToken }, () => new KiteFeedHub({ connection, lookup }))
 */
export class KiteFeedHubs {
  private readonly hubs = new Map<string, { hub: KiteFeedHub; accessToken: string }>();

  hubFor(session: { readonly kiteUserId: string; readonly accessToken: string }, create: () => KiteFeedHub): KiteFeedHub {
    const known = this.hubs.get(session.kiteUserId);
    if (known !== undefined && known.hub.connection.state !== 'closed') {
      if (known.accessToken !== session.accessToken) {
        known.hub.renewSession(session.accessToken);
        known.accessToken = session.accessToken;
      }
      return known.hub;
    }
    const hub = create();
    this.hubs.set(session.kiteUserId, { hub, accessToken: session.accessToken });
    return hub;
  }

  /** Closes every hub (the server is stopping). */
  closeAll(): void {
    for (const { hub } of this.hubs.values()) hub.close();
    this.hubs.clear();
  }
}
