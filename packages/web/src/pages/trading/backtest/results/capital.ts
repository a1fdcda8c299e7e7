// The capital requirement list of the performance panel: the engine's ESTIMATE (capitalRequirement,
// SPAN-like, never the exchange's margin) over the positions a run held. Positions are rebuilt
// from the fills in time order; fills at the same instant (the legs of one entry) are applied
// together before the snapshot. A short option needs the underlying's price at that instant: the
// open of the underlying's bar that contains the fill (fills happen at a bar's open).
import type { IsoDate } from '@vyuha/core';
import { capitalRequirement } from '@vyuha/engine';
import type { CapitalRequirement, MarginLeg, PositionSnapshot } from '@vyuha/engine';
import { parseTimestamp } from '../../../../format/format';
import type { OrderRecord } from './trade-list';

/** The underlying's bars at the run's interval (candle_series: bar start times, paise). */
export interface UnderlyingBars {
  readonly time: readonly number[];
  readonly open: readonly number[];
}

interface Holding {
  net: number;
  /** Rupees per unit of the last fill. */
  lastPrice: number;
  readonly order: OrderRecord;
}

/** The open of the last bar starting at or before `timeMs`, rupees; undefined before the first bar. */
export function underlyingPriceAt(bars: UnderlyingBars, timeMs: number): number | undefined {
  let low = 0;
  let high = bars.time.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if ((bars.time[middle] as number) <= timeMs) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found < 0 ? undefined : (bars.open[found] as number) / 100;
}

function legOf(holding: Holding, context: { underlying: string; underlyingPrice: number | undefined }): MarginLeg | undefined {
  const instrument = holding.order.instrument;
  if (instrument === null) return undefined;
  if (instrument.kind === 'option') {
    const optionType = instrument.option_type;
    if (context.underlyingPrice === undefined || instrument.expiry === null || instrument.strike_paise === null || (optionType !== 'CE' && optionType !== 'PE')) return undefined;
    return {
      kind: 'option', underlying: context.underlying, optionType, strike: Number(instrument.strike_paise) / 100, expiry: instrument.expiry as IsoDate,
      quantity: holding.net, premium: holding.lastPrice, underlyingPrice: context.underlyingPrice,
    };
  }
  return { kind: instrument.kind === 'future' ? 'future' : 'underlying', quantity: holding.net, price: holding.lastPrice };
}

type TimedFill = { readonly order: OrderRecord; readonly fill: OrderRecord['fills'][number]; readonly timeMs: number };

function apply(holdings: Map<string, Holding>, entry: TimedFill): void {
  const key = entry.order.instrument?.trading_symbol ?? entry.order.order_id;
  const holding = holdings.get(key) ?? { net: 0, lastPrice: 0, order: entry.order };
  holding.net += entry.order.side === 'BUY' ? entry.fill.quantity : -entry.fill.quantity;
  holding.lastPrice = Number(entry.fill.price_paise) / 100;
  holdings.set(key, holding);
}

/** The fills of one instant that open or add to a position (rather than reduce one), in order. */
function openingFills(holdings: ReadonlyMap<string, Holding>, group: readonly TimedFill[]): TimedFill[] {
  const nets = new Map([...holdings].map(([key, holding]) => [key, holding.net]));
  return group.filter((entry) => {
    const key = entry.order.instrument?.trading_symbol ?? entry.order.order_id;
    const net = nets.get(key) ?? 0;
    const buy = entry.order.side === 'BUY';
    nets.set(key, net + (buy ? entry.fill.quantity : -entry.fill.quantity));
    return net === 0 || (net > 0) === buy;
  });
}

/**
 * Position snapshots at each instant the run filled orders. The kernel stamps every fill inside
 * one bar with that bar's time, so a position opened and stopped out in the same bar shares its
 * instant with its exit: at each instant the opening fills are applied first (one snapshot, the
 * most held), then the closing ones (another).
 * @example positionSnapshots({ orders, bars, underlying: 'NIFTY' })[0].legs // [{ kind: 'option', quantity: -75, ... }, ...]
 */
export function positionSnapshots(input: { readonly orders: readonly OrderRecord[]; readonly bars: UnderlyingBars; readonly underlying: string }): PositionSnapshot[] {
  const fills: TimedFill[] = input.orders.flatMap((order) => order.fills.map((fill) => ({ order, fill, timeMs: parseTimestamp(fill.ts) ?? Number.NaN })))
    .filter((entry) => Number.isSafeInteger(entry.timeMs))
    .sort((a, b) => a.timeMs - b.timeMs);
  const holdings = new Map<string, Holding>();
  const snapshots: PositionSnapshot[] = [];
  const snapshot = (timeMs: number): void => {
    const underlyingPrice = underlyingPriceAt(input.bars, timeMs);
    const legs = [...holdings.values()].filter((open) => open.net !== 0)
      .map((open) => legOf(open, { underlying: input.underlying, underlyingPrice }))
      .filter((leg): leg is MarginLeg => leg !== undefined);
    snapshots.push({ time: timeMs, legs });
  };
  for (let start = 0; start < fills.length;) {
    const timeMs = (fills[start] as TimedFill).timeMs;
    let end = start;
    while (end < fills.length && (fills[end] as TimedFill).timeMs === timeMs) end += 1;
    const group = fills.slice(start, end);
    const opening = openingFills(holdings, group);
    const closing = group.filter((entry) => !opening.includes(entry));
    opening.forEach((entry) => apply(holdings, entry));
    if (opening.length > 0) snapshot(timeMs);
    closing.forEach((entry) => apply(holdings, entry));
    if (closing.length > 0) snapshot(timeMs);
    start = end;
  }
  return snapshots;
}

/** The estimate per day and its maximum. */
export function runCapitalRequirement(input: { readonly orders: readonly OrderRecord[]; readonly bars: UnderlyingBars; readonly underlying: string }): CapitalRequirement {
  return capitalRequirement({ snapshots: positionSnapshots(input) });
}
