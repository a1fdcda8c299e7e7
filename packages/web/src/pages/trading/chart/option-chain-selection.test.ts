// The option-chain selection's list rules: adding merges by contract, quantities are non-zero
// whole lots, update and remove find a contract by instrument_id or trading symbol, and the
// selection becomes payoff positions and net greeks.
import type { IsoDate } from '@vyuha/core';
import { lotSize } from '@vyuha/market';
import { describe, expect, it } from 'vitest';
import { addOption, quantityProblem, removeOption, selectionGreeks, toPayoffPositions, unitsOf, updateQuantity, type SelectedOption, type SelectionResult } from './option-chain-selection';

const EXPIRY = '2026-11-03' as IsoDate;
const LOT = lotSize({ symbol: 'NIFTY', tradeDate: '2026-10-30' as IsoDate, expiry: EXPIRY });
const AT = Date.UTC(2026, 9, 30, 10, 0); // 30-Oct-2026 15:30 IST

function option(fields: Partial<SelectedOption> & Pick<SelectedOption, 'optionType' | 'quantity'>): SelectedOption {
  return { instrumentId: null, tradingSymbol: `NIFTY26N0324500${fields.optionType}`, strike: 24_500, expiry: EXPIRY, lotSize: LOT, ltpPaise: 12_000, iv: 0.14, ...fields };
}

function applied(result: SelectionResult): SelectedOption[] {
  if (!result.ok) throw new Error(result.message);
  return result.selection;
}

describe('option-chain selection', () => {
  it('uses the market lot rules: 65 units a NIFTY lot for November 2026', () => {
    expect(LOT).toBe(65);
    expect(unitsOf({ side: 'Sell', lots: 2, lotSize: LOT })).toBe(-130);
  });

  it('accepts only non-zero whole lots, saying why otherwise', () => {
    expect(quantityProblem(130, 65)).toBeUndefined();
    expect(quantityProblem(-65, 65)).toBeUndefined();
    expect(quantityProblem(0, 65)).toBe('Quantity must not be zero: remove the instrument instead');
    expect(quantityProblem(100, 65)).toBe('Quantity 100 is not a whole number of lots of 65');
    expect(quantityProblem(65.5, 65)).toBe('Quantity 65.5 is not a whole number of lots of 65');
    expect(quantityProblem(Number.NaN, 65)).toBe('Quantity must be a number');
    expect(addOption([], option({ optionType: 'CE', quantity: 30 }))).toEqual({ ok: false, message: 'Quantity 30 is not a whole number of lots of 65' });
  });

  it('adds to the quantity of a contract already selected, and drops it when flat', () => {
    const once = applied(addOption([], option({ optionType: 'CE', quantity: -65 })));
    const twice = applied(addOption(once, option({ optionType: 'CE', quantity: -65, ltpPaise: 12_500, instrumentId: 901 })));
    expect(twice).toHaveLength(1);
    expect(twice[0]).toMatchObject({ quantity: -130, ltpPaise: 12_500, instrumentId: 901 });
    const withPut = applied(addOption(twice, option({ optionType: 'PE', quantity: 65 })));
    expect(withPut.map((item) => item.tradingSymbol)).toEqual(['NIFTY26N0324500CE', 'NIFTY26N0324500PE']);
    const flat = applied(addOption(withPut, option({ optionType: 'CE', quantity: 130 })));
    expect(flat.map((item) => item.tradingSymbol)).toEqual(['NIFTY26N0324500PE']);
  });

  it('updates and removes by instrument_id or by trading symbol', () => {
    const selection = [option({ optionType: 'CE', quantity: -65, instrumentId: 901 }), option({ optionType: 'PE', quantity: -65 })];
    expect(applied(updateQuantity(selection, 901, -195)).map((item) => item.quantity)).toEqual([-195, -65]);
    expect(applied(updateQuantity(selection, 'NIFTY26N0324500PE', 130)).map((item) => item.quantity)).toEqual([-65, 130]);
    expect(updateQuantity(selection, 901, 0)).toEqual({ ok: false, message: 'Quantity must not be zero: remove the instrument instead' });
    expect(updateQuantity(selection, 902, 65)).toEqual({ ok: false, message: '902 is not selected' });
    expect(removeOption(selection, 901).map((item) => item.optionType)).toEqual(['PE']);
    expect(removeOption(selection, 'NIFTY26N0324500PE').map((item) => item.optionType)).toEqual(['CE']);
    expect(removeOption(selection, 'NOPE')).toEqual(selection);
  });

  it('becomes payoff positions of one index, priced at the fresher quote when there is one', () => {
    const selection = [option({ optionType: 'CE', quantity: -65 }), option({ optionType: 'PE', quantity: -130 })];
    const positions = toPayoffPositions(selection, { indice: 'NIFTY 50', timestamp: AT, quote: (item) => (item.optionType === 'CE' ? { ltpPaise: 15_050, iv: 0.15 } : undefined) });
    expect(positions).toEqual([
      { kind: 'option', optionType: 'CE', strike: 24_500, expiry: EXPIRY, quantity: -65, entryPrice: 150.5, iv: 0.15, indice: 'NIFTY 50', timestamp: AT },
      { kind: 'option', optionType: 'PE', strike: 24_500, expiry: EXPIRY, quantity: -130, entryPrice: 120, iv: 0.14, indice: 'NIFTY 50', timestamp: AT },
    ]);
  });

  it('nets the greeks: a short ATM straddle is short gamma and vega, long theta', () => {
    expect(selectionGreeks([], { at: AT, spot: 24_500 })).toBeUndefined();
    const straddle = [option({ optionType: 'CE', quantity: -65 }), option({ optionType: 'PE', quantity: -65 })];
    const greeks = selectionGreeks(straddle, { at: AT, spot: 24_500 });
    expect(greeks?.gamma).toBeLessThan(0);
    expect(greeks?.vega).toBeLessThan(0);
    expect(greeks?.theta).toBeGreaterThan(0);
    expect(Math.abs(greeks?.delta ?? Infinity)).toBeLessThan(65 * 0.2);
  });
});
