// Stop-loss, target and trailing stop of one leg, on the leg's premium (paise): the kernel's
// `ProtectiveLevels`, set from the leg's entry fill and rounded to the option tick. This file only
// builds them; they are matched by the one matching core (execution/matching-core.ts) against the
// leg's premium tick path of each bar (leg-pricing.ts), exactly as the underlying's levels are:
// a gap at the open fills at the open, a level crossed later on the path fills at the level,
// whichever level the path reaches first fills, the trailing stop moves tick by tick, and a
// triggered stop takes the slippage model while a target does not.
import type { LegConfig, PremiumDistance } from './config';
import { ProtectiveLevels } from '../kernel/protective-levels';
import type { ExitDistance } from '../kernel/protective-levels';

/** Index options trade on a 0.05 tick. */
export const OPTION_TICK_PAISE = 5;

function exitDistance(distance: PremiumDistance | undefined): ExitDistance | undefined {
  if (distance === undefined) return undefined;
  return 'points' in distance ? { kind: 'points', points: distance.points } : { kind: 'percent', percent: distance.percent };
}

/**
 * The protective levels of a leg filled at `entryPremium` paise; `active` is false when the leg has none.
 * @example legLevels({ ...shortLeg, stopLoss: { percent: 25 } }, 10_000).snapshot().stop // 12500
 */
export function legLevels(leg: LegConfig, entryPremium: number): ProtectiveLevels {
  const stopLoss = exitDistance(leg.stopLoss);
  const target = exitDistance(leg.target);
  const trailingStop = exitDistance(leg.trailingStop);
  const levels = new ProtectiveLevels({
    tickSize: OPTION_TICK_PAISE,
    ...(stopLoss === undefined ? {} : { stopLoss }),
    ...(target === undefined ? {} : { target }),
    ...(trailingStop === undefined ? {} : { trailingStop }),
  });
  levels.open(leg.side === 'buy' ? 1 : -1, entryPremium);
  return levels;
}
