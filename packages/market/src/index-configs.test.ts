import { describe, expect, it } from 'vitest';
import { HOME_MARKET } from './constants';
import {
  INDEX_CONFIGS, MARKET_INDICES, OPTION_UNDERLYINGS, derivativesExchangeOf, indexConfigOf, isOptionUnderlying,
} from './index-configs';

describe('index configs (docs/PRODUCT.md section 3)', () => {
  it('has one config per option underlying, with unique ids and signal keys', () => {
    expect(INDEX_CONFIGS.map((c) => c.value)).toEqual([...OPTION_UNDERLYINGS]);
    expect(new Set(INDEX_CONFIGS.map((c) => c.id)).size).toBe(INDEX_CONFIGS.length);
    expect(INDEX_CONFIGS.map((c) => c.signalKey)).toEqual(['n', 'b', 'f', 'm', 'x']);
  });

  it('carries the spec steps and flags', () => {
    expect(INDEX_CONFIGS.map((c) => [c.value, c.ocStep])).toEqual([['NIFTY', 50], ['BANKNIFTY', 100], ['FINNIFTY', 50], ['MIDCPNIFTY', 25], ['SENSEX', 100]]);
    expect(INDEX_CONFIGS.filter((c) => c.ticker).map((c) => c.name)).toEqual(['NIFTY 50', 'SENSEX']);
    expect(INDEX_CONFIGS.filter((c) => c.benchmark).map((c) => c.name)).toEqual(['NIFTY 50', 'NIFTY BANK']);
    expect(INDEX_CONFIGS.filter((c) => c.ocGreeks).map((c) => c.name)).toEqual(['NIFTY 50', 'NIFTY BANK']);
    for (const config of INDEX_CONFIGS) {
      expect(config.entry_l_bracket).toBe(2);
      expect(config.entry_u_bracket).toBe(2);
      expect(config.ocEnabled).toBe(true);
      expect(config.id.startsWith(`${config.exchange}:INDICES:`)).toBe(true);
      for (const colour of [...config.background, ...config.color]) expect(colour).toMatch(/^#[0-9A-F]{6}$/);
    }
    expect(indexConfigOf('SENSEX').exchange).toBe('BSE');
  });

  it('lists INDIA VIX as an index without options, and the base instrument first', () => {
    expect(MARKET_INDICES.find((i) => i.tradingSymbol === 'INDIA VIX')?.derivativesExchange).toBeUndefined();
    expect(isOptionUnderlying('INDIA VIX')).toBe(false);
    expect(MARKET_INDICES[0]?.indexName).toBe('NIFTY 50');
    expect(HOME_MARKET.defaultExchange).toBe(MARKET_INDICES[0]?.exchange);
  });

  it('maps each underlying to its derivatives segment', () => {
    for (const symbol of OPTION_UNDERLYINGS) {
      expect(derivativesExchangeOf(symbol)).toBe(MARKET_INDICES.find((i) => i.tradingSymbol === symbol)?.derivativesExchange);
    }
  });
});
