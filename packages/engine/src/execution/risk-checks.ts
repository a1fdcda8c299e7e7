// The checks an order passes before it is written and sent (ARCHITECTURE.md, "The life of a live
// order"). Each refusal has a stable code (for the audit log and the API) and a sentence for the
// user; every check runs, so the user sees all the reasons at once.
//
// The rules (execution/README.md has the reasoning):
// - kill switches: the administrators' global one and the user's own refuse every order except a
//   square-off that only reduces the position;
// - whole lots: the quantity is a multiple of the lot in force for the contract (the market
//   package's dated lot schedule, or an explicit lot for contracts outside it);
// - freeze quantity: an order above the freeze quantity is sliced by the market package's
//   `sliceOrder` (as the option legs' sizing does) into at most 10 orders, else refused;
// - price band: a LIMIT or SL price and an SL or SL-M trigger lie inside the band (the venue's
//   circuit limits when it publishes them, else `priceBandAround` the last price);
// - daily max loss, per strategy and per user: at or past the loss, only orders that reduce the
//   position leave.
import { err, ok } from '@vyuha/core';
import type { Result } from '@vyuha/core';
import { freezeQuantity, lotSize, MAX_ORDER_SLICES, maxOrderQuantity, sliceOrder } from '@vyuha/market';
import type { ContractOnDate } from '@vyuha/market';
import type { OmsOrderType, OrderSide } from './order-state';

export type RiskRefusalCode =
  | 'kill-switch-global' | 'kill-switch-user' | 'invalid-quantity' | 'not-whole-lots' | 'too-many-slices' | 'lot-unknown'
  | 'no-price-band' | 'price-outside-band' | 'trigger-outside-band' | 'strategy-daily-loss' | 'user-daily-loss' | 'square-off-not-reducing';

/** Why an order may not leave: a stable code and a sentence for the user. */
export interface RiskRefusal {
  readonly code: RiskRefusalCode;
  readonly message: string;
}

/** Prices an order may carry, both ends included. */
export interface PriceBand {
  readonly lowerPaise: number;
  readonly upperPaise: number;
}

/** The default band around the last price: 20% either side ... */
export const DEFAULT_PRICE_BAND_BASIS_POINTS = 2_000;
/** ... but never narrower than Rs 5 either side, so a cheap option can still be priced. */
export const DEFAULT_MINIMUM_BAND_PAISE = 500;

/**
 * The band a fat-fingered price is refused outside: the reference (last traded) price plus or
 * minus `basisPoints` of it, at least `minimumPaise` either side, never below 1 paisa.
 * @example priceBandAround({ referencePricePaise: 10_000 }) // { lowerPaise: 8000, upperPaise: 12000 }
 */
export function priceBandAround(request: {
  readonly referencePricePaise: number;
  readonly basisPoints?: number;
  readonly minimumPaise?: number;
}): PriceBand {
  const reference = request.referencePricePaise;
  const basisPoints = request.basisPoints ?? DEFAULT_PRICE_BAND_BASIS_POINTS;
  const minimum = request.minimumPaise ?? DEFAULT_MINIMUM_BAND_PAISE;
  if (!Number.isSafeInteger(reference) || reference <= 0) throw new RangeError(`referencePricePaise must be whole paise above 0, got ${reference}`);
  if (!Number.isSafeInteger(basisPoints) || basisPoints < 0) throw new RangeError(`basisPoints must be a whole number from 0, got ${basisPoints}`);
  if (!Number.isSafeInteger(minimum) || minimum < 0) throw new RangeError(`minimumPaise must be whole paise from 0, got ${minimum}`);
  const width = Math.max(Math.floor((reference * basisPoints) / 10_000), minimum);
  return { lowerPaise: Math.max(1, reference - width), upperPaise: reference + width };
}

/** Where the lot and the freeze quantity come from. */
export type LotRule =
  /** An index derivative: the market package's dated schedules for the contract. */
  | { readonly kind: 'contract'; readonly contract: ContractOnDate }
  /** Anything else (a stock: lot 1); without a freeze quantity the order goes out unsliced. */
  | { readonly kind: 'explicit'; readonly lotSize: number; readonly freezeQuantity?: number };

/** The order being checked. */
export interface RiskOrder {
  readonly side: OrderSide;
  readonly quantity: number;
  readonly orderType: OmsOrderType;
  readonly pricePaise?: number;
  readonly triggerPricePaise?: number;
  /** A square-off (the kill switch's, a stop of the strategy or the user's own): must only reduce the position. */
  readonly squareOff?: boolean;
}

/** What the checks need to know besides the order. */
export interface RiskContext {
  readonly lots: LotRule;
  /** Needed for LIMIT, SL and SL-M orders. */
  readonly priceBand?: PriceBand;
  /** The net position in the contract now (signed): an order that only reduces it is always allowed past the loss limits. */
  readonly positionQuantity: number;
  /** Today's realised + mark-to-market P&L of the strategy, and its daily max loss (a positive amount). */
  readonly strategyDayPnlPaise: number;
  readonly strategyMaxLossPaise?: number;
  /** The same for all the user's strategies together. */
  readonly userDayPnlPaise: number;
  readonly userMaxLossPaise?: number;
  readonly killSwitch: { readonly user: boolean; readonly global: boolean };
}

/** An order that may leave, as the orders to send. */
export interface RiskApproval {
  readonly lotSize: number;
  /** The child orders' quantities, largest first, adding up to the order's quantity. */
  readonly slices: readonly number[];
  /** False when no freeze quantity is known for the date: the order goes out as one. */
  readonly freezeKnown: boolean;
  /** True when the order only reduces the position. */
  readonly reducesOnly: boolean;
}

function rupees(amount: number): string {
  return `Rs ${(amount / 100).toFixed(2)}`;
}

function limitsOf(rule: LotRule): { lot: number; freeze: number | undefined } | RiskRefusal {
  try {
    if (rule.kind === 'explicit') {
      if (!Number.isSafeInteger(rule.lotSize) || rule.lotSize <= 0) throw new RangeError(`the lot size must be a whole number above 0, got ${rule.lotSize}`);
      return { lot: rule.lotSize, freeze: rule.freezeQuantity };
    }
    return { lot: lotSize(rule.contract), freeze: freezeQuantity(rule.contract.symbol, rule.contract.tradeDate) };
  } catch (error) {
    return { code: 'lot-unknown', message: `The order cannot be sized: ${(error as Error).message}.` };
  }
}

function sizing(order: RiskOrder, rule: LotRule): { approval: Omit<RiskApproval, 'reducesOnly'> } | RiskRefusal {
  if (!Number.isSafeInteger(order.quantity) || order.quantity <= 0) {
    return { code: 'invalid-quantity', message: `The quantity must be a whole number above 0, got ${order.quantity}.` };
  }
  const limits = limitsOf(rule);
  if ('code' in limits) return limits;
  if (order.quantity % limits.lot !== 0) {
    return { code: 'not-whole-lots', message: `The quantity ${order.quantity} is not a whole number of lots of ${limits.lot}.` };
  }
  if (limits.freeze === undefined) return { approval: { lotSize: limits.lot, slices: [order.quantity], freezeKnown: false } };
  const orderLimits = { lotSize: limits.lot, freezeQuantity: limits.freeze };
  let largest: number;
  try {
    largest = maxOrderQuantity(orderLimits);
  } catch (error) {
    return { code: 'lot-unknown', message: `The order cannot be sliced: ${(error as Error).message}.` };
  }
  if (order.quantity > largest * MAX_ORDER_SLICES) {
    return {
      code: 'too-many-slices',
      message: `The quantity ${order.quantity} needs more than ${MAX_ORDER_SLICES} orders of at most ${largest} `
        + `(the freeze quantity is ${limits.freeze}); the most one order can be is ${largest * MAX_ORDER_SLICES}.`,
    };
  }
  return { approval: { lotSize: limits.lot, slices: sliceOrder(order.quantity, orderLimits), freezeKnown: true } };
}

type BandCheck = { value: number | undefined; code: RiskRefusalCode; name: string };

function bandRefusals(order: RiskOrder, band: PriceBand | undefined): RiskRefusal[] {
  const checks: BandCheck[] = [];
  if (order.orderType === 'LIMIT' || order.orderType === 'SL') checks.push({ value: order.pricePaise, code: 'price-outside-band', name: 'price' });
  if (order.orderType === 'SL' || order.orderType === 'SL-M') checks.push({ value: order.triggerPricePaise, code: 'trigger-outside-band', name: 'trigger price' });
  return outsideBand(checks, band, `A ${order.orderType} order`);
}

/**
 * The price band on a modification of a working order: only the levels it sets are checked (moving
 * an SL order's trigger leaves its price as it was placed).
 * @example modifiedLevelRefusals({ triggerPricePaise: 7_000 }, { lowerPaise: 8_000, upperPaise: 12_000 }).map((r) => r.code) // ['trigger-outside-band']
 */
export function modifiedLevelRefusals(
  levels: { readonly pricePaise?: number; readonly triggerPricePaise?: number },
  band: PriceBand | undefined,
): RiskRefusal[] {
  const checks: BandCheck[] = [];
  if (levels.pricePaise !== undefined) checks.push({ value: levels.pricePaise, code: 'price-outside-band', name: 'price' });
  if (levels.triggerPricePaise !== undefined) checks.push({ value: levels.triggerPricePaise, code: 'trigger-outside-band', name: 'trigger price' });
  return outsideBand(checks, band, 'A modified order');
}

function outsideBand(checks: readonly BandCheck[], band: PriceBand | undefined, what: string): RiskRefusal[] {
  if (checks.length === 0) return [];
  if (band === undefined) return [{ code: 'no-price-band', message: `${what} needs a reference price to check its band; none is known yet.` }];
  return checks
    .filter(({ value }) => value === undefined || !Number.isSafeInteger(value) || value < band.lowerPaise || value > band.upperPaise)
    .map(({ value, code, name }) => ({
      code,
      message: `The ${name} ${value === undefined ? '(missing)' : rupees(value)} is outside the allowed band `
        + `${rupees(band.lowerPaise)} to ${rupees(band.upperPaise)}.`,
    }));
}

/** True when a fill of the whole order would only bring the position towards zero. */
function onlyReduces(order: RiskOrder, positionQuantity: number): boolean {
  const direction = order.side === 'BUY' ? 1 : -1;
  return positionQuantity !== 0 && Math.sign(positionQuantity) === -direction && order.quantity <= Math.abs(positionQuantity);
}

function lossRefusal(request: { dayPnl: number; maxLoss: number | undefined; code: RiskRefusalCode; who: string }): RiskRefusal | undefined {
  if (request.maxLoss === undefined || request.dayPnl > -request.maxLoss) return undefined;
  return {
    code: request.code,
    message: `${request.who} lost ${rupees(-request.dayPnl)} today, at or past the daily max loss of ${rupees(request.maxLoss)}; `
      + 'only orders that reduce a position may leave.',
  };
}

/**
 * Every check on an order before it is written: the slices to send, or every reason it may not leave.
 * @example checkOrderRisk({ side: 'BUY', quantity: 130, orderType: 'MARKET' }, context).value.slices // [130]
 */
export function checkOrderRisk(order: RiskOrder, context: RiskContext): Result<RiskApproval, readonly RiskRefusal[]> {
  const refusals: RiskRefusal[] = [];
  const reducesOnly = onlyReduces(order, context.positionQuantity);
  const exempt = order.squareOff === true && reducesOnly;
  if (order.squareOff === true && !reducesOnly) {
    refusals.push({
      code: 'square-off-not-reducing',
      message: `A square-off must only reduce the position of ${context.positionQuantity}; this ${order.side} of ${order.quantity} does not.`,
    });
  }
  if (context.killSwitch.global && !exempt) {
    refusals.push({ code: 'kill-switch-global', message: 'Trading is stopped for everyone by the administrators\' kill switch.' });
  }
  if (context.killSwitch.user && !exempt) {
    refusals.push({ code: 'kill-switch-user', message: 'Your kill switch is on: no new order leaves until you turn it off.' });
  }
  const sized = sizing(order, context.lots);
  if ('code' in sized) refusals.push(sized);
  refusals.push(...bandRefusals(order, context.priceBand));
  if (!reducesOnly) {
    const strategy = lossRefusal({
      dayPnl: context.strategyDayPnlPaise, maxLoss: context.strategyMaxLossPaise, code: 'strategy-daily-loss', who: 'This strategy has',
    });
    const user = lossRefusal({ dayPnl: context.userDayPnlPaise, maxLoss: context.userMaxLossPaise, code: 'user-daily-loss', who: 'You have' });
    if (strategy !== undefined) refusals.push(strategy);
    if (user !== undefined) refusals.push(user);
  }
  if (refusals.length > 0 || 'code' in sized) return err(refusals);
  return ok({ ...sized.approval, reducesOnly });
}

