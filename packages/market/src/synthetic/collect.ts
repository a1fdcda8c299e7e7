import { generateSyntheticMarket } from './generator';
import { SYNTHETIC_SOURCE } from './types';
import type { SyntheticInstrument, SyntheticMarketOptions, SyntheticMonth, SyntheticSeries } from './types';

/** One calendar year of every requested series, joined from its months. */
export interface SyntheticYear {
  readonly year: string;
  readonly series: readonly SyntheticSeries[];
}

/**
 * Joins one instrument's bars across months into one series (for a year or a test; all of
 * history for six instruments is meant to be streamed, not joined).
 * @example joinSyntheticSeries(months, 'NIFTY 50').close.length // bars across all months
 */
export function joinSyntheticSeries(months: Iterable<SyntheticMonth>, instrument: SyntheticInstrument): SyntheticSeries {
  const parts: SyntheticSeries[] = [];
  let tradingSymbol: string = instrument;
  for (const month of months) {
    const part = month.series.find((series) => series.instrument === instrument);
    if (part) {
      parts.push(part);
      tradingSymbol = part.tradingSymbol;
    }
  }
  const count = parts.reduce((total, part) => total + part.time.length, 0);
  const joined = {
    instrument,
    tradingSymbol,
    source: SYNTHETIC_SOURCE,
    time: new Float64Array(count),
    open: new Int32Array(count),
    high: new Int32Array(count),
    low: new Int32Array(count),
    close: new Int32Array(count),
    volume: new Float64Array(count),
  } satisfies SyntheticSeries;
  let offset = 0;
  for (const part of parts) {
    joined.time.set(part.time, offset);
    joined.open.set(part.open, offset);
    joined.high.set(part.high, offset);
    joined.low.set(part.low, offset);
    joined.close.set(part.close, offset);
    joined.volume.set(part.volume, offset);
    offset += part.time.length;
  }
  return joined;
}

/**
 * Streams the synthetic market a calendar year at a time (the same numbers as month by month);
 * one year of six instruments is about 560k bars, about 15 MB of columns.
 */
export function generateSyntheticMarketByYear(options: SyntheticMarketOptions): Generator<SyntheticYear, void, undefined> {
  // Called outside the generator body so bad input fails here, not at the first `next()`.
  return yearsOf(generateSyntheticMarket(options));
}

function* yearsOf(months: Iterable<SyntheticMonth>): Generator<SyntheticYear, void, undefined> {
  let year: string | undefined;
  let pending: SyntheticMonth[] = [];
  for (const month of months) {
    const monthYear = month.month.slice(0, 4);
    if (year !== undefined && monthYear !== year) {
      yield joinYear(year, pending);
      pending = [];
    }
    year = monthYear;
    pending.push(month);
  }
  if (year !== undefined) yield joinYear(year, pending);
}

function joinYear(year: string, months: readonly SyntheticMonth[]): SyntheticYear {
  const instruments = months[0]?.series.map((series) => series.instrument) ?? [];
  return { year, series: instruments.map((instrument) => joinSyntheticSeries(months, instrument)) };
}
