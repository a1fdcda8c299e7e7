// The options-legs config (docs/PRODUCT.md section 3's tradeInstrumentsConfig): which option legs a signal on
// an index opens, how each leg picks its contract, and how legs and the day are protected.
// Decisions (also in the report):
// - A BUY signal opens `onBuy`, a SELL signal opens `onSell`. A short straddle at 09:20 is a rule
//   `time() >= "09:20"` wired to Buy with two `side: 'sell'` legs in `onBuy`: the signal's side
//   names the entry, the legs' sides name what is traded.
// - Percent stops and targets are of the leg's own entry premium; points are premium points.
// - Money limits are typed in rupees (as the form shows them) and converted to paise by the trader.
import { paiseToRupees, rupeesToPaise } from '@vyuha/core';
import { OPTION_UNDERLYINGS, isOptionUnderlying } from '@vyuha/market';
import type { OptionUnderlying } from '@vyuha/market';

/** Strike of a leg: n strike steps from the ATM strike, the strike whose premium is nearest, or whose |delta| is nearest. */
export type StrikeRule =
  | { readonly by: 'atm-offset'; readonly steps: number }
  | { readonly by: 'premium'; readonly rupees: number }
  | { readonly by: 'delta'; readonly delta: number };

/** Which expiry a leg trades, chosen from the expiry calendar on the entry date. */
export type ExpiryChoice = 'current-weekly' | 'next-weekly' | 'monthly';
export const EXPIRY_CHOICES: readonly ExpiryChoice[] = ['current-weekly', 'next-weekly', 'monthly'];

/** A distance in premium: index points (rupees per unit) or percent of the leg's entry premium. */
export type PremiumDistance = { readonly points: number } | { readonly percent: number };

/**
 * Re-entry after a stop, up to `maxTimes` times per entry signal. `asap`: a new leg at the next
 * bar's open, its strike chosen again by the leg's rule (same expiry). `at-cost`: the same
 * contract again, when its premium comes back to the first entry premium.
 */
export interface ReEntry {
  readonly mode: 'asap' | 'at-cost';
  readonly maxTimes: number;
}

/** One option leg that an entry signal opens. */
export interface LegConfig {
  readonly option: 'CE' | 'PE';
  readonly side: 'buy' | 'sell';
  readonly strike: StrikeRule;
  readonly expiry: ExpiryChoice;
  readonly lots: number;
  readonly stopLoss?: PremiumDistance;
  readonly target?: PremiumDistance;
  /** A stop that follows the best premium since entry at this distance (for a short: the lowest). */
  readonly trailingStop?: PremiumDistance;
  readonly reEntry?: ReEntry;
}

/** The whole options-legs config of a strategy. */
export interface OptionsLegsConfig {
  readonly underlying: OptionUnderlying;
  readonly onBuy: readonly LegConfig[];
  readonly onSell: readonly LegConfig[];
  /**
   * `none` (default): a weekly expiry asked for on a date the underlying lists no weeklies
   * (BANKNIFTY after 13-Nov-2024) stops the run with an error naming the leg; `monthly`: the
   * leg takes the current monthly instead.
   */
  readonly weeklyFallback: 'none' | 'monthly';
  /** Entry signals acted on per session (re-entries after a stop are not counted). Default 1. */
  readonly maxEntriesPerDay: number;
  /** Square off everything and stop entering for the day when the day's MTM falls to -this (rupees). */
  readonly dailyMaxLossRupees?: number;
  /** Square off everything and stop entering for the day when the day's MTM reaches this (rupees). */
  readonly dailyMaxProfitRupees?: number;
}

/** A config that cannot run; `field` is the path of the bad value, e.g. `onBuy[1].strike.steps`. */
export class OptionsLegsConfigError extends Error {
  override readonly name = 'OptionsLegsConfigError';
  readonly field: string;

  constructor(field: string, problem: string) {
    super(`${field}: ${problem}`);
    this.field = field;
  }
}

export const MAX_ATM_OFFSET_STEPS = 20;
export const MAX_LEGS_PER_SIGNAL = 8;
export const MAX_LOTS_PER_LEG = 500;
export const MAX_RE_ENTRIES = 20;
const MAX_PREMIUM_RUPEES = 100_000;
const MAX_POINTS = 100_000;
const MAX_PERCENT = 1_000;
const MAX_ENTRIES_PER_DAY = 100;

type Fields = Readonly<Record<string, unknown>>;

function record(value: unknown, field: string): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new OptionsLegsConfigError(field, `must be an object, got ${describe(value)}`);
  return value as Fields;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  return value === undefined ? 'nothing' : JSON.stringify(value);
}

function rejectUnknownKeys(fields: Fields, options: { field: string; allowed: readonly string[] }): void {
  for (const key of Object.keys(fields)) {
    if (!options.allowed.includes(key)) throw new OptionsLegsConfigError(`${options.field}.${key}`, `is not a known field (known: ${options.allowed.join(', ')})`);
  }
}

function oneOf<T extends string>(value: unknown, options: { field: string; allowed: readonly T[] }): T {
  if (typeof value === 'string' && (options.allowed as readonly string[]).includes(value)) return value as T;
  throw new OptionsLegsConfigError(options.field, `must be one of ${options.allowed.map((item) => `'${item}'`).join(', ')}, got ${describe(value)}`);
}

function wholeNumber(value: unknown, options: { field: string; min: number; max: number }): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < options.min || value > options.max) {
    throw new OptionsLegsConfigError(options.field, `must be a whole number between ${options.min} and ${options.max}, got ${describe(value)}`);
  }
  return value;
}

/** A number in (min, max]: strictly above `min`. */
function numberAbove(value: unknown, options: { field: string; min: number; max: number }): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= options.min || value > options.max) {
    throw new OptionsLegsConfigError(options.field, `must be a number above ${options.min} and at most ${options.max}, got ${describe(value)}`);
  }
  return value;
}

/** Rupee amounts and premium points are at most 2 decimals (paise), so they convert exactly. */
function rupees(value: unknown, options: { field: string; max: number }): number {
  const amount = numberAbove(value, { ...options, min: 0 });
  if (paiseToRupees(rupeesToPaise(amount)) !== amount) throw new OptionsLegsConfigError(options.field, `must have at most 2 decimals (whole paise), got ${amount}`);
  return amount;
}

function strikeRule(value: unknown, field: string): StrikeRule {
  const fields = record(value, field);
  const by = oneOf(fields.by, { field: `${field}.by`, allowed: ['atm-offset', 'premium', 'delta'] as const });
  if (by === 'atm-offset') {
    rejectUnknownKeys(fields, { field, allowed: ['by', 'steps'] });
    return { by, steps: wholeNumber(fields.steps, { field: `${field}.steps`, min: -MAX_ATM_OFFSET_STEPS, max: MAX_ATM_OFFSET_STEPS }) };
  }
  if (by === 'premium') {
    rejectUnknownKeys(fields, { field, allowed: ['by', 'rupees'] });
    return { by, rupees: rupees(fields.rupees, { field: `${field}.rupees`, max: MAX_PREMIUM_RUPEES }) };
  }
  rejectUnknownKeys(fields, { field, allowed: ['by', 'delta'] });
  const delta = fields.delta;
  if (typeof delta !== 'number' || !(delta > 0 && delta < 1)) {
    throw new OptionsLegsConfigError(`${field}.delta`, `must be an absolute delta between 0 and 1 (exclusive), e.g. 0.3; got ${describe(delta)}`);
  }
  return { by, delta };
}

function premiumDistance(value: unknown, options: { field: string; maxPercent: number }): PremiumDistance {
  const fields = record(value, options.field);
  const keys = Object.keys(fields);
  if (keys.length !== 1 || (keys[0] !== 'points' && keys[0] !== 'percent')) {
    throw new OptionsLegsConfigError(options.field, `must be exactly one of { points: n } or { percent: n }, got ${describe(value)}`);
  }
  if (keys[0] === 'points') return { points: rupees(fields.points, { field: `${options.field}.points`, max: MAX_POINTS }) };
  return { percent: numberAbove(fields.percent, { field: `${options.field}.percent`, min: 0, max: options.maxPercent }) };
}

function reEntry(value: unknown, field: string): ReEntry {
  const fields = record(value, field);
  rejectUnknownKeys(fields, { field, allowed: ['mode', 'maxTimes'] });
  return {
    mode: oneOf(fields.mode, { field: `${field}.mode`, allowed: ['asap', 'at-cost'] as const }),
    maxTimes: wholeNumber(fields.maxTimes, { field: `${field}.maxTimes`, min: 1, max: MAX_RE_ENTRIES }),
  };
}

const LEG_FIELDS = ['option', 'side', 'strike', 'expiry', 'lots', 'stopLoss', 'target', 'trailingStop', 'reEntry'] as const;

function leg(value: unknown, field: string): LegConfig {
  const fields = record(value, field);
  rejectUnknownKeys(fields, { field, allowed: LEG_FIELDS });
  const side = oneOf(fields.side, { field: `${field}.side`, allowed: ['buy', 'sell'] as const });
  const parsed: { -readonly [K in keyof LegConfig]: LegConfig[K] } = {
    option: oneOf(fields.option, { field: `${field}.option`, allowed: ['CE', 'PE'] as const }),
    side,
    strike: strikeRule(fields.strike, `${field}.strike`),
    expiry: oneOf(fields.expiry, { field: `${field}.expiry`, allowed: EXPIRY_CHOICES }),
    lots: wholeNumber(fields.lots, { field: `${field}.lots`, min: 1, max: MAX_LOTS_PER_LEG }),
  };
  // A long's stop and a short's target lie below the entry premium: 100% or more would be at or below zero.
  const belowEntryLimit = 99.99;
  if (fields.stopLoss !== undefined) parsed.stopLoss = premiumDistance(fields.stopLoss, { field: `${field}.stopLoss`, maxPercent: side === 'buy' ? belowEntryLimit : MAX_PERCENT });
  if (fields.target !== undefined) parsed.target = premiumDistance(fields.target, { field: `${field}.target`, maxPercent: side === 'sell' ? belowEntryLimit : MAX_PERCENT });
  if (fields.trailingStop !== undefined) parsed.trailingStop = premiumDistance(fields.trailingStop, { field: `${field}.trailingStop`, maxPercent: side === 'buy' ? belowEntryLimit : MAX_PERCENT });
  if (fields.reEntry !== undefined) {
    if (fields.stopLoss === undefined && fields.trailingStop === undefined) {
      throw new OptionsLegsConfigError(`${field}.reEntry`, 'needs a stopLoss or trailingStop: a leg re-enters only after its stop is hit');
    }
    parsed.reEntry = reEntry(fields.reEntry, `${field}.reEntry`);
  }
  return parsed;
}

function legs(value: unknown, field: string): readonly LegConfig[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new OptionsLegsConfigError(field, `must be a list of legs, got ${describe(value)}`);
  if (value.length > MAX_LEGS_PER_SIGNAL) throw new OptionsLegsConfigError(field, `must have at most ${MAX_LEGS_PER_SIGNAL} legs, got ${value.length}`);
  return value.map((item: unknown, index) => leg(item, `${field}[${index}]`));
}

const CONFIG_FIELDS = ['underlying', 'onBuy', 'onSell', 'weeklyFallback', 'maxEntriesPerDay', 'dailyMaxLossRupees', 'dailyMaxProfitRupees'] as const;

/**
 * Validates an options-legs config from JSON (a form, a file, the CLI), naming the first bad field.
 * @example parseOptionsLegsConfig({ underlying: 'NIFTY', onBuy: [{ option: 'CE', side: 'sell', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1 }] }).maxEntriesPerDay // 1
 */
export function parseOptionsLegsConfig(input: unknown): OptionsLegsConfig {
  const fields = record(input, 'config');
  for (const key of Object.keys(fields)) {
    if (!(CONFIG_FIELDS as readonly string[]).includes(key)) throw new OptionsLegsConfigError(key, `is not a known field (known: ${CONFIG_FIELDS.join(', ')})`);
  }
  if (typeof fields.underlying !== 'string' || !isOptionUnderlying(fields.underlying)) {
    throw new OptionsLegsConfigError('underlying', `must be an index with listed options (${OPTION_UNDERLYINGS.join(', ')}), got ${describe(fields.underlying)}`);
  }
  const config: { -readonly [K in keyof OptionsLegsConfig]: OptionsLegsConfig[K] } = {
    underlying: fields.underlying,
    onBuy: legs(fields.onBuy, 'onBuy'),
    onSell: legs(fields.onSell, 'onSell'),
    weeklyFallback: fields.weeklyFallback === undefined ? 'none' : oneOf(fields.weeklyFallback, { field: 'weeklyFallback', allowed: ['none', 'monthly'] as const }),
    maxEntriesPerDay: fields.maxEntriesPerDay === undefined ? 1 : wholeNumber(fields.maxEntriesPerDay, { field: 'maxEntriesPerDay', min: 1, max: MAX_ENTRIES_PER_DAY }),
  };
  if (config.onBuy.length + config.onSell.length === 0) throw new OptionsLegsConfigError('onBuy', 'at least one leg is needed in onBuy or onSell');
  if (fields.dailyMaxLossRupees !== undefined) config.dailyMaxLossRupees = rupees(fields.dailyMaxLossRupees, { field: 'dailyMaxLossRupees', max: 1e9 });
  if (fields.dailyMaxProfitRupees !== undefined) config.dailyMaxProfitRupees = rupees(fields.dailyMaxProfitRupees, { field: 'dailyMaxProfitRupees', max: 1e9 });
  return config;
}

/**
 * The config's daily limits in paise, for the kernel's SessionRules (the kernel checks the day's
 * P&L, realised plus open after charges, at each bar's close and squares everything off).
 * @example dailyLimitsOf({ ...config, dailyMaxLossRupees: 5000 }) // { dailyMaxLoss: 500000 }
 */
export function dailyLimitsOf(config: OptionsLegsConfig): { dailyMaxLoss?: number; dailyMaxProfit?: number } {
  return {
    ...(config.dailyMaxLossRupees === undefined ? {} : { dailyMaxLoss: rupeesToPaise(config.dailyMaxLossRupees) }),
    ...(config.dailyMaxProfitRupees === undefined ? {} : { dailyMaxProfit: rupeesToPaise(config.dailyMaxProfitRupees) }),
  };
}
