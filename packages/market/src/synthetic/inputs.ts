import { epochDayOf, isIsoDate, IST_OFFSET_MS } from '@vyuha/core';
import { SYNTHETIC_INSTRUMENTS } from './types';
import type { SyntheticAnchor, SyntheticInstrument, SyntheticSession } from './types';
import { tradingSymbolOf } from './model';

/** Raised for bad generator input; the message names the offending field, e.g. `sessions[3].date`. */
export class SyntheticInputError extends Error {
  override readonly name = 'SyntheticInputError';
}

const MILLISECONDS_PER_MINUTE = 60_000;

/** A validated session with what the generator derives from it once. */
export interface PlannedSession {
  readonly date: string;
  readonly minutes: number;
  /** Epoch ms of the first bar's start. */
  readonly firstBarTime: number;
  /** Whole days since 1970-01-01 of the session's date, to count calendar days between sessions. */
  readonly dayNumber: number;
}

export interface PlannedMonth {
  readonly month: string;
  readonly sessions: readonly PlannedSession[];
  readonly barCount: number;
}

/** Month-end closes in paise on the 0.05 tick, by month then instrument. */
export interface AnchorTable {
  readonly byMonth: ReadonlyMap<string, ReadonlyMap<SyntheticInstrument, number>>;
  /** The earliest non-null anchor of each instrument, in rupees (points). */
  readonly firstLevel: ReadonlyMap<SyntheticInstrument, number>;
}

const MONTH_PATTERN = /^(\d{4})-(\d{2})$/;

/** Whole days since 1970-01-01 of a `YYYY-MM-DD` date, or undefined when it is not a real date. */
export function dayNumberOf(date: string): number | undefined {
  return isIsoDate(date) ? epochDayOf(date) : undefined;
}

/**
 * Validates the sessions (dates strictly increasing, 0 <= open < close <= 1440) and groups them by month.
 * @example planMonths([{ date: '2024-01-01', openMinute: 555, closeMinute: 930 }])[0].barCount // 375
 */
export function planMonths(sessions: readonly SyntheticSession[]): PlannedMonth[] {
  const months: PlannedMonth[] = [];
  let current: { month: string; sessions: PlannedSession[]; barCount: number } | undefined;
  let previousDay = Number.NEGATIVE_INFINITY;
  sessions.forEach((session, index) => {
    const planned = planSession(session, `sessions[${index}]`);
    if (planned.dayNumber <= previousDay) {
      throw new SyntheticInputError(`sessions[${index}].date: ${session.date} is not after the previous session; sessions must be in strictly increasing date order`);
    }
    previousDay = planned.dayNumber;
    const month = session.date.slice(0, 7);
    if (!current || current.month !== month) {
      current = { month, sessions: [], barCount: 0 };
      months.push(current);
    }
    current.sessions.push(planned);
    current.barCount += planned.minutes;
  });
  return months;
}

function planSession(session: SyntheticSession, field: string): PlannedSession {
  const dayNumber = dayNumberOf(session.date);
  if (dayNumber === undefined) throw new SyntheticInputError(`${field}.date must be a real date as YYYY-MM-DD, got ${JSON.stringify(session.date)}`);
  checkMinute(session.openMinute, `${field}.openMinute`);
  checkMinute(session.closeMinute, `${field}.closeMinute`);
  if (session.closeMinute <= session.openMinute) {
    throw new SyntheticInputError(`${field}.closeMinute (${session.closeMinute}) must be after openMinute (${session.openMinute})`);
  }
  const firstBarTime = (dayNumber * 1440 + session.openMinute) * MILLISECONDS_PER_MINUTE - IST_OFFSET_MS;
  return { date: session.date, minutes: session.closeMinute - session.openMinute, firstBarTime, dayNumber };
}

function checkMinute(value: number, field: string): void {
  if (!Number.isInteger(value) || value < 0 || value > 1440) {
    throw new SyntheticInputError(`${field} must be a whole number of minutes after midnight IST in 0..1440, got ${value}`);
  }
}

/** Converts a level in rupees (points) to paise on the 0.05 tick, rounding to the nearest tick. */
export function levelToTickPaise(level: number): number {
  return Math.round(level * 20) * 5;
}

/**
 * Validates the anchors and indexes them by month and instrument; nulls (known gaps) are skipped.
 * @example buildAnchorTable([{ month: '2020-01', index: 'NIFTY', close: 11962.1 }]).byMonth.get('2020-01')?.get('NIFTY 50') // 1196210
 */
export function buildAnchorTable(anchors: readonly SyntheticAnchor[]): AnchorTable {
  const byMonth = new Map<string, Map<SyntheticInstrument, number>>();
  const firstLevel = new Map<SyntheticInstrument, number>();
  const firstMonth = new Map<SyntheticInstrument, string>();
  anchors.forEach((anchor, index) => {
    const field = `anchors[${index}]`;
    const match = MONTH_PATTERN.exec(anchor.month);
    if (!match || Number(match[2]) < 1 || Number(match[2]) > 12) {
      throw new SyntheticInputError(`${field}.month must be YYYY-MM, got ${JSON.stringify(anchor.month)}`);
    }
    const instrument = instrumentNamed(anchor.index);
    if (!instrument) {
      throw new SyntheticInputError(`${field}.index: unknown index ${JSON.stringify(anchor.index)}; expected one of ${SYNTHETIC_INSTRUMENTS.join(', ')}`);
    }
    if (anchor.close === null) return;
    if (!Number.isFinite(anchor.close) || anchor.close <= 0) {
      throw new SyntheticInputError(`${field}.close must be a positive number or null, got ${anchor.close}`);
    }
    const closePaise = levelToTickPaise(anchor.close);
    const monthAnchors = byMonth.get(anchor.month) ?? new Map<SyntheticInstrument, number>();
    const existing = monthAnchors.get(instrument);
    if (existing !== undefined && existing !== closePaise) {
      throw new SyntheticInputError(`${field}: a second, different close for ${instrument} in ${anchor.month}`);
    }
    monthAnchors.set(instrument, closePaise);
    byMonth.set(anchor.month, monthAnchors);
    const earliest = firstMonth.get(instrument);
    if (earliest === undefined || anchor.month < earliest) {
      firstMonth.set(instrument, anchor.month);
      firstLevel.set(instrument, closePaise / 100);
    }
  });
  return { byMonth, firstLevel };
}

function instrumentNamed(name: string): SyntheticInstrument | undefined {
  return SYNTHETIC_INSTRUMENTS.find((instrument) => instrument === name || tradingSymbolOf(instrument) === name);
}
