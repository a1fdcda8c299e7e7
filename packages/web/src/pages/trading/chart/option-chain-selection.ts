// The option-chain instruments of docs/PRODUCT.md section 3 ("instrument_id and quantity; can be added,
// updated in quantity, or removed by instrument_id"): the contracts picked from the chart's option
// chain, per underlying, with signed quantities in units (buy positive, sell negative) that are
// whole lots. Pure list operations here; the zustand store at the bottom keeps one list per
// underlying in sessionStorage (docs/PRODUCT.md section 4: stores persist for the tab).
//
// Identity: the chain is priced by a model for every strike around ATM, and the instruments table
// need not hold a row for each of those contracts (the demo world holds none). So a selection is
// identified by its Kite trading symbol (unique on its derivatives exchange: the table's own
// UNIQUE (exchange, trading_symbol)), and carries `instrumentId` (instruments.instrument_id) when
// the row exists. Every operation takes a `SelectionRef`: a number matches `instrumentId`, as the
// spec asks; a string matches the trading symbol, which works whether or not the row exists.
//
// Adding a contract already selected adds to its quantity (a second Buy is one more lot; a Sell
// of a bought contract reduces it), as an order would; a sum of zero removes the contract.
import { paiseToRupees, type IsoDate } from '@vyuha/core';
import { netGreeks, SYNTHETIC_RATE, type NetGreeks, type PayoffPosition } from '@vyuha/engine';
import type { OptionType } from '@vyuha/market';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { resetOnSignOut } from '../../../stores/sign-out-resets';

export type OrderSide = 'Buy' | 'Sell';

/** One selected option contract. */
export interface SelectedOption {
  /** instruments.instrument_id of the contract; null when the table has no row for it. */
  readonly instrumentId: number | null;
  /** Kite trading symbol, e.g. NIFTY26N0524500CE: the selection's identity. */
  readonly tradingSymbol: string;
  readonly optionType: OptionType;
  /** Rupees. */
  readonly strike: number;
  readonly expiry: IsoDate;
  /** Units per lot (market lot rules for this expiry). */
  readonly lotSize: number;
  /** Signed units: buy positive, sell negative; a non-zero whole number of lots. */
  readonly quantity: number;
  /** The chain's LTP when last added, in paise; the entry price when no fresher quote is at hand. */
  readonly ltpPaise: number;
  /** The chain's implied vol when last added (annual decimal). */
  readonly iv: number;
}

/** A number is an instrument_id; a string is a trading symbol. */
export type SelectionRef = number | string;

export type SelectionResult = { readonly ok: true; readonly selection: SelectedOption[] } | { readonly ok: false; readonly message: string };

const matches = (item: SelectedOption, ref: SelectionRef): boolean =>
  typeof ref === 'number' ? item.instrumentId === ref : item.tradingSymbol === ref;

/** Why `quantity` is not a valid quantity for lots of `lotSize`, or undefined when it is. */
export function quantityProblem(quantity: number, lotSize: number): string | undefined {
  if (!Number.isInteger(lotSize) || lotSize <= 0) return `The lot size must be a positive whole number, got ${lotSize}`;
  if (!Number.isFinite(quantity)) return 'Quantity must be a number';
  if (quantity === 0) return 'Quantity must not be zero: remove the instrument instead';
  if (!Number.isInteger(quantity) || quantity % lotSize !== 0) return `Quantity ${quantity} is not a whole number of lots of ${lotSize}`;
  return undefined;
}

/** Signed units of `lots` lots on `side`. @example unitsOf({ side: 'Sell', lots: 2, lotSize: 65 }) // -130 */
export function unitsOf(order: { side: OrderSide; lots: number; lotSize: number }): number {
  return (order.side === 'Buy' ? 1 : -1) * order.lots * order.lotSize;
}

/**
 * Adds `option` (its quantity signed); a contract already selected gets the quantity added, and
 * goes when the sum is zero. Fresh quote fields (ltp, iv, instrumentId when known) replace the old.
 * @example addOption([], shortCe).selection.map((item) => item.quantity) // [-65]
 */
export function addOption(selection: readonly SelectedOption[], option: SelectedOption): SelectionResult {
  const problem = quantityProblem(option.quantity, option.lotSize);
  if (problem !== undefined) return { ok: false, message: problem };
  const index = selection.findIndex((item) => item.tradingSymbol === option.tradingSymbol);
  if (index < 0) return { ok: true, selection: [...selection, option] };
  const existing = selection[index] as SelectedOption;
  if (existing.lotSize !== option.lotSize) return { ok: false, message: `${option.tradingSymbol} is selected with lots of ${existing.lotSize}, not ${option.lotSize}` };
  const quantity = existing.quantity + option.quantity;
  if (quantity === 0) return { ok: true, selection: selection.filter((_, at) => at !== index) };
  const merged: SelectedOption = { ...option, instrumentId: option.instrumentId ?? existing.instrumentId, quantity };
  return { ok: true, selection: selection.map((item, at) => (at === index ? merged : item)) };
}

/** Sets the signed quantity (units) of the selected contract `ref`. */
export function updateQuantity(selection: readonly SelectedOption[], ref: SelectionRef, quantity: number): SelectionResult {
  const existing = selection.find((item) => matches(item, ref));
  if (existing === undefined) return { ok: false, message: `${String(ref)} is not selected` };
  const problem = quantityProblem(quantity, existing.lotSize);
  if (problem !== undefined) return { ok: false, message: problem };
  return { ok: true, selection: selection.map((item) => (item === existing ? { ...item, quantity } : item)) };
}

/** The selection without the contract `ref` (unchanged when it is not selected). */
export function removeOption(selection: readonly SelectedOption[], ref: SelectionRef): SelectedOption[] {
  return selection.filter((item) => !matches(item, ref));
}

/** Where each contract's entry price and vol come from: the chain's current quote when it has one. */
export type QuoteLookup = (item: SelectedOption) => { ltpPaise: number; iv: number } | undefined;

/** The selection as payoff positions of `indice` (docs/PRODUCT.md section 3), entry price in rupees = the LTP. */
export function toPayoffPositions(selection: readonly SelectedOption[], options: { indice: string; timestamp: number; quote?: QuoteLookup }): PayoffPosition[] {
  return selection.map((item) => {
    const quote = options.quote?.(item) ?? item;
    return {
      kind: 'option', optionType: item.optionType, strike: item.strike, expiry: item.expiry, quantity: item.quantity,
      entryPrice: paiseToRupees(quote.ltpPaise), iv: quote.iv, indice: options.indice, timestamp: options.timestamp,
    };
  });
}

/** Net greeks of the selection at the chain's moment and spot (the chain's own rate, no dividend yield). */
export function selectionGreeks(selection: readonly SelectedOption[], market: { at: number; spot: number; quote?: QuoteLookup }): NetGreeks | undefined {
  if (selection.length === 0) return undefined;
  const legs = toPayoffPositions(selection, { indice: '', timestamp: market.at, ...(market.quote === undefined ? {} : { quote: market.quote }) });
  return netGreeks(legs, { nowEpochMs: market.at, spot: market.spot, rate: SYNTHETIC_RATE });
}

export interface OptionSelectionState {
  /** Underlying (NIFTY, BANKNIFTY, ...) -> its selection. */
  readonly byUnderlying: Readonly<Record<string, readonly SelectedOption[]>>;
  /** Each returns the failure message, or undefined when applied. */
  add(underlying: string, option: SelectedOption): string | undefined;
  updateQuantity(underlying: string, ref: SelectionRef, quantity: number): string | undefined;
  remove(underlying: string, ref: SelectionRef): void;
}

export const OPTION_SELECTION_STORAGE_KEY = 'vyuha-option-chain-selection';

export const useOptionSelectionStore = create<OptionSelectionState>()(
  persist(
    (set, get) => {
      const apply = (underlying: string, result: SelectionResult): string | undefined => {
        if (!result.ok) return result.message;
        set({ byUnderlying: { ...get().byUnderlying, [underlying]: result.selection } });
        return undefined;
      };
      const current = (underlying: string): readonly SelectedOption[] => get().byUnderlying[underlying] ?? [];
      return {
        byUnderlying: {},
        add: (underlying, option) => apply(underlying, addOption(current(underlying), option)),
        updateQuantity: (underlying, ref, quantity) => apply(underlying, updateQuantity(current(underlying), ref, quantity)),
        remove: (underlying, ref) => {
          apply(underlying, { ok: true, selection: removeOption(current(underlying), ref) });
        },
      };
    },
    { name: OPTION_SELECTION_STORAGE_KEY, storage: createJSONStorage(() => sessionStorage), partialize: (state) => ({ byUnderlying: state.byUnderlying }) },
  ),
);

resetOnSignOut(() => useOptionSelectionStore.setState({ byUnderlying: {} }));
