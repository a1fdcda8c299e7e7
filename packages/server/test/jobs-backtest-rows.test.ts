import fc from 'fast-check';
import type { LedgerFill } from '@vyuha/engine';
import { describe, expect, it } from 'vitest';
import { positionsOf } from '../src/jobs/backtest-rows';

const ZERO = { brokerage: 0, stt: 0, exchangeTransaction: 0, investorProtection: 0, sebiFee: 0, stampDuty: 0, gst: 0 };

function fill(side: 'buy' | 'sell', quantity: number, money: { price: number; charges: number }): LedgerFill {
  const { price, charges } = money;
  return {
    orderId: 1, instrument: 'NIFTY', index: 0, time: 0, date: '2024-06-03' as never, side, quantity, price: price as never,
    charges: { ...ZERO, brokerage: charges } as never, chargesTotal: charges as never, reason: 'entry',
  };
}

describe('positionsOf (average cost)', () => {
  it('a book that nets to zero is flat, and its realised P&L is sells - buys - charges', () => {
    fc.assert(fc.property(
      fc.array(fc.record({ quantity: fc.integer({ min: 1, max: 50 }), entry: fc.integer({ min: 1, max: 100_000 }), exit: fc.integer({ min: 1, max: 100_000 }), charges: fc.integer({ min: 0, max: 500 }), short: fc.boolean() }), { minLength: 1, maxLength: 20 }),
      (trips) => {
        const fills = trips.flatMap((trip) => [
          fill(trip.short ? 'sell' : 'buy', trip.quantity, { price: trip.entry, charges: trip.charges }),
          fill(trip.short ? 'buy' : 'sell', trip.quantity, { price: trip.exit, charges: trip.charges }),
        ]);
        const [position] = positionsOf(fills);
        const cash = fills.reduce((sum, f) => sum + (f.side === 'sell' ? 1 : -1) * f.price * f.quantity - f.chargesTotal, 0);
        expect(position?.netQuantity).toBe(0);
        expect(position?.averagePricePaise).toBe(0);
        expect(position?.realisedPnlPaise).toBe(cash);
      }));
  });

  it('keeps the average price of an open position and flips at the fill price', () => {
    expect(positionsOf([fill('buy', 10, { price: 100, charges: 0 }), fill('buy', 30, { price: 200, charges: 0 })])).toEqual([{ instrument: 'NIFTY', netQuantity: 40, averagePricePaise: 175, realisedPnlPaise: 0 }]);
    expect(positionsOf([fill('buy', 10, { price: 100, charges: 0 }), fill('sell', 15, { price: 130, charges: 0 })])).toEqual([{ instrument: 'NIFTY', netQuantity: -5, averagePricePaise: 130, realisedPnlPaise: 300 }]);
  });
});
