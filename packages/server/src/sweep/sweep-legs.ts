// Option legs on worker threads (the sweep pool's, and the backtest threads'). An option-legs run
// reads option candles as it goes: which contracts it trades depends on the underlying's price at
// each entry, so the job's process loads the stored candles of a contract only once some run has
// asked for it (StoredLegCandles), and a run that asked for one not yet loaded is run again once
// it is. On a thread the same holds: the job sends the plain parts of the trader (the legs, INDIA
// VIX per bar, the fill) and the candles loaded so far; each task answers with its rows and the
// stored contracts its runs asked for that the thread's copy lacked; the job loads those and runs
// the tasks again, until a pass asks for none. Its rows are then those of runs that read every
// candle they asked for: the rows the serial loop gives.
//
// Candles travel as columns (typed arrays: a copy costs a memcpy, where a map of candle objects
// costs seconds per million candles). A sweep pool's threads keep each store's candles until the
// pool is given another series (`LegCandleCopies`) and are sent only what was loaded since (`LegsSent`); a backtest
// task is sent the whole store (`legsSnapshot`).
//
// Invariants:
// - A thread's trader is the one the job's process would make: optionsLegsTraderFactory over the
//   whole series, or optionsLegsWindowTraders for a walk-forward window's bars, with the same legs,
//   VIX and fill, and a candle source that answers as StoredLegCandles does with the same loads
//   (a store only grows, and a contract's candles never change once loaded).
// - The copy is only read: a thread records what its runs wanted, per task, and loads nothing.
import { optionsLegsTraderFactory, optionsLegsWindowTraders } from '@vyuha/engine';
import type { OptionCandleSource, TraderFactory } from '@vyuha/engine';
import { LegCandleCopy } from '../backtest/leg-candles';
import type { LegCandleColumns } from '../backtest/leg-candles';
import type { LegsTraderData } from '../backtest/prepared-run';

/** The job process's candles (StoredLegCandles): every stored contract, and those loaded so far as columns. */
export interface LegCandleStore {
  storedSymbols(): readonly string[];
  loadedColumns(): ReadonlyMap<string, LegCandleColumns>;
}

/** Option legs as a caller gives them to the sweep pool: the traders' data and the job's candle store. */
export interface LegsJob extends LegsTraderData {
  readonly candles: LegCandleStore;
}

/** Option legs as a thread is sent them: the traders' data and what it lacks of the store. */
export interface LegsJobData extends LegsTraderData {
  /** The store's number among those sent to these threads. */
  readonly source: number;
  /** Every stored contract: with the store's first job on these threads. */
  readonly stored?: readonly string[];
  /** Contracts loaded since the store's last job on these threads, with their candles. */
  readonly added: ReadonlyArray<readonly [string, LegCandleColumns]>;
}

/** The whole store for one task (a backtest thread keeps nothing between tasks). */
export function legsSnapshot(trader: LegsTraderData, candles: LegCandleStore): LegsJobData {
  return { ...trader, source: 0, stored: candles.storedSymbols(), added: [...candles.loadedColumns()] };
}

/** Main side of a sweep pool: what its threads have been sent of each store, so each job sends only what was loaded since. */
export class LegsSent {
  private readonly sent = new WeakMap<LegCandleStore, { readonly source: number; readonly symbols: Set<string> }>();
  private nextSource = 1;

  /** The message part for `job`; what it sends counts as sent (every thread receives every job). */
  message(job: LegsJob): LegsJobData {
    const { candles, ...trader } = job;
    let record = this.sent.get(candles);
    const first = record === undefined;
    if (record === undefined) {
      record = { source: this.nextSource, symbols: new Set() };
      this.nextSource += 1;
      this.sent.set(candles, record);
    }
    const added: Array<readonly [string, LegCandleColumns]> = [];
    for (const [symbol, columns] of candles.loadedColumns()) {
      if (record.symbols.has(symbol)) continue;
      record.symbols.add(symbol);
      added.push([symbol, columns]);
    }
    return { ...trader, source: record.source, ...(first ? { stored: candles.storedSymbols() } : {}), added };
  }
}

/** Thread side of a sweep pool: each store's copy, kept while the series stays and added to by each job. */
export class LegCandleCopies {
  private readonly copies = new Map<number, LegCandleCopy>();

  /** The store's copy with what `data` adds. */
  receive(data: LegsJobData): LegCandleCopy {
    let copy = this.copies.get(data.source);
    if (copy === undefined) {
      copy = new LegCandleCopy();
      this.copies.set(data.source, copy);
    }
    copy.receive(data);
    return copy;
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
