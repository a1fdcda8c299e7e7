// Choosing the contract of a leg when its entry order is placed: expiry from the calendar on the
// trade date, strike from the underlying's price at that moment (the signal bar's close for a
// next-open fill, which is when a live system would build the order), size from the lot on that
// date. Allocates only here, once per entry.
import type { IsoDate } from '@vyuha/core';
import { buildTradingSymbol } from '@vyuha/market';
import type { LegConfig, OptionsLegsConfig } from './config';
import { OptionsLegsConfigError } from './config';
import { ExpiryLookup, legExpiry } from './expiry-selection';
import type { BarPoint, LegPricer, PricedContract } from './leg-pricing';
import { legSizing } from './order-sizing';
import type { LegSizing } from './order-sizing';
import { selectStrike } from './strike-selection';

/** One leg template of the config, with the path that names it in errors (`onBuy[1]`). */
export interface LegTemplate {
  readonly leg: LegConfig;
  readonly field: string;
}

/** A contract chosen for a leg, with its size. */
export interface ChosenLeg {
  readonly contract: PricedContract;
  readonly sizing: LegSizing;
  readonly expiry: IsoDate;
}

/** Where and when the contract is chosen. */
export interface EntryMoment {
  readonly barIndex: number;
  readonly point: BarPoint;
  readonly date: IsoDate;
  /** Keep this expiry instead of asking the calendar (a re-entry stays in its first leg's expiry). */
  readonly expiry?: IsoDate;
}

/** Calendar answers kept for the whole run: the calendar window and each expiry's symbol prefix. */
export class ContractCache {
  readonly expiries = new ExpiryLookup();
  private readonly prefixes = new Map<string, string>();

  /** The Kite trading symbol; the calendar is asked once per expiry (weekly or monthly form). */
  tradingSymbol(contract: { readonly underlying: OptionsLegsConfig['underlying']; readonly expiry: IsoDate; readonly strike: number; readonly option: 'CE' | 'PE' }): string {
    const key = `${contract.underlying}|${contract.expiry}`;
    let prefix = this.prefixes.get(key);
    if (prefix === undefined) {
      const symbol = buildTradingSymbol({ kind: 'option', underlying: contract.underlying, expiry: contract.expiry, strike: contract.strike, optionType: contract.option });
      // Symbol = prefix + strike + CE|PE, whatever the expiry's form.
      prefix = symbol.slice(0, symbol.length - String(contract.strike).length - 2);
      this.prefixes.set(key, prefix);
    }
    return `${prefix}${contract.strike}${contract.option}`;
  }
}

/** The contract of a leg at an entry moment; undefined when no strike has a price (premium/delta rules). */
export function chooseLeg(request: { readonly config: OptionsLegsConfig; readonly template: LegTemplate; readonly pricer: LegPricer; readonly cache: ContractCache }, moment: EntryMoment): ChosenLeg | undefined {
  const { config, template, pricer, cache } = request;
  const { leg } = template;
  const expiry = moment.expiry ?? legExpiry({
    underlying: config.underlying, tradeDate: moment.date, choice: leg.expiry, weeklyFallback: config.weeklyFallback, field: `${template.field}.expiry`, lookup: cache.expiries,
  });
  const bars = pricer.market.bars;
  const spot = (moment.point === 'open' ? bars.open : bars.close)[moment.barIndex] as number;
  const contractOf = (strike: number): PricedContract => pricer.price({
    tradingSymbol: cache.tradingSymbol({ underlying: config.underlying, expiry, strike, option: leg.option }),
    strike, expiry, option: leg.option,
  });
  const at = { barIndex: moment.barIndex, point: moment.point };
  const strike = selectStrike({
    underlying: config.underlying, spot, rule: leg.strike,
    premiumOf: (candidate) => {
      const premium = pricer.premiumAt(contractOf(candidate), at);
      return premium === undefined ? undefined : premium / 100;
    },
    deltaOf: (candidate) => pricer.absoluteDeltaAt(contractOf(candidate), at),
  });
  if (strike === undefined) return undefined;
  try {
    return { contract: contractOf(strike), sizing: legSizing({ underlying: config.underlying, tradeDate: moment.date, expiry, lots: leg.lots }), expiry };
  } catch (error) {
    // Too many lots for 10 slices, or no lot known for the date: the config cannot run then.
    if (error instanceof RangeError) throw new OptionsLegsConfigError(`${template.field}.lots`, error.message);
    throw error;
  }
}
