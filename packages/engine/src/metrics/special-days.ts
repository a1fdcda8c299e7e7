// Performance on the market's special days (docs/PRODUCT.md section 3's selectedSpecialDays): budget days,
// election results, exit-poll reactions, circuit-breaker halts, muhurat and weekend sessions,
// from data/market/special-sessions.csv. Closed days (holidays) have no P&L and are left out.
import type { IsoDate, Paise } from '@vyuha/core';
import { SPECIAL_SESSION_RECORDS } from '@vyuha/market';
import type { SpecialSessionKind, SpecialSessionRecord } from '@vyuha/market';
import { MetricsInputError } from './metrics-input';
import type { DailyResult } from './metrics-input';

/** The kinds on which the market trades and a run can make or lose money. */
export const TRADED_SPECIAL_DAY_KINDS: readonly SpecialSessionKind[] = [
  'budget_day', 'budget_weekend_session', 'election_results', 'exit_poll_reaction', 'circuit_breaker_halt',
  'muhurat', 'special_full_session', 'special_live_session_dr',
];

export interface SpecialDayResult {
  readonly date: IsoDate;
  /** The market-wide (IN) record's kind when there is one, else the first record's. */
  readonly kind: SpecialSessionKind;
  /** Every selected kind recorded that day, e.g. budget_day and budget_weekend_session. */
  readonly kinds: readonly SpecialSessionKind[];
  readonly note: string;
  readonly netPnl: Paise;
  readonly orders: number;
  /** False when the run had no row that day (it did not trade, or was flat). */
  readonly traded: boolean;
}

export interface SpecialDaysOptions {
  readonly days: readonly DailyResult[];
  readonly from: IsoDate;
  readonly to: IsoDate;
  readonly kinds?: readonly SpecialSessionKind[];
  /** Defaults to the market package's records. */
  readonly records?: readonly SpecialSessionRecord[];
}

/**
 * The run's P&L on each special day inside from..to, one row per date in date order. A date
 * recorded for NSE, BSE and market-wide shows the market-wide record's kind and note.
 * @example specialDayPerformance({ days, from: isoDate('2024-06-01'), to: isoDate('2024-06-30') }).map((d) => d.kind) // ['exit_poll_reaction', 'election_results']
 */
export function specialDayPerformance(options: SpecialDaysOptions): SpecialDayResult[] {
  if (options.to < options.from) throw new MetricsInputError('to', `must not be before from (${options.from}), got ${options.to}`);
  const kinds = new Set(options.kinds ?? TRADED_SPECIAL_DAY_KINDS);
  const recordsByDate = new Map<string, SpecialSessionRecord[]>();
  for (const record of options.records ?? SPECIAL_SESSION_RECORDS) {
    if (record.date < options.from || record.date > options.to || !kinds.has(record.kind)) continue;
    recordsByDate.set(record.date, [...(recordsByDate.get(record.date) ?? []), record]);
  }
  const dayByDate = new Map<string, DailyResult>(options.days.map((day) => [day.date, day]));
  return [...recordsByDate.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([date, records]) => {
    const primary = records.find((record) => record.exchange === 'IN') ?? (records[0] as SpecialSessionRecord);
    const day = dayByDate.get(date);
    return {
      date: date as IsoDate,
      kind: primary.kind,
      kinds: [...new Set(records.map((record) => record.kind))],
      note: primary.note,
      netPnl: (day?.netPnl ?? 0) as Paise,
      orders: day?.orders ?? 0,
      traded: day !== undefined,
    };
  });
}
