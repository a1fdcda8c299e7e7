// Option candles of one contract as columns, and the same by bar time; a store's candles
// (LegCandleCopy) and the candle source runs read them through (LegCandlesCopy): what the job's
// store (stored-candles.ts) keeps of what it loaded and what a worker thread keeps of what it was
// sent (../sweep/sweep-legs.ts), so both answer the same way. No database here, so a thread loads
// nothing more than this.
import type { OptionCandle, OptionCandleSource } from '@vyuha/engine';
import type { CandleColumns } from '@vyuha/market';

/** One contract's candles as columns (paise; times strictly increasing): what a worker thread's copy is sent. */
export type LegCandleColumns = Pick<CandleColumns, 'length' | 'time' | 'open' | 'high' | 'low' | 'close'>;

/** The candles of `columns` by bar start time (paise). */
export function candlesByTimeOf(columns: LegCandleColumns): Map<number, OptionCandle> {
  const byTime = new Map<number, OptionCandle>();
  for (let row = 0; row < columns.length; row += 1) {
    byTime.set(columns.time[row] as number, { open: columns.open[row] as number, high: columns.high[row] as number, low: columns.low[row] as number, close: columns.close[row] as number });
  }
  return byTime;
}

/** A store's candles: the stored contracts and the candles loaded (or, on a thread, sent), by time on first use. */
export class LegCandleCopy {
  private stored: ReadonlySet<string> = new Set();
  private readonly columns = new Map<string, LegCandleColumns>();
  private readonly byTime = new Map<string, Map<number, OptionCandle>>();

  /** Takes the stored contracts (when given) and the candles of contracts added. */
  receive(data: { readonly stored?: readonly string[]; readonly added: ReadonlyArray<readonly [string, LegCandleColumns]> }): void {
    if (data.stored !== undefined) this.stored = new Set(data.stored);
    for (const [symbol, columns] of data.added) this.columns.set(symbol, columns);
  }

  hasContract(tradingSymbol: string): boolean {
    return this.stored.has(tradingSymbol);
  }

  /** Whether the contract's candles were taken. */
  hasCandles(tradingSymbol: string): boolean {
    return this.columns.has(tradingSymbol);
  }

  /** The candles taken as columns, by trading symbol in the order taken. */
  loadedColumns(): ReadonlyMap<string, LegCandleColumns> {
    return this.columns;
  }

  /** The contract's candles by bar time, or undefined when none were sent. */
  candlesOf(tradingSymbol: string): Map<number, OptionCandle> | undefined {
    let candles = this.byTime.get(tradingSymbol);
    if (candles === undefined) {
      const columns = this.columns.get(tradingSymbol);
      if (columns === undefined) return undefined;
      candles = candlesByTimeOf(columns);
      this.byTime.set(tradingSymbol, candles);
    }
    return candles;
  }
}

/** Runs' candle source over a store's candles: a contract's candle when taken; a stored contract asked for and not taken is recorded (`takeWanted`). */
export class LegCandlesCopy implements OptionCandleSource {
  private readonly wanted = new Set<string>();

  constructor(private readonly copy: LegCandleCopy) {}

  hasContract(tradingSymbol: string): boolean {
    return this.copy.hasContract(tradingSymbol);
  }

  candleAt(tradingSymbol: string, _barIndex: number, time: number): OptionCandle | undefined {
    const candles = this.copy.candlesOf(tradingSymbol);
    if (candles !== undefined) return candles.get(time);
    if (this.copy.hasContract(tradingSymbol)) this.wanted.add(tradingSymbol);
    return undefined;
  }

  /** The contracts asked for since the last call, and forgets them. */
  takeWanted(): string[] {
    const wanted = [...this.wanted];
    this.wanted.clear();
    return wanted;
  }
}
