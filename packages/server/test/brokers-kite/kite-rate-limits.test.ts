// Kite's order limits on our side (docs/BROKER-KITE.md, "Limits"): 10/s, 400/min, 5,000 a day, 25
// modifications per order, and the 429 backoff. Every time is given, so nothing here waits.
import { describe, expect, it } from 'vitest';
import { KiteRateLimits } from '../../src/brokers/kite/kite-rate-limits';

/** 2026-04-06 09:15:00 IST. */
const OPEN = Date.parse('2026-04-06T03:45:00Z');

function slotsOf(limits: KiteRateLimits, count: number, nowMs: number): number[] {
  const slots: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const slot = limits.reserve(nowMs);
    if (!slot.ok) throw new Error(slot.error);
    slots.push(slot.value.atMs);
  }
  return slots;
}

function mostInAnyWindow(slots: readonly number[], windowMs: number): number {
  return Math.max(...slots.map((start) => slots.filter((at) => at >= start && at < start + windowMs).length));
}

describe('the per-second and per-minute windows', () => {
  it('gives 10 slots at once, then the next second: 25 requests at 0, 1 and 2 s', () => {
    const slots = slotsOf(new KiteRateLimits(), 25, OPEN);
    expect(slots.map((at) => at - OPEN)).toEqual([...Array(10).fill(0), ...Array(10).fill(1_000), ...Array(5).fill(2_000)]);
    expect(mostInAnyWindow(slots, 1_000)).toBe(10);
  });

  it('slides: requests spread over a second leave room exactly 1 s after the earliest', () => {
    const limits = new KiteRateLimits();
    for (let index = 0; index < 10; index += 1) limits.reserve(OPEN + index * 50);
    // The window (t - 1000, t] holds 10 until the first one (at 0) leaves it at 1000.
    expect(limits.reserve(OPEN + 600)).toEqual({ ok: true, value: { atMs: OPEN + 1_000 } });
  });

  it('holds the 401st request of a minute until a minute after the first', () => {
    // 10 a second: the 400th goes at 39 s; the 401st would go at 40 s but the minute's first was at 0.
    const slots = slotsOf(new KiteRateLimits(), 401, OPEN);
    expect((slots[399] ?? 0) - OPEN).toBe(39_000);
    expect((slots[400] ?? 0) - OPEN).toBe(60_000);
    expect(mostInAnyWindow(slots, 60_000)).toBe(400);
  });

  it('refuses without taking a slot when the slot falls after the deadline', () => {
    const limits = new KiteRateLimits();
    slotsOf(limits, 10, OPEN);
    const refused = limits.reserve(OPEN, OPEN + 999);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error).toMatch(/10\/s and 400\/min order limits is 1000 ms away, past the send deadline/);
    expect(limits.state(OPEN)).toMatchObject({ lastSecond: 10, today: 10 });
    expect(limits.reserve(OPEN, OPEN + 1_000)).toEqual({ ok: true, value: { atMs: OPEN + 1_000 } });
  });
});

describe('the day limit', () => {
  it('refuses the 5,001st request of an IST day and allows requests again the next day', () => {
    const limits = new KiteRateLimits();
    let now = OPEN;
    for (let index = 0; index < 5_000; index += 1) {
      const slot = limits.reserve(now);
      if (!slot.ok) throw new Error(`request ${index + 1}: ${slot.error}`);
      now = slot.value.atMs;
    }
    expect(limits.state(now).today).toBe(5_000);
    const refused = limits.reserve(now);
    expect(refused).toEqual({ ok: false, error: "Kite's 5,000 order requests for 2026-04-06 are used up; the count starts again at midnight IST" });
    // 00:00 IST on 2026-04-07 is 18:30 UTC on the 6th.
    const nextDay = Date.parse('2026-04-06T18:30:00Z');
    expect(limits.reserve(nextDay)).toEqual({ ok: true, value: { atMs: nextDay } });
    expect(limits.state(nextDay).today).toBe(1);
  });
});

describe('the 429 backoff', () => {
  it('doubles from 500 ms up to 30 s and starts again after a success', () => {
    const limits = new KiteRateLimits();
    const waits = Array.from({ length: 9 }, () => limits.backOff(OPEN) - OPEN);
    expect(waits).toEqual([500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    limits.succeeded();
    expect(limits.backOff(OPEN + 60_000) - (OPEN + 60_000)).toBe(500);
  });

  it('holds the next slot until the backoff ends, and says so in its state', () => {
    const limits = new KiteRateLimits();
    limits.reserve(OPEN);
    limits.backOff(OPEN + 10, 'Kite answered 429 on POST /orders/regular');
    expect(limits.state(OPEN + 20)).toEqual({
      backingOffUntilMs: OPEN + 510, backoffReason: 'Kite answered 429 on POST /orders/regular', consecutiveRateLimits: 1,
      lastSecond: 1, lastMinute: 1, today: 1, limits: { perSecond: 10, perMinute: 400, perDay: 5_000 },
    });
    const refused = limits.reserve(OPEN + 20, OPEN + 400);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error).toMatch(/429 \(too many requests\) and the backoff lasts 490 ms, past the send deadline/);
    expect(limits.reserve(OPEN + 20)).toEqual({ ok: true, value: { atMs: OPEN + 510 } });
    expect(limits.state(OPEN + 600).backingOffUntilMs).toBeUndefined();
  });
});

describe('modifications per order', () => {
  it('allows 25 per order and refuses the 26th, order by order', () => {
    const limits = new KiteRateLimits();
    for (let index = 0; index < 25; index += 1) {
      expect(limits.modificationAllowed('1953367517686685697')).toBe(true);
      limits.recordModification('1953367517686685697');
    }
    expect(limits.modificationAllowed('1953367517686685697')).toBe(false);
    expect(limits.modificationsOf('1953367517686685697')).toBe(25);
    expect(limits.modificationAllowed('1953367517686685698')).toBe(true);
  });
});
