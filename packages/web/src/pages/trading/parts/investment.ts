// docs/PRODUCT.md section 5: a subscription's investment is its latest investment_history entry (greatest
// date) when the history is non-empty, otherwise investment_amt. Expiry: docs/PRODUCT.md section 4.

export interface InvestmentEntry {
  readonly date: string;
  readonly amount_paise: number;
}

function isEntry(value: unknown): value is InvestmentEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return typeof entry.date === 'string' && typeof entry.amount_paise === 'number';
}

/**
 * The investment in paise.
 * @example currentInvestmentPaise({ investment_amt_paise: 100, investment_history: [{ date: '2025-01-02', amount_paise: 300 }, { date: '2024-05-01', amount_paise: 200 }] }) -> 300
 */
export function currentInvestmentPaise(row: { readonly investment_amt_paise: number | string; readonly investment_history: unknown }): number {
  const history = Array.isArray(row.investment_history) ? row.investment_history.filter(isEntry) : [];
  const latest = history.reduce<InvestmentEntry | undefined>((best, entry) => (best === undefined || entry.date > best.date ? entry : best), undefined);
  return latest ? latest.amount_paise : Number(row.investment_amt_paise);
}

/** docs/PRODUCT.md section 4: expiring when under 7 days (168 hours) remain. */
export const EXPIRING_WITHIN_MS = 168 * 3_600_000;

export type ExpiryState = 'none' | 'active' | 'expiring' | 'expired';

/** Where a subscription stands against its expiry; 'none' without an expiry. */
export function expiryState(expiresAtMs: number | undefined, nowMs: number): ExpiryState {
  if (expiresAtMs === undefined) return 'none';
  const left = expiresAtMs - nowMs;
  if (left <= 0) return 'expired';
  return left < EXPIRING_WITHIN_MS ? 'expiring' : 'active';
}
