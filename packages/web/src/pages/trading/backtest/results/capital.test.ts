import { describe, expect, it } from 'vitest';
import { positionSnapshots, runCapitalRequirement, underlyingPriceAt } from './capital';
import type { OrderRecord } from './trade-list';

const T0 = Date.UTC(2026, 7, 3, 3, 50);
const iso = (ms: number): string => new Date(ms).toISOString();

function option(input: { id: string; side: 'BUY' | 'SELL'; type: 'CE' | 'PE'; price: number; at: number }): OrderRecord {
  return {
    order_id: input.id, client_order_id: `bt-${input.id}`, side: input.side, quantity: 75, filled_quantity: 75, status: 'FILLED', status_message: null,
    tag: '', average_price_paise: input.price, created_at: iso(input.at),
    instrument: { trading_symbol: `NIFTY26AUG24500${input.type}`, kind: 'option', expiry: '2026-08-27', strike_paise: 2_450_000, option_type: input.type },
    fills: [{ fill_id: `f${input.id}`, trade_id: input.id, quantity: 75, price_paise: input.price, charges_paise: {}, ts: iso(input.at) }],
  };
}

const bars = { time: [T0 - 300_000, T0, T0 + 300_000], open: [2_440_000, 2_450_000, 2_460_000] };

describe('capital requirement from fills', () => {
  it('prices the underlying at the open of the bar holding the instant', () => {
    expect(underlyingPriceAt(bars, T0 + 1)).toBe(24_500);
    expect(underlyingPriceAt(bars, T0 - 600_000)).toBeUndefined();
  });

  it('applies the legs of one entry together and is flat after the exit', () => {
    const orders = [
      option({ id: '1', side: 'SELL', type: 'CE', price: 10_000, at: T0 }), option({ id: '2', side: 'SELL', type: 'PE', price: 9_000, at: T0 }),
      option({ id: '3', side: 'BUY', type: 'CE', price: 8_000, at: T0 + 300_000 }), option({ id: '4', side: 'BUY', type: 'PE', price: 8_000, at: T0 + 300_000 }),
    ];
    const snapshots = positionSnapshots({ orders, bars, underlying: 'NIFTY' });
    expect(snapshots.map((snapshot) => snapshot.legs.length)).toEqual([2, 0]);
    expect(snapshots[0]?.legs[0]).toMatchObject({ kind: 'option', quantity: -75, premium: 100, underlyingPrice: 24_500, strike: 24_500 });
    const requirement = runCapitalRequirement({ orders, bars, underlying: 'NIFTY' });
    expect(requirement.maximumDate).toBe('2026-08-03');
    // Each short ATM leg: max(1715 - premium, 0, 735) + premium + 2% x 24500, per unit, x 75.
    const perUnit = (premium: number): number => Math.max(24_500 * 0.07 - premium, 0, 24_500 * 0.03) + premium + 0.02 * 24_500;
    expect(requirement.maximum).toBe(Math.round((perUnit(100) + perUnit(90)) * 75 * 100));
  });
});

describe('an entry stopped out in its own bar', () => {
  it('still counts the position it held (opening fills of an instant first)', () => {
    const orders = [
      option({ id: '1', side: 'SELL', type: 'CE', price: 10_000, at: T0 }), option({ id: '2', side: 'SELL', type: 'PE', price: 9_000, at: T0 }),
      option({ id: '3', side: 'BUY', type: 'CE', price: 12_000, at: T0 }),
    ];
    const snapshots = positionSnapshots({ orders, bars, underlying: 'NIFTY' });
    expect(snapshots.map((snapshot) => snapshot.legs.length)).toEqual([2, 1]);
    expect(runCapitalRequirement({ orders, bars, underlying: 'NIFTY' }).maximum).toBeGreaterThan(0);
  });
});
