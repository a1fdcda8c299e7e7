import { paise } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { chargesFor } from './charges';

// Worked example, era from 1-Oct-2024 (STT 0.10%, NSE true-to-label 0.03503%).
// One lot of NIFTY (lot 75) at Rs 120.50: 120.50 x 75 = Rs 9,037.50 = 903,750 paise.
describe('NIFTY option sell on NSE, 15-Oct-2024', () => {
  const sell = { date: '2024-10-15', exchange: 'NSE', instrument: 'option', side: 'sell', price: paise(12_050), quantity: 75 } as const;

  it('gives each component by hand', () => {
    // brokerage   Rs 20                                          = 2000
    // STT         903,750 x 0.001      = 903.75 p = Rs 9.0375 -> Rs 9 = 900
    // exchange    903,750 x 0.0003503  = 316.583625 p          -> 317
    // IPF         903,750 x 0.000005   = 4.51875 p             -> 5
    // SEBI        903,750 x 0.000001   = 0.90375 p             -> 1
    // stamp       sell                                         = 0
    // GST         (2000 + 317 + 1) x 0.18 = 417.24 p           -> 417
    // total       2000 + 900 + 317 + 5 + 1 + 0 + 417           = 3640
    const result = chargesFor(sell);
    expect(result.components).toEqual({
      brokerage: 2000, stt: 900, exchangeTransaction: 317, investorProtection: 5, sebiFee: 1, stampDuty: 0, gst: 417,
    });
    expect(result.total).toBe(3640);
  });

  it('uses the old rates on 30-Sep-2024, the day before the change', () => {
    // STT         903,750 x 0.000625 = 564.84375 p = Rs 5.65 -> Rs 6 = 600
    // exchange    903,750 x 0.00053  = 478.9875 p             -> 479
    // GST         (2000 + 479 + 1) x 0.18 = 446.4 p           -> 446
    // total       2000 + 600 + 479 + 5 + 1 + 0 + 446          = 3531
    const result = chargesFor({ ...sell, date: '2024-09-30' });
    expect(result.components.stt).toBe(600);
    expect(result.components.exchangeTransaction).toBe(479);
    expect(result.components.gst).toBe(446);
    expect(result.total).toBe(3531);
  });

  it('takes a percentage brokerage plan when it is below its cap', () => {
    // 0.03% of 903,750 = 271.125 p -> 271 < cap 2000
    // GST (271 + 317 + 1) x 0.18 = 106.02 -> 106
    const result = chargesFor({ ...sell, brokerage: { kind: 'percentage', percent: 0.03, cap: paise(2000) } });
    expect(result.components.brokerage).toBe(271);
    expect(result.components.gst).toBe(106);
  });

  it('takes a flat brokerage plan of zero (a zero-brokerage broker)', () => {
    // GST (0 + 317 + 1) x 0.18 = 57.24 -> 57
    const result = chargesFor({ ...sell, brokerage: { kind: 'flat', perOrder: paise(0) } });
    expect(result.components.brokerage).toBe(0);
    expect(result.components.gst).toBe(57);
  });
});
