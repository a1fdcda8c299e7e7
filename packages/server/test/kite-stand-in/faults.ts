// The failures a test can switch on, and Kite's rate limits. Each fault is plain state here; the
// routes, the matching and the ticker read it at the moment it applies. Rate limits as
// docs/BROKER-KITE.md ("Limits"): order placement and modification 10 per second, 400 per minute
// and 5,000 per day per user; quotes 1 per second; everything else 10 per second. Windows slide on
// the stand-in's clock, so an injected clock drives them.
import { istDate } from './kite-format';

export type AfterAccept = '500' | 'timeout' | 'drop';

export class Faults {
  /** Messages for the next orders to be REJECTED with, first in line first. */
  readonly rejections: string[] = [];
  /** Fills in this many trades for the next order created, then resets. */
  partialParts: number | undefined;
  /** Order calls still to answer 429. */
  rateLimitedOrderCalls = 0;
  /** What happens to the HTTP answer of the next order placement, once it is created. */
  afterAccept: AfterAccept | undefined;
  duplicateUpdates = false;
  reorderUpdates = false;
  tickerStalled = false;
  /** 502 or 503 for every HTTP call while set. */
  apiDownStatus: 502 | 503 | undefined;

  takeRejection(): string | undefined {
    return this.rejections.shift();
  }

  takePartialParts(): number | undefined {
    const parts = this.partialParts;
    this.partialParts = undefined;
    return parts;
  }

  takeRateLimit(): boolean {
    if (this.rateLimitedOrderCalls <= 0) return false;
    this.rateLimitedOrderCalls -= 1;
    return true;
  }

  takeAfterAccept(): AfterAccept | undefined {
    const mode = this.afterAccept;
    this.afterAccept = undefined;
    return mode;
  }
}

export type LimitClass = 'order' | 'quote' | 'other';

interface Window {
  readonly spanMs: number;
  readonly max: number;
}

const WINDOWS: Record<LimitClass, readonly Window[]> = {
  order: [{ spanMs: 1_000, max: 10 }, { spanMs: 60_000, max: 400 }],
  quote: [{ spanMs: 1_000, max: 1 }],
  other: [{ spanMs: 1_000, max: 10 }],
};
const ORDERS_PER_DAY = 5_000;

/**
 * Sliding-window limits per user and class. A refused call is not counted.
 * @example limiter.allow('AB1234', 'order', t) // false for the 11th order call within one second
 */
export class RateLimiter {
  private readonly calls = new Map<string, number[]>();
  private readonly daily = new Map<string, { date: string; count: number }>();

  allow(userId: string, kind: LimitClass, atMs: number): boolean {
    const key = `${userId}\u0000${kind}`;
    const longest = Math.max(...WINDOWS[kind].map((one) => one.spanMs));
    const recent = (this.calls.get(key) ?? []).filter((at) => at > atMs - longest);
    for (const window of WINDOWS[kind]) {
      if (recent.filter((at) => at > atMs - window.spanMs).length >= window.max) return false;
    }
    const today = istDate(atMs);
    const day = this.daily.get(userId);
    const countToday = day?.date === today ? day.count : 0;
    if (kind === 'order' && countToday >= ORDERS_PER_DAY) return false;
    recent.push(atMs);
    this.calls.set(key, recent);
    if (kind === 'order') this.daily.set(userId, { date: today, count: countToday + 1 });
    return true;
  }
}
