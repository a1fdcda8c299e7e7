// Stop-loss, target and trailing stop of one leg, on the leg's premium bar (paise). The levels
// are the kernel's `ProtectiveLevels` (set from the leg's entry fill, rounded to the tick; the
// trailing stop ratchets on each bar's best premium AFTER that bar was checked), and the check
// follows the kernel's simulated venue to the letter, applied to the premium instead of the index:
// 1. the bar opens at or beyond the stop: stop at the open (a gap fills at the worse price);
// 2. it opens at or beyond the target: target at the open (a resting limit fills at the better price);
// 3. its range touches the stop: stop at the level (the stop wins when both are touched);
// 4. its range touches the target: target at the level.
// Stops take the slippage model (they become market orders); targets do not.
import type { TradeSide } from '@vyuha/market';
import type { LegConfig, PremiumDistance } from './config';
import { ProtectiveLevels } from '../kernel/protective-levels';
import type { ExitDistance } from '../kernel/protective-levels';
import type { ProtectiveCheck, ProtectiveExit } from '../kernel/ports';
import { slippedPrice } from '../kernel/slippage';
import type { SlippageModel } from '../kernel/slippage';

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

/** A premium bar in paise. */
export interface PremiumBar {
  readonly open: number;
  readonly high: number;
  readonly low: number;
}

/**
 * Checks a premium bar against `check`'s levels (NaN = not set) and writes the exit into `out`.
 * `kind` 'none' leaves the leg open.
 */
export function checkPremiumBar(request: { check: ProtectiveCheck; bar: PremiumBar; slippage: SlippageModel }, out: ProtectiveExit): void {
  const { check, bar } = request;
  const d = check.direction > 0 ? 1 : -1;
  const favourable = d > 0 ? bar.high : bar.low;
  const adverse = d > 0 ? bar.low : bar.high;
  const stopSet = !Number.isNaN(check.stop);
  const targetSet = !Number.isNaN(check.target);
  if (stopSet && d * (bar.open - check.stop) <= 0) return stopExit({ check, slippage: request.slippage, price: bar.open }, out);
  if (targetSet && d * (bar.open - check.target) >= 0) return targetExit(bar.open, out);
  if (stopSet && d * (adverse - check.stop) <= 0) return stopExit({ check, slippage: request.slippage, price: check.stop }, out);
  if (targetSet && d * (favourable - check.target) >= 0) return targetExit(check.target, out);
  out.kind = 'none';
  out.price = Number.NaN;
}

function stopExit(request: { check: ProtectiveCheck; slippage: SlippageModel; price: number }, out: ProtectiveExit): void {
  // A long's exit sells, a short's buys back.
  const side: TradeSide = request.check.direction > 0 ? 'sell' : 'buy';
  out.kind = request.check.stopIsTrailing ? 'trailing' : 'stop';
  out.price = slippedPrice({ model: request.slippage, tickSize: OPTION_TICK_PAISE, side }, request.price);
}

function targetExit(price: number, out: ProtectiveExit): void {
  out.kind = 'target';
  out.price = price;
}
