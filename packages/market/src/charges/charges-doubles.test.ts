import { createRng, paise } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import type { BrokeragePlan } from './brokerage';
import { chargesFor, chargesForDay, emptyChargesScratch, tradeChargesInto } from './charges';
import type { ChargesInput } from './charges-input';

// chargesFor computes in doubles while every step stays within Number.MAX_SAFE_INTEGER and in
// bigint beyond (charges.ts, chargesInDoubles). chargesForDay always computes in bigint, and on a
// day of one order it charges exactly as chargesFor (charges-day.test.ts): so it is the reference.

function inBigint(order: ChargesInput): unknown {
  const { sttByContract: _perContract, ...day } = chargesForDay([{ ...order, contract: 'NIFTY-X' }]);
  return day;
}

const PLANS: ReadonlyArray<BrokeragePlan | undefined> = [
  undefined, { kind: 'flat', perOrder: paise(0) }, { kind: 'flat', perOrder: paise(2_000) }, { kind: 'percentage', percent: 0.03, cap: paise(2_000) },
  { kind: 'percentage', percent: 2.5, cap: paise(9_000_000_000) },
];
const DATES = ['2020-01-01', '2022-08-17', '2023-04-01', '2024-09-30', '2024-10-01', '2025-06-02', '2026-04-01'];

describe('chargesFor in doubles', () => {
  it('equals the bigint arithmetic on random orders from a paisa to beyond exact doubles', () => {
    const rng = createRng(2026);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(rng.next() * items.length)] as T;
    let large = 0;
    let inPlace = 0;
    const scratch = emptyChargesScratch();
    for (let count = 0; count < 4000; count += 1) {
      // Values spread over 1 .. ~10^15 paise: log-uniform, so small and huge orders are both common.
      const value = Math.floor(10 ** (rng.next() * 15));
      const quantity = pick([1, 15, 50, 75, 1_800]);
      const price = Math.max(0, Math.floor(value / quantity));
      const instrument = pick(['option', 'future'] as const);
      const event = instrument === 'option' ? pick(['trade', 'trade', 'exercise', 'expire-worthless'] as const) : 'trade';
      const brokerage = pick(PLANS);
      const order: ChargesInput = {
        date: pick(DATES), exchange: pick(['NSE', 'BSE', 'NFO'] as const), instrument, side: pick(['buy', 'sell'] as const), price: paise(price), quantity, event,
        ...(event === 'trade' ? {} : { settlementPrice: paise(event === 'exercise' ? price : 0) }),
        ...(brokerage === undefined ? {} : { brokerage }),
      };
      if (price * quantity * 150_000 > Number.MAX_SAFE_INTEGER) large += 1;
      const expected = inBigint(order);
      expect(chargesFor(order), JSON.stringify(order)).toEqual(expected);
      // In place, into one reused scratch: the same components and total for a plain trade it can
      // compute in doubles; otherwise false, the scratch as it was.
      const before = { components: { ...scratch.components }, total: scratch.total };
      if (tradeChargesInto(order, scratch)) {
        expect(event).toBe('trade');
        expect(scratch, JSON.stringify(order)).toEqual({ components: (expected as { components: unknown }).components, total: (expected as { total: unknown }).total });
        inPlace += 1;
      } else {
        expect(scratch).toEqual(before);
      }
    }
    // Most plain trades were charged in place, and exercises, worthless expiries and orders past exact doubles were not.
    expect(inPlace).toBeGreaterThan(1_500);
    expect(inPlace).toBeLessThan(4_000 - large);
    // Some orders went past exact doubles, so the bigint fallback was compared too.
    expect(large).toBeGreaterThan(100);
  });

  it('equals the bigint arithmetic where value x rate crosses Number.MAX_SAFE_INTEGER', () => {
    // STT on a future sold from 1-Apr-2026 is 0.05% (50_000 parts per 10^8); options 0.15%; exchange charges far lower.
    for (const [instrument, rate] of [['future', 50_000], ['option', 150_000], ['future', 1_730]] as const) {
      const edge = Math.floor(Number.MAX_SAFE_INTEGER / rate);
      for (let price = edge - 3; price <= edge + 3; price += 1) {
        for (const side of ['buy', 'sell'] as const) {
          const order: ChargesInput = { date: '2026-05-05', exchange: 'NSE', instrument, side, price: paise(price), quantity: 1 };
          expect(chargesFor(order), `${instrument} ${side} ${price}`).toEqual(inBigint(order));
        }
      }
    }
  });
});
