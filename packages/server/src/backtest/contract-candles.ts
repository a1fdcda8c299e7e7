// The imported candles of an index's futures contracts over a run, by trading symbol and bar time
// (stored-candles.ts reads them; prepared-run.ts posts them to worker threads as plain maps).
import type { OptionCandle, OptionCandleSource } from '@vyuha/engine';

/**
 * An index's futures contracts' imported candles by trading symbol and bar time (read up front:
 * which contracts a run trades is known before it runs). Plain maps, so a copy can go to a thread.
 */
export class ContractCandles implements OptionCandleSource {
  constructor(readonly loaded: ReadonlyMap<string, ReadonlyMap<number, OptionCandle>>) {}

  /** Trading symbols with stored candles. */
  get symbols(): readonly string[] {
    return [...this.loaded.keys()];
  }

  hasContract(tradingSymbol: string): boolean {
    return this.loaded.has(tradingSymbol);
  }

  candleAt(tradingSymbol: string, _barIndex: number, time: number): OptionCandle | undefined {
    return this.loaded.get(tradingSymbol)?.get(time);
  }
}
