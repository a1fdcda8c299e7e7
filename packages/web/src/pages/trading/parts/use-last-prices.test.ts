import { describe, expect, it } from 'vitest';
import { lastPriceOf, lastPriceText } from './use-last-prices';

describe('last price', () => {
  it('reads a row of ltps: bigint paise as text, the time it is as of, where it came from', () => {
    const price = lastPriceOf({ instrument_id: 1, price_paise: '2144320', updated_at: '2026-10-30T10:00:00+00:00', source: 'candle' });
    expect(price).toEqual({ instrumentId: 1, pricePaise: 2_144_320, rupees: 21_443.2, atMs: Date.UTC(2026, 9, 30, 10), source: 'candle' });
    expect(lastPriceText(price!)).toBe('21,443.20 as of 2026-10-30 15:30:00');
  });

  it('drops a row whose price or time cannot be read', () => {
    expect(lastPriceOf({ instrument_id: 1, price_paise: 'x', updated_at: '2026-10-30T10:00:00Z', source: 'candle' })).toBeUndefined();
    expect(lastPriceOf({ instrument_id: 1, price_paise: 0, updated_at: '2026-10-30T10:00:00Z', source: 'candle' })).toBeUndefined();
    expect(lastPriceOf({ instrument_id: 1, price_paise: 100, updated_at: 'soon', source: 'candle' })).toBeUndefined();
  });
});
