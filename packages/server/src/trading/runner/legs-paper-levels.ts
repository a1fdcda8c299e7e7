// What of an option-legs configuration the paper runtime runs, and the protective levels of each
// entry slice it protects at the venue (legs-paper-run.ts).
// - The levels are the trader's own (engine options-legs/leg-exits.ts `legLevels`): the kernel's
//   ProtectiveLevels on the 0.05 premium tick, opened at the entry fill; rebuilt here from the
//   leg's config because the trader keeps its legs to itself.
// - An entry fill names only its contract; its leg is found by CE/PE and buy/sell among the legs
//   of the side the trader holds. Legs of one side alike in both must have the same exits (else
//   the configuration is refused), so whichever is found gives the same levels.
import { ProtectiveLevels } from '@vyuha/engine';
import type { LegConfig, OptionsLegsConfig, PremiumDistance, ProtectiveDistance } from '@vyuha/engine';
import { parseTradingSymbol } from '@vyuha/market';

/** Index options trade on a 0.05 tick (the legs' levels are rounded to it, as the trader's). */
const OPTION_TICK_PAISE = 5;

/**
 * Why a legs configuration cannot run on paper yet, or undefined when it can, intraday or swing
 * (a swing leg held to its expiry is settled by the OMS: oms/expiry-settlement.ts). At-cost
 * re-entries: a resting entry filled inside a bar, whose stop would have to be placed from the
 * trader's own state. The strategy's `type` no longer decides anything; callers still pass it.
 * @example legsPaperRefusal({ ...SHORT_STRADDLE_LEGS, onBuy: [{ ...leg, reEntry: { mode: 'at-cost' } }] }) // 'onBuy[0].reEntry: at-cost re-entries are not run on paper yet'
 */
export function legsPaperRefusal(legs: OptionsLegsConfig, _type?: 'intraday' | 'swing'): string | undefined {
  for (const [group, templates] of [['onBuy', legs.onBuy], ['onSell', legs.onSell]] as const) {
    for (const [index, leg] of templates.entries()) {
      if (leg.reEntry?.mode === 'at-cost') return `${group}[${index}].reEntry: at-cost re-entries are not run on paper yet`;
      const twin = templates.findIndex((other) => other.option === leg.option && other.side === leg.side && exitsKey(other) !== exitsKey(leg));
      if (twin >= 0) {
        return `${group}[${twin}]: legs ${index} and ${twin} both ${leg.side} ${leg.option} with different exits; paper cannot tell their fills apart yet`;
      }
    }
  }
  return undefined;
}

function exitsKey(leg: LegConfig): string {
  return JSON.stringify([leg.stopLoss ?? null, leg.target ?? null, leg.trailingStop ?? null]);
}

/**
 * The leg an entry fill of `instrument` on `side` belongs to: first among the legs of the side the
 * trader holds (`position` -1: `onSell`, else `onBuy`); undefined when no leg trades it.
 * @example legOfEntry(SHORT_STRADDLE_LEGS, { instrument: 'NIFTY2510924000PE', side: 'sell', position: 1 })?.option // 'PE'
 */
export function legOfEntry(legs: OptionsLegsConfig, entry: { readonly instrument: string; readonly side: 'buy' | 'sell'; readonly position: number }): LegConfig | undefined {
  const contract = parseTradingSymbol(entry.instrument);
  if (contract.kind !== 'option') return undefined;
  const groups = entry.position === -1 ? [legs.onSell, legs.onBuy] : [legs.onBuy, legs.onSell];
  for (const group of groups) {
    const leg = group.find((candidate) => candidate.option === contract.optionType && candidate.side === entry.side);
    if (leg !== undefined) return leg;
  }
  return undefined;
}

/**
 * The protective levels of a slice of `leg` filled at `entryPremium` paise, as the trader opens them.
 * @example sliceLevels({ ...shortLeg, stopLoss: { percent: 30 } }, 10_000).stop // 13000
 */
export function sliceLevels(leg: LegConfig, entryPremium: number): ProtectiveLevels {
  const stopLoss = distanceOf(leg.stopLoss);
  const target = distanceOf(leg.target);
  const trailingStop = distanceOf(leg.trailingStop);
  const levels = new ProtectiveLevels({
    tickSize: OPTION_TICK_PAISE,
    ...(stopLoss === undefined ? {} : { stopLoss }), ...(target === undefined ? {} : { target }), ...(trailingStop === undefined ? {} : { trailingStop }),
  });
  levels.open(leg.side === 'buy' ? 1 : -1, entryPremium);
  return levels;
}

function distanceOf(distance: PremiumDistance | undefined): ProtectiveDistance | undefined {
  if (distance === undefined) return undefined;
  return 'points' in distance ? { kind: 'points', points: distance.points } : { kind: 'percent', percent: distance.percent };
}
