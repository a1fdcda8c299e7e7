// A basket's legs as the user writes them, checked before anything reads the database: each leg
// names its instrument by trading symbol, a side, a size (lots for a derivative, units for an
// equity: docs/MARKET-RULES.md, lots), an order type and the prices that type needs. A saved
// basket keeps them in `strategies.config.basket` (kind 'basket', migration 0004) with a version,
// so a later shape can read older rows.
//
// Every problem is a value naming the field (`legs[1].lots`), never a throw: a form places them.
import { err, ok } from '@vyuha/core';
import type { Result } from '@vyuha/core';
import { OMS_ORDER_TYPES } from '@vyuha/engine';
import type { OmsOrderType, OrderSide } from '@vyuha/engine';

/** Most legs one basket may hold (the order-rate rule allows 10 orders a second; a basket is one click). */
export const MAX_BASKET_LEGS = 10;
/** The product of every leg: intraday (MIS) or carried forward (NRML; an equity then goes as delivery, CNC). */
export const BASKET_PRODUCTS = ['MIS', 'NRML'] as const;
export type BasketProduct = (typeof BASKET_PRODUCTS)[number];

/** One leg as stored and as the API takes it (snake_case, prices in paise). */
export interface BasketLeg {
  readonly symbol: string;
  readonly side: OrderSide;
  /** Lots of a derivative (times its lot size on the trade date). */
  readonly lots?: number;
  /** Units of an equity. */
  readonly quantity?: number;
  readonly order_type: OmsOrderType;
  /** LIMIT and SL: the limit price, paise. */
  readonly price_paise?: number;
  /** SL and SL-M: the trigger price, paise. */
  readonly trigger_price_paise?: number;
}

/** A saved basket's document (strategies.config.basket). */
export interface BasketDocument {
  readonly version: 1;
  readonly product: BasketProduct;
  readonly legs: readonly BasketLeg[];
}

/** A field that is wrong, and why. */
export interface BasketIssue {
  readonly field: string;
  readonly code: string;
  readonly message: string;
}

/** A refusal before anything was written: every issue, each naming its field. */
export class BasketRefusal extends Error {
  constructor(readonly issues: readonly BasketIssue[]) {
    super(issues.map((issue) => issue.message).join('; '));
  }
}

function wholeAbove0(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** The issues of one leg's size and prices (its symbol is checked against the instruments later). */
function legIssues(raw: Readonly<Record<string, unknown>>, field: string): BasketIssue[] {
  const issues: BasketIssue[] = [];
  const issue = (name: string, code: string, message: string): void => {
    issues.push({ field: `${field}.${name}`, code, message });
  };
  if (typeof raw.symbol !== 'string' || raw.symbol.trim() === '') issue('symbol', 'required', 'name the instrument by its trading symbol');
  if (raw.side !== 'BUY' && raw.side !== 'SELL') issue('side', 'invalid', `side must be BUY or SELL, got ${JSON.stringify(raw.side)}`);
  const hasLots = present(raw.lots);
  const hasQuantity = present(raw.quantity);
  if (hasLots === hasQuantity) issue('lots', 'size', 'give either lots (a future or an option) or quantity (an equity), not both or neither');
  if (hasLots && !wholeAbove0(raw.lots)) issue('lots', 'invalid-quantity', `lots must be a whole number above 0, got ${JSON.stringify(raw.lots)}`);
  if (hasQuantity && !wholeAbove0(raw.quantity)) issue('quantity', 'invalid-quantity', `quantity must be a whole number above 0, got ${JSON.stringify(raw.quantity)}`);
  const type = raw.order_type;
  if (typeof type !== 'string' || !(OMS_ORDER_TYPES as readonly string[]).includes(type)) {
    issue('order_type', 'invalid', `order type must be one of ${OMS_ORDER_TYPES.join(', ')}, got ${JSON.stringify(type)}`);
    return issues;
  }
  const needsPrice = type === 'LIMIT' || type === 'SL';
  const needsTrigger = type === 'SL' || type === 'SL-M';
  if (needsPrice && !wholeAbove0(raw.price_paise)) issue('price_paise', 'required', `a ${type} order needs a price above 0 (paise)`);
  if (!needsPrice && present(raw.price_paise)) issue('price_paise', 'not-allowed', `a ${type} order takes no price`);
  if (needsTrigger && !wholeAbove0(raw.trigger_price_paise)) issue('trigger_price_paise', 'required', `a ${type} order needs a trigger price above 0 (paise)`);
  if (!needsTrigger && present(raw.trigger_price_paise)) issue('trigger_price_paise', 'not-allowed', `a ${type} order takes no trigger price`);
  return issues;
}

/**
 * The legs and product checked: every issue, or the document to store.
 * @example parseBasket({ product: 'MIS', legs: [{ symbol: 'NIFTY26JANFUT', side: 'BUY', lots: 0, order_type: 'MARKET' }] })
 *   // err([{ field: 'legs[0].lots', code: 'invalid-quantity', ... }])
 */
export function parseBasket(input: { readonly product: unknown; readonly legs: unknown }): Result<BasketDocument, BasketIssue[]> {
  const issues: BasketIssue[] = [];
  const product = input.product ?? 'MIS';
  if (product !== 'MIS' && product !== 'NRML') issues.push({ field: 'product', code: 'invalid', message: `product must be MIS or NRML, got ${JSON.stringify(product)}` });
  if (!Array.isArray(input.legs) || input.legs.length === 0) {
    issues.push({ field: 'legs', code: 'required', message: 'a basket needs at least one leg' });
    return err(issues);
  }
  if (input.legs.length > MAX_BASKET_LEGS) {
    issues.push({ field: 'legs', code: 'too-many', message: `a basket holds at most ${MAX_BASKET_LEGS} legs, got ${input.legs.length}` });
  }
  const legs: BasketLeg[] = [];
  input.legs.forEach((value: unknown, index) => {
    const field = `legs[${index}]`;
    if (typeof value !== 'object' || value === null) {
      issues.push({ field, code: 'invalid', message: 'a leg is an object' });
      return;
    }
    const raw = value as Readonly<Record<string, unknown>>;
    issues.push(...legIssues(raw, field));
    legs.push({
      symbol: typeof raw.symbol === 'string' ? raw.symbol.trim().toUpperCase() : '', side: raw.side as OrderSide, order_type: raw.order_type as OmsOrderType,
      ...(present(raw.lots) ? { lots: raw.lots as number } : {}),
      ...(present(raw.quantity) ? { quantity: raw.quantity as number } : {}),
      ...(present(raw.price_paise) ? { price_paise: raw.price_paise as number } : {}),
      ...(present(raw.trigger_price_paise) ? { trigger_price_paise: raw.trigger_price_paise as number } : {}),
    });
  });
  if (issues.length > 0) return err(issues);
  return ok({ version: 1, product: product as BasketProduct, legs });
}

/** The basket document of a strategy's config, or undefined when it holds none (or one of an unknown version). */
export function basketOfConfig(config: unknown): BasketDocument | undefined {
  const basket = (config as { basket?: unknown } | null)?.basket as Partial<BasketDocument> | undefined;
  if (basket?.version !== 1) return undefined;
  const parsed = parseBasket({ product: basket.product, legs: basket.legs });
  return parsed.ok ? parsed.value : undefined;
}
