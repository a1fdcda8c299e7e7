// GraphQL timestamps are ISO strings in UTC; screens show them in Asia/Kolkata through format.ts.
import { formatDate, formatDateTime, parseTimestamp } from '../../../format/format';

/** Epoch milliseconds of a GraphQL timestamp, or undefined when absent or unreadable. */
export function epochMs(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined) return undefined;
  const parsed = parseTimestamp(value);
  return typeof parsed === 'number' && Number.isFinite(parsed) ? parsed : undefined;
}

/** 'YYYY-MM-DD HH:mm:ss' in IST, or a dash. */
export function dateTimeText(value: string | null | undefined): string {
  const ms = epochMs(value);
  return ms === undefined ? '—' : formatDateTime(ms);
}

/** 'YYYY-MM-DD' in IST, or a dash. */
export function dateText(value: string | null | undefined): string {
  const ms = epochMs(value);
  return ms === undefined ? '—' : formatDate(ms);
}
