import { paise } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { chargesFor } from './charges';

// Worked example: SENSEX option buy on BSE (BFO segment), 20-Mar-2025. BSE charges 0.0325% and
// no investor protection fund charge. Two lots (lot 20) at Rs 310.25:
// 310.25 x 40 = Rs 12,410.00 = 1,241,000 paise.
describe('SENSEX option buy on BSE, 20-Mar-2025', () => {
  it('gives each component by hand', () => {
    // brokerage   Rs 20                                       = 2000
    // STT         buy side                                    = 0
    // exchange    1,241,000 x 0.000325 = 403.325 p           -> 403
    // IPF         none on BSE                                 = 0
    // SEBI        1,241,000 x 0.000001 = 1.241 p             -> 1
    // stamp       1,241,000 x 0.00003  = 37.23 p             -> 37
    // GST         (2000 + 403 + 1) x 0.18 = 432.72 p         -> 433
    // total       2000 + 0 + 403 + 0 + 1 + 37 + 433          = 2874
    const result = chargesFor({ date: '2025-03-20', exchange: 'BFO', instrument: 'option', side: 'buy', price: paise(31_025), quantity: 40 });
    expect(result.components).toEqual({
      brokerage: 2000, stt: 0, exchangeTransaction: 403, investorProtection: 0, sebiFee: 1, stampDuty: 37, gst: 433,
    });
    expect(result.total).toBe(2874);
  });

  it('uses the carried-back 0.0325% before 1-Oct-2024', () => {
    const result = chargesFor({ date: '2024-06-14', exchange: 'BSE', instrument: 'option', side: 'buy', price: paise(31_025), quantity: 40 });
    expect(result.components.exchangeTransaction).toBe(403);
    expect(result.rates.find((row) => row.component === 'exchange-transaction')?.note).toMatch(/carried back/);
  });
});
