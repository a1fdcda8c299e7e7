import fc from 'fast-check';
import { paise } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { chargesFor, chargesForDay } from './charges';
import type { ChargeBreakdown, DayTrade } from './charges';
import type { BrokeragePlan } from './brokerage';

const dateArbitrary = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2027, 11, 31) })
  .map((ms) => new Date(ms).toISOString().slice(0, 10));
const planArbitrary: fc.Arbitrary<BrokeragePlan> = fc.oneof(
  fc.integer({ min: 0, max: 10_000 }).map((perOrder) => ({ kind: 'flat', perOrder: paise(perOrder) }) as const),
  fc.record({ percent: fc.integer({ min: 0, max: 100_000 }).map((n) => n / 1_000_000), cap: fc.integer({ min: 0, max: 10_000 }) })
    .map(({ percent, cap }) => ({ kind: 'percentage', percent, cap: paise(cap) }) as const),
);
const tradeArbitrary = fc.record({
  date: dateArbitrary,
  exchange: fc.constantFrom('NSE', 'BSE', 'NFO', 'BFO' as const),
  instrument: fc.constantFrom('option', 'future' as const),
  side: fc.constantFrom('buy', 'sell' as const),
  price: fc.integer({ min: 0, max: 5_000_000 }).map(paise),
  quantity: fc.integer({ min: 1, max: 20_000 }),
  brokerage: planArbitrary,
});
const optionSettlementArbitrary = fc.record({
  date: dateArbitrary,
  exchange: fc.constantFrom('NSE', 'BSE' as const),
  instrument: fc.constant('option' as const),
  side: fc.constantFrom('buy', 'sell' as const),
  price: fc.constant(paise(0)),
  quantity: fc.integer({ min: 1, max: 20_000 }),
  event: fc.constantFrom('exercise', 'expire-worthless' as const),
  settlementPrice: fc.integer({ min: 0, max: 500_000 }).map(paise),
});
const anyArbitrary = fc.oneof(tradeArbitrary, optionSettlementArbitrary);

function values(result: ChargeBreakdown): number[] {
  return [...Object.values(result.components), result.total];
}

describe('charges invariants', () => {
  it('are never negative, and the total is the sum of the components', () => {
    fc.assert(fc.property(anyArbitrary, (trade) => {
      const result = chargesFor(trade);
      expect(values(result).every((value) => Number.isSafeInteger(value) && value >= 0)).toBe(true);
      expect(result.total).toBe(Object.values(result.components).reduce((sum, value) => sum + value, 0));
      expect(result.components.stt % 100).toBe(0);
    }));
  });

  it('never fall as the quantity grows, component by component', () => {
    fc.assert(fc.property(anyArbitrary, fc.integer({ min: 0, max: 20_000 }), (trade, extra) => {
      const smaller = values(chargesFor(trade));
      const larger = values(chargesFor({ ...trade, quantity: trade.quantity + extra }));
      smaller.forEach((value, index) => expect(larger[index]).toBeGreaterThanOrEqual(value));
    }));
  });

  it('a day priced as a whole differs from its orders priced one by one only by rounding', () => {
    const dayArbitrary = fc.tuple(dateArbitrary, fc.array(fc.tuple(tradeArbitrary, fc.constantFrom('A', 'B', 'C')), { minLength: 1, maxLength: 8 }));
    fc.assert(fc.property(dayArbitrary, ([date, entries]) => {
      const trades: DayTrade[] = entries.map(([trade, contract]) => ({ ...trade, date, contract }));
      const day = chargesForDay(trades);
      const orders = trades.map((trade) => chargesFor(trade));
      const sttByOrder = orders.reduce((sum, order) => sum + order.components.stt, 0);
      // each per-order STT rounding moves it at most half a rupee; the per-contract roundings likewise
      expect(Math.abs(day.components.stt - sttByOrder)).toBeLessThanOrEqual(50 * (trades.length + day.sttByContract.length));
      expect(day.components.brokerage).toBe(orders.reduce((sum, order) => sum + order.components.brokerage, 0));
      expect(day.turnover).toBe(orders.reduce((sum, order) => sum + order.turnover, 0));
    }));
  });
});
