// A position in one contract as fills move it, and its P&L: exact integer paise throughout.
//
// Method: average cost. A position keeps its signed net quantity and the exact cost of its open
// units (`openCostPaise`, the sum of what they were bought or sold at). Adding to the position
// adds quantity x price to that cost. Reducing it by q of the N units held takes away
// round-half-up(openCost x q / N) of the cost; the realised P&L is the difference to what the q
// units were closed at. A fill through zero closes the whole position first (taking all of its
// cost away, so no rounding remains), then opens the rest at the fill price.
//
// Invariants (property-tested in positions.test.ts):
// - netQuantity is the signed sum of the fills, in any order;
// - the partial fills of an order that adds to the position give the same position in any order
//   (an order that reduces it: the same up to a paisa of rounding per fill; one that flips it:
//   which units closed the old position decides the realised part, as average cost does);
// - realised + unrealised at any mark = the fills' cash flow + netQuantity x mark, exactly and in
//   any order of the fills (the rounding only moves paise between realised and unrealised);
// - flat after a round trip: realised = what was sold for - what was bought for, exactly;
// - charges are kept apart from the gross P&L and never mixed into the average price.
//
// The positions table stores the rounded average price, not the exact cost, so the exact
// position is the fold of the fills in the order they were recorded (`positionFromFills`).
import { paise } from '@vyuha/core';
import type { Paise } from '@vyuha/core';
import type { OrderSide } from './order-state';

/** A net position in one contract. */
export interface NetPosition {
  /** Signed: above 0 long, below 0 short. */
  readonly netQuantity: number;
  /** Exact cost of the open units (0 when flat, never negative). */
  readonly openCostPaise: Paise;
  /** Gross P&L of the units closed so far. */
  readonly realisedPnlPaise: Paise;
  /** Charges of every fill so far, kept apart from the gross P&L. */
  readonly chargesPaise: Paise;
}

/** One fill as it moves a position. */
export interface PositionFill {
  readonly side: OrderSide;
  readonly quantity: number;
  readonly pricePaise: number;
  /** The fill's charges in paise (0 when not known yet). */
  readonly chargesPaise?: number;
}

export const FLAT_POSITION: NetPosition = { netQuantity: 0, openCostPaise: paise(0), realisedPnlPaise: paise(0), chargesPaise: paise(0) };

function wholeAbove(value: number, field: string, minimum: number): void {
  if (!Number.isSafeInteger(value) || value < minimum) throw new RangeError(`${field} must be a whole number of at least ${minimum}, got ${value}`);
}

/** round-half-up(cost x part / whole) for 0 < part <= whole, exactly (bigint: the product can pass 2^53). */
function proportionalCost(cost: number, part: number, whole: number): number {
  if (part === whole) return cost;
  const numerator = 2n * BigInt(cost) * BigInt(part) + BigInt(whole);
  return Number(numerator / (2n * BigInt(whole)));
}

/**
 * The position after a fill. Throws RangeError naming the field for a fill that is not whole
 * units at a whole, positive number of paise (the order state machine never lets one through).
 * @example applyFillToPosition(FLAT_POSITION, { side: 'BUY', quantity: 10, pricePaise: 10_000 }).openCostPaise // 100000
 */
export function applyFillToPosition(position: NetPosition, fill: PositionFill): NetPosition {
  wholeAbove(fill.quantity, 'quantity', 1);
  wholeAbove(fill.pricePaise, 'pricePaise', 1);
  const charges = fill.chargesPaise ?? 0;
  wholeAbove(charges, 'chargesPaise', 0);
  const direction = fill.side === 'BUY' ? 1 : -1;
  const held = Math.abs(position.netQuantity);
  const sameWay = position.netQuantity === 0 || Math.sign(position.netQuantity) === direction;
  const chargesPaise = paise(position.chargesPaise + charges);
  if (sameWay) {
    return {
      netQuantity: position.netQuantity + direction * fill.quantity,
      openCostPaise: paise(position.openCostPaise + fill.quantity * fill.pricePaise),
      realisedPnlPaise: position.realisedPnlPaise,
      chargesPaise,
    };
  }
  const closed = Math.min(held, fill.quantity);
  const costClosed = proportionalCost(position.openCostPaise, closed, held);
  // Closing a long sells the units: proceeds minus their cost. Closing a short buys them back.
  const proceeds = closed * fill.pricePaise;
  const realised = position.netQuantity > 0 ? proceeds - costClosed : costClosed - proceeds;
  const opened = fill.quantity - closed;
  return {
    netQuantity: position.netQuantity + direction * fill.quantity,
    openCostPaise: paise(position.openCostPaise - costClosed + opened * fill.pricePaise),
    realisedPnlPaise: paise(position.realisedPnlPaise + realised),
    chargesPaise,
  };
}

/** The position the fills make, applied in the order given (the order they were recorded). */
export function positionFromFills(fills: readonly PositionFill[], start: NetPosition = FLAT_POSITION): NetPosition {
  return fills.reduce(applyFillToPosition, start);
}

/**
 * The average price of the open units, rounded half up (what `positions.average_price_paise`
 * stores); 0 when flat, as the table requires.
 * @example averagePricePaise({ netQuantity: -3, openCostPaise: 10_001, ... }) // 3334
 */
export function averagePricePaise(position: NetPosition): Paise {
  const held = Math.abs(position.netQuantity);
  return held === 0 ? paise(0) : paise(proportionalCost(position.openCostPaise, 1, held));
}

/** The positions row of a position: `net_quantity`, `average_price_paise` (0 when flat), `realised_pnl_paise`. */
export function positionRowOf(position: NetPosition): { readonly netQuantity: number; readonly averagePricePaise: Paise; readonly realisedPnlPaise: Paise } {
  return { netQuantity: position.netQuantity, averagePricePaise: averagePricePaise(position), realisedPnlPaise: position.realisedPnlPaise };
}

/** Gross P&L of the open units at `markPricePaise`: what closing them there would realise. */
export function unrealisedPnlPaise(position: NetPosition, markPricePaise: number): Paise {
  wholeAbove(markPricePaise, 'markPricePaise', 0);
  const value = Math.abs(position.netQuantity) * markPricePaise;
  return paise(position.netQuantity >= 0 ? value - position.openCostPaise : position.openCostPaise - value);
}

/** P&L split the way the screens show it; net = realised + mark-to-market - charges. */
export interface PnlBreakdown {
  readonly realisedPaise: Paise;
  readonly markToMarketPaise: Paise;
  readonly chargesPaise: Paise;
  readonly netPaise: Paise;
}

/** P&L of a position from its first fill, with the open units marked at `markPricePaise`. */
export function positionPnl(position: NetPosition, markPricePaise: number): PnlBreakdown {
  const markToMarketPaise = unrealisedPnlPaise(position, markPricePaise);
  return {
    realisedPaise: position.realisedPnlPaise,
    markToMarketPaise,
    chargesPaise: position.chargesPaise,
    netPaise: paise(position.realisedPnlPaise + markToMarketPaise - position.chargesPaise),
  };
}

/** What one day's P&L is measured from: the position at the previous close and that close's price. */
export interface DayOpening {
  readonly position: NetPosition;
  /** The previous session's closing price of the contract (unused while the opening position is flat). */
  readonly markPricePaise: number;
}

/**
 * One day's P&L of a position (a `daily_pnl` row's contribution): the P&L from its first fill at
 * today's mark, minus the same at the previous close. Realised and charges are today's; the
 * mark-to-market part is the change in the open units' value, so a position carried overnight
 * counts only today's move.
 */
export function dayPnl(request: { readonly opening: DayOpening; readonly position: NetPosition; readonly markPricePaise: number }): PnlBreakdown {
  const now = positionPnl(request.position, request.markPricePaise);
  const before = positionPnl(request.opening.position, request.opening.markPricePaise);
  return {
    realisedPaise: paise(now.realisedPaise - before.realisedPaise),
    markToMarketPaise: paise(now.markToMarketPaise - before.markToMarketPaise),
    chargesPaise: paise(now.chargesPaise - before.chargesPaise),
    netPaise: paise(now.netPaise - before.netPaise),
  };
}
