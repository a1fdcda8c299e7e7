// Small display helpers shared by the research screens, on top of format/format.ts.
import { formatDate, formatDateTime, MISSING_VALUE, parseTimestamp } from '../../../format/format';

/** A GraphQL timestamp (timestamptz text) as IST date and time; '—' when absent or unreadable. */
export function timestampText(value: string | null | undefined): string {
  const epochMs = value === null || value === undefined ? undefined : parseTimestamp(value);
  return epochMs === undefined ? MISSING_VALUE : formatDateTime(epochMs);
}

/** A GraphQL timestamp as its IST date. */
export function timestampDate(value: string | null | undefined): string {
  const epochMs = value === null || value === undefined ? undefined : parseTimestamp(value);
  return epochMs === undefined ? MISSING_VALUE : formatDate(epochMs);
}

/** A ratio the engine reports as a number, 'infinite' or null. @example ratioText(1.234) // '1.23' */
export function ratioText(value: unknown, digits = 2): string {
  if (value === 'infinite') return '∞';
  return typeof value === 'number' && Number.isFinite(value) ? value.toFixed(digits) : MISSING_VALUE;
}

/** A number read from untyped JSON (run metrics, params), or undefined. */
export function numberField(source: unknown, key: string): number | undefined {
  if (typeof source !== 'object' || source === null) return undefined;
  const value = (source as Record<string, unknown>)[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** An object read from untyped JSON, or undefined. */
export function objectField(source: unknown, key: string): Record<string, unknown> | undefined {
  if (typeof source !== 'object' || source === null) return undefined;
  const value = (source as Record<string, unknown>)[key];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : undefined;
}

/** A string read from untyped JSON, or undefined. */
export function stringField(source: unknown, key: string): string | undefined {
  if (typeof source !== 'object' || source === null) return undefined;
  const value = (source as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : undefined;
}
