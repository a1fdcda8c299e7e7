// The countdown of a pending signal: how long until it expires, in words short enough for a row.

/**
 * Time left from `nowMs` to `expiresAtMs`, whole seconds rounded down; 'expired' once reached,
 * undefined when the signal has no expiry.
 * @example timeLeft(Date.UTC(2026, 0, 1, 10, 5, 7), Date.UTC(2026, 0, 1, 10, 0, 0)) // '5m 07s'
 * @example timeLeft(Date.UTC(2026, 0, 1, 12), Date.UTC(2026, 0, 1, 10, 29, 30)) // '1h 30m 30s'
 */
export function timeLeft(expiresAtMs: number | undefined, nowMs: number): string | undefined {
  if (expiresAtMs === undefined || !Number.isFinite(expiresAtMs)) return undefined;
  const seconds = Math.floor((expiresAtMs - nowMs) / 1000);
  if (seconds <= 0) return 'expired';
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  const ss = String(rest).padStart(2, '0');
  if (hours > 0) return `${hours}h ${String(minutes).padStart(2, '0')}m ${ss}s`;
  if (minutes > 0) return `${minutes}m ${ss}s`;
  return `${rest}s`;
}

/** True while a signal can still be answered (no expiry counts as open). */
export function stillOpen(expiresAtMs: number | undefined, nowMs: number): boolean {
  return expiresAtMs === undefined || expiresAtMs > nowMs;
}
