// Credit and licence alerts (docs/PRODUCT.md section 4). Warning: utilisation from 75 % up to (not
// including) 90 %, or more than 7 and at most 15 days left. Critical: 90 % or more, or 7 days or
// fewer. The notice shows when either licence (backtest, strategy) warns; it is styled as an error
// when any is critical. Deviation (documented in ARCHITECTURE.md): the spec's client checks the
// backtest licence's days against the strategy licence's days left; we use each licence's own.
// Days are IST dates (@vyuha/core's calendar): an activation at 01:30 IST counts from that date.
import { epochDayOf, isIsoDate, istEpochDay } from '@vyuha/core';
import { parseTimestamp } from '../format/format';

export interface Licence {
  /** Credits bought (backtest: candles; strategy: deployable strategies). */
  readonly totalCredits: number;
  readonly utilizedCredits: number;
  /** Latest expiry, `YYYY-MM-DD`; undefined when the user has no live licence of this kind. */
  readonly expireOn: string | undefined;
  /** Latest activation (creation) time, ISO; undefined with no licence. */
  readonly activatedOn: string | undefined;
}

export type AlertLevel = 'none' | 'warning' | 'critical';

export interface LicenceStatus {
  readonly level: AlertLevel;
  /** used / total x 100, two decimals (0 when nothing was bought). */
  readonly percentUtilized: number;
  readonly daysLeft: number;
  /** (today - activation) / (expiry - activation) x 100, two decimals. */
  readonly percentDaysElapsed: number;
}

/** The IST day number of a date (`YYYY-MM-DD`) or of a timestamp's IST date; NaN for neither. */
function dayNumber(value: string): number {
  if (isIsoDate(value)) return epochDayOf(value);
  const epochMs = parseTimestamp(value);
  return epochMs === undefined ? Number.NaN : istEpochDay(epochMs);
}

const round2 = (value: number): number => Math.round(value * 100) / 100;

/** The status of one licence on `today` (`YYYY-MM-DD`). */
export function licenceStatus(licence: Licence, today: string): LicenceStatus | undefined {
  if (licence.expireOn === undefined) return undefined;
  const percentUtilized = licence.totalCredits > 0 ? round2((licence.utilizedCredits / licence.totalCredits) * 100) : 0;
  const todayDay = dayNumber(today);
  const expiryDay = dayNumber(licence.expireOn);
  const activationDay = licence.activatedOn === undefined ? todayDay : dayNumber(licence.activatedOn);
  const daysLeft = expiryDay - todayDay;
  const span = expiryDay - activationDay;
  const percentDaysElapsed = span > 0 ? round2(((todayDay - activationDay) / span) * 100) : 100;
  const critical = percentUtilized >= 90 || daysLeft <= 7;
  const warning = (percentUtilized >= 75 && percentUtilized < 90) || (daysLeft > 7 && daysLeft <= 15);
  return { level: critical ? 'critical' : warning ? 'warning' : 'none', percentUtilized, daysLeft, percentDaysElapsed };
}

/** The notice for both licences: none, warning or critical (the worst of the two). */
export function creditNotice(statuses: ReadonlyArray<LicenceStatus | undefined>): AlertLevel {
  if (statuses.some((status) => status?.level === 'critical')) return 'critical';
  if (statuses.some((status) => status?.level === 'warning')) return 'warning';
  return 'none';
}
