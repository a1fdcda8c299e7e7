// The order-rate queue: at most 10 orders per second per user per exchange segment (NSE, NFO,
// BSE, BFO, ...), the rule docs/MARKET-RULES.md gives for algorithmic orders. Orders beyond the
// rate wait in a first-in-first-out queue per key, visible with their place in it; none is
// dropped. A withdrawal (the kill switch) is the only way out of the queue other than leaving.
//
// Time comes in as arguments (epoch ms), so the queue is pure: the runtime calls `releaseDue(now)`
// when an order arrives and again at `nextDueMs()`.
//
// Invariants (property-tested):
// - per key, any `windowMs` span [t, t + windowMs) holds at most `maxPerWindow` departures;
// - per key, orders leave in the order they were queued, each exactly once;
// - an order waits only while its key's window is full: after `releaseDue(now)` a key either has
//   no order waiting or `maxPerWindow` departures in (now - windowMs, now].
import { err, ok } from '@vyuha/core';
import type { Result } from '@vyuha/core';
import type { ExchangeCode } from '@vyuha/market';

/** The platform's limit per user and segment (docs/MARKET-RULES.md). */
export const MAX_ORDERS_PER_SECOND = 10;

export interface OrderRateOptions {
  readonly maxPerWindow?: number;
  readonly windowMs?: number;
}

/** An order waiting for its turn. */
export interface QueuedOrder<T> {
  readonly key: string;
  readonly item: T;
  readonly queuedAtMs: number;
  /** 0 for the next to leave under this key. */
  readonly position: number;
  /** When it will leave if `releaseDue` is called on time and nothing is withdrawn. */
  readonly expectedDepartureMs: number;
}

/** An order that may leave now. */
export interface Departure<T> {
  readonly key: string;
  readonly item: T;
  readonly queuedAtMs: number;
  readonly departedAtMs: number;
}

interface KeyState<T> {
  readonly waiting: Array<{ readonly item: T; readonly queuedAtMs: number }>;
  /** The last `maxPerWindow` departure times, ascending. */
  readonly departures: number[];
}

/** The key of the rate rule: one user on one exchange segment. @example orderRateKey({ userId: 'u1', segment: 'NFO' }) // 'u1|NFO' */
export function orderRateKey(request: { readonly userId: string; readonly segment: ExchangeCode }): string {
  return `${request.userId}|${request.segment}`;
}

/** A first-in-first-out queue per key that lets at most `maxPerWindow` orders leave per `windowMs`. */
export class OrderRateQueue<T> {
  private readonly maxPerWindow: number;
  private readonly windowMs: number;
  private readonly keys = new Map<string, KeyState<T>>();
  private nowMs = Number.NEGATIVE_INFINITY;

  constructor(options: OrderRateOptions = {}) {
    this.maxPerWindow = options.maxPerWindow ?? MAX_ORDERS_PER_SECOND;
    this.windowMs = options.windowMs ?? 1_000;
    if (!Number.isSafeInteger(this.maxPerWindow) || this.maxPerWindow <= 0) {
      throw new RangeError(`maxPerWindow must be a whole number above 0, got ${this.maxPerWindow}`);
    }
    if (!Number.isSafeInteger(this.windowMs) || this.windowMs <= 0) throw new RangeError(`windowMs must be a whole number above 0, got ${this.windowMs}`);
  }

  /** Queues an order under `key`; it leaves through `releaseDue`. */
  enqueue(request: { readonly key: string; readonly item: T; readonly atMs: number }): Result<QueuedOrder<T>, string> {
    if (typeof request.key !== 'string' || request.key === '') return err('key must name a user and a segment (orderRateKey)');
    if (!Number.isSafeInteger(request.atMs)) return err(`atMs must be epoch milliseconds, got ${request.atMs}`);
    const at = this.advance(request.atMs);
    const state = this.stateOf(request.key);
    state.waiting.push({ item: request.item, queuedAtMs: at });
    const queued = this.waiting(request.key).at(-1);
    if (queued === undefined) throw new Error('an order just queued must be waiting');
    return ok(queued);
  }

  /** Every order that may leave at `nowMs`, first-in-first-out per key; they count as sent from now. */
  releaseDue(nowMs: number): Departure<T>[] {
    if (!Number.isSafeInteger(nowMs)) throw new RangeError(`nowMs must be epoch milliseconds, got ${nowMs}`);
    const now = this.advance(nowMs);
    const leaving: Departure<T>[] = [];
    for (const [key, state] of this.keys) {
      while (state.waiting.length > 0 && this.nextSlot(state.departures, now) <= now) {
        const next = state.waiting.shift();
        if (next === undefined) break;
        state.departures.push(now);
        if (state.departures.length > this.maxPerWindow) state.departures.shift();
        leaving.push({ key, item: next.item, queuedAtMs: next.queuedAtMs, departedAtMs: now });
      }
      // A key with nothing waiting and no departure inside the window has nothing left to remember.
      const latest = state.departures.at(-1);
      if (state.waiting.length === 0 && (latest === undefined || latest <= now - this.windowMs)) this.keys.delete(key);
    }
    return leaving;
  }

  /** The orders waiting under `key`, next first, with when each is expected to leave. */
  waiting(key: string): QueuedOrder<T>[] {
    const state = this.keys.get(key);
    if (state === undefined) return [];
    const times = [...state.departures];
    const from = Number.isFinite(this.nowMs) ? this.nowMs : 0;
    return state.waiting.map((entry, position) => {
      const expectedDepartureMs = Math.max(from, entry.queuedAtMs, this.nextSlot(times, from));
      times.push(expectedDepartureMs);
      return { key, item: entry.item, queuedAtMs: entry.queuedAtMs, position, expectedDepartureMs };
    });
  }

  /** How many orders wait, over every key. */
  get size(): number {
    let total = 0;
    for (const state of this.keys.values()) total += state.waiting.length;
    return total;
  }

  /** The earliest time an order now waiting may leave; undefined when none waits. */
  nextDueMs(): number | undefined {
    let earliest: number | undefined;
    for (const state of this.keys.values()) {
      if (state.waiting.length === 0) continue;
      // Never before the latest time seen: the clock does not step back (see advance).
      const due = Math.max(this.nowMs, this.nextSlot(state.departures, this.nowMs), state.waiting[0]?.queuedAtMs ?? this.nowMs);
      earliest = earliest === undefined ? due : Math.min(earliest, due);
    }
    return earliest;
  }

  /** Takes the waiting orders of `key` that `matches` out of the queue (the kill switch), in queue order. */
  withdraw(key: string, matches: (item: T) => boolean): T[] {
    const state = this.keys.get(key);
    if (state === undefined) return [];
    const taken: T[] = [];
    const kept = state.waiting.filter((entry) => {
      if (!matches(entry.item)) return true;
      taken.push(entry.item);
      return false;
    });
    state.waiting.splice(0, state.waiting.length, ...kept);
    return taken;
  }

  /** A clock that steps back does not let orders leave early: time never goes below the latest seen. */
  private advance(atMs: number): number {
    this.nowMs = Math.max(this.nowMs, atMs);
    return this.nowMs;
  }

  /** The first time another departure fits: now while the window has room, else when its oldest member ages out. */
  private nextSlot(departures: readonly number[], now: number): number {
    if (departures.length < this.maxPerWindow) return now;
    return (departures[departures.length - this.maxPerWindow] ?? now) + this.windowMs;
  }

  private stateOf(key: string): KeyState<T> {
    let state = this.keys.get(key);
    if (state === undefined) {
      state = { waiting: [], departures: [] };
      this.keys.set(key, state);
    }
    return state;
  }
}
