import { describe, expect, it } from 'vitest';
import { tradedSummaryOf } from './traded-summary';

describe('what a finished run traded', () => {
  it('lists the index\'s futures contracts and says when the model priced them', () => {
    const result = {
      traded: {
        kind: 'index-futures', underlying: 'NIFTY', rollTime: '15:15', modelRate: 0.065, modelPrices: true, charges: { exchange: 'NSE', instrument: 'future' },
        contracts: [{ tradingSymbol: 'NIFTY26SEPFUT', expiry: '2026-09-29', prices: 'model' }, { tradingSymbol: 'NIFTY26OCTFUT', expiry: '2026-10-27', prices: 'candles' }],
      },
    };
    expect(tradedSummaryOf(result)).toEqual({
      text: "NIFTY's near-month futures: NIFTY26SEPFUT, NIFTY26OCTFUT, rolled at 15:15 on expiry day; NSE futures charges",
      contracts: ['NIFTY26SEPFUT', 'NIFTY26OCTFUT'], modelPrices: true, modelRatePercent: 6.5,
    });
  });

  it('says shares or option legs with their charges, and nothing for a result without the section', () => {
    expect(tradedSummaryOf({ traded: { kind: 'equity', charges: { exchange: 'NSE', instrument: 'equity-delivery' } } })?.text).toBe('The shares; NSE delivery equity charges');
    expect(tradedSummaryOf({ traded: { kind: 'option-legs', charges: { exchange: 'BSE', instrument: 'option' } } })?.text).toBe('Option legs; BSE options charges');
    expect(tradedSummaryOf({ summary: {} })).toBeUndefined();
    expect(tradedSummaryOf(null)).toBeUndefined();
  });
});
