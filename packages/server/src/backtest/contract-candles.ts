// The imported candles of an index's futures contracts over a run, by trading symbol: kept as
// columns (leg-candles.ts), so a copy goes to a worker thread as a few typed arrays per contract
// (prepared-run.ts recipeData), and read by bar time through a map built on first use.
import type { OptionCandle, OptionCandleSource } from '@vyuha/engine';
import { LegCandleCopy } from './leg-candles';
import type { LegCandleColumns } from './leg-candles';

/**
 * An index's futures contracts' imported candles (read up front: which contracts a run trades is
 * known before it runs), by trading symbol; a contract here has candles.
 */
export class ContractCandles implements OptionCandleSource {
  private readonly copy = new LegCandleCopy();

  /** `columns`: each contract's candles (paise; times strictly increasing). */
  constructor(readonly columns: ReadonlyMap<string, LegCandleColumns>) {
    this.copy.receive({ stored: [...columns.keys()], added: [...columns] });
  }

  /** Trading symbols with stored candles. */
  get symbols(): readonly string[] {
    return [...this.columns.keys()];
  }

  hasContract(tradingSymbol: string): boolean {
    return this.columns.has(tradingSymbol);
  }

  candleAt(tradingSymbol: string, _barIndex: number, time: number): OptionCandle | undefined {
    return this.copy.candlesOf(tradingSymbol)?.get(time);
  }
}
