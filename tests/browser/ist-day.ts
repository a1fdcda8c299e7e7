// India's calendar day for browser tests: the pages count "today", "days left" and the default
// ranges in IST (UTC+5:30, no daylight saving), whatever the machine's own zone.

const IST_OFFSET_MS = 5.5 * 3_600_000;
const DAY_MS = 86_400_000;

/** The IST calendar day `offsetDays` from today, as YYYY-MM-DD. */
export function istDay(offsetDays = 0): string {
  return new Date(Date.now() + IST_OFFSET_MS + offsetDays * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Waits until IST midnight has passed when it is less than `marginMs` away, so that a test which
 * seeds "today" and then reads it on a page sees one day throughout (CI may run at 18:30 UTC).
 * Call it from a hook (120 s): it waits at most `marginMs` and two seconds more.
 */
export async function clearOfIstMidnight(marginMs = 90_000): Promise<void> {
  const sinceMidnight = (Date.now() + IST_OFFSET_MS) % DAY_MS;
  const untilMidnight = DAY_MS - sinceMidnight;
  if (untilMidnight >= marginMs) return;
  await new Promise((resolve) => setTimeout(resolve, untilMidnight + 2_000));
}
