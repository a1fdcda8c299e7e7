import { paise } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { equityIntradayChargesFor } from './equity-intraday';
import { InvalidChargesInputError } from './charges-input-error';

describe('equityIntradayChargesFor', () => {
  it('charges a sell of 100 shares at Rs 500 on 15-Oct-2024 (after true-to-label)', () => {
    // value Rs 50,000 = 5,000,000 p
    // brokerage 0.03% = 1,500 p (< Rs 20 cap); STT 0.025% = 1,250 p -> Rs 13 = 1,300
    // NSE 0.00297% = 148.5 -> 149; IPF 0.0001% = 5; SEBI 0.0001% = 5; stamp (buy only) 0
    // GST 18% of (1,500 + 149 + 5) = 297.72 -> 298; total 3,257 p = Rs 32.57
    const charges = equityIntradayChargesFor({ date: '2024-10-15', exchange: 'NSE', side: 'sell', price: paise(50_000), quantity: 100 });
    expect(charges.components).toEqual({ brokerage: 1500, stt: 1300, exchangeTransaction: 149, investorProtection: 5, sebiFee: 5, stampDuty: 0, gst: 298 });
    expect(charges.total).toBe(3257);
    expect(charges.turnover).toBe(5_000_000);
  });

  it('charges stamp duty and no STT on a buy, with the pre-October-2024 transaction rate', () => {
    // value Rs 2,00,000 = 20,000,000 p on 2023-06-01
    // brokerage 0.03% = 6,000 p -> capped at 2,000; NSE 0.00325% = 650; IPF 20; SEBI 20
    // stamp 0.003% = 600; GST 18% of (2,000 + 650 + 20) = 480.6 -> 481; total 3,771
    const charges = equityIntradayChargesFor({ date: '2023-06-01', exchange: 'NSE', side: 'buy', price: paise(200_000), quantity: 100 });
    expect(charges.components).toEqual({ brokerage: 2000, stt: 0, exchangeTransaction: 650, investorProtection: 20, sebiFee: 20, stampDuty: 600, gst: 481 });
    expect(charges.total).toBe(3771);
  });

  it('names the bad field', () => {
    expect(() => equityIntradayChargesFor({ date: '2019-12-31', exchange: 'NSE', side: 'buy', price: paise(100), quantity: 1 })).toThrow(InvalidChargesInputError);
    expect(() => equityIntradayChargesFor({ date: '2024-01-02', exchange: 'NSE', side: 'buy', price: paise(100), quantity: 0 })).toThrow(/^quantity:/);
  });
});
