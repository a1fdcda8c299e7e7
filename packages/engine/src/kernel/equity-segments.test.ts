import { describe, expect, it } from 'vitest';
import { rupeesToPaise } from '@vyuha/core';
import { createRng } from '@vyuha/core';
import { DeepestFall, deepestDrawdown } from '../metrics/drawdown';
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

  it('feeds a DeepestFall from any bar the figures deepestDrawdown reads from the built column', () => {
    const rng = createRng(20_261_205);
    const random = (): number => rng.next();
    const length = 3_000;
    const closes = new Float64Array(length);
    let price = 22_000;
    for (let bar = 0; bar < length; bar += 1) {
      price = Math.round((price + (random() - 0.5) * 40) * 20) / 20;
      closes[bar] = price;
    }
    const segments = new EquitySegments(closes);
    let cash = 10_000_000;
    let bar = 0;
    while (bar < length) {
      const to = Math.min(length, bar + 1 + Math.floor(random() * 60));
      if (random() < 0.5) segments.constant(bar, to, cash);
      else {
        const units = random() < 0.5 ? 50 : -50;
        cash -= units * 22_000 * 100;
        segments.hold(cash, units);
        segments.held(bar, to);
        cash += units * Math.round((closes[to - 1] as number) * 100);
      }
      bar = to;
    }
    const column = segments.column();
    // Every seventh bar as the start (inside held runs and constant ones), and the end.
    const starts = [...Array.from({ length: 429 }, (_, step) => step * 7), length - 1, length];
    for (const from of starts) {
      for (const capital of [10_000_000, 9_000_000]) {
        const fall = new DeepestFall(capital);
        segments.feedRuns({ from, to: length }, fall);
        const expected = deepestDrawdown(column.subarray(from), capital);
        expect([fall.depth, fall.depthPercent]).toEqual([expected.depth, expected.depthPercent]);
      }
    }
    // A range that ends early reads only up to its end.
    const part = new DeepestFall(10_000_000);
    segments.feedRuns({ from: 100, to: 2_000 }, part);
    const expected = deepestDrawdown(column.subarray(100, 2_000), 10_000_000);
    expect([part.depth, part.depthPercent]).toEqual([expected.depth, expected.depthPercent]);
    expect(expected.depth).toBeGreaterThan(0);
  });

  it('restarts for another run with its buffers: the next run records from bar 0 at the new prices, nothing of the last run shows', () => {
    const reused = new EquitySegments(prices);
    reused.hold(969_985, 3);
    for (let bar = 0; bar < 7; bar += 1) reused.bar(bar, 969_985 + 3 * rupeesToPaise(prices[bar] as number));
    const others = Float64Array.of(200.5, 201, 199.75);
    expect(reused.restart(others)).toBe(reused);
    expect(reused.bars).toBe(0);
    // What was held before the restart is not held after it: bar 0 is a constant unless `hold` says otherwise.
    reused.bar(0, 7);
    reused.hold(100, 2);
    reused.bar(1, 100 + 2 * rupeesToPaise(201));
    reused.held(2, 3);
    const fresh = new EquitySegments(others);
    fresh.constant(0, 1, 7);
    fresh.hold(100, 2);
    fresh.held(1, 3);
    expect(Array.from(reused.column())).toEqual(Array.from(fresh.column()));
    expect(Array.from(reused.column())).toEqual([7, 100 + 2 * rupeesToPaise(201), 100 + 2 * rupeesToPaise(199.75)]);
  });
});
