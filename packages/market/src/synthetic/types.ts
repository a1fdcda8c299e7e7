/** Label carried by everything the synthetic market produces, so a screen can say "synthetic". */
export const SYNTHETIC_SOURCE = 'synthetic';
export type SyntheticSource = typeof SYNTHETIC_SOURCE;

/** The six indices the synthetic market draws, by their official names (as in index-monthly-closes.csv). */
export const SYNTHETIC_INSTRUMENTS = [
  'NIFTY 50',
  'NIFTY BANK',
  'NIFTY FIN SERVICE',
  'NIFTY MID SELECT',
  'S&P BSE SENSEX',
  'INDIA VIX',
] as const;
export type SyntheticInstrument = (typeof SYNTHETIC_INSTRUMENTS)[number];

/** One trading session to fill with 1-minute bars; minutes count from midnight IST (09:15 is 555). */
export interface SyntheticSession {
  readonly date: string;
  readonly openMinute: number;
  readonly closeMinute: number;
}

/**
 * A month-end close: the path's close on the last given session of `month` equals it (rounded
 * to the 0.05 tick). `index` is the official name or the trading symbol; null is a known gap.
 */
export interface SyntheticAnchor {
  readonly month: string;
  readonly index: string;
  readonly close: number | null;
}

/** What the generator needs: the sessions (from the calendar), a seed and the month-end anchors. */
export interface SyntheticMarketOptions {
  readonly sessions: readonly SyntheticSession[];
  readonly seed: number | string;
  readonly anchors?: readonly SyntheticAnchor[];
  /** Which series to return; all six by default. The numbers of one do not depend on this list. */
  readonly instruments?: readonly SyntheticInstrument[];
  /** Level (rupees/points) at the first session's open; default: the instrument's first anchor. */
  readonly startLevels?: Partial<Record<SyntheticInstrument, number>>;
}

/**
 * 1-minute bars of one instrument in columns. `time` is each bar's start in epoch ms; prices are
 * integer paise on the 0.05 tick (multiples of 5). Indices trade no volume of their own, so
 * `volume` is 0 for all six.
 */
export interface SyntheticSeries {
  readonly instrument: SyntheticInstrument;
  readonly tradingSymbol: string;
  readonly source: SyntheticSource;
  readonly time: Float64Array;
  readonly open: Int32Array;
  readonly high: Int32Array;
  readonly low: Int32Array;
  readonly close: Int32Array;
  readonly volume: Float64Array;
}

/** One calendar month of every requested series: the unit the generator streams in. */
export interface SyntheticMonth {
  readonly month: string;
  readonly series: readonly SyntheticSeries[];
}
