import { paise } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { equityDeliveryChargesFor } from './equity-delivery';
import { equityIntradayChargesFor } from './equity-intraday';

// Worked examples: a delivery (CNC) round trip of 100 shares on NSE, by hand.
describe('equityDeliveryChargesFor', () => {
  it('charges a buy of 100 shares at Rs 500 on 15-Oct-2024: STT and stamp duty of delivery, no brokerage', () => {
    // value Rs 50,000 = 5,000,000 p
    // brokerage 0; STT 0.1% = 5,000 p = Rs 50 (whole rupees already)
    // NSE 0.00297% = 148.5 -> 149; IPF 0.0001% = 5; SEBI 0.0001% = 5; stamp 0.015% = 750
    // GST 18% of (0 + 149 + 5) = 27.72 -> 28; total 5,000 + 149 + 5 + 5 + 750 + 28 = 5,937 p = Rs 59.37
    const charges = equityDeliveryChargesFor({ date: '2024-10-15', exchange: 'NSE', side: 'buy', price: paise(50_000), quantity: 100 });
    expect(charges.components).toEqual({ brokerage: 0, stt: 5000, exchangeTransaction: 149, investorProtection: 5, sebiFee: 5, stampDuty: 750, gst: 28 });
    expect(charges.total).toBe(5937);
  });

  it('charges STT on the sell too, and no stamp duty, with the pre-October-2024 transaction rate', () => {
    // value 100 x Rs 2,000.55 = 20,005,500 p on 2023-06-01
    // STT 0.1% = 20,005.5 p = Rs 200.055 -> Rs 200 = 20,000; NSE 0.00325% = 650.17875 -> 650
    // IPF 0.0001% = 20.0055 -> 20; SEBI 20; stamp (buy only) 0; GST 18% of (0 + 650 + 20) = 120.6 -> 121
    // total 20,000 + 650 + 20 + 20 + 121 = 20,811 p
    const charges = equityDeliveryChargesFor({ date: '2023-06-01', exchange: 'NSE', side: 'sell', price: paise(200_055), quantity: 100 });
    expect(charges.components).toEqual({ brokerage: 0, stt: 20_000, exchangeTransaction: 650, investorProtection: 20, sebiFee: 20, stampDuty: 0, gst: 121 });
    expect(charges.total).toBe(20_811);
  });

  it('costs more than intraday on the same order (STT on both sides, five times the stamp duty)', () => {
    const order = { date: '2025-02-03', exchange: 'NSE', side: 'buy', price: paise(150_000), quantity: 40 } as const;
    expect(equityDeliveryChargesFor(order).total).toBeGreaterThan(equityIntradayChargesFor(order).total);
  });

  it('names the bad field', () => {
    expect(() => equityDeliveryChargesFor({ date: '2024-01-02', exchange: 'BSE' as 'NSE', side: 'buy', price: paise(100), quantity: 1 })).toThrow(/^exchange: /);
  });
});
