// Quantity of a leg and how its order is sliced. The lot is the contract's on the trade date (a
// contract listed before a revision keeps its old lot until it expires). Orders above the freeze
// quantity go out as several orders (slices), and each slice is an executed order for brokerage.
// The freeze schedule starts on 1-Aug-2024 (ARCHITECTURE.md: earlier dates have no sourced value);
// before that date an order is sent as one order, unsliced, and the sizing says so.
import type { IsoDate } from '@vyuha/core';
import { freezeQuantity, lotSize, sliceOrder } from '@vyuha/market';
import type { OptionUnderlying } from '@vyuha/market';

/** What one leg entry trades: units, the lot used, and the order slices (summing to `quantity`). */
export interface LegSizing {
  readonly lotSize: number;
  readonly quantity: number;
  readonly slices: readonly number[];
  /** False when no freeze quantity is known for the date, so the order was not sliced. */
  readonly freezeKnown: boolean;
}

/**
 * Units and slices of `lots` lots of a contract of `underlying` expiring `expiry`, traded on `tradeDate`.
 * @example legSizing({ underlying: 'NIFTY', tradeDate: isoDate('2026-02-02'), expiry: isoDate('2026-02-03'), lots: 60 }).slices // [1755, 1755, 390]
 */
export function legSizing(request: { readonly underlying: OptionUnderlying; readonly tradeDate: IsoDate; readonly expiry: IsoDate; readonly lots: number }): LegSizing {
  const lot = lotSize({ symbol: request.underlying, tradeDate: request.tradeDate, expiry: request.expiry });
  const quantity = lot * request.lots;
  const freeze = freezeQuantity(request.underlying, request.tradeDate);
  if (freeze === undefined) return { lotSize: lot, quantity, slices: [quantity], freezeKnown: false };
  return { lotSize: lot, quantity, slices: sliceOrder(quantity, { lotSize: lot, freezeQuantity: freeze }), freezeKnown: true };
}
