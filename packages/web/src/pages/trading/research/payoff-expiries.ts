// The payoff form's expiries and lot size, as pure functions: the listed expiries (fno_expiries,
// filled by bhavcopy imports) or, when none are listed, the exchange's expiry rules from
// @vyuha/market; the lot size in force; and the note the form shows about where the expiries come
// from. The note never says "no expiries" while the form offers one.
import { addDays, type IsoDate } from '@vyuha/core';
import { expiriesBetween, isOptionUnderlying, lotSize } from '@vyuha/market';

export interface ExpiryOption {
  readonly date: string;
  readonly kind: string;
}

/** How far ahead the rule-based expiries reach when none are listed. */
export const RULE_EXPIRY_DAYS = 100;

/** Expiries from the exchange's rules in @vyuha/market, for an index with no listed expiries. */
export function ruleExpiries(symbol: string, today: IsoDate): ExpiryOption[] {
  if (!isOptionUnderlying(symbol)) return [];
  try {
    return expiriesBetween(symbol, today, addDays(today, RULE_EXPIRY_DAYS)).filter((expiry) => expiry.date >= today)
      .map((expiry) => ({ date: expiry.date, kind: expiry.kind }));
  } catch {
    return [];
  }
}

/** The lot size of `symbol`'s options on `expiry` as of `today`, or undefined when none is known. */
export function lotSizeOf(symbol: string, today: IsoDate, expiry: string | null): number | undefined {
  if (!isOptionUnderlying(symbol) || expiry === null) return undefined;
  try {
    return lotSize({ symbol, tradeDate: today, expiry: expiry as IsoDate });
  } catch {
    return undefined;
  }
}

export type ExpiryNote =
  | { readonly tone: 'info'; readonly text: string }
  | { readonly tone: 'warning'; readonly text: string };

/**
 * What the form says about the expiries it offers: where they come from when the rules supplied
 * them, that there are none when it offers none, nothing while they load or when they are listed.
 * @example expiryNote({ indexName: 'NIFTY 50', fromRules: true, offered: 3 }) // { tone: 'info', text: 'Expiries from the exchange's expiry rules: ...' }
 */
export function expiryNote(input: { readonly indexName: string; readonly fromRules: boolean; readonly offered: number }): ExpiryNote | undefined {
  if (input.offered === 0) {
    return input.fromRules ? { tone: 'warning', text: `No expiries are known for ${input.indexName}: none are listed and the expiry rules give none ahead.` } : undefined;
  }
  if (!input.fromRules) return undefined;
  return { tone: 'info', text: `Expiries from the exchange's expiry rules: none imported for ${input.indexName} yet (a bhavcopy import lists the traded ones).` };
}
