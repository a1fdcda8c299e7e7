// Option legs on the sweep pool's threads. An option-legs run reads option candles as it goes:
// which contracts it trades depends on the underlying's price at each entry, so the job's process
// loads the stored candles of a contract only once some run has asked for it (StoredLegCandles),
// and a run that asked for one not yet loaded is run again once it is. On a thread the same holds:
// the job sends the plain parts of the trader (the legs, INDIA VIX per bar, the fill) and a copy of
// the candles loaded so far (LegsJobData); each task answers with its rows and the stored contracts
// its runs asked for that the copy lacked; the job loads those and runs the tasks again, until a
// pass asks for none. Its rows are then those of runs that read every candle they asked for: the
// rows the serial loop gives.
//
// Invariants:
// - A thread's trader is the one the job's process would make: optionsLegsTraderFactory over the
//   whole series, or optionsLegsWindowTraders for a walk-forward window's bars, with the same legs,
//   VIX and fill, and a candle source that answers as StoredLegCandles does with the same loads.
// - The copy is only read: a thread records what its runs wanted, per task, and loads nothing.
import { optionsLegsTraderFactory, optionsLegsWindowTraders } from '@vyuha/engine';
import type { OptionCandle, OptionCandleSource, TraderFactory } from '@vyuha/engine';
import type { LegsTraderData } from '../backtest/prepared-run';

/** A legs job for the threads: the trader's data and the candles loaded so far. */
export interface LegsJobData extends LegsTraderData {
  /** Every contract with stored candles in the run's range (loaded or not). */
  readonly stored: readonly string[];
  /** The candles loaded so far: trading symbol -> bar time (epoch ms) -> candle. */
  readonly loaded: ReadonlyMap<string, ReadonlyMap<number, OptionCandle>>;
}

/** A thread's read-only copy of the loaded candles; records the stored contracts asked for and missing. */
export class LegCandlesCopy implements OptionCandleSource {
  private readonly stored: ReadonlySet<string>;
  private readonly wanted = new Set<string>();

  constructor(private readonly data: Pick<LegsJobData, 'stored' | 'loaded'>) {
    this.stored = new Set(data.stored);
  }

  hasContract(tradingSymbol: string): boolean {
    return this.stored.has(tradingSymbol);
  }

  candleAt(tradingSymbol: string, _barIndex: number, time: number): OptionCandle | undefined {
    const candles = this.data.loaded.get(tradingSymbol);
    if (candles !== undefined) return candles.get(time);
    if (this.stored.has(tradingSymbol)) this.wanted.add(tradingSymbol);
    return undefined;
  }

  /** The contracts asked for since the last call, and forgets them. */
  takeWanted(): string[] {
    const wanted = [...this.wanted];
    this.wanted.clear();
    return wanted;
  }
}

/**
 * The trader factory of a task over bars `fromBar` .. `toBar` - 1 of a series of `length` bars:
 * the whole series' factory, or the window's (as the serial walk-forward's in-sample sweep makes it).
 */
export function legsTraderOf(data: LegsTraderData, candles: OptionCandleSource, bars: { fromBar: number; toBar: number; length: number }): TraderFactory {
  const options = { config: data.config, vix: data.vix, fill: data.fill, slippage: { kind: 'none' }, candles } as const;
  if (bars.fromBar === 0 && bars.toBar === bars.length) return optionsLegsTraderFactory(options);
  return optionsLegsWindowTraders(options)({ from: bars.fromBar, to: bars.toBar });
}
