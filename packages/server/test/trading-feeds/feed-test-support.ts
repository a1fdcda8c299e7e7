// Stored history for the feed tests: the synthetic market's 1-minute candles of NIFTY 50 and
// NIFTY BANK over given NSE sessions, written through the candle store as the demo world writes
// them (source synthetic), and the ids of the demo world's indices.
import type { IsoDate } from '@vyuha/core';
import { generateSyntheticMarket, sessionOf, tradingDaysBetween } from '@vyuha/market';
import type { SyntheticInstrument } from '@vyuha/market';
import type pg from 'pg';
import { writeCandles } from '../../src/market-data/candle-store';

/** Instrument id of a demo-world index by its official name. */
export async function indexId(pool: pg.Pool, name: string): Promise<number> {
  const { rows } = await pool.query<{ instrument_id: number }>(`SELECT instrument_id FROM instruments WHERE kind = 'index' AND name = $1`, [name]);
  const id = rows[0]?.instrument_id;
  if (id === undefined) throw new Error(`no index named ${name}`);
  return id;
}

/** Stores synthetic 1-minute candles of `instruments` over the NSE sessions from `from` to `to`; returns candles per instrument. */
export async function storeSyntheticHistory(pool: pg.Pool, request: { from: IsoDate; to: IsoDate; instruments: readonly SyntheticInstrument[]; seed?: string }): Promise<Map<string, number>> {
  const sessions = tradingDaysBetween('NSE', request.from, request.to).map((date) => {
    const session = sessionOf('NSE', date)!;
    return { date, openMinute: session.open, closeMinute: session.close };
  });
  const stored = new Map<string, number>();
  for (const month of generateSyntheticMarket({ sessions, seed: request.seed ?? 'feed-tests', instruments: request.instruments })) {
    for (const series of month.series) {
      const instrumentId = await indexId(pool, series.instrument);
      const length = series.time.length;
      await writeCandles(pool, {
        instrumentId, source: 'synthetic',
        candles: { length, time: series.time, open: series.open, high: series.high, low: series.low, close: series.close, volume: series.volume },
      });
      stored.set(series.instrument, (stored.get(series.instrument) ?? 0) + length);
    }
  }
  return stored;
}
