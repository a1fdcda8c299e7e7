import { describe, expect, it } from 'vitest';
import { isoDate, paise } from '@vyuha/core';
import { chargeModelOf } from './charges-model';
import { Ledger } from './ledger';

// 75 NIFTY calls bought at 80.00 on 8-Jan-2025, exercised at expiry on 9-Jan-2025 at 100.55:
// STT 0.125% of 7,541.25 = 9.43 -> Rs 9; brokerage Rs 20; GST 18% of 20 = 3.60; total 32.60.
function longCall(): { ledger: Ledger; entry: ReturnType<Ledger['fill']> } {
  const ledger = new Ledger({ capital: paise(1_000_000), chargeModel: chargeModelOf({ kind: 'schedule', exchange: 'NSE', instrument: 'option' }) });
  const order = ledger.place({ instrument: 'NIFTY2510923550CE', side: 'buy', quantity: 75, reason: 'entry', index: 0, time: 0 });
  const entry = ledger.fill(order, { index: 0, time: 0, date: isoDate('2025-01-08'), price: paise(8_000) });
  ledger.closeDay(isoDate('2025-01-08'), 0);
  return { ledger, entry };
}

describe('Ledger.settle', () => {
  it('charges an exercise through the charge model and counts it in the day row', () => {
    const { ledger, entry } = longCall();
    const cashBefore = ledger.cash;
    const order = ledger.place({ instrument: 'NIFTY2510923550CE', side: 'sell', quantity: 75, reason: 'expiry', index: 4, time: 1 });
    const fill = ledger.settle(order, { event: 'exercise', settlementPrice: paise(10_055), index: 4, time: 1, date: isoDate('2025-01-09'), instrument: 'option' });
    expect(fill.charges).toEqual({ brokerage: 2_000, stt: 900, exchangeTransaction: 0, investorProtection: 0, sebiFee: 0, stampDuty: 0, gst: 360 });
    expect(fill.chargesTotal).toBe(3_260);
    expect(ledger.cash - cashBefore).toBe(10_055 * 75 - 3_260);
    expect(ledger.recordTrade(entry, fill)).toMatchObject({ exitReason: 'expiry', gross: (10_055 - 8_000) * 75 });
    expect(ledger.closeDay(isoDate('2025-01-09'), 1_000)).toEqual({ date: isoDate('2025-01-09'), gross: 4_260, charges: 3_260, net: 1_000, orders: 1 });
  });

  it('settles a worthless expiry at 0 with no charges, still one order that day', () => {
    const { ledger } = longCall();
    const cashBefore = ledger.cash;
    const order = ledger.place({ instrument: 'NIFTY2510923550CE', side: 'sell', quantity: 75, reason: 'expiry', index: 4, time: 1 });
    const fill = ledger.settle(order, { event: 'expire-worthless', settlementPrice: paise(0), index: 4, time: 1, date: isoDate('2025-01-09'), instrument: 'option' });
    expect([fill.price, fill.chargesTotal, ledger.cash - cashBefore]).toEqual([0, 0, 0]);
    expect(ledger.closeDay(isoDate('2025-01-09'), 0)).toMatchObject({ charges: 0, orders: 1 });
  });

  it('rejects a worthless expiry with a price, and an order that is not working', () => {
    const { ledger } = longCall();
    const order = ledger.place({ instrument: 'NIFTY2510923550CE', side: 'sell', quantity: 75, reason: 'expiry', index: 4, time: 1 });
    expect(() => ledger.settle(order, { event: 'expire-worthless', settlementPrice: paise(5), index: 4, time: 1, date: isoDate('2025-01-09') })).toThrow(/settlementPrice/);
    ledger.cancel(order);
    expect(() => ledger.settle(order, { event: 'exercise', settlementPrice: paise(5), index: 4, time: 1, date: isoDate('2025-01-09') })).toThrow(/cancelled/);
  });
});
