// India's calendar day for browser tests: the pages count "today", "days left" and the default
// ranges in IST, whatever the machine's own zone (the dates are @vyuha/core's).
import { addDays, istDate, istMidnightMs } from '@vyuha/core';

/** The IST calendar day `offsetDays` from today, as YYYY-MM-DD. */
export function istDay(offsetDays = 0): string {
  return addDays(istDate(Date.now()), offsetDays);
}

/**
 * Waits until IST midnight has passed when it is less than `marginMs` away, so that a test which
 * seeds "today" and then reads it on a page sees one day throughout (CI may run at 18:30 UTC).
 * Call it from a hook (120 s): it waits at most `marginMs` and two seconds more.
 */
export async function clearOfIstMidnight(marginMs = 90_000): Promise<void> {
  const untilMidnight = istMidnightMs(addDays(istDate(Date.now()), 1)) - Date.now();
  if (untilMidnight >= marginMs) return;
  await new Promise((resolve) => setTimeout(resolve, untilMidnight + 2_000));
}
