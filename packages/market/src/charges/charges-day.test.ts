import { paise } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { chargesFor, chargesForDay } from './charges';
import type { DayTrade } from './charges';

// A contract note rounds STT once per contract per day; rounding per order overstates it on
// many small orders. Two sells of one NIFTY lot (75) at Rs 8.00 on 15-Oct-2024: each is
// 8.00 x 75 = Rs 600 = 60,000 paise.
const small: DayTrade = {
  contract: 'NIFTY24O1725500CE', date: '2024-10-15', exchange: 'NSE', instrument: 'option', side: 'sell', price: paise(800), quantity: 75,
};

describe('chargesForDay', () => {
  it('rounds STT once for the day per contract, brokerage per order', () => {
    // per order: STT 60,000 x 0.001 = 60 p -> Rs 1 each, so Rs 2 for two orders
    // per day:   STT 120 p = Rs 1.20 -> Rs 1 = 100
    // exchange   120,000 x 0.0003503 = 42.036 -> 42;  IPF 0.6 -> 1;  SEBI 0.12 -> 0
    // brokerage  2 x 2000 = 4000;  GST (4000 + 42 + 0) x 0.18 = 727.56 -> 728
    // total      4000 + 100 + 42 + 1 + 0 + 0 + 728 = 4871
    const day = chargesForDay([small, small]);
    expect(day.components).toEqual({
      brokerage: 4000, stt: 100, exchangeTransaction: 42, investorProtection: 1, sebiFee: 0, stampDuty: 0, gst: 728,
    });
    expect(day.total).toBe(4871);
    expect(day.sttByContract).toEqual([{ contract: 'NIFTY24O1725500CE', exchange: 'NSE', instrument: 'option', stt: 100 }]);
    // the same two orders priced one by one: 2 x (2000 + 100 + 21 + 0 + 0 + 0 + 364) = 4970
    const perOrder = chargesFor(small);
    expect(2 * perOrder.total).toBe(4970);
  });

  it('rounds STT separately for different contracts', () => {
    const day = chargesForDay([small, { ...small, contract: 'NIFTY24O1725500PE' }]);
    expect(day.sttByContract.map((entry) => entry.stt)).toEqual([100, 100]);
    expect(day.components.stt).toBe(200);
  });

  it('gives what chargesFor gives for a single order', () => {
    const single = { ...small, price: paise(12_050) };
    const { sttByContract: _unused, ...day } = chargesForDay([single]);
    expect(day).toEqual(chargesFor(single));
  });

  it('charges nothing for an empty day', () => {
    expect(chargesForDay([]).total).toBe(0);
  });

  it('refuses trades of different days, naming the trade', () => {
    expect(() => chargesForDay([small, { ...small, date: '2024-10-16' }])).toThrow(/^trades\[1\]\.date:/);
  });

  it('refuses a trade without a contract and names bad fields by index', () => {
    expect(() => chargesForDay([{ ...small, contract: ' ' }])).toThrow(/^trades\[0\]\.contract:/);
    expect(() => chargesForDay([small, { ...small, quantity: 0 }])).toThrow(/^trades\[1\]\.quantity:/);
  });
});
