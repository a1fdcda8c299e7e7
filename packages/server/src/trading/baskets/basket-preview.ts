// What placing a basket would cost, before it is placed: each leg's price, value and charges, and
// the margin the legs would hold.
// - Charges: the engine's charge model (chargeModelOf) on today's IST date for the leg's quantity
//   at its price, the same call the OMS makes for the leg's fill (oms/fill-ledger.ts), so a paper
//   fill at the previewed price is charged exactly this.
// - Margin: the engine's capital-requirement ESTIMATE (positionsRequirement), not the exchange's
//   SPAN: bought options need their premium; a sold option is valued after a 7% adverse move of
//   its index (at least 3% of the index) plus 2% exposure, a hedged spread at most its width;
//   futures need 9% of their value; equities their full value. The OMS's risk checks do not test
//   margin on paper (lots, freeze quantity, price band, daily loss and the kill switch are what
//   they test), so this figure informs; it refuses nothing.
import { istDate, paiseToRupees } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { chargeModelOf, positionsRequirement } from '@vyuha/engine';
import type { MarginLeg } from '@vyuha/engine';
import type { QuotedLeg } from './basket-quotes';

export interface LegPreview {
  readonly index: number;
  readonly symbol: string;
  readonly kind: QuotedLeg['kind'];
  readonly side: 'BUY' | 'SELL';
  readonly lotSize: number;
  readonly quantity: number;
  readonly pricePaise: number;
  readonly priceSource: string;
  readonly impliedVolatility: number | null;
  /** Price x quantity. */
  readonly valuePaise: number;
  readonly chargesPaise: number;
  readonly expiry: string | null;
  readonly strike: number | null;
  readonly optionType: 'CE' | 'PE' | null;
  readonly underlying: string | null;
  readonly underlyingPricePaise: number | null;
}

export interface BasketPreview {
  readonly tradeDate: IsoDate;
  readonly legs: readonly LegPreview[];
  readonly chargesPaise: number;
  readonly marginPaise: number;
}

function marginLegOf(leg: QuotedLeg): MarginLeg {
  const signed = leg.leg.side === 'BUY' ? leg.quantity : -leg.quantity;
  const price = paiseToRupees(leg.pricePaise as never);
  if (leg.kind === 'option' && leg.contract?.kind === 'option' && leg.underlying !== undefined) {
    return {
      kind: 'option', underlying: leg.underlying.symbol, optionType: leg.contract.optionType, strike: leg.contract.strike, expiry: leg.contract.expiry,
      quantity: signed, premium: price, underlyingPrice: paiseToRupees(leg.underlying.pricePaise as never),
    };
  }
  return { kind: leg.kind === 'future' ? 'future' : 'underlying', quantity: signed, price };
}

/** The charges of one leg filled at its price on `tradeDate` (the OMS's call for its fill). */
export function legChargesPaise(leg: QuotedLeg, tradeDate: IsoDate): number {
  return chargeModelOf(leg.charges)({ date: tradeDate, side: leg.leg.side === 'BUY' ? 'buy' : 'sell', price: leg.pricePaise as never, quantity: leg.quantity }).total;
}

/**
 * The preview of priced legs at `nowMs`.
 * @example previewBasket(legs, Date.now()).chargesPaise // the sum of each leg's charges
 */
export function previewBasket(legs: readonly QuotedLeg[], nowMs: number): BasketPreview {
  const tradeDate = istDate(nowMs);
  const previews = legs.map((leg): LegPreview => ({
    index: leg.index, symbol: leg.leg.symbol, kind: leg.kind, side: leg.leg.side, lotSize: leg.lotSize, quantity: leg.quantity,
    pricePaise: leg.pricePaise, priceSource: leg.priceSource, impliedVolatility: leg.impliedVolatility ?? null,
    valuePaise: leg.pricePaise * leg.quantity, chargesPaise: legChargesPaise(leg, tradeDate),
    expiry: leg.contract?.expiry ?? null, strike: leg.contract?.kind === 'option' ? leg.contract.strike : null,
    optionType: leg.contract?.kind === 'option' ? leg.contract.optionType : null, underlying: leg.underlying?.symbol ?? null,
    underlyingPricePaise: leg.underlying?.pricePaise ?? null,
  }));
  return {
    tradeDate, legs: previews, chargesPaise: previews.reduce((sum, leg) => sum + leg.chargesPaise, 0),
    marginPaise: positionsRequirement({ legs: legs.map(marginLegOf), tradeDate }),
  };
}
