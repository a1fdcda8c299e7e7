import { paise } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { chargesFor } from './charges';

// Worked examples for index futures: STT on the sell side on contract value, NSE transaction
// charge (0.002% before 1-Oct-2024, 0.00173% after), IPF Rs 10 per crore, stamp 0.002% on buys.
describe('NIFTY future sell on NSE, 17-Aug-2023', () => {
  it('gives each component by hand', () => {
    // one lot (50) at Rs 19,365.25: 19,365.25 x 50 = Rs 9,68,262.50 = 96,826,250 paise
    // brokerage   Rs 20                                                   = 2000
    // STT         96,826,250 x 0.000125 = 12,103.28125 p = Rs 121.03 -> Rs 121 = 12,100
    // exchange    96,826,250 x 0.00002  = 1,936.525 p                   -> 1,937
    // IPF         96,826,250 x 0.000001 = 96.82625 p                    -> 97
    // SEBI        96,826,250 x 0.000001 = 96.82625 p                    -> 97
    // stamp       sell side                                              = 0
    // GST         (2000 + 1937 + 97) x 0.18 = 726.12 p                  -> 726
    // total       2000 + 12,100 + 1,937 + 97 + 97 + 0 + 726              = 16,957
    const result = chargesFor({ date: '2023-08-17', exchange: 'NSE', instrument: 'future', side: 'sell', price: paise(1_936_525), quantity: 50 });
    expect(result.components).toEqual({
      brokerage: 2000, stt: 12_100, exchangeTransaction: 1937, investorProtection: 97, sebiFee: 97, stampDuty: 0, gst: 726,
    });
    expect(result.total).toBe(16_957);
    expect(result.turnover).toBe(96_826_250);
  });
});

describe('NIFTY future on NSE, 5-May-2026', () => {
  // one lot (65) at Rs 24,512.30: 24,512.30 x 65 = Rs 15,93,299.50 = 159,329,950 paise
  const future = { date: '2026-05-05', exchange: 'NSE', instrument: 'future', price: paise(2_451_230), quantity: 65 } as const;

  it('sell: STT 0.05%', () => {
    // STT         159,329,950 x 0.0005    = 79,664.975 p = Rs 796.65 -> Rs 797 = 79,700
    // exchange    159,329,950 x 0.0000173 = 2,756.408135 p           -> 2,756
    // IPF         159,329,950 x 0.000001  = 159.32995 p              -> 159
    // SEBI        same                                               -> 159
    // GST         (2000 + 2756 + 159) x 0.18 = 884.7 p               -> 885
    // total       2000 + 79,700 + 2,756 + 159 + 159 + 0 + 885         = 85,659
    const result = chargesFor({ ...future, side: 'sell' });
    expect(result.components).toEqual({
      brokerage: 2000, stt: 79_700, exchangeTransaction: 2756, investorProtection: 159, sebiFee: 159, stampDuty: 0, gst: 885,
    });
    expect(result.total).toBe(85_659);
  });

  it('buy with 0.03% brokerage capped at Rs 20: stamp 0.002%, no STT', () => {
    // brokerage   0.03% of 159,329,950 = 47,798.985 p > cap -> 2000
    // stamp       159,329,950 x 0.00002 = 3,186.599 p -> 3,187
    // total       2000 + 0 + 2756 + 159 + 159 + 3187 + 885 = 9,146
    const result = chargesFor({ ...future, side: 'buy', brokerage: { kind: 'percentage', percent: 0.03, cap: paise(2000) } });
    expect(result.components.brokerage).toBe(2000);
    expect(result.components.stt).toBe(0);
    expect(result.components.stampDuty).toBe(3187);
    expect(result.total).toBe(9146);
  });

  it('BSE futures carry no transaction charge and no IPF', () => {
    // SEBI 159; GST (2000 + 0 + 159) x 0.18 = 388.62 -> 389
    const result = chargesFor({ ...future, exchange: 'BSE', side: 'sell' });
    expect(result.components.exchangeTransaction).toBe(0);
    expect(result.components.investorProtection).toBe(0);
    expect(result.components.gst).toBe(389);
  });
});
