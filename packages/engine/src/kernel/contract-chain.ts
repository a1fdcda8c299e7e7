// The port through which the underlying trader trades something other than the bar series it
// reads its signals from: a chain of contracts, one in force at each bar, priced by their own
// bars (an index's near-month futures, rolled month to month: futures/futures-chain.ts).
//
// Invariants an implementation keeps:
// - `prices` has the signal series' bar times and length; bar i's prices are the contract in
//   force at bar i (`symbolAt(i)`), so the simulated venue over `prices` fills and checks stops
//   on the traded contract.
// - Contracts follow each other in runs of bars: `endOf(i)` is the first bar of the next contract
//   (or the series length). A position still open when its contract's run ends is rolled: sold at
//   the last price of the old run (the close of bar endOf(i) - 1) and reopened at the next bar's open.
// - Quantities are whole lots of the contract; `slicesOf` splits an entry into orders the exchange
//   accepts (the freeze quantity), each an executed order for brokerage.
import type { IsoDate } from '@vyuha/core';
import type { TradeSide } from '@vyuha/market';
import type { BarSeries } from '../algorithm/program';
import type { ChargeModel } from './charges-model';

/** What an entry may spend, as SizingRequest has it (paise), at the bar it fills on. */
export interface ContractSizingRequest {
  readonly index: number;
  readonly date: IsoDate;
  /** Current capital (cash + open positions at market), paise. */
  readonly capital: number;
  /** Expected fill price, paise per unit. */
  readonly price: number;
  readonly side: TradeSide;
  readonly chargeModel: ChargeModel;
}

export interface ContractChain {
  /** The traded contracts' bars: the contract in force at each bar, rupees, on the signal series' times. */
  readonly prices: BarSeries;
  /** The trading symbol (the orders' and fills' instrument) of the contract in force at bar `index`. */
  symbolAt(index: number): string;
  /**
   * The first bar after the run of bars of bar `index`'s contract (the bar a held position is
   * rolled at), or the series length; Infinity while a chain priced bar by bar has not seen the
   * run end (the trader then rolls at the first bar `symbolAt` names another contract).
   */
  endOf(index: number): number;
  /** Units of an entry at bar `index`: whole lots, 0 when not one lot fits. */
  entryQuantity(request: ContractSizingRequest): number;
  /** The orders an entry of `quantity` units at bar `index` is sent as (units each, summing to `quantity`). */
  slicesOf(quantity: number, request: { readonly index: number; readonly date: IsoDate }): readonly number[];
  /** A chain priced bar by bar (live): prices bar `index` from the signal series as it holds it now (opened, then closed). */
  priceBar?(index: number): void;
}
