import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { syntheticOptionQuote } from '../synthetic/option-quote';
import { LegPricer } from './leg-pricing';
import { barSeriesOf, candleSourceOf, timeOf } from './examples/example-support';

const series = barSeriesOf([
  ['2025-01-23 09:30', 23_150, 23_190, 23_120, 23_170],
  ['2025-01-23 09:31', 23_170, 23_175, 23_160, 23_165],
  ['2025-01-23 09:32', 23_165, 23_180, 23_150, 23_155],
]);
const contract = { strike: 23_150, expiry: '2025-01-30', tradingSymbol: 'NIFTY25JAN23150CE' };

describe('LegPricer on the synthetic chain', () => {
  const pricer = new LegPricer({ bars: series, vix: [16, 16.5, 17] });
  const quote = (spot: number, type: 'CE' | 'PE', index: number): number =>
    syntheticOptionQuote({ spot, vix: [16, 16.5, 17][index]!, strike: 23_150, expiry: '2025-01-30', at: series.time[index]!, type }).mid;

  it('prices a call bar at the spot open, high, low and close: the quote mids', () => {
    const call = pricer.price({ ...contract, option: 'CE' });
    expect(pricer.priceBar(call, 0)).toBe(true);
    expect(call.bar).toEqual({ open: quote(23_150, 'CE', 0), high: quote(23_190, 'CE', 0), low: quote(23_120, 'CE', 0), close: quote(23_170, 'CE', 0) });
    expect(call.lastClose).toBe(call.bar.close);
  });

  it("takes a put's high at the spot's low", () => {
    const put = pricer.price({ ...contract, tradingSymbol: 'NIFTY25JAN23150PE', option: 'PE' });
    pricer.priceBar(put, 2);
    expect(put.bar).toEqual({ open: quote(23_165, 'PE', 2), high: quote(23_150, 'PE', 2), low: quote(23_180, 'PE', 2), close: quote(23_155, 'PE', 2) });
  });

  it("prices each tick of the index's path in path order: a put's premium path mirrors the index's", () => {
    // Bar 0 closed up (23,150 -> 23,170): the index path is open 23,150, low 23,120, high 23,190,
    // close 23,170, so the put's premium rises first (to its high at the index's low) and then falls.
    const put = pricer.price({ ...contract, tradingSymbol: 'NIFTY25JAN23150PE', option: 'PE' });
    pricer.priceBar(put, 0);
    expect([...put.path]).toEqual([quote(23_150, 'PE', 0), quote(23_120, 'PE', 0), quote(23_190, 'PE', 0), quote(23_170, 'PE', 0)]);
    expect(put.bar).toEqual({ open: put.path[0], high: Math.max(...put.path), low: Math.min(...put.path), close: put.path[3] });
  });

  it('equals syntheticOptionQuote for any spot, strike and VIX (property)', () => {
    fc.assert(fc.property(fc.double({ min: 15_000, max: 30_000, noNaN: true }), fc.integer({ min: 300, max: 600 }), fc.double({ min: 9, max: 40, noNaN: true }), (spot, steps, vix) => {
      const bars = barSeriesOf([['2025-01-23 10:00', spot, spot, spot, spot]]);
      const priced = new LegPricer({ bars, vix }).price({ tradingSymbol: 'X', strike: steps * 50, expiry: '2025-01-30', option: 'PE' });
      expect(new LegPricer({ bars, vix }).premiumAt(priced, { barIndex: 0, point: 'close' }))
        .toBe(syntheticOptionQuote({ spot, vix, strike: steps * 50, expiry: '2025-01-30', at: bars.time[0]!, type: 'PE' }).mid);
    }));
  });
});

describe('LegPricer on imported candles', () => {
  const candles = candleSourceOf({ NIFTY25JAN23150CE: { '2025-01-23 09:30': [120, 125, 118, 121.5], '2025-01-23 09:32': [119, 119.5, 117, 118] } });
  const pricer = new LegPricer({ bars: series, vix: 16 }, candles);

  it('reads the candle and carries the last close over a missing one', () => {
    const call = pricer.price({ ...contract, option: 'CE' });
    expect(call.source).toBe('candles');
    pricer.priceBar(call, 0);
    expect(call.bar).toEqual({ open: 12_000, high: 12_500, low: 11_800, close: 12_150 });
    // The candle closed up: its own tick path, low before high.
    expect([...call.path]).toEqual([12_000, 11_800, 12_500, 12_150]);
    pricer.priceBar(call, 1);
    expect(call.bar).toEqual({ open: 12_150, high: 12_150, low: 12_150, close: 12_150 });
    expect([...call.path]).toEqual([12_150, 12_150, 12_150, 12_150]);
    pricer.priceBar(call, 2);
    expect(call.bar.close).toBe(11_800);
  });

  it('has no price for a contract with candles before its first candle, and prices others synthetically', () => {
    const call = pricer.price({ ...contract, option: 'CE' });
    expect(pricer.priceBar(call, 1)).toBe(false);
    expect(pricer.premiumAt(call, { barIndex: 1, point: 'open' })).toBeUndefined();
    const other = pricer.price({ ...contract, tradingSymbol: 'NIFTY25JAN23200CE', strike: 23_200, option: 'CE' });
    expect(other.source).toBe('synthetic');
    expect(timeOf('2025-01-23 09:31')).toBe(series.time[1]);
  });
});
