// Imported option candles for tests of option-legs runs that load them as they ask: which
// contracts a run looks up (`contractsAsked`), and those contracts written to the store as NFO
// options of an index with a candle for every minute of every session in a range
// (`writeOptionContracts`), at premiums far from the synthetic chain's so that they change results.
import { istEpochMs } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import type { OptionCandleSource } from '@vyuha/engine';
import { parseTradingSymbol, sessionOf, tradingDaysBetween } from '@vyuha/market';
import type pg from 'pg';
import { writeCandles } from '../../src/market-data/candle-store';

/** The contracts `run` looks up through the candle source it is given, in the order first asked (the source has none). */
export function contractsAsked(run: (candles: OptionCandleSource) => void): string[] {
  const asked: string[] = [];
  run({
    hasContract: (symbol) => {
      if (!asked.includes(symbol)) asked.push(symbol);
      return false;
    },
    candleAt: () => undefined,
  });
  return asked;
}

/**
 * Registers each trading symbol as an NFO option of `underlying` and writes a candle for every
 * minute of every NSE session in `range`: Rs 40 plus Rs 1 per symbol's rank, waving by the minute.
 */
export async function writeOptionContracts(pool: pg.Pool, request: { symbols: readonly string[]; underlying: string; range: { from: IsoDate; to: IsoDate } }): Promise<void> {
  const { rows: [index] } = await pool.query<{ instrument_id: number }>(`SELECT instrument_id FROM instruments WHERE kind = 'index' AND name = $1`, [request.underlying]);
  if (index === undefined) throw new Error(`no index ${request.underlying}`);
  const minutes = tradingDaysBetween('NSE', request.range.from, request.range.to).flatMap((date) => {
    const session = sessionOf('NSE', date);
    if (session === undefined) throw new Error(`no session on ${date}`);
    return Array.from({ length: session.close - session.open }, (_, minute) => istEpochMs(date, '00:00') + (session.open + minute) * 60_000);
  });
  for (const [rank, symbol] of request.symbols.entries()) {
    const contract = parseTradingSymbol(symbol);
    if (contract.kind !== 'option') throw new Error(`${symbol} is not an option`);
    const { rows } = await pool.query<{ instrument_id: number }>(
      `INSERT INTO instruments (exchange, segment, kind, trading_symbol, name, underlying_instrument_id, expiry, strike_paise, option_type, lot_size)
       VALUES ('NFO', 'OPT', 'option', $1, $1, $2, $3, $4, $5, 25) RETURNING instrument_id`,
      [symbol, index.instrument_id, contract.expiry, Math.round(contract.strike * 100), contract.optionType]);
    const premium = Int32Array.from(minutes, (_, minute) => 4_000 + rank * 100 + (minute % 30) * 20);
    await writeCandles(pool, {
      instrumentId: rows[0]?.instrument_id as number, source: 'import',
      candles: { length: minutes.length, time: Float64Array.from(minutes), open: premium, high: premium.map((value) => value + 50), low: premium.map((value) => value - 50), close: premium, volume: new Float64Array(minutes.length) },
    });
  }
}
