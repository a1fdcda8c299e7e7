// A leg still open at its expiry's close settles at intrinsic value against the index's close
// on the expiry day (the last bar's close: NSE and BSE settle index options on the index's
// closing value). In the money: an `exercise` (the long's closing side is a sell and pays
// exercise STT on the intrinsic value; the assigned short's is a buy); out of the money:
// `expire-worthless`, charged nothing. Nothing rolls: a swing strategy that wants the next
// expiry must enter again.
//
// The kernel's Ledger prices every fill with the run's per-trade charge model, which has no
// exercise or worthless-expiry event, and its ExitReason has no 'expiry'. Until it does, the
// settlement is written here: the order and the fill go into the ledger's lists, cash moves by
// the settlement value and its exercise charges, the round trip is recorded with exit reason
// 'square-off', and the settlement itself is returned (the trader keeps the list). The day row's
// charge and order counters are private to the Ledger, so that day's `charges` column misses
// these charges (its `net` is right: it is the change in equity).
import { paise } from '@vyuha/core';
import type { IsoDate, Paise } from '@vyuha/core';
import { chargesFor, derivativesExchangeOf } from '@vyuha/market';
import type { ChargeComponents, ChargeEvent, OptionUnderlying, TradeSide } from '@vyuha/market';
import type { ChargesConfig } from '../kernel/charges-model';
import type { Ledger, LedgerFill } from '../kernel/ledger';
import type { LegContract } from './leg-pricing';

/** How one leg settled at expiry. */
export interface ExpirySettlement {
  readonly tradingSymbol: string;
  readonly date: IsoDate;
  readonly event: Exclude<ChargeEvent, 'trade'>;
  /** The index close the leg settled against, rupees. */
  readonly settlementSpot: number;
  /** Intrinsic value per unit, paise. */
  readonly intrinsic: Paise;
  readonly quantity: number;
  readonly charges: Paise;
}

/** The exercise (or worthless expiry) is not an executed order: the ledger records it under this exit reason until ExitReason has 'expiry'. */
export const SETTLEMENT_EXIT_REASON = 'square-off';

const NO_CHARGES: ChargeComponents = {
  brokerage: paise(0), stt: paise(0), exchangeTransaction: paise(0), investorProtection: paise(0), sebiFee: paise(0), stampDuty: paise(0), gst: paise(0),
};

/**
 * Intrinsic value per unit in paise of a CE or PE at an index level (rupees).
 * @example intrinsicPaise({ option: 'CE', strike: 24_000 }, 24_123.45) // 12345
 */
export function intrinsicPaise(contract: { readonly option: 'CE' | 'PE'; readonly strike: number }, spot: number): Paise {
  const value = contract.option === 'CE' ? spot - contract.strike : contract.strike - spot;
  return paise(Math.max(0, Math.round(value * 100)));
}

/** Settles the slices of one leg at expiry in the ledger; returns what happened. */
export function settleAtExpiry(
  run: { readonly ledger: Ledger; readonly charges: ChargesConfig; readonly underlying: OptionUnderlying },
  leg: { readonly contract: LegContract; readonly direction: 1 | -1; readonly entries: readonly LedgerFill[]; readonly index: number; readonly time: number; readonly settlementSpot: number; readonly date: IsoDate },
): ExpirySettlement {
  const intrinsic = intrinsicPaise(leg.contract, leg.settlementSpot);
  const event = intrinsic > 0 ? 'exercise' : 'expire-worthless';
  const side: TradeSide = leg.direction === 1 ? 'sell' : 'buy';
  let chargesTotal = 0;
  let quantity = 0;
  for (const entry of leg.entries) {
    const components = settlementCharges(run, { date: leg.date, side, quantity: entry.quantity, event, intrinsic });
    const total = Object.values(components).reduce((sum: number, value: number) => sum + value, 0);
    const order = run.ledger.place({ instrument: leg.contract.tradingSymbol, side, quantity: entry.quantity, reason: SETTLEMENT_EXIT_REASON, index: leg.index, time: leg.time });
    order.status = 'filled';
    const fill: LedgerFill = {
      orderId: order.id, instrument: order.instrument, index: leg.index, time: leg.time, date: leg.date, side, quantity: entry.quantity,
      price: intrinsic, charges: components, chargesTotal: paise(total), reason: SETTLEMENT_EXIT_REASON,
    };
    run.ledger.fills.push(fill);
    const value = intrinsic * entry.quantity;
    run.ledger.cash += side === 'sell' ? value - total : -value - total;
    run.ledger.recordTrade(entry, fill);
    chargesTotal += total;
    quantity += entry.quantity;
  }
  return { tradingSymbol: leg.contract.tradingSymbol, date: leg.date, event, settlementSpot: leg.settlementSpot, intrinsic, quantity, charges: paise(chargesTotal) };
}

function settlementCharges(
  run: { readonly charges: ChargesConfig; readonly underlying: OptionUnderlying },
  request: { date: IsoDate; side: TradeSide; quantity: number; event: Exclude<ChargeEvent, 'trade'>; intrinsic: Paise },
): ChargeComponents {
  if (run.charges.kind === 'none' || request.event === 'expire-worthless') return NO_CHARGES;
  return chargesFor({
    date: request.date, exchange: derivativesExchangeOf(run.underlying), instrument: 'option', side: request.side, price: paise(0),
    quantity: request.quantity, event: request.event, settlementPrice: request.intrinsic,
    ...(run.charges.brokerage === undefined ? {} : { brokerage: run.charges.brokerage }),
  }).components;
}
