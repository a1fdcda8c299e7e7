// Positions computed from the day's trades, and the stand-in's margin rule. Kite's real margins
// (SPAN + exposure) are not modelled; the rule is simple and written down so tests can do the sums:
//   - futures, and options sold short: quantity x reference price x the instrument's margin fraction
//     (default 0.15), where the reference is the order price for futures and the strike for options;
//   - options bought: the premium, quantity x price;
//   - equity bought: the full value, quantity x price; equity sold: nothing (holdings are not checked).
// Only the part of an order that opens or grows a position needs margin: a SELL against a long of the
// same product is free up to the long's size. Utilised margin = the margin of every open position (at
// its average price) + what working orders have blocked. Available = cash - utilised.
import type { StandInInstrument } from './instruments';
import { rupees } from './kite-format';

export type Side = 'BUY' | 'SELL';

export interface Trade {
  readonly tradeId: string;
  readonly orderId: string;
  readonly exchangeOrderId: string;
  readonly userId: string;
  readonly instrument: StandInInstrument;
  readonly product: string;
  readonly side: Side;
  readonly quantity: number;
  readonly pricePaise: number;
  readonly atMs: number;
  readonly orderTimestampMs: number;
}

const DEFAULT_FRACTION = 0.15;

/** Margin in paise (rounded up to the paisa) to hold `quantity` of `instrument` on `side` at `pricePaise`. */
export function marginFor(instrument: StandInInstrument, holding: { side: Side; quantity: number; pricePaise: number }): number {
  const { side, quantity, pricePaise } = holding;
  if (quantity <= 0) return 0;
  const fraction = instrument.marginFraction ?? DEFAULT_FRACTION;
  switch (instrument.instrumentType) {
    case 'FUT': return Math.ceil(quantity * pricePaise * fraction);
    case 'CE':
    case 'PE':
      return side === 'BUY' ? quantity * pricePaise : Math.ceil(quantity * (instrument.strikePaise ?? pricePaise) * fraction);
    case 'EQ': return side === 'BUY' ? quantity * pricePaise : 0;
  }
}

/** The quantity of an order that opens or grows a position, given the signed net quantity now held. */
export function openingQuantity(side: Side, quantity: number, netQuantity: number): number {
  const closing = side === 'BUY' ? Math.max(0, -netQuantity) : Math.max(0, netQuantity);
  return Math.max(0, quantity - closing);
}

export interface PositionSums {
  readonly instrument: StandInInstrument;
  readonly product: string;
  readonly buyQuantity: number;
  readonly buyValuePaise: number;
  readonly sellQuantity: number;
  readonly sellValuePaise: number;
}

/** Buy and sell totals per instrument and product, in the order positions were first opened. */
export function positionSums(trades: readonly Trade[]): PositionSums[] {
  const sums = new Map<string, { -readonly [K in keyof PositionSums]: PositionSums[K] }>();
  for (const trade of trades) {
    const key = `${trade.instrument.exchange}:${trade.instrument.tradingSymbol}:${trade.product}`;
    const entry = sums.get(key)
      ?? { instrument: trade.instrument, product: trade.product, buyQuantity: 0, buyValuePaise: 0, sellQuantity: 0, sellValuePaise: 0 };
    if (trade.side === 'BUY') {
      entry.buyQuantity += trade.quantity;
      entry.buyValuePaise += trade.quantity * trade.pricePaise;
    } else {
      entry.sellQuantity += trade.quantity;
      entry.sellValuePaise += trade.quantity * trade.pricePaise;
    }
    sums.set(key, entry);
  }
  return [...sums.values()];
}

export function netQuantity(sums: PositionSums): number {
  return sums.buyQuantity - sums.sellQuantity;
}

/** Average price of the open side (buy average when long, sell average when short, 0 when flat), in paise (may be fractional). */
export function averagePaise(sums: PositionSums): number {
  const net = netQuantity(sums);
  if (net > 0) return sums.buyValuePaise / sums.buyQuantity;
  if (net < 0) return sums.sellValuePaise / sums.sellQuantity;
  return 0;
}

/** Margin held by open positions. */
export function positionsMarginPaise(all: readonly PositionSums[]): number {
  return all.reduce((total, sums) => {
    const net = netQuantity(sums);
    const holding = { side: net > 0 ? 'BUY' as const : 'SELL' as const, quantity: Math.abs(net), pricePaise: Math.round(averagePaise(sums)) };
    return total + marginFor(sums.instrument, holding);
  }, 0);
}

/**
 * One row of GET /portfolio/positions. All positions are today's (the stand-in carries nothing
 * overnight), so `net` and `day` hold the same rows. P&L = sell value - buy value + net x last price;
 * realised = the matched quantity x (sell average - buy average); unrealised = the rest.
 */
export function positionJson(sums: PositionSums, last: { lastPaise: number; closePaise: number }): Record<string, unknown> {
  const net = netQuantity(sums);
  const buyAverage = sums.buyQuantity > 0 ? sums.buyValuePaise / sums.buyQuantity : 0;
  const sellAverage = sums.sellQuantity > 0 ? sums.sellValuePaise / sums.sellQuantity : 0;
  const pnlPaise = sums.sellValuePaise - sums.buyValuePaise + net * last.lastPaise;
  const realisedPaise = Math.min(sums.buyQuantity, sums.sellQuantity) * (sellAverage - buyAverage);
  return {
    tradingsymbol: sums.instrument.tradingSymbol, exchange: sums.instrument.exchange, instrument_token: sums.instrument.instrumentToken,
    product: sums.product, quantity: net, overnight_quantity: 0, multiplier: 1,
    average_price: rupees(averagePaise(sums)), close_price: rupees(last.closePaise), last_price: rupees(last.lastPaise),
    value: rupees(sums.sellValuePaise - sums.buyValuePaise), pnl: rupees(pnlPaise), m2m: rupees(pnlPaise),
    unrealised: rupees(pnlPaise - realisedPaise), realised: rupees(realisedPaise),
    buy_quantity: sums.buyQuantity, buy_price: rupees(buyAverage), buy_value: rupees(sums.buyValuePaise), buy_m2m: rupees(sums.buyValuePaise),
    sell_quantity: sums.sellQuantity, sell_price: rupees(sellAverage), sell_value: rupees(sums.sellValuePaise), sell_m2m: rupees(sums.sellValuePaise),
    day_buy_quantity: sums.buyQuantity, day_buy_price: rupees(buyAverage), day_buy_value: rupees(sums.buyValuePaise),
    day_sell_quantity: sums.sellQuantity, day_sell_price: rupees(sellAverage), day_sell_value: rupees(sums.sellValuePaise),
  };
}
