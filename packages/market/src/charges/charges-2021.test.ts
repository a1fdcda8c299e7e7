import { paise } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { chargesFor } from './charges';

// Worked example, era before the Finance Act 2023: STT on option sales 0.05%, NSE transaction
// charge 0.053% (the value this schedule uses for every day before 1-Oct-2024).
// Two lots of NIFTY (lot 50) at Rs 142.65: premium turnover 142.65 x 100 = Rs 14,265.00 = 1,426,500 paise.
describe('NIFTY option on NSE, 10-Jun-2021', () => {
  const trade = { date: '2021-06-10', exchange: 'NFO', instrument: 'option', price: paise(14_265), quantity: 100 } as const;

  it('sell: STT 0.05% rounded to the rupee, no stamp duty', () => {
    // brokerage   flat Rs 20                                  = 2000 paise
    // STT         1,426,500 x 0.0005    = 713.25 p = Rs 7.1325 -> Rs 7 = 700 paise
    // exchange    1,426,500 x 0.00053   = 756.045 p            -> 756
    // IPF         1,426,500 x 0.000005  = 7.1325 p             -> 7
    // SEBI        1,426,500 x 0.000001  = 1.4265 p             -> 1
    // stamp duty  sell side                                    = 0
    // GST         (2000 + 756 + 1) x 0.18 = 496.26 p           -> 496
    // total       2000 + 700 + 756 + 7 + 1 + 0 + 496           = 3960
    const result = chargesFor({ ...trade, side: 'sell' });
    expect(result.components).toEqual({
      brokerage: 2000, stt: 700, exchangeTransaction: 756, investorProtection: 7, sebiFee: 1, stampDuty: 0, gst: 496,
    });
    expect(result.total).toBe(3960);
    expect(result.turnover).toBe(1_426_500);
  });

  it('buy: no STT, stamp duty 0.003% of premium', () => {
    // stamp duty  1,426,500 x 0.00003 = 42.795 p -> 43; the rest as for the sell, STT 0
    // total       2000 + 0 + 756 + 7 + 1 + 43 + 496 = 3303
    const result = chargesFor({ ...trade, side: 'buy' });
    expect(result.components.stt).toBe(0);
    expect(result.components.stampDuty).toBe(43);
    expect(result.total).toBe(3303);
  });

  it('reports the rates it applied', () => {
    const rates = chargesFor({ ...trade, side: 'sell' }).rates.map((row) => [row.component, row.rate]);
    expect(rates).toEqual([
      ['stt', 50_000], ['exchange-transaction', 53_000], ['investor-protection', 500], ['sebi-fee', 100], ['gst', 18_000_000],
    ]);
  });
});
