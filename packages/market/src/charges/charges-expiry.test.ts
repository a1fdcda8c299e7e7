import { paise } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { chargesFor } from './charges';

// Options settled at expiry. A long in-the-money option is exercised: STT on its intrinsic value
// (0.125%, 0.15% from 1-Apr-2026), no exchange charge, no stamp duty; the broker's order charge and
// its GST still apply. An option that expires worthless costs nothing.
// NIFTY 24,000 CE, NIFTY settles at 24,187.35 on 26-May-2026: intrinsic Rs 187.35 per unit;
// one lot (65): 187.35 x 65 = Rs 12,177.75 = 1,217,775 paise.
const exercise = {
  exchange: 'NSE', instrument: 'option', price: paise(0), quantity: 65, event: 'exercise', settlementPrice: paise(18_735),
} as const;

describe('exercise of a long NIFTY call', () => {
  it('2026: STT 0.15% of intrinsic value', () => {
    // brokerage   Rs 20                                                 = 2000
    // STT         1,217,775 x 0.0015 = 1,826.6625 p = Rs 18.27 -> Rs 18 = 1800
    // GST         2000 x 0.18                                          = 360
    // total       2000 + 1800 + 360                                    = 4160
    const result = chargesFor({ ...exercise, date: '2026-05-26', side: 'sell' });
    expect(result.components).toEqual({
      brokerage: 2000, stt: 1800, exchangeTransaction: 0, investorProtection: 0, sebiFee: 0, stampDuty: 0, gst: 360,
    });
    expect(result.total).toBe(4160);
    expect(result.turnover).toBe(1_217_775);
  });

  it('2025: STT 0.125% of intrinsic value', () => {
    // STT 1,217,775 x 0.00125 = 1,522.21875 p = Rs 15.22 -> Rs 15 = 1500
    const result = chargesFor({ ...exercise, date: '2025-05-29', side: 'sell' });
    expect(result.components.stt).toBe(1500);
    expect(result.total).toBe(2000 + 1500 + 360);
  });

  it('the assigned short (the buy side of the settlement) pays no STT', () => {
    const result = chargesFor({ ...exercise, date: '2026-05-26', side: 'buy' });
    expect(result.components.stt).toBe(0);
    expect(result.total).toBe(2360);
  });
});

describe('an option that expires worthless', () => {
  it('carries no charge at all', () => {
    const result = chargesFor({ date: '2026-05-26', exchange: 'NSE', instrument: 'option', side: 'sell', price: paise(0), quantity: 65, event: 'expire-worthless' });
    expect(result.total).toBe(0);
    expect(Object.values(result.components).every((value) => value === 0)).toBe(true);
    expect(result.turnover).toBe(0);
    expect(result.rates).toEqual([]);
  });
});
