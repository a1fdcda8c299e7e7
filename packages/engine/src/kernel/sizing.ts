// How many units an entry buys or sells. Quantities are whole units; `lots` trades whole lots.
// Percent and all-in size on current capital: equity at the signal (cash + open positions at
// market; the underlying trader is flat when it enters, so that is its cash, after any exit of a
// reversal). A short is sized on the same notional as a long (margin is not modelled).
import { paise } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import type { TradeSide } from '@vyuha/market';
import type { ChargeModel } from './charges-model';

export type Sizing =
  | { readonly kind: 'quantity'; readonly quantity: number }
  | { readonly kind: 'lots'; readonly lots: number; readonly lotSize: number }
  | { readonly kind: 'percent'; readonly percent: number }
  | { readonly kind: 'all-in' };

export interface SizingRequest {
  readonly sizing: Sizing;
  /** Current capital in paise. */
  readonly capital: number;
  /** Expected fill price in paise per unit. */
  readonly price: number;
  readonly side: TradeSide;
  readonly date: IsoDate;
  readonly chargeModel: ChargeModel;
}

/**
 * Units to trade; 0 means "cannot afford one unit" and no order is placed.
 * `all-in`: the largest whole quantity q with q x price + charges(q) <= capital, the charges
 * computed exactly by the run's charge model at that quantity (so the fill never overdraws cash
 * when it fills at the expected price).
 * @example entryQuantity({ sizing: { kind: 'percent', percent: 50 }, capital: 100_000, price: 3_000, ... }) // 16
 */
export function entryQuantity(request: SizingRequest): number {
  const { sizing, capital, price } = request;
  if (price <= 0 || capital <= 0) return sizing.kind === 'quantity' ? sizing.quantity : sizing.kind === 'lots' ? sizing.lots * sizing.lotSize : 0;
  switch (sizing.kind) {
    case 'quantity':
      return sizing.quantity;
    case 'lots':
      return sizing.lots * sizing.lotSize;
    case 'percent':
      // 1e-9 absorbs binary fractions of the percentage (50% of 100 at 50 is exactly 1 unit).
      return Math.max(0, Math.floor((capital * sizing.percent) / 100 / price + 1e-9));
    case 'all-in':
      return allInQuantity(request);
  }
}

function allInQuantity(request: SizingRequest): number {
  const { capital, price } = request;
  const costOf = (quantity: number): number =>
    quantity * price + request.chargeModel({ date: request.date, side: request.side, price: paise(price), quantity }).total;
  let quantity = Math.floor(capital / price);
  // Charges grow with quantity, so stepping down by what they cost converges in a few rounds.
  while (quantity > 0 && costOf(quantity) > capital) {
    const charges = costOf(quantity) - quantity * price;
    quantity = Math.min(quantity - 1, Math.floor((capital - charges) / price));
  }
  return Math.max(0, quantity);
}
