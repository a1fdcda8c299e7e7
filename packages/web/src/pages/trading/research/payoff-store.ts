// The hand-over of option-chain selections to /payoff (docs/PRODUCT.md section 3: each position with its
// index, "indice", its expiry and a timestamp): /chart writes them to sessionStorage, and /payoff
// stores them with the account (payoff/use-payoff-positions.ts) and clears the hand-over.
import type { PayoffPosition } from '@vyuha/engine';

export const PAYOFF_STORAGE_KEY = 'vyuha.payoff.positions';

function isPosition(value: unknown): value is PayoffPosition {
  if (typeof value !== 'object' || value === null) return false;
  const p = value as Record<string, unknown>;
  return p.kind === 'option' && (p.optionType === 'CE' || p.optionType === 'PE') && typeof p.strike === 'number' && p.strike > 0
    && typeof p.expiry === 'string' && typeof p.indice === 'string' && typeof p.quantity === 'number' && Number.isFinite(p.quantity)
    && typeof p.entryPrice === 'number' && p.entryPrice >= 0 && typeof p.timestamp === 'number';
}

/** The stored positions; anything unreadable is dropped rather than breaking the screen. */
export function loadPositions(storage: Storage = sessionStorage): PayoffPosition[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(PAYOFF_STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isPosition) : [];
  } catch {
    return [];
  }
}
