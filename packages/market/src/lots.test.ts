import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addDays, isoDate } from '@vyuha/core';
import { OPTION_UNDERLYINGS } from './index-configs';
import { freezeQuantity, lotSize, maxOrderQuantity, orderLimitsOf, sliceOrder, MAX_ORDER_SLICES } from './lots';

const d = isoDate;

describe('lotSize', () => {
  it('follows the NIFTY revisions', () => {
    expect(lotSize({ symbol: 'NIFTY', tradeDate: d('2020-06-01') })).toBe(75);
    expect(lotSize({ symbol: 'NIFTY', tradeDate: d('2023-06-01') })).toBe(50);
    expect(lotSize({ symbol: 'NIFTY', tradeDate: d('2024-08-01') })).toBe(25);
    expect(lotSize({ symbol: 'NIFTY', tradeDate: d('2025-06-02') })).toBe(75);
    expect(lotSize({ symbol: 'NIFTY', tradeDate: d('2026-02-02') })).toBe(65);
  });

  it('keeps old contracts on their lot until they expire while new ones carry the new lot', () => {
    // Apr-2024: the weekly of 25-Apr keeps 50; the first weekly with 25 is 2-May.
    expect(lotSize({ symbol: 'NIFTY', tradeDate: d('2024-04-25'), expiry: d('2024-04-25') })).toBe(50);
    expect(lotSize({ symbol: 'NIFTY', tradeDate: d('2024-04-26'), expiry: d('2024-05-02') })).toBe(25);
    // Jul-2023: BANKNIFTY weeklies of 6/13/20-Jul keep 25; the July monthly and August weeklies have 15.
    expect(lotSize({ symbol: 'BANKNIFTY', tradeDate: d('2023-07-03'), expiry: d('2023-07-20') })).toBe(25);
    expect(lotSize({ symbol: 'BANKNIFTY', tradeDate: d('2023-07-03'), expiry: d('2023-07-27') })).toBe(15);
    // Nov-2024: the December NIFTY monthly keeps 25, a 2025 contract listed after 20-Nov has 75.
    expect(lotSize({ symbol: 'NIFTY', tradeDate: d('2024-12-02'), expiry: d('2024-12-26') })).toBe(25);
    expect(lotSize({ symbol: 'NIFTY', tradeDate: d('2024-12-02'), expiry: d('2025-01-02') })).toBe(75);
    // Before the revision takes effect, even far contracts trade with the old lot.
    expect(lotSize({ symbol: 'NIFTY', tradeDate: d('2024-11-19'), expiry: d('2025-03-27') })).toBe(25);
    // Apr-2025: BANKNIFTY 35 from the July monthly only.
    expect(lotSize({ symbol: 'BANKNIFTY', tradeDate: d('2025-05-05'), expiry: d('2025-06-26') })).toBe(30);
    expect(lotSize({ symbol: 'BANKNIFTY', tradeDate: d('2025-05-05'), expiry: d('2025-07-31') })).toBe(35);
  });

  it('refuses contracts that did not exist or had already expired', () => {
    expect(() => lotSize({ symbol: 'MIDCPNIFTY', tradeDate: d('2021-06-01') })).toThrow('No lot size is known for MIDCPNIFTY on 2021-06-01');
    expect(() => lotSize({ symbol: 'NIFTY', tradeDate: d('2024-06-03'), expiry: d('2024-05-30') })).toThrow('expiry 2024-05-30 is before tradeDate 2024-06-03');
  });

  it('gives every live contract a lot, and a contract far enough out the newest lot', () => {
    const dates = fc.integer({ min: 0, max: 2_500 }).map((n) => addDays(d('2020-01-01'), n));
    fc.assert(fc.property(fc.constantFrom(...OPTION_UNDERLYINGS), dates, fc.integer({ min: 0, max: 400 }), (symbol, tradeDate, ahead) => {
      let newest: number;
      try {
        newest = lotSize({ symbol, tradeDate });
      } catch {
        return; // the product did not exist yet
      }
      const expiry = addDays(tradeDate, ahead);
      const lot = lotSize({ symbol, tradeDate, expiry });
      expect(lot).toBeGreaterThan(0);
      // A contract expiring far enough out is a new contract.
      if (ahead === 400) expect(lot).toBe(newest);
    }));
  });
});

describe('freeze quantity and order slicing', () => {
  it('uses the dated freeze schedule', () => {
    expect(freezeQuantity('BANKNIFTY', d('2025-09-15'))).toBe(900);
    expect(freezeQuantity('BANKNIFTY', d('2026-02-02'))).toBe(600);
    expect(freezeQuantity('NIFTY', d('2024-07-31'))).toBeUndefined();
    expect(orderLimitsOf({ symbol: 'NIFTY', tradeDate: d('2026-02-02') })).toEqual({ lotSize: 65, freezeQuantity: 1_800 });
    expect(() => orderLimitsOf({ symbol: 'NIFTY', tradeDate: d('2023-01-02') })).toThrow('No freeze quantity is known for NIFTY on 2023-01-02');
  });

  it('allows the largest lot multiple not above the freeze (NIFTY 1,800 with lot 65 -> 1,755)', () => {
    expect(maxOrderQuantity({ lotSize: 65, freezeQuantity: 1_800 })).toBe(1_755);
    expect(maxOrderQuantity({ lotSize: 75, freezeQuantity: 1_800 })).toBe(1_800);
    expect(maxOrderQuantity({ lotSize: 30, freezeQuantity: 600 })).toBe(600);
    expect(() => maxOrderQuantity({ lotSize: 100, freezeQuantity: 60 })).toThrow('below one lot');
  });

  it('slices an order into full slices and a remainder, at most 10', () => {
    const limits = { lotSize: 65, freezeQuantity: 1_800 };
    expect(sliceOrder(3_900, limits)).toEqual([1_755, 1_755, 390]);
    expect(sliceOrder(65, limits)).toEqual([65]);
    expect(sliceOrder(17_550, limits)).toHaveLength(MAX_ORDER_SLICES);
    expect(() => sliceOrder(17_615, limits)).toThrow('needs 11 slices');
    expect(() => sliceOrder(100, limits)).toThrow('not a multiple of the lot size 65');
    expect(() => sliceOrder(0, limits)).toThrow('quantity must be a positive whole number');
  });

  it('slices add up to the order, each a lot multiple within the freeze', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 5_000 }), fc.integer({ min: 1, max: 300 }), (lot, freezeAt, lotCount) => {
      const limits = { lotSize: lot, freezeQuantity: freezeAt };
      if (freezeAt < lot) return;
      const quantity = lot * lotCount;
      let slices: number[];
      try {
        slices = sliceOrder(quantity, limits);
      } catch (error) {
        expect(quantity).toBeGreaterThan(maxOrderQuantity(limits) * MAX_ORDER_SLICES);
        expect(String(error)).toContain('slices');
        return;
      }
      expect(slices.reduce((a, b) => a + b, 0)).toBe(quantity);
      expect(slices.length).toBeLessThanOrEqual(MAX_ORDER_SLICES);
      for (const slice of slices) {
        expect(slice % lot).toBe(0);
        expect(slice).toBeGreaterThan(0);
        expect(slice).toBeLessThanOrEqual(freezeAt);
      }
      expect(slices.length).toBe(Math.ceil(quantity / maxOrderQuantity(limits)));
    }));
  });
});
