// The runtime's candle builder and the server's candle reader must make the same bars: 1-minute
// candles cut into their tick paths and rebuilt at a larger interval equal aggregateCandles of
// the same candles (what the chart and the backtest read), and the two bar alignments agree on
// every instant. Random sessions include a muhurat evening (2024-11-01) and missing minutes.
import { istEpochMs, isoDate } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { barStartOf, barWindowOf, CandleBuilder, candleTickColumns, candleTicks } from '@vyuha/engine';
import type { BuiltCandle } from '@vyuha/engine';
import { sessionOf, tradingDaysBetween } from '@vyuha/market';
import type { CandleColumns } from '@vyuha/market';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aggregateCandles, barStart } from '../../src/market-data/candle-aggregate';

const MINUTE = 60_000;
const DAYS = tradingDaysBetween('NSE', isoDate('2024-10-28'), isoDate('2024-11-08'));
const INTERVALS = [2, 3, 5, 10, 15, 30, 60, 75, 120, 125, 375, 1440];

const minuteCandles = fc.record({
  days: fc.subarray(DAYS, { minLength: 1, maxLength: 3 }),
  keep: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 500, maxLength: 500 }),
  moves: fc.array(fc.tuple(fc.integer({ min: -200, max: 200 }), fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 900 })), { minLength: 500, maxLength: 500 }),
}).map(({ days, keep, moves }): CandleColumns => {
  const rows: [number, number, number, number, number, number][] = [];
  let price = 5_000_000;
  let slot = 0;
  for (const day of days as IsoDate[]) {
    const session = sessionOf('NSE', day)!;
    for (let minute = session.open; minute < session.close; minute += 1) {
      const [drift, up, down, volume] = moves[slot % moves.length]!;
      const kept = keep[slot % keep.length]! > 0;
      slot += 1;
      if (!kept) continue;
      const open = price;
      const close = Math.max(100, open + drift);
      rows.push([istEpochMs(day, '00:00') + minute * MINUTE, open, Math.max(open, close) + up, Math.max(1, Math.min(open, close) - down), close, volume]);
      price = close;
    }
  }
  const column = <T extends Float64Array | Int32Array>(make: (n: number) => T, field: number): T => {
    const out = make(rows.length);
    rows.forEach((row, index) => { out[index] = row[field]!; });
    return out;
  };
  return {
    length: rows.length, time: column((n) => new Float64Array(n), 0), open: column((n) => new Int32Array(n), 1), high: column((n) => new Int32Array(n), 2),
    low: column((n) => new Int32Array(n), 3), close: column((n) => new Int32Array(n), 4), volume: column((n) => new Float64Array(n), 5),
  };
});

function rebuilt(candles: CandleColumns, interval: number): CandleColumns {
  const builder = new CandleBuilder({ intervalMinutes: interval, exchange: 'NSE' });
  const out: BuiltCandle[] = [];
  const ticks = candleTickColumns();
  for (let row = 0; row < candles.length; row += 1) {
    candleTicks({ open: candles.open[row]!, high: candles.high[row]!, low: candles.low[row]!, close: candles.close[row]!, volume: candles.volume[row]! },
      barWindowOf({ start: candles.time[row]!, intervalMinutes: 1, exchange: 'NSE' }), ticks);
    for (let tick = 0; tick < 4; tick += 1) {
      const closed = builder.push({ instrumentId: 1, time: ticks.time[tick]!, price: ticks.price[tick]!, volume: ticks.volume[tick]!, synthetic: false });
      if (closed) out.push(closed);
    }
  }
  out.push(...builder.closeDue(Number.MAX_SAFE_INTEGER));
  return {
    length: out.length, time: Float64Array.from(out.map((c) => c.time)), open: Int32Array.from(out.map((c) => c.open)), high: Int32Array.from(out.map((c) => c.high)),
    low: Int32Array.from(out.map((c) => c.low)), close: Int32Array.from(out.map((c) => c.close)), volume: Float64Array.from(out.map((c) => c.volume)),
  };
}

describe('the candle builder against the candle reader\'s aggregation', () => {
  it('rebuilds, at any larger interval, exactly what aggregateCandles makes of the same 1-minute candles (property)', () => {
    fc.assert(fc.property(minuteCandles, fc.constantFrom(...INTERVALS), (candles, interval) => {
      expect(rebuilt(candles, interval)).toEqual(aggregateCandles(candles, interval));
    }), { numRuns: 80 });
  });

  it('aligns every instant to the same bar start (property)', () => {
    const from = istEpochMs(isoDate('2024-01-01'), '00:00');
    fc.assert(fc.property(fc.integer({ min: 0, max: 366 * 86_400 }), fc.integer({ min: 1, max: 1440 }), (seconds, interval) => {
      const time = from + seconds * 1_000;
      expect(barStartOf(time, interval)).toBe(barStart(time, interval));
    }), { numRuns: 2_000 });
  });
});
