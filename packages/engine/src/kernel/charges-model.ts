// How a fill is charged. The kernel and every trader charge through one ChargeModel, built once
// per run from the config, so the same fill costs the same whichever trader made it.
//
// Charges are computed PER FILL with the market package's per-order functions (`chargesFor`,
// `equityIntradayChargesFor`, `equityDeliveryChargesFor`) on the fill's IST trade date. That is what lets a fill's cost show
// on the equity curve at once and all-in sizing bound it; the contract note's once-per-day STT
// rounding per contract (`chargesForDay`) is not applied, so a day with several fills of one
// contract can differ from the contract note by at most Rs 1 of STT per fill.
import { paise } from '@vyuha/core';
import type { IsoDate, Paise } from '@vyuha/core';
import { chargesFor, DEFAULT_BROKERAGE_PLAN, emptyChargesScratch, equityDeliveryChargesFor, equityIntradayChargesFor, tradeChargesInto } from '@vyuha/market';
import type { BrokeragePlan, ChargeComponents, ChargeEvent, TradeSide } from '@vyuha/market';

/** What is being charged: an index option, an index/stock future, or an intraday (MIS) or delivery (CNC) equity trade on NSE. */
export type ChargedInstrument = 'option' | 'future' | 'equity-intraday' | 'equity-delivery';

/** `none`: a frictionless run. `schedule`: the dated statutory schedule plus a brokerage plan (default Rs 20 per order). */
export type ChargesConfig =
  | { readonly kind: 'none' }
  | { readonly kind: 'schedule'; readonly exchange: 'NSE' | 'BSE'; readonly instrument: ChargedInstrument; readonly brokerage?: BrokeragePlan };

export interface FillChargeRequest {
  readonly date: IsoDate;
  readonly side: TradeSide;
  /** Paise per unit. */
  readonly price: Paise;
  readonly quantity: number;
  /** Defaults to the run's configured instrument; an options trader passes `option` for its legs. */
  readonly instrument?: ChargedInstrument | undefined;
  /** `trade` (default), or an option's settlement at expiry: `exercise` (charged on `settlementPrice`) or `expire-worthless` (nothing). */
  readonly event?: ChargeEvent | undefined;
  /** Paise per unit an exercised option settles at (its intrinsic value); required for `exercise`. */
  readonly settlementPrice?: Paise | undefined;
}

export interface FillCharges {
  readonly components: ChargeComponents;
  readonly total: Paise;
}

/**
 * A fill's charges. A model may answer every plain trade with the same object, its numbers
 * rewritten (a backtest charges every fill and makes no object for it): read what you need from
 * one answer before asking the model again.
 */
export type ChargeModel = (request: FillChargeRequest) => FillCharges;

const ZERO = paise(0);
const NO_CHARGES: FillCharges = {
  components: { brokerage: ZERO, stt: ZERO, exchangeTransaction: ZERO, investorProtection: ZERO, sebiFee: ZERO, stampDuty: ZERO, gst: ZERO },
  total: ZERO,
};

/**
 * The charge model of a config: zero for `none`, the dated schedule on the fill's date otherwise.
 * @example chargeModelOf({ kind: 'none' })({ date, side: 'buy', price: paise(10_000), quantity: 1 }).total // 0
 */
export function chargeModelOf(config: ChargesConfig): ChargeModel {
  if (config.kind === 'none') return () => NO_CHARGES;
  const brokerage = config.brokerage === undefined ? {} : { brokerage: config.brokerage };
  // chargesFor's own default, named here so the per-fill input is one plain object (no spreads).
  const plan = config.brokerage ?? DEFAULT_BROKERAGE_PLAN;
  // A plain trade's input and answer, reused from fill to fill (see ChargeModel).
  const trade = { date: '1970-01-01' as IsoDate, exchange: config.exchange, instrument: 'future' as 'option' | 'future', side: 'buy' as TradeSide, price: 0 as Paise, quantity: 0, brokerage: plan };
  const charged = emptyChargesScratch();
  return (request) => {
    const instrument = request.instrument ?? config.instrument;
    const event = request.event ?? 'trade';
    if (instrument === 'equity-intraday' || instrument === 'equity-delivery') {
      if (event !== 'trade') throw new RangeError(`event: ${event} applies to options only, not to an equity trade`);
      const order = { date: request.date, side: request.side, price: request.price, quantity: request.quantity, exchange: 'NSE' as const, ...brokerage };
      const charges = instrument === 'equity-intraday' ? equityIntradayChargesFor(order) : equityDeliveryChargesFor(order);
      return { components: charges.components, total: charges.total };
    }
    const { date, side, price, quantity } = request;
    if (event === 'trade') {
      trade.date = date;
      trade.instrument = instrument;
      trade.side = side;
      trade.price = price;
      trade.quantity = quantity;
      // chargesFor for what cannot be computed in place: it names a bad field, or needs bigint.
      return tradeChargesInto(trade, charged) ? charged : chargesFor(trade);
    }
    // The breakdown as it is (its components and total are a FillCharges).
    return chargesFor({
      date, exchange: config.exchange, instrument, side, price, quantity, brokerage: plan, event,
      ...(request.settlementPrice === undefined ? {} : { settlementPrice: request.settlementPrice }),
    });
  };
}
