import { describe, expect, it } from 'vitest';
import { isoDate, paise } from '@vyuha/core';
import { chargeModelOf } from './charges-model';
import { Ledger, LedgerColumns } from './ledger';

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
    expect(ledger.fills[fill]?.charges).toEqual({ brokerage: 2_000, stt: 900, exchangeTransaction: 0, investorProtection: 0, sebiFee: 0, stampDuty: 0, gst: 360 });
    expect(ledger.fillChargesTotal(fill)).toBe(3_260);
    expect(ledger.cash - cashBefore).toBe(10_055 * 75 - 3_260);
    ledger.recordTrade(entry, fill);
    expect(ledger.trades[0]).toMatchObject({ exitReason: 'expiry', gross: (10_055 - 8_000) * 75, direction: 'long', quantity: 75 });
    ledger.closeDay(isoDate('2025-01-09'), 1_000);
    expect(ledger.days.at(-1)).toEqual({ date: isoDate('2025-01-09'), gross: 4_260, charges: 3_260, net: 1_000, orders: 1 });
  });

  it('settles a worthless expiry at 0 with no charges, still one order that day', () => {
    const { ledger } = longCall();
    const cashBefore = ledger.cash;
    const order = ledger.place({ instrument: 'NIFTY2510923550CE', side: 'sell', quantity: 75, reason: 'expiry', index: 4, time: 1 });
    const fill = ledger.settle(order, { event: 'expire-worthless', settlementPrice: paise(0), index: 4, time: 1, date: isoDate('2025-01-09'), instrument: 'option' });
    expect([ledger.fillPrice(fill), ledger.fillChargesTotal(fill), ledger.cash - cashBefore]).toEqual([0, 0, 0]);
    ledger.closeDay(isoDate('2025-01-09'), 0);
    expect(ledger.days.at(-1)).toMatchObject({ charges: 0, orders: 1 });
  });

  it('rejects a worthless expiry with a price, and an order that is not working', () => {
    const { ledger } = longCall();
    const order = ledger.place({ instrument: 'NIFTY2510923550CE', side: 'sell', quantity: 75, reason: 'expiry', index: 4, time: 1 });
    expect(() => ledger.settle(order, { event: 'expire-worthless', settlementPrice: paise(5), index: 4, time: 1, date: isoDate('2025-01-09') })).toThrow(/settlementPrice/);
    ledger.cancel(order);
    expect(() => ledger.settle(order, { event: 'exercise', settlementPrice: paise(5), index: 4, time: 1, date: isoDate('2025-01-09') })).toThrow(/cancelled/);
  });
});

describe('Ledger rows', () => {
  const date = isoDate('2025-01-06');

  it('reads the same rows as objects as were written, and an order object follows its later status', () => {
    const ledger = new Ledger({ capital: paise(10_000_000), chargeModel: chargeModelOf({ kind: 'none' }) });
    const buy = ledger.place({ instrument: 'NIFTY', side: 'buy', quantity: 10, reason: 'entry', index: 3, time: 1_736_135_100_000 });
    expect(ledger.orders).toEqual([{ id: 1, instrument: 'NIFTY', side: 'buy', quantity: 10, reason: 'entry', placedIndex: 3, placedTime: 1_736_135_100_000, status: 'working' }]);
    const seen = ledger.orders[0];
    ledger.setOrderQuantity(buy, 12);
    const entry = ledger.fill(buy, { index: 4, time: 1_736_135_160_000, date, price: paise(2_350_000) });
    expect(seen).toMatchObject({ quantity: 12, status: 'filled' });
    const sell = ledger.place({ instrument: 'NIFTY', side: 'sell', quantity: 12, reason: 'stop', index: 9, time: 1_736_135_460_000 });
    const exit = ledger.fill(sell, { index: 9, time: 1_736_135_460_000, date, price: paise(2_340_000) });
    ledger.recordTrade(entry, exit);
    expect(ledger.fills.map((fill) => [fill.orderId, fill.side, fill.quantity, fill.price, fill.reason, fill.date])).toEqual([[1, 'buy', 12, 2_350_000, 'entry', date], [2, 'sell', 12, 2_340_000, 'stop', date]]);
    expect(ledger.trades).toEqual([{
      instrument: 'NIFTY', direction: 'long', quantity: 12, entryIndex: 4, entryTime: 1_736_135_160_000, entryPrice: 2_350_000,
      exitIndex: 9, exitTime: 1_736_135_460_000, exitPrice: 2_340_000, gross: -120_000, charges: 0, net: -120_000, exitReason: 'stop',
    }]);
    expect([ledger.wins, ledger.losses, ledger.cash]).toEqual([0, 1, 10_000_000 - 120_000]);
  });

  it('keeps every row through many growths of its columns', () => {
    const ledger = new Ledger({ capital: paise(0), chargeModel: chargeModelOf({ kind: 'none' }) });
    for (let trip = 0; trip < 5_000; trip += 1) {
      const entry = ledger.fill(ledger.place({ instrument: trip % 2 === 0 ? 'A' : 'B', side: 'sell', quantity: trip + 1, reason: 'entry', index: trip, time: trip }), { index: trip, time: trip, date, price: paise(100 + trip) });
      const exit = ledger.fill(ledger.place({ instrument: trip % 2 === 0 ? 'A' : 'B', side: 'buy', quantity: trip + 1, reason: 'signal', index: trip, time: trip }), { index: trip, time: trip, date, price: paise(100) });
      ledger.recordTrade(entry, exit);
    }
    expect(ledger.tradeCount).toBe(5_000);
    expect(ledger.trades[4_999]).toMatchObject({ instrument: 'B', direction: 'short', quantity: 5_000, gross: 4_999 * 5_000 });
    expect(ledger.fills[9_996]).toMatchObject({ instrument: 'A', side: 'sell', quantity: 4_999, price: 100 + 4_998 });
    expect(ledger.wins).toBe(4_999);
  });

  it('refuses to re-size or fill an order that is no longer working', () => {
    const ledger = new Ledger({ capital: paise(0), chargeModel: chargeModelOf({ kind: 'none' }) });
    const order = ledger.place({ instrument: 'NIFTY', side: 'buy', quantity: 1, reason: 'entry', index: 0, time: 0 });
    ledger.cancel(order);
    expect(() => ledger.setOrderQuantity(order, 2)).toThrow(/cancelled/);
    expect(() => ledger.fill(order, { index: 0, time: 0, date, price: paise(1) })).toThrow(/cancelled/);
    expect(ledger.orders[0]?.status).toBe('cancelled');
  });
});

describe('a LedgerColumns set handed from ledger to ledger', () => {
  const noCharges = chargeModelOf({ kind: 'none' });
  /** A round trip of `instrument` bought on `dates[0]` and sold on `dates[1]`. */
  function roundTrip(ledger: Ledger, instrument: string, dates: readonly [string, string]): void {
    const buy = ledger.fill(ledger.place({ instrument, side: 'buy', quantity: 1, reason: 'entry', index: 0, time: 0 }), { index: 0, time: 0, date: isoDate(dates[0]), price: paise(100) });
    const sell = ledger.fill(ledger.place({ instrument, side: 'sell', quantity: 1, reason: 'signal', index: 1, time: 1 }), { index: 1, time: 1, date: isoDate(dates[1]), price: paise(110) });
    ledger.recordTrade(buy, sell);
  }

  it("gives each ledger its own fills' dates and orders' instruments, whatever the one before wrote", () => {
    const columns = new LedgerColumns();
    const first = new Ledger({ capital: paise(100_000), chargeModel: noCharges, columns });
    roundTrip(first, 'NIFTY', ['2025-01-08', '2025-01-09']);
    roundTrip(first, 'BANKNIFTY', ['2025-01-09', '2025-01-10']);
    const second = new Ledger({ capital: paise(100_000), chargeModel: noCharges, columns });
    roundTrip(second, 'SENSEX', ['2025-01-10', '2025-01-13']);
    roundTrip(second, 'NIFTY', ['2025-01-13', '2025-01-08']);
    expect(second.fills.map((fill) => fill.date)).toEqual(['2025-01-10', '2025-01-13', '2025-01-13', '2025-01-08']);
    expect(second.orders.map((order) => order.instrument)).toEqual(['SENSEX', 'SENSEX', 'NIFTY', 'NIFTY']);
    expect(second.trades.map((trade) => trade.instrument)).toEqual(['SENSEX', 'NIFTY']);
  });
});
