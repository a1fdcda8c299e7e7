import { paise } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { chargesFor } from './charges';

// Worked example, era from 1-Apr-2026 (STT on option sales 0.15%).
// Two lots of NIFTY (lot 65) at Rs 98.40: 98.40 x 130 = Rs 12,792.00 = 1,279,200 paise.
describe('NIFTY option sell on NSE, 5-May-2026', () => {
  it('gives each component by hand', () => {
    // brokerage   Rs 20                                          = 2000
    // STT         1,279,200 x 0.0015    = 1918.8 p = Rs 19.188 -> Rs 19 = 1900
    // exchange    1,279,200 x 0.0003503 = 448.10376 p          -> 448
    // IPF         1,279,200 x 0.000005  = 6.396 p              -> 6
    // SEBI        1,279,200 x 0.000001  = 1.2792 p             -> 1
    // GST         (2000 + 448 + 1) x 0.18 = 440.82 p           -> 441
    // total       2000 + 1900 + 448 + 6 + 1 + 0 + 441          = 4796
    const result = chargesFor({ date: '2026-05-05', exchange: 'NSE', instrument: 'option', side: 'sell', price: paise(9_840), quantity: 130 });
    expect(result.components).toEqual({
      brokerage: 2000, stt: 1900, exchangeTransaction: 448, investorProtection: 6, sebiFee: 1, stampDuty: 0, gst: 441,
    });
    expect(result.total).toBe(4796);
    expect(result.turnover).toBe(1_279_200);
  });

  it('rounds STT of exactly half a rupee up (checked in the 0.10% era, where half a rupee is exact)', () => {
    // 0.10% of 50,000 paise (Rs 500) = 50 p = Rs 0.50 -> Rs 1; of 49,900 paise = 49.9 p -> Rs 0
    const half = chargesFor({ date: '2024-10-15', exchange: 'NSE', instrument: 'option', side: 'sell', price: paise(50_000), quantity: 1 });
    const below = chargesFor({ date: '2024-10-15', exchange: 'NSE', instrument: 'option', side: 'sell', price: paise(49_900), quantity: 1 });
    expect(half.components.stt).toBe(100);
    expect(below.components.stt).toBe(0);
  });
});
