// Finds the instrument a user means by a trading symbol or an index name ("NIFTY", "NIFTY 50",
// "nifty bank", "NSE:BANKNIFTY"). An unknown name lists the closest known ones.

import type pg from 'pg';

export interface InstrumentRef {
  readonly instrumentId: number;
  readonly exchange: string;
  readonly tradingSymbol: string;
  readonly name: string;
}

/** No instrument, or more than one, answers to the name; the message lists candidates. */
export class UnknownInstrumentError extends Error {
  override readonly name = 'UnknownInstrumentError';
}

interface InstrumentRow {
  instrument_id: number;
  exchange: string;
  trading_symbol: string;
  name: string;
}

const toRef = (row: InstrumentRow): InstrumentRef => ({
  instrumentId: row.instrument_id, exchange: row.exchange, tradingSymbol: row.trading_symbol, name: row.name,
});
const describe = (row: InstrumentRow): string => `${row.exchange}:${row.trading_symbol} (${row.name})`;

/**
 * Resolves `text` (symbol, name, or EXCHANGE:SYMBOL; any case) to exactly one instrument.
 * @example await resolveInstrument(pool, 'NIFTY 50') // { exchange: 'NSE', tradingSymbol: 'NIFTY', ... }
 */
export async function resolveInstrument(pool: pg.Pool, text: string): Promise<InstrumentRef> {
  const wanted = text.trim();
  if (wanted === '') throw new UnknownInstrumentError('the instrument symbol is empty');
  const colon = wanted.indexOf(':');
  const exchange = colon > 0 ? wanted.slice(0, colon).toUpperCase() : null;
  const symbol = colon > 0 ? wanted.slice(colon + 1).trim() : wanted;
  const { rows } = await pool.query<InstrumentRow>(
    `SELECT instrument_id, exchange, trading_symbol, name FROM instruments
     WHERE (upper(trading_symbol) = upper($1) OR upper(name) = upper($1)) AND ($2::text IS NULL OR exchange = $2)
     ORDER BY kind <> 'index', exchange, trading_symbol`, [symbol, exchange]);
  if (rows.length === 1 && rows[0]) return toRef(rows[0]);
  if (rows.length > 1) {
    throw new UnknownInstrumentError(`"${wanted}" matches ${rows.length} instruments: ${rows.map(describe).join(', ')}; write EXCHANGE:SYMBOL`);
  }
  const close = await closeMatches(pool, symbol);
  const hint = close.length > 0 ? `; did you mean ${close.map(describe).join(', ')}?` : '; no instrument has a similar name';
  throw new UnknownInstrumentError(`unknown instrument "${wanted}"${hint}`);
}

async function closeMatches(pool: pg.Pool, text: string): Promise<InstrumentRow[]> {
  const key = normalise(text);
  // Indices and equities are few; contracts are only considered when they share a prefix.
  const { rows } = await pool.query<InstrumentRow>(
    `SELECT instrument_id, exchange, trading_symbol, name FROM instruments
     WHERE kind IN ('index', 'equity') OR upper(trading_symbol) LIKE $1 || '%'
     LIMIT 5000`, [key.slice(0, 3)]);
  return rows
    .map((row) => ({ row, distance: Math.min(similarity(key, normalise(row.trading_symbol)), similarity(key, normalise(row.name))) }))
    .filter((entry) => entry.distance <= Math.max(2, Math.floor(key.length / 3)))
    .sort((a, b) => a.distance - b.distance || a.row.trading_symbol.localeCompare(b.row.trading_symbol))
    .slice(0, 5)
    .map((entry) => entry.row);
}

function normalise(text: string): string {
  return text.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/** Edit distance, with containment counted as close (BANKNIFTY vs NIFTYBANK stays far, NIFTY vs NIFTY50 is near). */
function similarity(a: string, b: string): number {
  if (a === '' || b === '') return Math.max(a.length, b.length);
  if (b.includes(a) || a.includes(b)) return 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] as number;
}
