// The indices of the home market (docs/PRODUCT.md sections 3 and 9). This module is the single source of
// truth for index configs; the demo seed's copy must stay equal to it.

/** The index underlyings with listed options, by trading symbol. */
export const OPTION_UNDERLYINGS = ['NIFTY', 'BANKNIFTY', 'FINNIFTY', 'MIDCPNIFTY', 'SENSEX'] as const;
export type OptionUnderlying = (typeof OPTION_UNDERLYINGS)[number];

/** A light-theme / dark-theme colour pair, as CSS hex colours. */
export type ColourPair = readonly [light: string, dark: string];

/**
 * An index instrument config as docs/PRODUCT.md section 3 lists it. Field names are the spec's own (the web
 * app and GraphQL clients read them), including the two snake_case bracket fields.
 */
export interface IndexConfig {
  /** `exchange:INDICES:number`, e.g. `NSE:INDICES:1`. */
  readonly id: string;
  readonly exchange: 'NSE' | 'BSE';
  /** Display name. */
  readonly name: string;
  /** The single letter that names the index in a signal. */
  readonly signalKey: string;
  /** Trading symbol of the index (the spec's `value`). */
  readonly value: OptionUnderlying;
  /** Shown in the ticker strip. */
  readonly ticker: boolean;
  /** Strike step of the option chain, in rupees. */
  readonly ocStep: number;
  readonly ocEnabled: boolean;
  readonly ocGreeks: boolean;
  readonly benchmark: boolean;
  readonly shortText: string;
  readonly background: ColourPair;
  readonly color: ColourPair;
  readonly entry_l_bracket: 2;
  readonly entry_u_bracket: 2;
}

/** Where an index trades and what it is called in exchange data files. */
export interface MarketIndex {
  readonly tradingSymbol: string;
  readonly exchange: 'NSE' | 'BSE';
  /** The official index name, as data/market/*.csv and exchange index files write it. */
  readonly indexName: string;
  /** The derivatives segment its options trade on; undefined for an index without options. */
  readonly derivativesExchange: 'NFO' | 'BFO' | undefined;
}

/** docs/PRODUCT.md section 3's five index configs, in display order; flags exactly as the spec lists them, colours ours. */
export const INDEX_CONFIGS: readonly IndexConfig[] = [
  {
    id: 'NSE:INDICES:1', exchange: 'NSE', name: 'NIFTY 50', signalKey: 'n', value: 'NIFTY', ticker: true, ocStep: 50,
    ocEnabled: true, ocGreeks: true, benchmark: true, shortText: 'N50',
    background: ['#E8F0FE', '#1A2B4C'], color: ['#1A56DB', '#93B4F5'], entry_l_bracket: 2, entry_u_bracket: 2,
  },
  {
    id: 'NSE:INDICES:2', exchange: 'NSE', name: 'NIFTY BANK', signalKey: 'b', value: 'BANKNIFTY', ticker: false, ocStep: 100,
    ocEnabled: true, ocGreeks: true, benchmark: true, shortText: 'BNF',
    background: ['#FDF2E9', '#4A2A12'], color: ['#C2410C', '#F6AD7B'], entry_l_bracket: 2, entry_u_bracket: 2,
  },
  {
    id: 'NSE:INDICES:3', exchange: 'NSE', name: 'FINNIFTY', signalKey: 'f', value: 'FINNIFTY', ticker: false, ocStep: 50,
    ocEnabled: true, ocGreeks: false, benchmark: false, shortText: 'FIN',
    background: ['#ECFDF3', '#123A26'], color: ['#15803D', '#86D9A8'], entry_l_bracket: 2, entry_u_bracket: 2,
  },
  {
    id: 'NSE:INDICES:4', exchange: 'NSE', name: 'MIDCPNIFTY', signalKey: 'm', value: 'MIDCPNIFTY', ticker: false, ocStep: 25,
    ocEnabled: true, ocGreeks: false, benchmark: false, shortText: 'MID',
    background: ['#F5F0FF', '#2F1F4D'], color: ['#7C3AED', '#C4A8F7'], entry_l_bracket: 2, entry_u_bracket: 2,
  },
  {
    id: 'BSE:INDICES:1', exchange: 'BSE', name: 'SENSEX', signalKey: 'x', value: 'SENSEX', ticker: true, ocStep: 100,
    ocEnabled: true, ocGreeks: false, benchmark: false, shortText: 'SNX',
    background: ['#FEF2F2', '#4C1A1A'], color: ['#B91C1C', '#F5A3A3'], entry_l_bracket: 2, entry_u_bracket: 2,
  },
];

/** The six index instruments of the home market; INDIA VIX is an index without options. */
export const MARKET_INDICES: readonly MarketIndex[] = [
  { tradingSymbol: 'NIFTY', exchange: 'NSE', indexName: 'NIFTY 50', derivativesExchange: 'NFO' },
  { tradingSymbol: 'BANKNIFTY', exchange: 'NSE', indexName: 'NIFTY BANK', derivativesExchange: 'NFO' },
  { tradingSymbol: 'FINNIFTY', exchange: 'NSE', indexName: 'NIFTY FIN SERVICE', derivativesExchange: 'NFO' },
  { tradingSymbol: 'MIDCPNIFTY', exchange: 'NSE', indexName: 'NIFTY MID SELECT', derivativesExchange: 'NFO' },
  { tradingSymbol: 'SENSEX', exchange: 'BSE', indexName: 'S&P BSE SENSEX', derivativesExchange: 'BFO' },
  { tradingSymbol: 'INDIA VIX', exchange: 'NSE', indexName: 'INDIA VIX', derivativesExchange: undefined },
];

/** True for the trading symbol of an index with listed options. */
export function isOptionUnderlying(symbol: string): symbol is OptionUnderlying {
  return (OPTION_UNDERLYINGS as readonly string[]).includes(symbol);
}

/** The config of an option underlying. @example indexConfigOf('BANKNIFTY').ocStep // 100 */
export function indexConfigOf(symbol: OptionUnderlying): IndexConfig {
  const config = INDEX_CONFIGS.find((candidate) => candidate.value === symbol);
  // Every OptionUnderlying has a config; the test of this module proves it.
  if (config === undefined) throw new RangeError(`No index config for ${symbol}`);
  return config;
}

/** The derivatives segment an underlying's options trade on. @example derivativesExchangeOf('SENSEX') // 'BFO' */
export function derivativesExchangeOf(symbol: OptionUnderlying): 'NFO' | 'BFO' {
  return indexConfigOf(symbol).exchange === 'BSE' ? 'BFO' : 'NFO';
}
