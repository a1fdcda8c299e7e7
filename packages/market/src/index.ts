export type { ExchangeCode, IntervalMinutes } from './constants';
export { EXCHANGE_CODES, HOME_MARKET, INTERVAL_MINUTES, DEFAULT_INTERVAL_MINUTES } from './constants';
