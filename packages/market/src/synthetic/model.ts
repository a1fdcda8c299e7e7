import type { SyntheticInstrument } from './types';

/**
 * The parameters of the synthetic market. They are modelling choices, tuned so the statistics a
 * trader looks at come out plausible; they are not measured facts (see the generator's tests for
 * what each one must produce).
 */

/** Realised index volatility as a share of the VIX level (implied vol usually exceeds realised). */
export const REALISED_TO_IMPLIED = 0.85;
/** Share of a day's variance that arrives overnight, as the gap between close and next open. */
export const OVERNIGHT_VARIANCE_SHARE = 0.2;
/** Extra overnight variance per additional calendar day between sessions (weekends, holidays). */
export const OVERNIGHT_VARIANCE_PER_EXTRA_DAY = 0.25;
export const TRADING_DAYS_PER_YEAR = 252;
/** Minutes of a normal 09:15-15:30 session; shorter sessions get a proportional share of a day. */
export const FULL_SESSION_MINUTES = 375;

/** Degrees of freedom of the Student-t shocks: minute moves and overnight gaps are fat-tailed. */
export const MINUTE_SHOCK_DEGREES = 5;
export const GAP_SHOCK_DEGREES = 3.5;

/** INDIA VIX: log-level Ornstein-Uhlenbeck process in trading-year time. */
export const VIX_MODEL = {
  /** Long-run level the log process reverts to. */
  longRunLevel: 16,
  /** Mean-reversion speed per year (a half-life of about two months). */
  reversionPerYear: 4,
  /** Volatility of log VIX per square-root year (about 5% a day). */
  volatilityOfLog: 0.85,
  /** Correlation of VIX moves with the market shock: VIX rises when the market falls. */
  marketCorrelation: -0.55,
} as const;

/**
 * How an index loads on the shared shocks: `market` (NIFTY 50's own shock), `financials` (a
 * banking factor) and its own; squares sum to at most 1 and the rest is the own shock.
 * `volatilityMultiplier` scales the VIX-implied volatility for that index.
 */
export interface IndexProfile {
  readonly instrument: Exclude<SyntheticInstrument, 'INDIA VIX'>;
  readonly tradingSymbol: string;
  readonly market: number;
  readonly financials: number;
  readonly volatilityMultiplier: number;
  /** Start level when neither `startLevels` nor any anchor gives one (only NIFTY MID SELECT has no anchors). */
  readonly fallbackStartLevel: number;
}

/**
 * Loadings chosen for daily-return correlations near the observed ones: SENSEX-NIFTY about
 * 0.98, BANK-NIFTY about 0.72, FIN-BANK about 0.94.
 */
export const INDEX_PROFILES: readonly IndexProfile[] = [
  { instrument: 'NIFTY 50', tradingSymbol: 'NIFTY', market: 1, financials: 0, volatilityMultiplier: 1, fallbackStartLevel: 12_000 },
  { instrument: 'NIFTY BANK', tradingSymbol: 'BANKNIFTY', market: 0.72, financials: 0.66, volatilityMultiplier: 1.22, fallbackStartLevel: 31_000 },
  { instrument: 'NIFTY FIN SERVICE', tradingSymbol: 'FINNIFTY', market: 0.8, financials: 0.55, volatilityMultiplier: 1.12, fallbackStartLevel: 14_000 },
  // No month-end closes were found for NIFTY MID SELECT; 5,200 is an assumed early-2020 level,
  // not a sourced one, picked so the path following NIFTY lands near the 2022 F&O launch levels.
  { instrument: 'NIFTY MID SELECT', tradingSymbol: 'MIDCPNIFTY', market: 0.78, financials: 0, volatilityMultiplier: 1.15, fallbackStartLevel: 5_200 },
  { instrument: 'S&P BSE SENSEX', tradingSymbol: 'SENSEX', market: 0.985, financials: 0, volatilityMultiplier: 0.98, fallbackStartLevel: 41_000 },
];

export const VIX_TRADING_SYMBOL = 'INDIA VIX';

/** The share of an index's shock that is its own, so the three loadings have unit variance together. */
export function ownLoading(profile: IndexProfile): number {
  return Math.sqrt(Math.max(0, 1 - profile.market * profile.market - profile.financials * profile.financials));
}

/** Trading symbol of each instrument, for labels and for accepting anchors keyed by symbol. */
export function tradingSymbolOf(instrument: SyntheticInstrument): string {
  if (instrument === 'INDIA VIX') return VIX_TRADING_SYMBOL;
  const profile = INDEX_PROFILES.find((candidate) => candidate.instrument === instrument);
  // Every non-VIX instrument has a profile; the table above is the single list.
  return profile ? profile.tradingSymbol : instrument;
}
