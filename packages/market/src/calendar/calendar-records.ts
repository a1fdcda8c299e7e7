import type { ExchangeCode } from '../constants';

/** One weekday closure of one exchange code, as in data/market/holidays.csv. */
export interface HolidayRecord {
  readonly date: string;
  readonly exchange: ExchangeCode;
  readonly event: string;
}

/**
 * The kinds of rows in data/market/special-sessions.csv. A new kind in the CSV fails the type
 * check of the generated module on purpose: someone must decide what it means for sessions.
 */
export const SPECIAL_SESSION_KINDS = [
  'muhurat',
  'budget_weekend_session',
  'special_full_session',
  'special_live_session_dr',
  'budget_day',
  'circuit_breaker_halt',
  'unscheduled_holiday',
  'election_holiday',
  'exit_poll_reaction',
  'election_results',
] as const;
export type SpecialSessionKind = (typeof SPECIAL_SESSION_KINDS)[number];

/** `IN` marks a market-wide event day (no session of its own); NSE and BSE rows are sessions. */
export type SpecialSessionScope = 'NSE' | 'BSE' | 'IN';

/** One row of data/market/special-sessions.csv; `start`/`end` are `HH:mm` IST or null when unknown. */
export interface SpecialSessionRecord {
  readonly date: string;
  readonly exchange: SpecialSessionScope;
  readonly kind: SpecialSessionKind;
  readonly start: string | null;
  readonly end: string | null;
  readonly note: string;
}
