// Saved payoff positions (docs/PRODUCT.md section 3): each carries its index ("indice", as the spec names it),
// its expiry and when it was saved; the payoff screen groups them by index and expiry, offers the
// distinct indices, and replaces all positions of one index at once.
import { OptionInputError } from '../options/option-input';
import type { PayoffLeg } from './payoff-leg';

/** A saved leg: which index it is on, and when it was saved (epoch milliseconds). */
export interface PayoffPosition extends PayoffLeg {
  readonly indice: string;
  readonly timestamp: number;
}

/** The positions of one index and one expiry: one payoff chart. */
export interface PayoffPositionGroup {
  readonly indice: string;
  readonly expiry: string;
  readonly positions: readonly PayoffPosition[];
  /** The newest timestamp among them. */
  readonly updatedAt: number;
}

/**
 * Groups positions by index and expiry, ordered by index then expiry; positions keep their order.
 * @example groupPositions(positions).map((g) => `${g.indice} ${g.expiry}`) // ['NIFTY 50 2026-01-27', 'NIFTY 50 2026-02-24', 'NIFTY BANK 2026-01-27']
 */
export function groupPositions(positions: readonly PayoffPosition[]): PayoffPositionGroup[] {
  const groups = new Map<string, { indice: string; expiry: string; positions: PayoffPosition[]; updatedAt: number }>();
  for (const position of positions) {
    // JSON of the pair is a collision-free key even if an index name contains a separator.
    const key = JSON.stringify([position.indice, position.expiry]);
    const group = groups.get(key);
    if (group) {
      group.positions.push(position);
      group.updatedAt = Math.max(group.updatedAt, position.timestamp);
    } else {
      groups.set(key, { indice: position.indice, expiry: position.expiry, positions: [position], updatedAt: position.timestamp });
    }
  }
  return [...groups.values()].sort((a, b) => compareText(a.indice, b.indice) || compareText(a.expiry, b.expiry));
}

/** The distinct indices among the positions, sorted. @example availableIndices(positions) // ['NIFTY 50', 'NIFTY BANK'] */
export function availableIndices(positions: readonly PayoffPosition[]): string[] {
  return [...new Set(positions.map((position) => position.indice))].sort(compareText);
}

/**
 * A new list where every position of `indice` is replaced by `replacement` (an empty replacement
 * clears the index); other indices' positions are untouched and keep their order.
 */
export function replacePositionsForIndex(positions: readonly PayoffPosition[], indice: string, replacement: readonly PayoffPosition[]): PayoffPosition[] {
  const stray = replacement.findIndex((position) => position.indice !== indice);
  if (stray >= 0) throw new OptionInputError(`replacement[${stray}].indice`, `must be "${indice}", got ${JSON.stringify(replacement[stray]!.indice)}`);
  return [...positions.filter((position) => position.indice !== indice), ...replacement];
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
