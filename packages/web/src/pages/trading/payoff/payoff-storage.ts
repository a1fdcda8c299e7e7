// Where /payoff keeps its positions (docs/PRODUCT.md section 3: each position carries its index,
// "indice", its expiry and a timestamp; the positions of one index are replaced together). Each
// index is one user_app_configs row (category `payoff`, the index as subcategory), so replacing
// one index's positions is one upsert of one row and can never touch another index's row.
// Also: the hand-over from the option chain's "Open in payoff", which writes the positions to
// sessionStorage (research/payoff-store.ts) before opening this screen.
import { replacePositionsForIndex, type PayoffPosition } from '@vyuha/engine';

export const PAYOFF_CONFIG_CATEGORY = 'payoff';
/** The version of the stored document (meta_data); a reader skips versions it does not know. */
export const PAYOFF_CONFIG_VERSION = 1;

/** A user_app_configs row as GraphQL returns it. */
export interface PayoffConfigRow {
  readonly category: string;
  readonly subcategory: string;
  readonly meta_data: unknown;
}

/** The stored document of one index. */
export interface PayoffDocument {
  readonly version: typeof PAYOFF_CONFIG_VERSION;
  readonly indice: string;
  readonly positions: readonly PayoffPosition[];
}

/**
 * The subcategory of an index's row: the table allows `^[a-z][A-Za-z0-9_]*$`, so the name is
 * lower-cased with every other run of characters as one underscore.
 * @example payoffSubcategory('NIFTY 50') // 'nifty_50'
 */
export function payoffSubcategory(indice: string): string {
  const slug = indice.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return /^[a-z]/.test(slug) ? slug : `index_${slug}`;
}

const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** A stored position, or undefined when any field is unreadable (it is then skipped, not shown wrong). */
export function readPosition(value: unknown): PayoffPosition | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const p = value as Record<string, unknown>;
  const common = typeof p.indice === 'string' && typeof p.expiry === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(p.expiry)
    && isFiniteNumber(p.quantity) && p.quantity !== 0 && isFiniteNumber(p.entryPrice) && p.entryPrice >= 0 && isFiniteNumber(p.timestamp);
  if (!common) return undefined;
  const base = { indice: p.indice as string, expiry: p.expiry as string, quantity: p.quantity as number, entryPrice: p.entryPrice as number, timestamp: p.timestamp as number };
  const iv = isFiniteNumber(p.iv) && p.iv >= 0 ? { iv: p.iv } : {};
  if (p.kind === 'future') return { kind: 'future', ...base, ...iv };
  if (p.kind !== 'option' || (p.optionType !== 'CE' && p.optionType !== 'PE') || !isFiniteNumber(p.strike) || p.strike <= 0) return undefined;
  return { kind: 'option', optionType: p.optionType, strike: p.strike, ...base, ...iv };
}

/** Every stored position of the rows of category `payoff`, index by index (sorted by index name). */
export function positionsFromConfigs(rows: readonly PayoffConfigRow[]): PayoffPosition[] {
  const documents: Array<{ indice: string; positions: PayoffPosition[] }> = [];
  for (const row of rows) {
    if (row.category !== PAYOFF_CONFIG_CATEGORY || typeof row.meta_data !== 'object' || row.meta_data === null) continue;
    const meta = row.meta_data as Record<string, unknown>;
    if (meta.version !== PAYOFF_CONFIG_VERSION || typeof meta.indice !== 'string' || !Array.isArray(meta.positions)) continue;
    if (payoffSubcategory(meta.indice) !== row.subcategory) continue;
    const indice = meta.indice;
    const positions = meta.positions.map(readPosition).filter((position): position is PayoffPosition => position !== undefined && position.indice === indice);
    documents.push({ indice, positions });
  }
  documents.sort((a, b) => (a.indice < b.indice ? -1 : a.indice > b.indice ? 1 : 0));
  return documents.flatMap((document) => document.positions);
}

/**
 * The user_app_configs object that stores `positions` as the whole set of `indice` (an empty list
 * clears it). Throws the engine's OptionInputError naming `replacement[i].indice` when a position
 * belongs to another index.
 */
export function payoffConfigObject(indice: string, positions: readonly PayoffPosition[]): { category: string; subcategory: string; meta_data: PayoffDocument } {
  const checked = replacePositionsForIndex([], indice, positions);
  return { category: PAYOFF_CONFIG_CATEGORY, subcategory: payoffSubcategory(indice), meta_data: { version: PAYOFF_CONFIG_VERSION, indice, positions: checked } };
}

/**
 * The indices the option chain handed over that are newer than what is stored for them (the
 * hand-over holds every index it ever wrote; an index saved here since must not be overwritten
 * by an older hand-over).
 * @example handedOverSets(handover, saved).map((set) => set.indice) // ['NIFTY 50']
 */
export function handedOverSets(handover: readonly PayoffPosition[], saved: readonly PayoffPosition[]): Array<{ indice: string; positions: PayoffPosition[] }> {
  const newest = (positions: readonly PayoffPosition[], indice: string): number =>
    positions.reduce((latest, position) => (position.indice === indice ? Math.max(latest, position.timestamp) : latest), Number.NEGATIVE_INFINITY);
  const indices = [...new Set(handover.map((position) => position.indice))];
  return indices
    .filter((indice) => newest(handover, indice) > newest(saved, indice))
    .map((indice) => ({ indice, positions: handover.filter((position) => position.indice === indice) }));
}
