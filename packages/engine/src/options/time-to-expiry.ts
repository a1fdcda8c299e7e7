// Time to expiry runs to the 15:30 IST close of the expiry date. IST is a fixed UTC+05:30 with no
// daylight saving, so the close is 10:00 UTC on the same calendar date.
import { OptionInputError } from './option-input';

const MILLISECONDS_PER_YEAR = 365 * 24 * 60 * 60 * 1000;
const CLOSE_HOUR_UTC = 10; // 15:30 IST
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Epoch milliseconds of the 15:30 IST close on `date` ('YYYY-MM-DD'). @example expiryCloseEpochMs('2026-01-27') // 1769508000000 */
export function expiryCloseEpochMs(date: string): number {
  const match = DATE_PATTERN.exec(date);
  if (!match) throw new OptionInputError('expiryDate', `must be a date YYYY-MM-DD, got ${JSON.stringify(date)}`);
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const epochMs = Date.UTC(year, month - 1, day, CLOSE_HOUR_UTC, 0, 0);
  // Date.UTC rolls 2026-02-30 over to March; a real date survives the round trip unchanged.
  const check = new Date(epochMs);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    throw new OptionInputError('expiryDate', `is not a calendar date: ${date}`);
  }
  return epochMs;
}

/**
 * Years (of 365 days) from `nowEpochMs` to the 15:30 IST close of `expiryDate`; 0 once the close has passed.
 * @example yearsToExpiry(Date.UTC(2026, 0, 26, 10), '2026-01-27') // 1 / 365
 */
export function yearsToExpiry(nowEpochMs: number, expiryDate: string): number {
  if (!Number.isFinite(nowEpochMs)) throw new OptionInputError('nowEpochMs', `must be a finite epoch millisecond count, got ${String(nowEpochMs)}`);
  return Math.max(0, expiryCloseEpochMs(expiryDate) - nowEpochMs) / MILLISECONDS_PER_YEAR;
}
