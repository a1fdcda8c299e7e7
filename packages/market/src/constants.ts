/** Exchange codes the product trades or lists (docs/PRODUCT.md section 1). XCBO is the US options exchange. */
export const EXCHANGE_CODES = ['NSE', 'NFO', 'BSE', 'BFO', 'CDS', 'BCD', 'XCBO'] as const;
export type ExchangeCode = (typeof EXCHANGE_CODES)[number];

/** The home market of docs/PRODUCT.md section 9. */
export const HOME_MARKET = {
  currency: 'INR',
  currencySymbol: '₹',
  locale: 'en-IN',
  timeZone: 'Asia/Kolkata',
  marketOpen: '09:15:00',
  marketClose: '15:30:00',
  defaultExchange: 'NSE',
  exchanges: ['NFO', 'NSE', 'BSE', 'BFO'],
} as const satisfies { defaultExchange: ExchangeCode; exchanges: readonly ExchangeCode[] } & Record<string, unknown>;

/** Chart interval choices in minutes (docs/PRODUCT.md section 9); 1440 is one trading day. */
export const INTERVAL_MINUTES = [1, 2, 3, 5, 10, 15, 30, 60, 120, 180, 1440] as const;
export type IntervalMinutes = (typeof INTERVAL_MINUTES)[number];
export const DEFAULT_INTERVAL_MINUTES: IntervalMinutes = 5;
