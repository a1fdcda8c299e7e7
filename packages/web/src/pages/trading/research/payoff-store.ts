// The payoff screen's positions (docs/PRODUCT.md section 3: each with its index, "indice", its expiry and a
// timestamp): kept in component state and mirrored to sessionStorage, so they live as long as
// the tab (docs/PRODUCT.md section 4: most stores persist in session storage).
import type { PayoffPosition } from '@vyuha/engine';
import { useEffect, useState } from 'react';

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

/** Positions in state, written to sessionStorage on every change. */
export function usePayoffPositions(): [PayoffPosition[], (next: PayoffPosition[]) => void] {
  const [positions, setPositions] = useState<PayoffPosition[]>(() => loadPositions());
  useEffect(() => {
    try {
      sessionStorage.setItem(PAYOFF_STORAGE_KEY, JSON.stringify(positions));
    } catch {
      // A full or disabled storage only costs persistence; the positions stay in state.
    }
  }, [positions]);
  return [positions, setPositions];
}
