// How big a follower's entry is: the subscription's own sizing applied to the publisher's decision.
//
// - 'quantity': `quantity` units of an equity or an index, or `quantity` lots of a contract traded
//   in lots (a future or an option: the contract's lot size from the instruments row), whatever
//   the publisher's size.
// - 'investment': all-in with the subscriber's investment (docs/PRODUCT.md section 5: the latest
//   investment_history entry, else investment_amt), by the engine's own rules: an equity's all-in
//   quantity (engine `entryQuantity`, charges included), a future's most lots whose margin
//   estimate and charges fit (engine `futuresLotCost`, as the publisher's futures sizing), an
//   option's most lots whose premium and charges fit. The investment does not compound with the
//   follower's P&L: the subscriber states what they put in, and edits it to change it.
import { istDate, paise } from '@vyuha/core';
import { entryQuantity, futuresLotCost } from '@vyuha/engine';
import type { ChargeModel } from '@vyuha/engine';
import { isOptionUnderlying } from '@vyuha/market';

export type FollowSizing =
  | { readonly kind: 'quantity'; readonly quantity: number }
  | { readonly kind: 'investment'; readonly investmentPaise: number };

/** What sizing needs of the traded contract (the OMS's `OmsInstrument` has it). */
export interface SizedInstrument {
  readonly kind: 'index' | 'equity' | 'future' | 'option';
  readonly lotSize: number;
  readonly underlyingSymbol: string | null;
}

interface InvestmentEntry {
  readonly date: string;
  readonly amount_paise: number;
}

/**
 * A subscription's investment, paise: its latest investment_history entry (greatest date), else
 * investment_amt_paise (docs/PRODUCT.md section 5; the web's parts/investment.ts reads it the same way).
 * @example subscriptionInvestmentPaise({ investment_amt_paise: '100', investment_history: [{ date: '2026-01-02', amount_paise: 300 }] }) // 300
 */
export function subscriptionInvestmentPaise(row: { readonly investment_amt_paise: number | string; readonly investment_history: unknown }): number {
  const history = Array.isArray(row.investment_history) ? (row.investment_history as unknown[]).filter(isEntry) : [];
  let latest: InvestmentEntry | undefined;
  for (const entry of history) if (latest === undefined || entry.date > latest.date) latest = entry;
  return latest === undefined ? Number(row.investment_amt_paise) : latest.amount_paise;
}

function isEntry(value: unknown): value is InvestmentEntry {
  const entry = value as { date?: unknown; amount_paise?: unknown } | null;
  return typeof entry?.date === 'string' && typeof entry.amount_paise === 'number';
}

/** The sizing a subscription row asks for. */
export function followSizingOf(row: {
  readonly sizing: string; readonly quantity: number; readonly investment_amt_paise: number | string; readonly investment_history: unknown;
}): FollowSizing {
  return row.sizing === 'investment'
    ? { kind: 'investment', investmentPaise: subscriptionInvestmentPaise(row) }
    : { kind: 'quantity', quantity: row.quantity };
}

/**
 * Units of the follower's entry at `pricePaise`; 0 when the investment cannot buy one unit or lot
 * (then the follower sits the trade out).
 * @example followerQuantity({ sizing: { kind: 'quantity', quantity: 2 }, instrument: { kind: 'future', lotSize: 75, underlyingSymbol: 'NIFTY' }, ... }) // 150
 */
export function followerQuantity(request: {
  readonly sizing: FollowSizing;
  readonly instrument: SizedInstrument;
  readonly pricePaise: number;
  readonly side: 'buy' | 'sell';
  readonly atMs: number;
  readonly chargeModel: ChargeModel;
}): number {
  const { sizing, instrument, pricePaise, chargeModel } = request;
  const lotTraded = instrument.kind === 'future' || instrument.kind === 'option';
  if (sizing.kind === 'quantity') return lotTraded ? sizing.quantity * instrument.lotSize : sizing.quantity;
  const capital = sizing.investmentPaise;
  const date = istDate(request.atMs);
  if (!lotTraded) {
    return entryQuantity({ sizing: { kind: 'all-in' }, capital, price: pricePaise, side: request.side, date, chargeModel });
  }
  const lot = instrument.lotSize;
  const underlying = instrument.underlyingSymbol;
  // A future is paid for with its margin; an option with its premium.
  const perLot = instrument.kind === 'future' && underlying !== null && isOptionUnderlying(underlying)
    ? futuresLotCost({ underlying, date, price: pricePaise, chargeModel }).margin
    : pricePaise * lot;
  if (perLot <= 0) return 0;
  let lots = Math.floor(capital / perLot);
  const chargesOf = (units: number): number => chargeModel({ date, side: request.side, price: paise(pricePaise), quantity: units }).total;
  while (lots > 0 && lots * perLot + chargesOf(lots * lot) > capital) lots -= 1;
  return lots * lot;
}
