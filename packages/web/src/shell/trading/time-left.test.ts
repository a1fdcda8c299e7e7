import { describe, expect, it } from 'vitest';
import { stillOpen, timeLeft } from './time-left';

const NOW = Date.UTC(2026, 0, 1, 10, 0, 0);

describe('timeLeft', () => {
  it('counts hours, minutes and seconds down, rounding the part second away', () => {
    // 5 min 7.9 s left shows 5m 07s: a countdown never shows more time than there is.
    expect(timeLeft(NOW + 5 * 60_000 + 7_900, NOW)).toBe('5m 07s');
    expect(timeLeft(NOW + 2 * 3_600_000 + 30_000, NOW)).toBe('2h 00m 30s');
    expect(timeLeft(NOW + 9_000, NOW)).toBe('9s');
  });

  it('says expired at and after the expiry, and nothing without one', () => {
    expect(timeLeft(NOW, NOW)).toBe('expired');
    expect(timeLeft(NOW + 999, NOW)).toBe('expired');
    expect(timeLeft(NOW - 60_000, NOW)).toBe('expired');
    expect(timeLeft(undefined, NOW)).toBeUndefined();
    expect(timeLeft(Number.NaN, NOW)).toBeUndefined();
  });

  it('keeps a signal open until its expiry', () => {
    expect(stillOpen(NOW + 1, NOW)).toBe(true);
    expect(stillOpen(NOW, NOW)).toBe(false);
    expect(stillOpen(undefined, NOW)).toBe(true);
  });
});
