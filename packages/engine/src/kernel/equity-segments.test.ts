import { describe, expect, it } from 'vitest';
import { rupeesToPaise } from '@vyuha/core';
import { EquitySegments } from './equity-segments';

describe('EquitySegments', () => {
  const prices = Float64Array.of(100.05, 100.1, 99.95, 101.2, 100.35, 100.4, 100.45);

  it('builds the column a bar-by-bar run writes: constants, held runs, and a processed bar kept exactly', () => {
    const segments = new EquitySegments(prices);
    segments.constant(0, 2, 1_000_000);
    // Bought 3 units at bar 2's close: cash 969_985 after the fill.
    segments.hold(969_985, 3);
    segments.bar(2, 969_985 + 3 * rupeesToPaise(99.95));
    segments.held(3, 5);
    // A bar whose equity is not cash + units x close (an odd trader): kept as its own value.
    segments.bar(5, 1_234_567.5);
    segments.hold(1_001_000, 0);
    segments.bar(6, 1_001_000);
    const expected = [1_000_000, 1_000_000, ...[2, 3, 4].map((bar) => 969_985 + 3 * rupeesToPaise(prices[bar] as number)), 1_234_567.5, 1_001_000];
    expect(Array.from(segments.column())).toEqual(expected);
    expect(segments.bars).toBe(7);
  });

  it('merges a run that goes on: one flat stretch of many records is one run, and the column is the same', () => {
    const merged = new EquitySegments(prices);
    merged.hold(500, 0);
    for (let bar = 0; bar < 7; bar += 1) merged.bar(bar, 500);
    const whole = new EquitySegments(prices);
    whole.constant(0, 7, 500);
    expect(merged.column()).toEqual(whole.column());
    // A later run at another value starts a new run; -0 is not 0 (the column keeps the sign bit).
    const signs = new EquitySegments(prices);
    signs.constant(0, 1, 0);
    signs.constant(1, 2, -0);
    expect(Object.is(signs.column()[1], -0)).toBe(true);
  });

  it('refuses a bar out of order or recorded twice', () => {
    const segments = new EquitySegments(prices);
    segments.constant(0, 3, 1);
    expect(() => segments.constant(4, 5, 1)).toThrow(RangeError);
    segments.hold(1, 1);
    expect(() => segments.held(2, 4)).toThrow('equity: bar 2 recorded after bar 2');
  });

  it('grows past its first capacity without losing a run', () => {
    const segments = new EquitySegments(new Float64Array(10_000).fill(100));
    for (let bar = 0; bar < 10_000; bar += 1) segments.constant(bar, bar + 1, bar);
    const column = segments.column();
    expect(column.length).toBe(10_000);
    expect(column.every((value, bar) => value === bar)).toBe(true);
  });
});
