import { describe, expect, it } from 'vitest';
import { isoDate, paise } from '@vyuha/core';
import { chargesFor } from '@vyuha/market';
import { chargeModelOf } from './charges-model';

const date = isoDate('2025-06-02');

describe('chargeModelOf', () => {
  it('charges each fill as chargesFor does, answering plain trades in one reused object', () => {
    const model = chargeModelOf({ kind: 'schedule', exchange: 'NSE', instrument: 'option' });
    const sell = { date, exchange: 'NSE', instrument: 'option', side: 'sell', price: paise(12_050), quantity: 75 } as const;
    const buy = { ...sell, side: 'buy', price: paise(9_875), quantity: 150 } as const;
    const first = model({ date, side: 'sell', price: paise(12_050), quantity: 75 });
    expect({ components: first.components, total: first.total }).toEqual({ components: chargesFor(sell).components, total: chargesFor(sell).total });
    const firstTotal = first.total;
    const second = model({ date, side: 'buy', price: paise(9_875), quantity: 150 });
    expect({ components: second.components, total: second.total }).toEqual({ components: chargesFor(buy).components, total: chargesFor(buy).total });
    // The same object, its numbers rewritten: a caller reads one answer before asking again.
    expect(second).toBe(first);
    expect(second.total).not.toBe(firstTotal);
  });

  it('charges an exercise, a future and an equity trade by their own rules, and names a bad field', () => {
    const options = chargeModelOf({ kind: 'schedule', exchange: 'NSE', instrument: 'option' });
    const exercise = options({ date, side: 'sell', price: paise(5_000), quantity: 75, event: 'exercise', settlementPrice: paise(5_000) });
    expect(exercise.total).toBe(chargesFor({ date, exchange: 'NSE', instrument: 'option', side: 'sell', price: paise(5_000), quantity: 75, event: 'exercise', settlementPrice: paise(5_000) }).total);
    const futures = chargeModelOf({ kind: 'schedule', exchange: 'NSE', instrument: 'future' });
    expect(futures({ date, side: 'buy', price: paise(2_450_000), quantity: 75 }).total)
      .toBe(chargesFor({ date, exchange: 'NSE', instrument: 'future', side: 'buy', price: paise(2_450_000), quantity: 75 }).total);
    expect(() => futures({ date, side: 'buy', price: 10.5 as never, quantity: 75 })).toThrow(/price/);
    const equity = chargeModelOf({ kind: 'schedule', exchange: 'NSE', instrument: 'equity-intraday' })({ date, side: 'buy', price: paise(150_000), quantity: 10 });
    expect(equity.total).toBeGreaterThan(0);
  });
});
