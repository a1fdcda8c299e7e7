import { describe, expect, it } from 'vitest';
import { barSeriesOf, candleIndexAt, chartSeconds, epochMsOfChartSeconds, rupeeCandles } from './chart-candles';

describe('chart candles', () => {
  it('turns the action paise into rupee typed arrays', () => {
    const candles = rupeeCandles({ time: [1, 2], open: [2_450_050, 2_450_100], high: [2_451_000, 2_452_000], low: [2_449_000, 2_450_000], close: [2_450_100, 2_451_995], volume: null });
    expect(candles.open).toBeInstanceOf(Float64Array);
    expect(Array.from(candles.open)).toEqual([24_500.5, 24_501]);
    expect(Array.from(candles.close)).toEqual([24_501, 24_519.95]);
    expect(Array.from(candles.volume ?? [])).toEqual([0, 0]);
  });

  it('shifts instants to IST wall-clock seconds for the chart axis, and back', () => {
    const open = Date.UTC(2026, 7, 3, 3, 45); // 09:15 IST
    expect(new Date(chartSeconds(open) * 1000).toISOString()).toBe('2026-08-03T09:15:00.000Z');
    expect(epochMsOfChartSeconds(chartSeconds(open))).toBe(open);
  });

  it('finds the candle containing an instant', () => {
    const candles = { time: [100, 200, 300], open: [1, 1, 1], high: [1, 1, 1], low: [1, 1, 1], close: [1, 1, 1] };
    expect([50, 100, 150, 200, 299, 300, 1_000].map((time) => candleIndexAt(candles, time))).toEqual([0, 0, 0, 1, 1, 2, 2]);
  });

  it('gives the engine bar columns with unknown open interest', () => {
    const series = barSeriesOf({ time: [1, 2], open: [3, 4], high: [5, 6], low: [1, 2], close: [4, 5] });
    expect(series.length).toBe(2);
    expect(Array.from(series.volume)).toEqual([0, 0]);
    expect(Number.isNaN(series.oi[0])).toBe(true);
  });
});
