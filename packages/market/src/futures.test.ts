import { isoDate } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { nextExpiry } from './expiries/expiry-calendar';
import { derivativesKnownFrom, hasIndexFutures } from './futures';
import { OPTION_UNDERLYINGS } from './index-configs';
import { lotSize } from './lots';

describe('index futures facts', () => {
  it('lists futures for every option underlying and none for INDIA VIX', () => {
    expect(OPTION_UNDERLYINGS.filter(hasIndexFutures)).toEqual([...OPTION_UNDERLYINGS]);
    expect(hasIndexFutures('INDIA VIX')).toBe(false);
    expect(hasIndexFutures('TCS')).toBe(false);
  });

  it('knows each index from its launch or the expiry calendar start, whichever is later', () => {
    expect(OPTION_UNDERLYINGS.map((symbol) => [symbol, derivativesKnownFrom(symbol)])).toEqual([
      ['NIFTY', '2020-01-01'], ['BANKNIFTY', '2020-01-01'], ['FINNIFTY', '2021-01-11'], ['MIDCPNIFTY', '2022-01-24'], ['SENSEX', '2023-05-15'],
    ]);
  });

  it('has a lot and a monthly expiry from that day on', () => {
    for (const symbol of OPTION_UNDERLYINGS) {
      const day = derivativesKnownFrom(symbol);
      const expiry = nextExpiry(symbol, day, 'monthly');
      expect(expiry, symbol).toBeDefined();
      expect(lotSize({ symbol, tradeDate: day, expiry: isoDate(expiry?.date as string) }), symbol).toBeGreaterThan(0);
    }
  });
});
