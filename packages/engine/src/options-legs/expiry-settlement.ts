// A leg still open at its expiry's close settles at intrinsic value against the index's close
// on the expiry day (the last bar's close: NSE and BSE settle index options on the index's
// closing value). In the money: an `exercise` (the long's closing side is a sell and pays
// exercise STT on the intrinsic value; the assigned short's is a buy); out of the money:
// `expire-worthless`, charged nothing. Nothing rolls: a swing strategy that wants the next
// expiry must enter again.
//
// Each slice is an order with exit reason `expiry`, settled through `Ledger.settle`: the run's
// charge model prices the event, and the day's charges and orders columns count it.
import { paise, rupeesToPaise } from '@vyuha/core';
import type { IsoDate, Paise } from '@vyuha/core';
import type { ChargeEvent, TradeSide } from '@vyuha/market';
import type { FillId, Ledger } from '../kernel/ledger';
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

/**
 * Intrinsic value per unit in paise of a CE or PE at an index level (rupees).
 * @example intrinsicPaise({ option: 'CE', strike: 24_000 }, 24_123.45) // 12345
 */
export function intrinsicPaise(contract: { readonly option: 'CE' | 'PE'; readonly strike: number }, spot: number): Paise {
  const value = contract.option === 'CE' ? spot - contract.strike : contract.strike - spot;
  return paise(Math.max(0, rupeesToPaise(value)));
}

/** Settles the slices of one leg at expiry in the ledger (one `expiry` order per slice); returns what happened. */
export function settleAtExpiry(
  run: { readonly ledger: Ledger },
  leg: { readonly contract: LegContract; readonly direction: 1 | -1; readonly entries: readonly FillId[]; readonly index: number; readonly time: number; readonly settlementSpot: number; readonly date: IsoDate },
): ExpirySettlement {
  const intrinsic = intrinsicPaise(leg.contract, leg.settlementSpot);
  const event = intrinsic > 0 ? 'exercise' : 'expire-worthless';
  const side: TradeSide = leg.direction === 1 ? 'sell' : 'buy';
  let chargesTotal = 0;
  let quantity = 0;
  for (const entry of leg.entries) {
    const entryQuantity = run.ledger.fillQuantity(entry);
    const order = run.ledger.place({ instrument: leg.contract.tradingSymbol, side, quantity: entryQuantity, reason: 'expiry', index: leg.index, time: leg.time });
    const fill = run.ledger.settle(order, { event, settlementPrice: intrinsic, index: leg.index, time: leg.time, date: leg.date, instrument: 'option' });
    run.ledger.recordTrade(entry, fill);
    chargesTotal += run.ledger.fillChargesTotal(fill);
    quantity += entryQuantity;
  }
  return { tradingSymbol: leg.contract.tradingSymbol, date: leg.date, event, settlementSpot: leg.settlementSpot, intrinsic, quantity, charges: paise(chargesTotal) };
}
