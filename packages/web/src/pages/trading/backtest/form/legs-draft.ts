// The tradeInstrumentsConfig part of the backtest form (docs/PRODUCT.md section 3) as the form holds it: what
// is traded (the instrument itself, or option legs on an index) with every leg's controls as typed
// drafts. It maps to the engine's OptionsLegsConfig JSON and is validated by the engine's own
// parseOptionsLegsConfig, so the form and the server refuse the same configs with the same words.
import type { RequestIssue } from '@vyuha/engine';
import { OptionsLegsConfigError, parseOptionsLegsConfig } from '@vyuha/engine';
import type { ExpiryChoice } from '@vyuha/engine';
import { isOptionUnderlying, OPTION_UNDERLYINGS } from '@vyuha/market';

/** A number input's value: a number, or the text while it is empty or half typed ('', '1.', '-'). */
export type NumberDraft = number | string;

export type DistanceUnit = 'none' | 'points' | 'percent';

/** A stop, target or trailing distance: off, premium points or percent of the entry premium. */
export interface DistanceDraft {
  readonly unit: DistanceUnit;
  readonly value: NumberDraft;
}

export type StrikeBy = 'atm-offset' | 'premium' | 'delta';
export type ReEntryMode = 'none' | 'asap' | 'at-cost';

/** One option leg as the form edits it. */
export interface LegDraft {
  readonly option: 'CE' | 'PE';
  readonly side: 'buy' | 'sell';
  readonly strikeBy: StrikeBy;
  /** ATM offset in strike steps, premium in rupees, or absolute delta, as `strikeBy` says. */
  readonly strikeValue: NumberDraft;
  readonly expiry: ExpiryChoice;
  readonly lots: NumberDraft;
  readonly stopLoss: DistanceDraft;
  readonly target: DistanceDraft;
  readonly trailingStop: DistanceDraft;
  readonly reEntry: ReEntryMode;
  readonly reEntryTimes: NumberDraft;
}

export type TradeMode = 'instrument' | 'options';
export type LegSignal = 'onBuy' | 'onSell';

/** What a backtest trades; the option-legs fields are kept while trading the instrument, so switching back loses nothing. */
export interface TradeDraft {
  readonly mode: TradeMode;
  readonly onBuy: readonly LegDraft[];
  readonly onSell: readonly LegDraft[];
  readonly weeklyFallback: 'none' | 'monthly';
  readonly maxEntriesPerDay: NumberDraft;
  readonly dailyMaxLossRupees: NumberDraft;
  readonly dailyMaxProfitRupees: NumberDraft;
}

const NO_DISTANCE: DistanceDraft = { unit: 'none', value: '' };

/** A new leg: an ATM call bought at the current weekly expiry, one lot, no stops. */
export function newLeg(overrides: Partial<LegDraft> = {}): LegDraft {
  return {
    option: 'CE', side: 'buy', strikeBy: 'atm-offset', strikeValue: 0, expiry: 'current-weekly', lots: 1,
    stopLoss: NO_DISTANCE, target: NO_DISTANCE, trailingStop: NO_DISTANCE, reEntry: 'none', reEntryTimes: 1,
    ...overrides,
  };
}

/** The default: trade the instrument itself; the legs start as one bought ATM call per signal side. */
export function defaultTradeDraft(): TradeDraft {
  return {
    mode: 'instrument', onBuy: [newLeg()], onSell: [newLeg({ option: 'PE' })],
    weeklyFallback: 'none', maxEntriesPerDay: 1, dailyMaxLossRupees: '', dailyMaxProfitRupees: '',
  };
}

/**
 * A number input's value as sent: an empty input is absent (the engine then says "got nothing"),
 * half-typed text its number, unreadable text as it is (the engine names it).
 * @example numberOrAbsent('12.') // 12
 */
export function numberOrAbsent(value: NumberDraft): number | string | undefined {
  if (typeof value === 'number') return value;
  if (value.trim() === '') return undefined;
  const parsed = Number(value.replaceAll(',', ''));
  return Number.isFinite(parsed) ? parsed : value;
}

function distanceJson(distance: DistanceDraft): Record<string, number | string | undefined> | undefined {
  if (distance.unit === 'none') return undefined;
  return { [distance.unit]: numberOrAbsent(distance.value) };
}

function strikeJson(leg: LegDraft): Record<string, unknown> {
  const value = numberOrAbsent(leg.strikeValue);
  if (leg.strikeBy === 'atm-offset') return { by: 'atm-offset', steps: value };
  if (leg.strikeBy === 'premium') return { by: 'premium', rupees: value };
  return { by: 'delta', delta: value };
}

/** Drops undefined members, as JSON.stringify would, so the object is what the server receives. */
function defined(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

function legJson(leg: LegDraft): Record<string, unknown> {
  return defined({
    option: leg.option, side: leg.side, strike: strikeJson(leg), expiry: leg.expiry, lots: numberOrAbsent(leg.lots),
    stopLoss: distanceJson(leg.stopLoss), target: distanceJson(leg.target), trailingStop: distanceJson(leg.trailingStop),
    reEntry: leg.reEntry === 'none' ? undefined : { mode: leg.reEntry, maxTimes: numberOrAbsent(leg.reEntryTimes) },
  });
}

/**
 * The run_backtest `tradeInstrumentsConfig`: null to trade the instrument itself, else the
 * engine's OptionsLegsConfig JSON on `underlying` (the instrument's trading symbol).
 * @example tradeInstrumentsConfigOf(defaultTradeDraft(), 'NIFTY') // null
 */
export function tradeInstrumentsConfigOf(draft: TradeDraft, underlying: string): Record<string, unknown> | null {
  if (draft.mode === 'instrument') return null;
  return defined({
    underlying,
    onBuy: draft.onBuy.map(legJson),
    onSell: draft.onSell.map(legJson),
    weeklyFallback: draft.weeklyFallback,
    maxEntriesPerDay: numberOrAbsent(draft.maxEntriesPerDay),
    dailyMaxLossRupees: numberOrAbsent(draft.dailyMaxLossRupees),
    dailyMaxProfitRupees: numberOrAbsent(draft.dailyMaxProfitRupees),
  });
}

/** The form path of an options-legs field: the engine's `config` (the whole object) is the field itself. */
export function legsFieldPath(field: string): string {
  return field === 'config' || field === '' ? 'tradeInstrumentsConfig' : `tradeInstrumentsConfig.${field}`;
}

/**
 * The first problem of the option legs (the engine stops at the first bad field), at its form
 * path, e.g. `tradeInstrumentsConfig.onBuy[0].lots`; none while trading the instrument itself.
 */
export function legsIssues(draft: TradeDraft, underlying: string | undefined): RequestIssue[] {
  if (draft.mode === 'instrument' || underlying === undefined) return [];
  if (!isOptionUnderlying(underlying)) {
    return [{ path: 'tradeInstrumentsConfig', message: `option legs need an index with listed options (${OPTION_UNDERLYINGS.join(', ')}); ${underlying} has none` }];
  }
  try {
    parseOptionsLegsConfig(tradeInstrumentsConfigOf(draft, underlying));
    return [];
  } catch (error) {
    if (!(error instanceof OptionsLegsConfigError)) throw error;
    return [{ path: legsFieldPath(error.field), message: error.message.slice(error.field.length + 2) }];
  }
}
