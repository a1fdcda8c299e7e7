// The credits a run will use before it runs (docs/PRODUCT.md section 3: strategy runs record `candles`, the
// credits utilised): the candles of the run's interval in its date range, from the session calendar.
import { addDays } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { INDEX_CONFIGS, sessionOf } from '@vyuha/market';
import type { SessionExchange, TradingSession } from '@vyuha/market';

/** Where sessions come from: an exchange of the market calendar, or a calendar of one's own (tests, other venues). */
export interface CandleCalendar {
  readonly exchange?: SessionExchange;
  readonly sessionOf?: (date: IsoDate) => TradingSession | undefined;
}

/** The exchange whose sessions an instrument follows: its index config's exchange, else NSE. */
export function exchangeOfInstrument(instrument: string): SessionExchange {
  const config = INDEX_CONFIGS.find((entry) => entry.name === instrument || entry.value === instrument);
  return config?.exchange ?? 'NSE';
}

/**
 * Candles of one session: intervals aligned to the open, the last one cut short at the close
 * (375 minutes at 60 gives 7 candles: 09:15 .. 15:15); a daily interval (1440) gives 1.
 */
export function candlesInSession(session: TradingSession, interval: number): number {
  const minutes = session.close - session.open;
  if (minutes <= 0) return 0;
  return interval >= 1_440 ? 1 : Math.ceil(minutes / interval);
}

/**
 * Candles (credits) a run will process: the sum over its trading days of the session's candles.
 * @example estimateCandles({ dateRange: { from: isoDate('2024-04-08'), to: isoDate('2024-04-12') }, interval: 5, instrument: 'NIFTY 50' }) // 300 (4 trading days x 75)
 */
export function estimateCandles(
  run: { readonly dateRange: { readonly from: IsoDate; readonly to: IsoDate }; readonly interval: number; readonly instrument: string },
  calendar: CandleCalendar = {},
): number {
  const exchange = calendar.exchange ?? exchangeOfInstrument(run.instrument);
  const sessionFor = calendar.sessionOf ?? ((date: IsoDate) => sessionOf(exchange, date));
  let candles = 0;
  for (let date = run.dateRange.from; date <= run.dateRange.to; date = addDays(date, 1)) {
    const session = sessionFor(date);
    if (session !== undefined) candles += candlesInSession(session, run.interval);
  }
  return candles;
}

/** Candles of all runs together: what a request will charge to the user's BACKTEST credits. */
export function estimateRequestCandles(runs: readonly Parameters<typeof estimateCandles>[0][], calendar: CandleCalendar = {}): number {
  return runs.reduce((total, run) => total + estimateCandles(run, calendar), 0);
}
