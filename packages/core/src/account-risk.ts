// A broker account's risk settings (/userAccounts, docs/PRODUCT.md section 3's user-accounts keys), as
// the server enforces them and the web app shows them: one definition for both.
//
// Invariants:
// - Levels are whole hundredths of trail_mode's unit: POINTS = paise of the account's day P&L,
//   PERCENT = basis points of the account's investment (at most MAX_PERCENT_LEVEL). Never negative.
// - sl and tgt are the levels of IST date levels_day; any other day starts from default_sl and
//   default_tgt (levelsOn).

export const TRAIL_MODES = ['POINTS', 'PERCENT'] as const;
export type TrailMode = (typeof TRAIL_MODES)[number];

/** The largest level in POINTS mode: ₹100 crore, in paise. */
export const MAX_POINTS_LEVEL = 100_000_000_000;
/** The largest level in PERCENT mode: 100%, in basis points. */
export const MAX_PERCENT_LEVEL = 10_000;

export const LEVEL_FIELDS = ['sl', 'default_sl', 'trail_tsl', 'tgt', 'default_tgt', 'trail_ttg'] as const;
export const SWITCH_FIELDS = ['enable_sl', 'trail_enabled', 'enable_target'] as const;
export type LevelField = (typeof LEVEL_FIELDS)[number];
export type SwitchField = (typeof SWITCH_FIELDS)[number];

/** One account's settings as stored. */
export interface AccountRisk {
  readonly enable_sl: boolean;
  readonly sl: number;
  readonly default_sl: number;
  readonly trail_enabled: boolean;
  readonly trail_mode: TrailMode;
  readonly trail_tsl: number;
  readonly enable_target: boolean;
  readonly tgt: number;
  readonly default_tgt: number;
  readonly trail_ttg: number;
  /** The IST date sl and tgt were set for; null before the first change. */
  readonly levels_day: string | null;
}

/** No stored row: every switch off, every level 0. */
export const NO_RISK: AccountRisk = {
  enable_sl: false, sl: 0, default_sl: 0, trail_enabled: false, trail_mode: 'POINTS', trail_tsl: 0,
  enable_target: false, tgt: 0, default_tgt: 0, trail_ttg: 0, levels_day: null,
};

/**
 * The stop and target in force on IST date `day` (the stored sl/tgt when set that day, else the defaults).
 * @example levelsOn({ ...NO_RISK, sl: 500, default_sl: 100, levels_day: '2026-12-02' }, '2026-12-03') // { sl: 100, tgt: 0 }
 */
export function levelsOn(risk: AccountRisk, day: string): { readonly sl: number; readonly tgt: number } {
  return risk.levels_day === day ? { sl: risk.sl, tgt: risk.tgt } : { sl: risk.default_sl, tgt: risk.default_tgt };
}
