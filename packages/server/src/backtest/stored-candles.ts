// Stored candles for a backtest, read in day-aligned chunks through the candle store (COPY into
// typed arrays, aggregated per chunk: bars are aligned to each IST day's 09:15 open, so cutting at
// IST midnight changes nothing), so loading a long range reports progress and can be cancelled
// between chunks. Option legs also need INDIA VIX and the option contracts with stored candles;
// an index traded as its futures needs the futures contracts with stored candles.
// The one copy of this loading: the backtest worker (jobs/), the CLI (commands/) and the
// candle_series action all read their history through it, so all see the same bars.
//
// Chunks are at most 10 calendar days (at most 3,750 one-minute rows): small enough for a
// progress step every few days. (They once also kept readCandles below 4,096 rows, where its COPY
// reader used to lose a row; that is fixed and covered by the candle store's own tests.)
import { addDays, daysBetween, istEpochMs, paiseToRupees } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import type { BarSeries, OptionCandle, OptionCandleSource } from '@vyuha/engine';
import type { CandleColumns } from '@vyuha/market';
import type pg from 'pg';
import { readCandles } from '../market-data/candle-store';
import { ContractCandles } from './contract-candles';
import { LegCandleCopy, LegCandlesCopy } from './leg-candles';
import type { LegCandleColumns } from './leg-candles';

/** Calendar days per COPY; a year is ~37 progress steps. */
const CHUNK_DAYS = 10;

export interface LoadCandlesRequest {
  readonly pool: pg.Pool;
  readonly instrumentId: number;
  readonly dateRange: { readonly from: IsoDate; readonly to: IsoDate };
  readonly intervalMinutes: number;
  /** Called after each chunk with the share of the range read (0-1]; may throw to stop (cancellation). */
  readonly onChunk?: (fraction: number) => Promise<void>;
}

/**
 * One instrument's candles over IST dates `from`..`to` (both included) at the run's interval.
 * @example (await loadRunCandles({ pool, instrumentId: 1, dateRange: { from, to }, intervalMinutes: 5 })).length // 375 for a week
 */
export async function loadRunCandles(request: LoadCandlesRequest): Promise<CandleColumns> {
  const { from, to } = request.dateRange;
  const totalDays = daysBetween(from, to) + 1;
  const parts: CandleColumns[] = [];
  for (let start = from; start <= to; start = addDays(start, CHUNK_DAYS)) {
    const endDay = addDays(start, CHUNK_DAYS);
    const end = endDay > addDays(to, 1) ? addDays(to, 1) : endDay;
    parts.push(await readCandles(request.pool, {
      instrumentId: request.instrumentId, from: istEpochMs(start, '00:00'), to: istEpochMs(end, '00:00'), intervalMinutes: request.intervalMinutes,
    }));
    await request.onChunk?.(Math.min(1, (daysBetween(from, end)) / totalDays));
  }
  return concatCandles(parts);
}

/** Candle columns one after the other (each part in time order, parts in time order). */
export function concatCandles(parts: readonly CandleColumns[]): CandleColumns {
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  const anyOi = parts.some((part) => part.oi !== undefined);
  const out = {
    length, time: new Float64Array(length), open: new Int32Array(length), high: new Int32Array(length), low: new Int32Array(length),
    close: new Int32Array(length), volume: new Float64Array(length),
  };
  const oi = anyOi ? new Float64Array(length).fill(Number.NaN) : undefined;
  let offset = 0;
  for (const part of parts) {
    out.time.set(part.time, offset);
    out.open.set(part.open, offset);
    out.high.set(part.high, offset);
    out.low.set(part.low, offset);
    out.close.set(part.close, offset);
    out.volume.set(part.volume, offset);
    if (oi !== undefined && part.oi !== undefined) oi.set(part.oi, offset);
    offset += part.length;
  }
  return oi === undefined ? out : { ...out, oi };
}

/** INDIA VIX in points at each bar: the last VIX close at or before the bar (before the first VIX bar: the first close). */
export function vixAtBars(series: BarSeries, vix: CandleColumns): Float64Array {
  const levels = new Float64Array(series.length);
  let cursor = 0;
  for (let bar = 0; bar < series.length; bar += 1) {
    const time = series.time[bar] as number;
    while (cursor + 1 < vix.length && (vix.time[cursor + 1] as number) <= time) cursor += 1;
    levels[bar] = paiseToRupees(vix.close[cursor] as number);
  }
  return levels;
}

/**
 * One contract's candles over a run as columns of exactly its rows: own copies, so a worker thread
 * is sent these and not a larger buffer they view.
 */
async function contractColumns(pool: pg.Pool, request: { instrumentId: number; dateRange: { from: IsoDate; to: IsoDate }; intervalMinutes: number }): Promise<LegCandleColumns> {
  const candles = await loadRunCandles({ pool, ...request });
  const rows = candles.length;
  return {
    length: rows, time: candles.time.slice(0, rows), open: candles.open.slice(0, rows),
    high: candles.high.slice(0, rows), low: candles.low.slice(0, rows), close: candles.close.slice(0, rows),
  };
}

/**
 * Imported candles of an index's futures contracts over a run: which contracts a run trades is
 * known before it runs (the near month of each day), so the ones with stored candles are read up
 * front, by trading symbol.
 */
export class StoredContractCandles extends ContractCandles {
  /** The stored candles of `symbols` (futures of `underlyingId`) over the run's range and interval; contracts without any are left out. */
  static async load(pool: pg.Pool, request: { underlyingId: number; symbols: readonly string[]; dateRange: { from: IsoDate; to: IsoDate }; intervalMinutes: number }): Promise<StoredContractCandles> {
    const { rows } = await pool.query<{ instrument_id: number; trading_symbol: string }>(
      `SELECT i.instrument_id, i.trading_symbol FROM instruments i
       WHERE i.kind = 'future' AND i.underlying_instrument_id = $1 AND i.trading_symbol = ANY($2::text[])
         AND EXISTS (SELECT 1 FROM candles c WHERE c.instrument_id = i.instrument_id
                     AND c.ts >= timestamptz 'epoch' + $3::bigint * interval '1 millisecond'
                     AND c.ts < timestamptz 'epoch' + $4::bigint * interval '1 millisecond')`,
      [request.underlyingId, request.symbols, istEpochMs(request.dateRange.from, '00:00'), istEpochMs(addDays(request.dateRange.to, 1), '00:00')]);
    const loaded = new Map<string, LegCandleColumns>();
    for (const row of rows) {
      loaded.set(row.trading_symbol, await contractColumns(pool, { instrumentId: row.instrument_id, dateRange: request.dateRange, intervalMinutes: request.intervalMinutes }));
    }
    return new StoredContractCandles(loaded);
  }
}

/**
 * Option candles for the legs: which contracts of the underlying have stored candles in the
 * range is known up front; their candles are read when a pass of the engine first asks for them
 * (the engine asks synchronously), and the pass is repeated until it asks for nothing new.
 */
export class StoredLegCandles implements OptionCandleSource {
  /** The stored contracts and the candles loaded, as columns (what worker threads are sent) and by time. */
  private readonly copy = new LegCandleCopy();
  /** What runs read: records the stored contracts they asked for and were not loaded. */
  private readonly source = new LegCandlesCopy(this.copy);
  /** Contracts a pass elsewhere (a worker thread) asked for (`want`). */
  private readonly wanted = new Set<string>();

  constructor(private readonly stored: ReadonlyMap<string, number>) {
    this.copy.receive({ stored: [...stored.keys()], added: [] });
  }

  /** Option contracts of `underlyingId` with at least one stored candle in [from, to) epoch ms. */
  static async find(pool: pg.Pool, request: { underlyingId: number; from: number; to: number }): Promise<StoredLegCandles> {
    const { rows } = await pool.query<{ instrument_id: number; trading_symbol: string }>(
      `SELECT i.instrument_id, i.trading_symbol FROM instruments i
       WHERE i.kind = 'option' AND i.underlying_instrument_id = $1
         AND EXISTS (SELECT 1 FROM candles c WHERE c.instrument_id = i.instrument_id
                     AND c.ts >= timestamptz 'epoch' + $2::bigint * interval '1 millisecond'
                     AND c.ts < timestamptz 'epoch' + $3::bigint * interval '1 millisecond')`,
      [request.underlyingId, request.from, request.to]);
    return new StoredLegCandles(new Map(rows.map((row) => [row.trading_symbol, row.instrument_id])));
  }

  hasContract(tradingSymbol: string): boolean {
    return this.copy.hasContract(tradingSymbol);
  }

  candleAt(tradingSymbol: string, barIndex: number, time: number): OptionCandle | undefined {
    return this.source.candleAt(tradingSymbol, barIndex, time);
  }

  /** Every contract with stored candles in the range, loaded or not. */
  storedSymbols(): string[] {
    return [...this.stored.keys()];
  }

  /** The candles loaded so far as columns, by trading symbol in load order (what worker threads' copies are sent: sweep/sweep-legs.ts). */
  loadedColumns(): ReadonlyMap<string, LegCandleColumns> {
    return this.copy.loadedColumns();
  }

  /** Contracts a pass elsewhere (a worker thread) asked for: the next loadWanted reads those of them that are stored and not loaded. */
  want(tradingSymbols: Iterable<string>): void {
    for (const symbol of tradingSymbols) if (this.stored.has(symbol) && !this.copy.hasCandles(symbol)) this.wanted.add(symbol);
  }

  /** Reads every contract the last pass asked for; false when it asked for none (the pass saw every candle). */
  async loadWanted(pool: pg.Pool, range: CandleRange): Promise<boolean> {
    for (const symbol of this.source.takeWanted()) this.wanted.add(symbol);
    if (this.wanted.size === 0) return false;
    for (const symbol of this.wanted) {
      this.copy.receive({ added: [[symbol, await contractColumns(pool, { instrumentId: this.stored.get(symbol) as number, ...range })]] });
    }
    this.wanted.clear();
    return true;
  }
}

/** The candles a run covers: the range its option candles are loaded over. */
export interface CandleRange {
  readonly dateRange: { readonly from: IsoDate; readonly to: IsoDate };
  readonly intervalMinutes: number;
}

/**
 * Runs `pass` until it asks for no stored option candle that was not loaded, and resolves to that
 * pass's result; one pass without option legs (`candles` undefined). A pass that runs here reads
 * `candles` itself (it records what was missing); a pass on worker threads reports their wants
 * through the callback it is given.
 */
export async function passesUntilLoaded<T>(
  db: pg.Pool,
  source: { readonly candles: StoredLegCandles | undefined; readonly range: CandleRange },
  pass: (onWanted: (tradingSymbols: readonly string[]) => void) => Promise<T>,
): Promise<T> {
  const { candles, range } = source;
  for (;;) {
    const wanted = new Set<string>();
    const result = await pass((symbols) => symbols.forEach((symbol) => wanted.add(symbol)));
    if (candles === undefined) return result;
    candles.want(wanted);
    if (!(await candles.loadWanted(db, range))) return result;
  }
}
