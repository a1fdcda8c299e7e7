import { describe, expect, it } from 'vitest';
import { isoDate } from '@vyuha/core';
import { ExpiryLookup, legExpiry, listsWeekliesOn } from './expiry-selection';
import type { ExpiryRequest } from './expiry-selection';

const expiryOf = (request: Omit<ExpiryRequest, 'tradeDate'> & { tradeDate: string }): string => legExpiry({ ...request, tradeDate: isoDate(request.tradeDate) });

describe('legExpiry', () => {
  it('moves a weekly off a holiday: NIFTY 11-Apr-2024 (Id-ul-Fitr) expired on 10-Apr', () => {
    expect(expiryOf({ underlying: 'NIFTY', tradeDate: '2024-04-08', choice: 'current-weekly' })).toBe('2024-04-10');
    expect(expiryOf({ underlying: 'NIFTY', tradeDate: '2024-04-08', choice: 'next-weekly' })).toBe('2024-04-18');
    expect(expiryOf({ underlying: 'NIFTY', tradeDate: '2024-04-08', choice: 'monthly' })).toBe('2024-04-25');
  });

  it('trades the contract expiring today on an expiry day', () => {
    expect(expiryOf({ underlying: 'NIFTY', tradeDate: '2024-04-10', choice: 'current-weekly' })).toBe('2024-04-10');
    expect(expiryOf({ underlying: 'NIFTY', tradeDate: '2024-04-11', choice: 'current-weekly' })).toBe('2024-04-18');
  });

  it('follows the era change of 1-Sep-2025: NIFTY weeklies move from Thursday to Tuesday', () => {
    expect(expiryOf({ underlying: 'NIFTY', tradeDate: '2025-08-25', choice: 'current-weekly' })).toBe('2025-08-28');
    expect(expiryOf({ underlying: 'NIFTY', tradeDate: '2025-08-29', choice: 'current-weekly' })).toBe('2025-09-02');
    expect(expiryOf({ underlying: 'NIFTY', tradeDate: '2025-08-29', choice: 'next-weekly' })).toBe('2025-09-09');
    expect(expiryOf({ underlying: 'NIFTY', tradeDate: '2025-08-29', choice: 'monthly' })).toBe('2025-09-30');
  });

  it('refuses a weekly where the underlying has none, unless the fallback is monthly', () => {
    expect(listsWeekliesOn('BANKNIFTY', isoDate('2024-11-13'))).toBe(true);
    expect(listsWeekliesOn('BANKNIFTY', isoDate('2024-11-14'))).toBe(false);
    expect(() => expiryOf({ underlying: 'BANKNIFTY', tradeDate: '2025-01-06', choice: 'current-weekly', field: 'onBuy[0].expiry' }))
      .toThrow("onBuy[0].expiry: BANKNIFTY lists no weekly options on 2025-01-06; choose 'monthly' or set weeklyFallback: 'monthly'");
    expect(expiryOf({ underlying: 'BANKNIFTY', tradeDate: '2025-01-06', choice: 'current-weekly', weeklyFallback: 'monthly' })).toBe('2025-01-30');
    expect(expiryOf({ underlying: 'BANKNIFTY', tradeDate: '2024-11-13', choice: 'current-weekly' })).toBe('2024-11-13');
  });

  it('gives the same answers from a kept calendar window day after day', () => {
    const lookup = new ExpiryLookup();
    for (const day of ['2024-04-01', '2024-04-08', '2024-04-15', '2025-08-29', '2024-04-08']) {
      for (const choice of ['current-weekly', 'next-weekly', 'monthly'] as const) {
        expect(legExpiry({ underlying: 'NIFTY', tradeDate: isoDate(day), choice, lookup })).toBe(legExpiry({ underlying: 'NIFTY', tradeDate: isoDate(day), choice }));
      }
    }
  });
});
