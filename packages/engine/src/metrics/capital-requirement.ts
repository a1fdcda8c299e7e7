// An ESTIMATE of the capital (margin) a run's positions need, SPAN-like but not SPAN: the exchange
// computes 16 risk scenarios over the whole portfolio with its own daily parameters; we value each
// short option once after an adverse price-scan move. Formula and sources: ./README.md.
import { isIsoDate, istParts, rupeesToPaise } from '@vyuha/core';
import type { IsoDate, Paise } from '@vyuha/core';
import { MetricsInputError } from './metrics-input';

/** A position leg; quantity is signed units (+ long, - short), prices in rupees per unit. */
export type MarginLeg =
  | {
      readonly kind: 'option';
      readonly underlying: string;
      readonly optionType: 'CE' | 'PE';
      readonly strike: number;
      readonly expiry: IsoDate;
      readonly quantity: number;
      readonly premium: number;
      readonly underlyingPrice: number;
    }
  | { readonly kind: 'future' | 'underlying'; readonly quantity: number; readonly price: number };

/** The open positions at one instant (epoch ms), e.g. after each fill. */
export interface PositionSnapshot {
  readonly time: number;
  readonly legs: readonly MarginLeg[];
}

/** Fractions of the underlying's notional (0.07 = 7%). */
export interface MarginRates {
  /** Adverse move a short option is valued at (SPAN's price scan range). */
  readonly priceScanRate: number;
  /** Exposure (extreme loss) margin on short options. */
  readonly exposureRate: number;
  /** Floor of the scan loss of a short option (SPAN's short option minimum charge). */
  readonly shortOptionMinimumRate: number;
  /** Extra exposure margin on short options on their own expiry day. */
  readonly expiryDayExtraRate: number;
  /** Futures: initial plus exposure margin. */
  readonly futuresRate: number;
  /** Cash-market underlying: 1 = paid in full. */
  readonly underlyingRate: number;
}

/** Margin rates from a date on; the last row starting on or before the trade date applies. */
export interface MarginRateRow {
  readonly from: IsoDate;
  readonly rates: MarginRates;
}

const BASE_RATES: MarginRates = {
  priceScanRate: 0.07, exposureRate: 0.02, shortOptionMinimumRate: 0.03, expiryDayExtraRate: 0, futuresRate: 0.09, underlyingRate: 1,
};

/**
 * Index-derivative margin rates as a dated schedule (sources in ./README.md): the 7% price-scan
 * floor for index options reached on 30-Nov-2018; the 2% expiry-day extra ELM on short index
 * options from 20-Nov-2024.
 */
export const MARGIN_RATE_SCHEDULE: readonly MarginRateRow[] = [
  { from: '2018-11-30' as IsoDate, rates: BASE_RATES },
  { from: '2024-11-20' as IsoDate, rates: { ...BASE_RATES, expiryDayExtraRate: 0.02 } },
];

/** The margin rates in force on a trade date. @example marginRatesOn(isoDate('2025-01-02')).expiryDayExtraRate // 0.02 */
export function marginRatesOn(tradeDate: IsoDate, schedule: readonly MarginRateRow[] = MARGIN_RATE_SCHEDULE): MarginRates {
  const row = schedule.filter((candidate) => candidate.from <= tradeDate).at(-1);
  if (row === undefined) throw new MetricsInputError('tradeDate', `${tradeDate} is before the margin schedule starts (${schedule[0]?.from ?? 'empty'}); pass rates explicitly`);
  return row.rates;
}

type OptionLeg = Extract<MarginLeg, { kind: 'option' }>;

function checkLeg(leg: MarginLeg, field: string): void {
  if (!Number.isSafeInteger(leg.quantity) || leg.quantity === 0) throw new MetricsInputError(`${field}.quantity`, `must be a whole non-zero number of units, got ${leg.quantity}`);
  const prices = leg.kind === 'option' ? { strike: leg.strike, premium: leg.premium, underlyingPrice: leg.underlyingPrice } : { price: leg.price };
  for (const [name, value] of Object.entries(prices)) {
    if (!Number.isFinite(value) || value < 0) throw new MetricsInputError(`${field}.${name}`, `must be a finite number >= 0, got ${value}`);
  }
  if (leg.kind === 'option' && !isIsoDate(leg.expiry)) throw new MetricsInputError(`${field}.expiry`, `must be a date as YYYY-MM-DD, got ${JSON.stringify(leg.expiry)}`);
}

/** Rupees per unit a naked short option needs: value after the adverse scan move (floored), plus exposure. */
export function nakedShortPerUnit(leg: OptionLeg, options: { readonly rates: MarginRates; readonly tradeDate: IsoDate }): number {
  const { rates } = options;
  const spot = leg.underlyingPrice;
  const moved = leg.optionType === 'CE' ? spot * (1 + rates.priceScanRate) : spot * (1 - rates.priceScanRate);
  const intrinsicAfterMove = leg.optionType === 'CE' ? Math.max(0, moved - leg.strike) : Math.max(0, leg.strike - moved);
  const scanLoss = Math.max(intrinsicAfterMove - leg.premium, 0, rates.shortOptionMinimumRate * spot);
  const extra = options.tradeDate === leg.expiry ? rates.expiryDayExtraRate : 0;
  return scanLoss + leg.premium + (rates.exposureRate + extra) * spot;
}

interface ShortRemainder { readonly leg: OptionLeg; units: number; readonly nakedPerUnit: number }

/**
 * Pairs short options with long ones of the same underlying, expiry and type that cap their loss
 * (a higher-strike call, a lower-strike put), narrowest spreads first; a covered unit needs the
 * spread's width, never more than naked. Returns the rupees the short legs need.
 */
function shortOptionsRequirement(options: readonly OptionLeg[], context: { readonly rates: MarginRates; readonly tradeDate: IsoDate }): number {
  const shorts: ShortRemainder[] = options.filter((leg) => leg.quantity < 0)
    .map((leg) => ({ leg, units: -leg.quantity, nakedPerUnit: nakedShortPerUnit(leg, context) }));
  const longs = options.filter((leg) => leg.quantity > 0).map((leg) => ({ leg, units: leg.quantity }));
  const pairs = shorts.flatMap((short) => longs.flatMap((long) => {
    const sameSeries = long.leg.underlying === short.leg.underlying && long.leg.expiry === short.leg.expiry && long.leg.optionType === short.leg.optionType;
    const width = short.leg.optionType === 'CE' ? long.leg.strike - short.leg.strike : short.leg.strike - long.leg.strike;
    return sameSeries && width > 0 ? [{ short, long, width }] : [];
  })).sort((a, b) => a.width - b.width);
  let total = 0;
  for (const { short, long, width } of pairs) {
    const units = Math.min(short.units, long.units);
    if (units === 0) continue;
    total += units * Math.min(width, short.nakedPerUnit);
    short.units -= units;
    long.units -= units;
  }
  for (const short of shorts) total += short.units * short.nakedPerUnit;
  return total;
}

/**
 * Estimated capital for a set of open positions on a trade date, in paise (rounded up).
 * @example positionsRequirement({ legs: [{ kind: 'option', optionType: 'CE', strike: 24_000, quantity: 75, premium: 100, ... }], tradeDate }) // 7_500_00 (the premium)
 */
export function positionsRequirement(options: { readonly legs: readonly MarginLeg[]; readonly tradeDate: IsoDate; readonly rates?: MarginRates }): Paise {
  const rates = options.rates ?? marginRatesOn(options.tradeDate);
  options.legs.forEach((leg, index) => checkLeg(leg, `legs[${index}]`));
  const optionLegs = options.legs.filter((leg): leg is OptionLeg => leg.kind === 'option');
  let rupees = shortOptionsRequirement(optionLegs, { rates, tradeDate: options.tradeDate });
  for (const leg of options.legs) {
    if (leg.kind === 'option' && leg.quantity > 0) rupees += leg.quantity * leg.premium;
    if (leg.kind === 'future') rupees += Math.abs(leg.quantity) * leg.price * rates.futuresRate;
    if (leg.kind === 'underlying') rupees += Math.abs(leg.quantity) * leg.price * rates.underlyingRate;
  }
  // Round up to the paisa: an estimate of money to set aside should not fall short by rounding.
  return rupeesToPaise(Math.ceil(Number((rupees * 100).toPrecision(15))) / 100);
}

export interface DailyCapitalRequirement {
  readonly date: IsoDate;
  readonly peak: Paise;
  readonly peakTime: number;
}

export interface CapitalRequirement {
  readonly days: readonly DailyCapitalRequirement[];
  readonly maximum: Paise;
  readonly maximumDate: IsoDate | null;
}

/**
 * Per IST day the peak estimated requirement across the day's snapshots, and the overall maximum.
 * @example capitalRequirement({ snapshots }).maximum // the largest daily peak, in paise
 */
export function capitalRequirement(options: { readonly snapshots: readonly PositionSnapshot[]; readonly rates?: MarginRates }): CapitalRequirement {
  const byDate = new Map<string, DailyCapitalRequirement>();
  options.snapshots.forEach((snapshot, index) => {
    if (!Number.isSafeInteger(snapshot.time)) throw new MetricsInputError(`snapshots[${index}].time`, `must be whole epoch milliseconds, got ${snapshot.time}`);
    const date = istParts(snapshot.time).date;
    let requirement: Paise;
    try {
      requirement = positionsRequirement({ legs: snapshot.legs, tradeDate: date, ...(options.rates ? { rates: options.rates } : {}) });
    } catch (error) {
      if (error instanceof MetricsInputError) throw new MetricsInputError(`snapshots[${index}].${error.field}`, error.message.slice(error.field.length + 2));
      throw error;
    }
    const current = byDate.get(date);
    if (current === undefined || requirement > current.peak) byDate.set(date, { date, peak: requirement, peakTime: snapshot.time });
  });
  const days = [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
  const top = days.reduce<DailyCapitalRequirement | null>((best, day) => (best === null || day.peak > best.peak ? day : best), null);
  return { days, maximum: (top?.peak ?? 0) as Paise, maximumDate: top?.date ?? null };
}
