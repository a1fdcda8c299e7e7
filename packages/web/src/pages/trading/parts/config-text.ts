// How a stored strategy configuration's values read on screen: money fields (paise in storage)
// as rupees, exit distances and sizing in words, an algorithm reference as its version. A value
// of a shape this module does not know reads as undefined, and the caller shows it as JSON.
import { formatRupees } from '../../../format/format';

/** Fields of a strategy's config held in paise (the engine's DeployableConfig, basket legs). */
const PAISE_FIELDS = new Set(['investment', 'dailyMaxLoss', 'dailyMaxProfit']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function finite(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** A key whose value is paise: a known money field, or one named `..._paise` / `...Paise`. */
export function isPaiseField(key: string): boolean {
  return PAISE_FIELDS.has(key) || /(_p|P)aise$/.test(key);
}

/** The label of a paise field without its unit. @example fieldLabel('price_paise') // 'Price' */
export function fieldLabel(key: string): string {
  const bare = key.replace(/_?[pP]aise$/, '');
  const words = (bare === '' ? key : bare).replaceAll('_', ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A stop-loss, target or trailing distance: `1.5 %` or `20 points`. */
function distanceText(value: Record<string, unknown>): string | undefined {
  if (value.kind === 'percent' && finite(value.percent)) return `${value.percent} %`;
  if (value.kind === 'points' && finite(value.points)) return `${value.points} points`;
  return undefined;
}

/** The sizing rule in words. */
function sizingText(value: Record<string, unknown>): string | undefined {
  switch (value.kind) {
    case 'all-in': return 'All-in (the investment sizes each entry)';
    case 'quantity': return finite(value.quantity) ? `${value.quantity} units an entry` : undefined;
    case 'lots': return finite(value.lots) && finite(value.lotSize) ? `${value.lots} lot${value.lots === 1 ? '' : 's'} of ${value.lotSize}` : undefined;
    case 'percent': return finite(value.percent) ? `${value.percent} % of the investment an entry` : undefined;
    default: return undefined;
  }
}

/**
 * The value as a trader reads it, or undefined when the shape is not one this module knows.
 * @example configValueText('investment', 20000000) // '₹2,00,000.00'
 * @example configValueText('stopLoss', { kind: 'percent', percent: 1 }) // '1 %'
 */
export function configValueText(key: string, value: unknown): string | undefined {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (finite(value)) return isPaiseField(key) ? formatRupees(value) : String(value);
  if (typeof value === 'string') return value;
  if (!isRecord(value)) return undefined;
  if (key === 'sizing') return sizingText(value);
  if (key === 'algorithm' && typeof value.id === 'string' && finite(value.version)) return `version ${value.version} of ${value.id}`;
  return distanceText(value);
}
