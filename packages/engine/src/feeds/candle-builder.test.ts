// The candle builder rebuilds exactly the bars its ticks came from (candles -> tick paths ->
// builder at the same interval gives the same candles: time, OHLC, volume), closes a quiet
// bar from the clock, makes no candle for a bar without ticks, and sets aside late ticks and
// ticks outside the session. The comparison with the server's own aggregation at a larger
// interval is in packages/server/test/trading-feeds/candle-builder-matches-aggregate.test.ts.
import { istEpochMs, isoDate } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { sessionOf, tradingDaysBetween } from '@vyuha/market';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { barStartOf, barWindowOf } from './bar-window';
import { CandleBuilder } from './candle-builder';
import type { BuiltCandle } from './candle-builder';
import { candleTickColumns, candleTicks } from './candle-ticks';
import type { FeedTick } from './feed-port';

const MINUTE = 60_000;
/** 2024 has holidays, a Saturday budget session (none: 2024-02-01 was a Thursday) and a muhurat evening (2024-11-01). */
const DAYS = tradingDaysBetween('NSE', isoDate('2024-10-28'), isoDate('2024-11-08'));

interface Bar { time: number; open: number; high: number; low: number; close: number; volume: number }

/** Bars of `interval` on random trading days, some bars missing, prices whole paise. */
const barsArbitrary = (interval: number) => fc.record({
  days: fc.subarray(DAYS, { minLength: 1, maxLength: 4 }),
  keep: fc.array(fc.boolean(), { minLength: 400, maxLength: 400 }),
  moves: fc.array(fc.record({ up: fc.integer({ min: 0, max: 400 }), down: fc.integer({ min: 0, max: 400 }), drift: fc.integer({ min: -300, max: 300 }), volume: fc.integer({ min: 0, max: 5_000 }) }), { minLength: 400, maxLength: 400 }),
}).map(({ days, keep, moves }) => {
  const bars: Bar[] = [];
  let price = 2_400_000;
  let slot = 0;
  for (const day of days as IsoDate[]) {
    const session = sessionOf('NSE', day);
    if (session === undefined) continue;
    const starts = new Set<number>();
    for (let minute = session.open; minute < session.close; minute += 1) starts.add(barStartOf(istEpochMs(day, '00:00') + minute * MINUTE, interval));
    for (const time of [...starts].sort((a, b) => a - b)) {
      const move = moves[slot % moves.length]!;
      const kept = keep[slot % keep.length]!;
      slot += 1;
      if (!kept) continue;
      const open = price;
      const close = Math.max(100, open + move.drift);
      bars.push({ time, open, high: Math.max(open, close) + move.up, low: Math.max(1, Math.min(open, close) - move.down), close, volume: move.volume });
      price = close;
    }
  }
  return bars;
});

function ticksOf(bars: readonly Bar[], interval: number, instrumentId = 7): FeedTick[] {
  const out = candleTickColumns();
  const ticks: FeedTick[] = [];
  for (const bar of bars) {
    candleTicks(bar, barWindowOf({ start: bar.time, intervalMinutes: interval, exchange: 'NSE' }), out);
    for (let tick = 0; tick < 4; tick += 1) {
      ticks.push({ instrumentId, time: out.time[tick]!, price: out.price[tick]!, volume: out.volume[tick]!, synthetic: false });
    }
  }
  return ticks;
}

function rebuild(ticks: readonly FeedTick[], interval: number): BuiltCandle[] {
  const builder = new CandleBuilder({ intervalMinutes: interval, exchange: 'NSE' });
  const candles: BuiltCandle[] = [];
  for (const tick of ticks) {
    const closed = builder.push(tick);
    if (closed) candles.push(closed);
  }
  candles.push(...builder.closeDue(Number.MAX_SAFE_INTEGER));
  expect(builder.unused).toEqual({ late: 0, outsideSession: 0 });
  return candles;
}

const plain = (candles: readonly BuiltCandle[]): Bar[] => candles.map(({ time, open, high, low, close, volume }) => ({ time, open, high, low, close, volume }));

describe('CandleBuilder', () => {
  it('gives back the candles whose tick paths it was fed, at any interval (property)', () => {
    fc.assert(fc.property(fc.constantFrom(1, 3, 5, 15, 30, 60, 75, 120, 375, 1440).chain((interval) => fc.tuple(fc.constant(interval), barsArbitrary(interval))), ([interval, bars]) => {
      expect(plain(rebuild(ticksOf(bars, interval), interval))).toEqual(bars);
    }), { numRuns: 60 });
  });

  it('keeps every tick inside its bar\'s window: the muhurat evening of 2024-11-01 in a 120-minute bar aligned to 09:15', () => {
    // Session 18:00-19:00: the bucket is 17:15-19:15, so the bar is stamped 17:15, closes at 19:00
    // and its ticks fall from 18:00: 18:00, 18:15, 18:30, 18:45.
    const day = isoDate('2024-11-01');
    const bar = { time: istEpochMs(day, '17:15'), open: 100, high: 110, low: 90, close: 105, volume: 3 };
    const ticks = ticksOf([bar], 120);
    expect(ticks.map((tick) => tick.time)).toEqual(['18:00', '18:15', '18:30', '18:45'].map((hhmm) => istEpochMs(day, hhmm)));
    expect(ticks.map((tick) => tick.price)).toEqual([100, 90, 110, 105]);
    expect(plain(rebuild(ticks, 120))).toEqual([bar]);
  });

  it('closes a quiet bar when the clock reaches its end, and the session\'s last bar at the close', () => {
    const day = isoDate('2024-11-04');
    const builder = new CandleBuilder({ intervalMinutes: 120, exchange: 'NSE' });
    const tick = (hhmmss: string, price: number): FeedTick => ({ instrumentId: 1, time: istEpochMs(day, hhmmss), price, volume: 0, synthetic: true });
    expect(builder.push(tick('15:16:00', 500))).toBeUndefined();
    expect(builder.push(tick('15:20:00', 520))).toBeUndefined();
    expect(builder.nextDue()).toBe(istEpochMs(day, '15:30'));
    expect(builder.closeDue(istEpochMs(day, '15:29:59') + 999)).toEqual([]);
    expect(builder.closeDue(istEpochMs(day, '15:30'))).toEqual([
      { instrumentId: 1, time: istEpochMs(day, '15:15'), open: 500, high: 520, low: 500, close: 520, volume: 0, synthetic: true, ticks: 2 },
    ]);
    expect(builder.nextDue()).toBeUndefined();
  });

  it('makes no candle for a bar without ticks: 09:15 and 09:25 bars, nothing for 09:20', () => {
    const day = isoDate('2024-11-04');
    const builder = new CandleBuilder({ intervalMinutes: 5, exchange: 'NSE' });
    const tick = (hhmmss: string, price: number): FeedTick => ({ instrumentId: 2, time: istEpochMs(day, hhmmss), price, volume: 1, synthetic: false });
    builder.push(tick('09:15:00', 10));
    expect(builder.closeDue(istEpochMs(day, '09:24:00')).map((candle) => candle.time)).toEqual([istEpochMs(day, '09:15')]);
    expect(builder.push(tick('09:26:00', 11))).toBeUndefined();
    expect(builder.push(tick('09:30:00', 12))?.time).toBe(istEpochMs(day, '09:25'));
  });

  it('sets aside a late tick (its bar already closed) and ticks outside the session: pre-open, after the close, a Sunday', () => {
    const day = isoDate('2024-11-04');
    const builder = new CandleBuilder({ intervalMinutes: 1, exchange: 'NSE' });
    const tick = (date: IsoDate, hhmmss: string): FeedTick => ({ instrumentId: 3, time: istEpochMs(date, hhmmss), price: 100, volume: 0, synthetic: false });
    builder.push(tick(day, '10:00:10'));
    builder.push(tick(day, '10:01:00'));
    expect(builder.push(tick(day, '10:00:59'))).toBeUndefined();
    builder.push(tick(day, '09:05:00'));
    builder.push(tick(day, '15:30:00'));
    builder.push(tick(isoDate('2024-11-03'), '10:00:00'));
    expect(builder.unused).toEqual({ late: 1, outsideSession: 3 });
    expect(builder.closeDue(Number.MAX_SAFE_INTEGER).map((candle) => candle.time)).toEqual([istEpochMs(day, '10:01')]);
  });

  it('keeps instruments apart: each closes its own bars', () => {
    const day = isoDate('2024-11-04');
    const builder = new CandleBuilder({ intervalMinutes: 1, exchange: 'NSE' });
    builder.push({ instrumentId: 1, time: istEpochMs(day, '10:00:00'), price: 100, volume: 0, synthetic: false });
    builder.push({ instrumentId: 2, time: istEpochMs(day, '10:00:30'), price: 200, volume: 0, synthetic: false });
    const closed = builder.push({ instrumentId: 1, time: istEpochMs(day, '10:01:00'), price: 101, volume: 0, synthetic: false });
    expect(closed).toMatchObject({ instrumentId: 1, close: 100 });
    expect(builder.closeDue(istEpochMs(day, '10:01')).map((candle) => [candle.instrumentId, candle.close])).toEqual([[2, 200]]);
  });

  it('refuses a broken tick naming its field, and an interval outside 1..1440', () => {
    const builder = new CandleBuilder({ intervalMinutes: 1, exchange: 'NSE' });
    const good: FeedTick = { instrumentId: 1, time: istEpochMs(isoDate('2024-11-04'), '10:00'), price: 100, volume: 0, synthetic: false };
    expect(() => builder.push({ ...good, price: 10.5 })).toThrow(/tick\.price must be positive whole paise, got 10\.5/);
    expect(() => builder.push({ ...good, instrumentId: 0 })).toThrow(/tick\.instrumentId/);
    expect(() => builder.push({ ...good, time: Number.NaN })).toThrow(/tick\.time/);
    expect(() => builder.push({ ...good, volume: -1 })).toThrow(/tick\.volume/);
    expect(() => new CandleBuilder({ intervalMinutes: 7.5, exchange: 'NSE' })).toThrow(/intervalMinutes must be a whole number from 1 to 1440, got 7\.5/);
    expect(builder.closeDue(Number.MAX_SAFE_INTEGER)).toEqual([]);
  });
});
