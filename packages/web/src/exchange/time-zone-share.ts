// The cross-tab copy of the app store's time-zone object (docs/PRODUCT.md section 2's exchange-refresh
// dialog): the store lives in sessionStorage, one per tab, so every change is also written to
// localStorage, where other tabs' storage events see it. Kept apart from exchange.ts so the
// store (in every page, sign-in included) does not pull the market facts in.
import type { TimeZoneSetting } from '../stores/app-store';

/**
 * localStorage key of the cross-tab copy of the time-zone object: the app store lives in
 * sessionStorage (one per tab), so other tabs learn of a change only through this key
 * (ARCHITECTURE.md, "Exchange setting across tabs").
 */
export const TIME_ZONE_STORAGE_KEY = 'vyuha-time-zone';

/** A stored time-zone object, or undefined when empty or not one (both fields non-empty text). */
export function parseTimeZone(text: string | null): TimeZoneSetting | undefined {
  if (text === null || text === '') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return undefined;
    const { exchange, tz } = value as Record<string, unknown>;
    return typeof exchange === 'string' && exchange !== '' && typeof tz === 'string' && tz !== '' ? { exchange, tz } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * docs/PRODUCT.md section 2's exchange-refresh rule for a change another tab made: the new object when both
 * the old and the new are non-empty and differ in exchange or tz, and this tab does not already
 * show the new one; otherwise undefined.
 */
export function exchangeRefreshFor(oldText: string | null, newText: string | null, shown: TimeZoneSetting | undefined): TimeZoneSetting | undefined {
  const before = parseTimeZone(oldText);
  const after = parseTimeZone(newText);
  if (before === undefined || after === undefined) return undefined;
  if (before.exchange === after.exchange && before.tz === after.tz) return undefined;
  if (shown !== undefined && shown.exchange === after.exchange && shown.tz === after.tz) return undefined;
  return after;
}

/** Writes (or, for undefined, removes) the cross-tab copy; a storage that refuses writes is left as it is. */
export function shareTimeZone(setting: TimeZoneSetting | undefined): void {
  if (typeof localStorage === 'undefined') return;
  try {
    if (setting === undefined) localStorage.removeItem(TIME_ZONE_STORAGE_KEY);
    else localStorage.setItem(TIME_ZONE_STORAGE_KEY, JSON.stringify({ exchange: setting.exchange, tz: setting.tz }));
  } catch {
    // Private modes may refuse storage: this tab keeps working with its own setting.
  }
}
