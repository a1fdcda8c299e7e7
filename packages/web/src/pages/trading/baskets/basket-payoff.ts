// The payoff preview of a basket's option legs: the legs of one index and expiry (the first option
// leg's; futures of that index and expiry join them) as the engine's payoff legs, at the prices the
// preview gives, and the engine's payoff module over them: the curve at expiry and today (Black-76
// on each leg's implied volatility, the synthetic chain's), break-evens, max profit and loss.
// Nothing is priced here: every number is the engine's.
import { breakevens, payoffCurve, profitAndLossBounds, SYNTHETIC_RATE } from '@vyuha/engine';
import type { PayoffLeg, PayoffPoint, ProfitAndLossBounds } from '@vyuha/engine';

/** What the preview answers for a leg (preview_basket's basket_leg_preview). */
export interface PreviewLeg {
  readonly index: number;
  readonly symbol: string;
  readonly kind: string;
  readonly side: string;
  readonly lot_size: number;
  readonly quantity: number;
  readonly price_paise: number;
  readonly price_source: string;
  readonly implied_volatility: number | null;
  readonly value_paise: number;
  readonly charges_paise: number;
  readonly expiry: string | null;
  readonly strike: number | null;
  readonly option_type: string | null;
  readonly underlying: string | null;
  readonly underlying_price_paise: number | null;
}

export interface BasketPayoff {
  readonly underlying: string;
  readonly expiry: string;
  /** The index's level the legs were priced at, rupees. */
  readonly spot: number;
  /** Which basket legs (their index) the payoff holds. */
  readonly legIndexes: readonly number[];
  readonly points: readonly PayoffPoint[];
  readonly breakevens: readonly number[];
  readonly bounds: ProfitAndLossBounds;
}

/** How far either side of the spot the curve reaches. */
const RANGE = 0.1;
const STEPS = 200;

/** The engine's payoff leg of a previewed leg (units signed by side, rupees). */
function payoffLegOf(leg: PreviewLeg): PayoffLeg {
  const quantity = leg.side === 'BUY' ? leg.quantity : -leg.quantity;
  const entryPrice = leg.price_paise / 100;
  if (leg.kind === 'future') return { kind: 'future', expiry: leg.expiry ?? '', quantity, entryPrice };
  return {
    kind: 'option', optionType: leg.option_type === 'PE' ? 'PE' : 'CE', strike: leg.strike ?? 0, expiry: leg.expiry ?? '', quantity, entryPrice,
    ...(leg.implied_volatility === null ? {} : { iv: leg.implied_volatility }),
  };
}

/**
 * The payoff of the basket's first option leg's index and expiry at `nowMs`, or undefined when the
 * basket has no option leg.
 * @example basketPayoff(preview.legs, Date.now())?.breakevens // [23810.5, 24189.5]
 */
export function basketPayoff(legs: readonly PreviewLeg[], nowMs: number): BasketPayoff | undefined {
  const first = legs.find((leg) => leg.kind === 'option' && leg.underlying !== null && leg.expiry !== null && leg.underlying_price_paise !== null);
  if (first === undefined) return undefined;
  const group = legs.filter((leg) => (leg.kind === 'option' || leg.kind === 'future') && leg.underlying === first.underlying && leg.expiry === first.expiry);
  const payoffLegs = group.map(payoffLegOf);
  const spot = (first.underlying_price_paise ?? 0) / 100;
  const points = payoffCurve(payoffLegs, {
    from: Math.max(0, spot * (1 - RANGE)), to: spot * (1 + RANGE), steps: STEPS, market: { nowEpochMs: nowMs, rate: SYNTHETIC_RATE },
  });
  return {
    underlying: first.underlying ?? '', expiry: first.expiry ?? '', spot, legIndexes: group.map((leg) => leg.index), points,
    breakevens: breakevens(payoffLegs), bounds: profitAndLossBounds(payoffLegs),
  };
}
