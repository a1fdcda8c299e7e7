// A contract chain seen over bars `from` .. `from + series.length` - 1 of the series it was built
// on: what a walk-forward's in-sample and out-of-sample runs trade when the whole run trades an
// index's futures (sliceSeries cuts the signal bars; this cuts the chain the same way).
//
// Invariants:
// - Bar i of the view is bar from + i of the chain: same contract, prices, lots and slices.
// - `prices` holds copies of the view's bars only and the sliced series' own time column (the
//   identity runBacktest checks), so nothing after the view's last bar is in it.
// - A contract's run that goes on past the view ends at the view's end (as a chain built over the
//   shorter series would end it); a bar outside the view is a RangeError, never the chain's next bar.
// - Meant for chains over a stored range (every bar priced before the run): a live chain's prices
//   grow during a run, and the copy would not see them.
import type { IsoDate } from '@vyuha/core';
import type { BarSeries } from '../algorithm/program';
import type { ContractChain, ContractSizingRequest } from '../kernel/contract-chain';

/**
 * The chain over bars `from` .. `from + series.length` - 1, where `series` is `sliceSeries` of the
 * chain's signal series over those bars. Throws RangeError for bars outside the chain.
 * @example runBacktest({ series: sliced, program, contracts: sliceContractChain(chain, sliced, 250) })
 */
export function sliceContractChain(chain: ContractChain, series: BarSeries, from: number): ContractChain {
  const { length } = series;
  if (!Number.isSafeInteger(from) || from < 0 || from + length > chain.prices.length) {
    throw new RangeError(`contracts: bars ${from}..${from + length - 1} are outside the chain's ${chain.prices.length} bars`);
  }
  const to = from + length;
  const source = chain.prices;
  const prices: BarSeries = {
    length, time: series.time,
    open: source.open.slice(from, to), high: source.high.slice(from, to), low: source.low.slice(from, to), close: source.close.slice(from, to),
    volume: source.volume.slice(from, to), oi: source.oi.slice(from, to),
  };
  const at = (index: number): number => {
    if (!Number.isSafeInteger(index) || index < 0 || index >= length) throw new RangeError(`bar ${index} is outside the sliced futures chain (${length} bars)`);
    return from + index;
  };
  return {
    prices,
    symbolAt: (index) => chain.symbolAt(at(index)),
    endOf: (index) => Math.min(chain.endOf(at(index)) - from, length),
    entryQuantity: (request: ContractSizingRequest) => chain.entryQuantity({ ...request, index: at(request.index) }),
    slicesOf: (quantity: number, request: { readonly index: number; readonly date: IsoDate }) => chain.slicesOf(quantity, { ...request, index: at(request.index) }),
  };
}
