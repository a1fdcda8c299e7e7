/** Chart windows in minutes (docs/PRODUCT.md section 9's interval choices); each gets an `x-hasura-W<minutes>m` claim. */
export const CHART_WINDOWS = [1, 2, 3, 5, 10, 15, 30, 60, 120, 180, 1440] as const;

export type ChartWindow = (typeof CHART_WINDOWS)[number];

/** Earliest candle date per window band: minute bars (1-3), intraday bars (5-60), long bars (120 and up). */
interface WindowDates {
  readonly minute: string;
  readonly intraday: string;
  readonly long: string;
}

/**
 * The earliest candle date each tier may load, by window band. Fixed calendar dates rather than
 * "N days back" so a token means the same thing whenever it is read and a GraphQL permission can
 * compare a candle's date with the claim directly. The demo world's history starts 2020-01-01
 * (docs/PRODUCT.md section 9: calendar 2020-2025; ensemble sync from 2021-01-01):
 * - staff tiers (superadmin, administrator, manager) see everything;
 * - the research tiers (advanced, backtest) see everything except minute bars before 2021, the
 *   ensemble sync start, because 1-3 minute history is the heaviest to serve;
 * - demo sees a recent slice (enough for a meaningful backtest, not the archive);
 * - trial, basic and support (no Chart menu in docs/PRODUCT.md section 6) get only the latest year or two,
 *   which the dashboard's mini charts need;
 * - anonymous and unknown roles fall back to trial.
 */
const TIER_WINDOW_DATES: Readonly<Record<string, WindowDates>> = {
  superadmin: { minute: '2020-01-01', intraday: '2020-01-01', long: '2020-01-01' },
  administrator: { minute: '2020-01-01', intraday: '2020-01-01', long: '2020-01-01' },
  manager: { minute: '2020-01-01', intraday: '2020-01-01', long: '2020-01-01' },
  advanced: { minute: '2021-01-01', intraday: '2020-01-01', long: '2020-01-01' },
  backtest: { minute: '2021-01-01', intraday: '2020-01-01', long: '2020-01-01' },
  demo: { minute: '2024-01-01', intraday: '2023-01-01', long: '2021-01-01' },
  trial: { minute: '2025-01-01', intraday: '2024-01-01', long: '2023-01-01' },
  basic: { minute: '2025-01-01', intraday: '2024-01-01', long: '2023-01-01' },
  support: { minute: '2025-01-01', intraday: '2024-01-01', long: '2023-01-01' },
};

const FALLBACK_TIER = 'trial';

/**
 * The `W<minutes>m` claims (without the x-hasura- prefix) for a tier.
 * @example windowClaims('demo')['W5m'] -> '2023-01-01'
 */
export function windowClaims(tier: string): Record<string, string> {
  const dates = TIER_WINDOW_DATES[tier] ?? TIER_WINDOW_DATES[FALLBACK_TIER];
  const claims: Record<string, string> = {};
  if (!dates) return claims;
  for (const minutes of CHART_WINDOWS) {
    claims[`W${minutes}m`] = minutes <= 3 ? dates.minute : minutes <= 60 ? dates.intraday : dates.long;
  }
  return claims;
}
