// Kite's order limits for one account, kept on our side so that we wait instead of being refused
// (docs/BROKER-KITE.md, "Limits"): 10 order requests a second, 400 a minute, 5,000 a day (IST day),
// 25 modifications per order, and a backoff after a 429. Pure: every call is given the time.
//
// Rules:
// - POST and PUT to the orders endpoints count at Kite; DELETE (cancel) is counted here too, to be
//   on the safe side. One `reserve` is one request.
// - Slots are handed out in call order and never earlier than a slot already given (first come,
//   first served), so a sliding window's count is read off the sorted list of slots.
// - `reserve(now, notAfterMs)` refuses, without taking a slot, when the earliest slot falls after
//   `notAfterMs`: a caller with a deadline never holds a slot it cannot use.
// - After a 429 nothing is sent until the backoff ends: 500 ms, doubling per 429 in a row up to
//   30 s; a success resets it.
import { err, istDate, ok, type Result } from '@vyuha/core';

export interface KiteRateLimitOptions {
  readonly perSecond?: number;
  readonly perMinute?: number;
  readonly perDay?: number;
  readonly modificationsPerOrder?: number;
  readonly firstBackoffMs?: number;
  readonly maxBackoffMs?: number;
}

/** What the platform shows about the limits at one moment. */
export interface KiteRateLimitState {
  /** Set while a 429 backoff lasts. */
  readonly backingOffUntilMs?: number;
  readonly backoffReason?: string;
  /** 429s in a row since the last success. */
  readonly consecutiveRateLimits: number;
  /** Requests counted in the last second, the last minute, and the IST day of `nowMs`. */
  readonly lastSecond: number;
  readonly lastMinute: number;
  readonly today: number;
  readonly limits: { readonly perSecond: number; readonly perMinute: number; readonly perDay: number };
}

const SECOND_MS = 1_000;
const MINUTE_MS = 60_000;

export class KiteRateLimits {
  readonly perSecond: number;
  readonly perMinute: number;
  readonly perDay: number;
  readonly modificationsPerOrder: number;
  private readonly firstBackoffMs: number;
  private readonly maxBackoffMs: number;
  /** Slots of the last minute (and any in the future), ascending. */
  private slots: number[] = [];
  private readonly perDayCount = new Map<string, number>();
  private readonly modifications = new Map<string, number>();
  private backoffUntilMs = 0;
  private backoffMs = 0;
  private backoffReason: string | undefined;
  private consecutive = 0;

  constructor(options: KiteRateLimitOptions = {}) {
    this.perSecond = options.perSecond ?? 10;
    this.perMinute = options.perMinute ?? 400;
    this.perDay = options.perDay ?? 5_000;
    this.modificationsPerOrder = options.modificationsPerOrder ?? 25;
    this.firstBackoffMs = options.firstBackoffMs ?? 500;
    this.maxBackoffMs = options.maxBackoffMs ?? 30_000;
  }

  /**
   * The earliest time one more order request may be sent, taken for the caller; an error (no slot
   * taken) when the day's requests are used up or the slot would fall after `notAfterMs`.
   * @example new KiteRateLimits().reserve(0) // ok({ atMs: 0 })
   */
  reserve(nowMs: number, notAfterMs = Number.POSITIVE_INFINITY): Result<{ readonly atMs: number }, string> {
    this.prune(nowMs);
    const count = this.slots.length;
    let atMs = Math.max(nowMs, this.backoffUntilMs, count === 0 ? nowMs : this.slots[count - 1] ?? nowMs);
    if (count >= this.perSecond) atMs = Math.max(atMs, (this.slots[count - this.perSecond] ?? 0) + SECOND_MS);
    if (count >= this.perMinute) atMs = Math.max(atMs, (this.slots[count - this.perMinute] ?? 0) + MINUTE_MS);
    const day = istDate(atMs);
    if ((this.perDayCount.get(day) ?? 0) >= this.perDay) {
      return err(`Kite's ${this.perDay.toLocaleString('en-IN')} order requests for ${day} are used up; the count starts again at midnight IST`);
    }
    if (atMs > notAfterMs) {
      const why = atMs === this.backoffUntilMs ? `Kite answered 429 (too many requests) and the backoff lasts ${atMs - nowMs} ms`
        : `the next slot within Kite's ${this.perSecond}/s and ${this.perMinute}/min order limits is ${atMs - nowMs} ms away`;
      return err(`${why}, past the send deadline`);
    }
    this.slots.push(atMs);
    this.perDayCount.set(day, (this.perDayCount.get(day) ?? 0) + 1);
    return ok({ atMs });
  }

  /** A 429: nothing more is sent for 500 ms, doubling per 429 in a row up to 30 s. Returns when sending may resume. */
  backOff(nowMs: number, reason = 'Kite answered 429 (too many requests)'): number {
    this.consecutive += 1;
    this.backoffMs = this.backoffMs === 0 ? this.firstBackoffMs : Math.min(this.backoffMs * 2, this.maxBackoffMs);
    this.backoffUntilMs = Math.max(this.backoffUntilMs, nowMs + this.backoffMs);
    this.backoffReason = reason;
    return this.backoffUntilMs;
  }

  /** A request went through: the backoff starts again from 500 ms next time. */
  succeeded(): void {
    this.consecutive = 0;
    this.backoffMs = 0;
    this.backoffReason = undefined;
  }

  /** True while the order has had fewer than 25 modifications. */
  modificationAllowed(brokerOrderId: string): boolean {
    return this.modificationsOf(brokerOrderId) < this.modificationsPerOrder;
  }

  recordModification(brokerOrderId: string): void {
    this.modifications.set(brokerOrderId, this.modificationsOf(brokerOrderId) + 1);
  }

  modificationsOf(brokerOrderId: string): number {
    return this.modifications.get(brokerOrderId) ?? 0;
  }

  /** The limits as the platform shows them. */
  state(nowMs: number): KiteRateLimitState {
    this.prune(nowMs);
    const within = (windowMs: number): number => this.slots.filter((at) => at > nowMs - windowMs && at <= nowMs).length;
    const backingOff = this.backoffUntilMs > nowMs;
    return {
      ...(backingOff ? { backingOffUntilMs: this.backoffUntilMs } : {}),
      ...(backingOff && this.backoffReason !== undefined ? { backoffReason: this.backoffReason } : {}),
      consecutiveRateLimits: this.consecutive,
      lastSecond: within(SECOND_MS),
      lastMinute: within(MINUTE_MS),
      today: this.perDayCount.get(istDate(nowMs)) ?? 0,
      limits: { perSecond: this.perSecond, perMinute: this.perMinute, perDay: this.perDay },
    };
  }

  /** Forgets slots older than a minute and days before today. */
  private prune(nowMs: number): void {
    const firstKept = this.slots.findIndex((at) => at > nowMs - MINUTE_MS);
    this.slots = firstKept === -1 ? [] : this.slots.slice(firstKept);
    const today = istDate(nowMs);
    for (const day of this.perDayCount.keys()) if (day < today) this.perDayCount.delete(day);
  }
}
