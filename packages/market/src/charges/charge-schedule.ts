import { isoDate } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';

// The statutory and exchange charges on Indian index derivatives as a dated schedule
// (docs/MARKET-RULES.md, "Charges"). Brokerage is not here: it is the broker's
// price, not a rule of the market, and comes in as a BrokeragePlan.

/** The two exchanges whose index derivatives Vyuha charges for (NFO and BFO are their F&O segments). */
export type ChargeExchange = 'NSE' | 'BSE';
export type ChargeInstrument = 'option' | 'future';
export type TradeSide = 'buy' | 'sell';

/** A statutory or exchange component; brokerage is priced separately by a BrokeragePlan. */
export type ScheduledChargeComponent = 'stt' | 'exchange-transaction' | 'investor-protection' | 'sebi-fee' | 'stamp-duty' | 'gst';

/**
 * What a rate multiplies: `traded-value` is price x quantity of a trade (the premium for
 * options, the contract value for futures); `exercise-value` is the settlement price (the
 * intrinsic value) x quantity of an exercised option; `taxable-charges` is brokerage + exchange
 * transaction charge + SEBI fee, which GST is levied on.
 */
export type ChargeBasis = 'traded-value' | 'exercise-value' | 'taxable-charges';

/**
 * One dated rate. `rate` is in parts per 10^8 (RATE_DENOMINATOR), so every rate in force is a
 * whole number and charges can be computed exactly: 0.03503% is 35_030, Rs 10 per crore is 100.
 * `from` is the first day it applies; `to`, when present, is the first day it no longer applies
 * (exclusive), which is the `from` of the row that replaced it.
 */
export interface ChargeScheduleRow {
  readonly component: ScheduledChargeComponent;
  /** Absent: the same rate on both exchanges. */
  readonly exchange?: ChargeExchange;
  readonly instrument: ChargeInstrument;
  readonly side: TradeSide | 'both';
  readonly rate: number;
  readonly basis: ChargeBasis;
  readonly from: IsoDate;
  readonly to?: IsoDate;
  /** Why a value is what it is where no documented rate covers the date (carried back, chosen from public sources). */
  readonly note?: string;
}

/** Rates are parts per 10^8: `rate / RATE_DENOMINATOR` is the fraction of the basis charged. */
export const RATE_DENOMINATOR = 100_000_000;

/**
 * The first day the schedule answers for. Several values are carried back to it from a later
 * documented date (each such row says so in its note); dates before it are refused rather than
 * guessed.
 */
export const CHARGE_SCHEDULE_START = isoDate('2020-01-01');

const START = CHARGE_SCHEDULE_START;
const FINANCE_ACT_2023 = isoDate('2023-04-01');
const TRUE_TO_LABEL = isoDate('2024-10-01');
const FINANCE_NO2_ACT_2024 = isoDate('2024-10-01');
const FINANCE_ACT_2026 = isoDate('2026-04-01');
const UNIFORM_STAMP_DUTY = isoDate('2020-07-01');

const CARRIED_BACK = 'carried back to 2020-01-01 from the first documented date';

/** Every scheduled rate, 2020 onwards. Rows of one key never overlap (charge-schedule.test.ts checks). */
export const CHARGE_SCHEDULE: readonly ChargeScheduleRow[] = [
  // STT on the sale of an option, on premium (Finance Acts 2023, 2024 and 2026).
  { component: 'stt', instrument: 'option', side: 'sell', rate: 50_000, basis: 'traded-value', from: START, to: FINANCE_ACT_2023,
    note: '0.05% before the Finance Act 2023 raised it to 0.0625% from 1-Apr-2023 (public record)' },
  { component: 'stt', instrument: 'option', side: 'sell', rate: 62_500, basis: 'traded-value', from: FINANCE_ACT_2023, to: FINANCE_NO2_ACT_2024 },
  { component: 'stt', instrument: 'option', side: 'sell', rate: 100_000, basis: 'traded-value', from: FINANCE_NO2_ACT_2024, to: FINANCE_ACT_2026 },
  { component: 'stt', instrument: 'option', side: 'sell', rate: 150_000, basis: 'traded-value', from: FINANCE_ACT_2026 },
  // STT on an exercised long option, on its intrinsic value. The exercise closes the long, so it
  // is the sell side of the settlement; the assigned short (buy side) pays none.
  { component: 'stt', instrument: 'option', side: 'sell', rate: 125_000, basis: 'exercise-value', from: START, to: FINANCE_ACT_2026,
    note: '0.125% since 2016, so in force throughout 2020-2026' },
  { component: 'stt', instrument: 'option', side: 'sell', rate: 150_000, basis: 'exercise-value', from: FINANCE_ACT_2026 },
  // STT on the sale of a future, on contract value.
  { component: 'stt', instrument: 'future', side: 'sell', rate: 10_000, basis: 'traded-value', from: START, to: FINANCE_ACT_2023,
    note: '0.01% before the Finance Act 2023 raised it to 0.0125% from 1-Apr-2023 (public record)' },
  { component: 'stt', instrument: 'future', side: 'sell', rate: 12_500, basis: 'traded-value', from: FINANCE_ACT_2023, to: FINANCE_NO2_ACT_2024 },
  { component: 'stt', instrument: 'future', side: 'sell', rate: 20_000, basis: 'traded-value', from: FINANCE_NO2_ACT_2024, to: FINANCE_ACT_2026 },
  { component: 'stt', instrument: 'future', side: 'sell', rate: 50_000, basis: 'traded-value', from: FINANCE_ACT_2026 },

  // Exchange transaction charges, both sides. Before SEBI's "true to label" circular (1-Jul-2024,
  // effective 1-Oct-2024) exchanges billed members by monthly turnover slabs; a per-trade
  // schedule can only carry one representative rate for that time.
  { component: 'exchange-transaction', exchange: 'NSE', instrument: 'option', side: 'both', rate: 53_000, basis: 'traded-value', from: START, to: TRUE_TO_LABEL,
    note: 'slab-billed before 1-Oct-2024 (about 0.05%); 0.053% used throughout 2020-Sep-2024, as ARCHITECTURE.md records' },
  { component: 'exchange-transaction', exchange: 'NSE', instrument: 'option', side: 'both', rate: 35_030, basis: 'traded-value', from: TRUE_TO_LABEL },
  { component: 'exchange-transaction', exchange: 'BSE', instrument: 'option', side: 'both', rate: 32_500, basis: 'traded-value', from: START, to: TRUE_TO_LABEL,
    note: `${CARRIED_BACK} (1-Oct-2024): BSE billed SENSEX options by monthly slabs (Rs 500/crore up to Rs 3 crore, Rs 2,000-4,950/crore above), which a per-trade rate cannot express` },
  { component: 'exchange-transaction', exchange: 'BSE', instrument: 'option', side: 'both', rate: 32_500, basis: 'traded-value', from: TRUE_TO_LABEL },
  { component: 'exchange-transaction', exchange: 'NSE', instrument: 'future', side: 'both', rate: 2_000, basis: 'traded-value', from: START, to: TRUE_TO_LABEL,
    note: 'slab-billed before 1-Oct-2024; 0.002% (Rs 200/crore), the rate brokers published for NSE futures before 2023 (some showed 0.0019% in 2023-24)' },
  { component: 'exchange-transaction', exchange: 'NSE', instrument: 'future', side: 'both', rate: 1_730, basis: 'traded-value', from: TRUE_TO_LABEL },
  { component: 'exchange-transaction', exchange: 'BSE', instrument: 'future', side: 'both', rate: 0, basis: 'traded-value', from: START,
    note: 'BSE levies no transaction charge on index futures (its 27-Sep-2024 revision kept them nil, per press reports)' },

  // NSE Investor Protection Fund Trust charge, both sides; BSE has none.
  { component: 'investor-protection', exchange: 'NSE', instrument: 'option', side: 'both', rate: 500, basis: 'traded-value', from: START,
    note: CARRIED_BACK },
  { component: 'investor-protection', exchange: 'NSE', instrument: 'future', side: 'both', rate: 100, basis: 'traded-value', from: START,
    note: `Rs 10 per crore of futures turnover (broker tariff pages), ${CARRIED_BACK}` },

  // SEBI turnover fee, Rs 10 per crore, both sides.
  { component: 'sebi-fee', instrument: 'option', side: 'both', rate: 100, basis: 'traded-value', from: START },
  { component: 'sebi-fee', instrument: 'future', side: 'both', rate: 100, basis: 'traded-value', from: START },

  // Stamp duty on the buy side: the Indian Stamp Act amendment made it uniform nationwide from
  // 1-Jul-2020; before that each state charged its own rate.
  { component: 'stamp-duty', instrument: 'option', side: 'buy', rate: 3_000, basis: 'traded-value', from: START, to: UNIFORM_STAMP_DUTY,
    note: 'state rates applied before 1-Jul-2020; the uniform 0.003% is carried back' },
  { component: 'stamp-duty', instrument: 'option', side: 'buy', rate: 3_000, basis: 'traded-value', from: UNIFORM_STAMP_DUTY },
  { component: 'stamp-duty', instrument: 'future', side: 'buy', rate: 2_000, basis: 'traded-value', from: START, to: UNIFORM_STAMP_DUTY,
    note: 'state rates applied before 1-Jul-2020; the uniform 0.002% is carried back' },
  { component: 'stamp-duty', instrument: 'future', side: 'buy', rate: 2_000, basis: 'traded-value', from: UNIFORM_STAMP_DUTY },

  // GST at 18% on brokerage + exchange transaction charge + SEBI fee (18% since 1-Jul-2017).
  { component: 'gst', instrument: 'option', side: 'both', rate: 18_000_000, basis: 'taxable-charges', from: START },
  { component: 'gst', instrument: 'future', side: 'both', rate: 18_000_000, basis: 'taxable-charges', from: START },
];

/** What selects rows from the schedule: the day, the exchange and the instrument traded. */
export interface ChargeScheduleQuery {
  readonly date: IsoDate;
  readonly exchange: ChargeExchange;
  readonly instrument: ChargeInstrument;
}

/** True when a row is in force on `date` (`from` inclusive, `to` exclusive). */
export function isRowInForce(row: ChargeScheduleRow, date: IsoDate): boolean {
  return row.from <= date && (row.to === undefined || date < row.to);
}

/**
 * The schedule rows in force for one exchange and instrument on a date, both sides and bases.
 * @example chargeRatesOn({ date: isoDate('2024-10-15'), exchange: 'NSE', instrument: 'option' }).find((r) => r.component === 'stt')?.rate // 100000 (0.1%)
 */
export function chargeRatesOn(query: ChargeScheduleQuery): readonly ChargeScheduleRow[] {
  return CHARGE_SCHEDULE.filter((row) =>
    row.instrument === query.instrument
    && (row.exchange === undefined || row.exchange === query.exchange)
    && isRowInForce(row, query.date));
}

/**
 * A rate in parts per 10^8 as an exact percentage text, for display.
 * @example ratePercentText(35_030) // '0.03503%'
 */
export function ratePercentText(rate: number): string {
  const perMillionOfPercent = RATE_DENOMINATOR / 100;
  const whole = Math.floor(rate / perMillionOfPercent);
  const fraction = String(rate % perMillionOfPercent).padStart(6, '0').replace(/0+$/, '');
  return fraction === '' ? `${whole}%` : `${whole}.${fraction}%`;
}
