// The ten account-risk columns of /userAccounts (docs/PRODUCT.md section 3's user-accounts keys) and
// how their stored values read and are typed. Stored levels are whole hundredths of trail_mode's
// unit (packages/server/migrations/0026_account_risk.sql): POINTS = paise of the account's day P&L,
// shown and typed as rupees; PERCENT = basis points of the account's investment, shown and typed
// as a percent (at most 100). sl and tgt are the levels of the IST date `levels_day`; any other day
// uses default_sl and default_tgt, so a row shows the levels in force today.
import { levelsOn, NO_RISK } from '@vyuha/core';
import type { AccountRisk, LevelField, SwitchField, TrailMode } from '@vyuha/core';
import { formatRupees } from '../../../format/format';

export type { AccountRisk, TrailMode } from '@vyuha/core';

/** An account_risk row as GraphQL answers it (bigint columns may come as text). */
export interface AccountRiskRow {
  readonly user_broker_id: string;
  readonly enable_sl: boolean;
  readonly sl: number | string;
  readonly default_sl: number | string;
  readonly trail_enabled: boolean;
  readonly trail_mode: TrailMode;
  readonly trail_tsl: number | string;
  readonly enable_target: boolean;
  readonly tgt: number | string;
  readonly default_tgt: number | string;
  readonly trail_ttg: number | string;
  readonly levels_day: string | null;
  readonly updated_at: string;
}

export type SwitchKey = SwitchField;
export type LevelKey = LevelField;
export type RiskKey = SwitchKey | LevelKey | 'trail_mode';

/** A column: the stored key, the spec's key (the header), what it is. */
export interface RiskColumn {
  readonly key: RiskKey;
  readonly specKey: string;
  readonly kind: 'switch' | 'level' | 'mode';
  readonly description: string;
}

/** In the spec's order. */
export const RISK_COLUMNS: readonly RiskColumn[] = [
  { key: 'enable_sl', specKey: 'enableSl', kind: 'switch', description: 'Square the account off when its day P&L falls to -sl' },
  { key: 'trail_enabled', specKey: 'trail_enabled', kind: 'switch', description: 'Trail the stop behind the day\'s peak (trail_tsl) and the target (trail_ttg)' },
  { key: 'trail_mode', specKey: 'trail_mode', kind: 'mode', description: 'POINTS: levels in rupees of day P&L; PERCENT: of the account\'s investment' },
  { key: 'sl', specKey: 'sl', kind: 'level', description: "Today's stop-loss" },
  { key: 'default_sl', specKey: 'default_sl', kind: 'level', description: 'The stop-loss every new day starts with' },
  { key: 'trail_tsl', specKey: 'trail_tsl', kind: 'level', description: 'How far below the day\'s peak P&L the trailing stop follows' },
  { key: 'enable_target', specKey: 'enableTarget', kind: 'switch', description: 'Square the account off when its day P&L reaches tgt' },
  { key: 'tgt', specKey: 'tgt', kind: 'level', description: "Today's target" },
  { key: 'default_tgt', specKey: 'default_tgt', kind: 'level', description: 'The target every new day starts with' },
  { key: 'trail_ttg', specKey: 'trail_ttg', kind: 'level', description: 'With trailing on: after the target, square off this far below the peak' },
];

/**
 * The settings of a stored row as in force on IST date `today` (no row: everything off).
 * @example riskOf({ ...row, sl: 500, default_sl: 100, levels_day: '2026-12-01' }, '2026-12-02').sl // 100
 */
export function riskOf(row: AccountRiskRow | undefined, today: string): AccountRisk {
  if (row === undefined) return NO_RISK;
  const stored: AccountRisk = {
    enable_sl: row.enable_sl, sl: Number(row.sl), default_sl: Number(row.default_sl), trail_enabled: row.trail_enabled,
    trail_mode: row.trail_mode, trail_tsl: Number(row.trail_tsl), enable_target: row.enable_target, tgt: Number(row.tgt),
    default_tgt: Number(row.default_tgt), trail_ttg: Number(row.trail_ttg), levels_day: row.levels_day,
  };
  return { ...stored, ...levelsOn(stored, today) };
}

/**
 * A stored level in words: rupees in POINTS mode, a percent in PERCENT mode.
 * @example levelText(250000, 'POINTS') // '₹2,500.00'
 * @example levelText(150, 'PERCENT') // '1.5%'
 */
export function levelText(hundredths: number, mode: TrailMode): string {
  if (mode === 'PERCENT') return `${(hundredths / 100).toLocaleString('en-IN', { maximumFractionDigits: 2 })}%`;
  return formatRupees(hundredths);
}

/** A stored level as the edit field starts: rupees or percent, no grouping. */
export function levelInput(hundredths: number): string {
  return String(hundredths / 100);
}

/**
 * A typed level as stored hundredths, or why not (naming the column).
 * @example parseLevel('2500.5', 'POINTS', 'sl') // { ok: true, value: 250050 }
 * @example parseLevel('120', 'PERCENT', 'tgt') // { ok: false, error: 'tgt: at most 100% in PERCENT mode' }
 */
export function parseLevel(text: string, mode: TrailMode, specKey: string): { ok: true; value: number } | { ok: false; error: string } {
  const trimmed = text.trim().replace(/[₹,%\s]/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(trimmed)) {
    return { ok: false, error: `${specKey}: type ${mode === 'PERCENT' ? 'a percent' : 'rupees'}, 0 or more, with at most 2 decimals` };
  }
  const [whole = '0', fraction = ''] = trimmed.split('.');
  const value = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(value)) return { ok: false, error: `${specKey}: too large` };
  if (mode === 'PERCENT' && value > 10_000) return { ok: false, error: `${specKey}: at most 100% in PERCENT mode` };
  if (mode === 'POINTS' && value > 100_000_000_000) return { ok: false, error: `${specKey}: at most ₹100 crore` };
  return { ok: true, value };
}

/** The broker session states of account_risk_days in words. */
export const SESSION_STATE_TEXT: Readonly<Record<string, { label: string; color: string }>> = {
  NONE: { label: 'No session', color: 'gray' },
  ACTIVE: { label: 'Logged in', color: 'teal' },
  EXPIRED: { label: 'Expired', color: 'yellow' },
  LOST: { label: 'Lost', color: 'red' },
};
