// Stop-loss, target and trailing stop of one position, in paise per unit.
//
// Levels are set from the entry fill price and rounded to the nearest tick. The trailing stop
// follows the best price since entry (a long's highest price, a short's lowest) at the
// configured distance. The matching core (execution/matching-core.ts) checks each tick against
// the levels and, when nothing fills, moves the trailing stop by that tick (`trail`): a bar is
// matched as its tick path (execution/tick-path.ts), so a tick can tighten the stop and a later
// tick of the same bar can hit it. The effective stop (the tighter of the fixed and the trailing
// stop) is kept up to date here, so a tick reads it without comparing the two.
import { roundToTick } from './slippage';

/** A distance from a price: percent of it, or points (rupees per unit). */
export type ExitDistance = { readonly kind: 'percent'; readonly percent: number } | { readonly kind: 'points'; readonly points: number };

export interface ProtectiveConfig {
  readonly stopLoss?: ExitDistance;
  readonly target?: ExitDistance;
  readonly trailingStop?: ExitDistance;
  /** Paise. */
  readonly tickSize: number;
}

function distanceFrom(distance: ExitDistance, price: number): number {
  return distance.kind === 'percent' ? (price * distance.percent) / 100 : distance.points * 100;
}

/** Mutable levels of the open position; one instance per trader, reused for every position. */
export class ProtectiveLevels {
  private fixedStop = Number.NaN;
  private target = Number.NaN;
  private trailing = Number.NaN;
  private best = Number.NaN;
  private side = 0;
  private effectiveStop = Number.NaN;
  private effectiveIsTrailing = false;

  constructor(private readonly config: ProtectiveConfig) {}

  /** Starts the levels of a new position of `direction` (+1/-1) entered at `entryPrice` paise. */
  open(direction: number, entryPrice: number): void {
    const { stopLoss, target, trailingStop, tickSize } = this.config;
    this.side = direction;
    this.best = entryPrice;
    this.fixedStop = stopLoss === undefined ? Number.NaN : roundToTick(entryPrice - direction * distanceFrom(stopLoss, entryPrice), tickSize);
    this.target = target === undefined ? Number.NaN : roundToTick(entryPrice + direction * distanceFrom(target, entryPrice), tickSize);
    this.trailing = trailingStop === undefined ? Number.NaN : roundToTick(entryPrice - direction * distanceFrom(trailingStop, entryPrice), tickSize);
    this.settleStop();
  }

  /** True when any level is set (otherwise the bar need not be checked). */
  get active(): boolean {
    return this.side !== 0 && !(Number.isNaN(this.fixedStop) && Number.isNaN(this.target) && Number.isNaN(this.trailing));
  }

  /** +1 long, -1 short, 0 when no position is open. */
  get direction(): number {
    return this.side;
  }

  /** The stop in force (paise, NaN when none): the tighter of the fixed and the trailing stop. */
  get stop(): number {
    return this.effectiveStop;
  }

  /** True when `stop` is the trailing stop. */
  get stopIsTrailing(): boolean {
    return this.effectiveIsTrailing;
  }

  /** The target in force (paise, NaN when none). */
  get targetLevel(): number {
    return this.target;
  }

  /**
   * Moves the trailing stop by one tick's price (paise) that did not hit a level: it follows a
   * new best price and only ever tightens.
   * @example levels.trail(10_500) // a long trailed by 2 points: best 10_500, trailing stop 10_300
   */
  trail(price: number): void {
    const trailingStop = this.config.trailingStop;
    if (trailingStop === undefined || this.side * (price - this.best) <= 0) return;
    this.best = price;
    const level = roundToTick(price - this.side * distanceFrom(trailingStop, price), this.config.tickSize);
    if (this.side * (level - this.trailing) > 0) {
      this.trailing = level;
      this.settleStop();
    }
  }

  /**
   * Moves every level and the best price by `delta` paise: a position rolled into another contract
   * (a future's next month, priced `delta` away) keeps its stops at the same distance.
   * @example levels.shift(12_000) // a long's stop at 2_400_000 moves to 2_412_000
   */
  shift(delta: number): void {
    if (this.side === 0 || delta === 0) return;
    const tick = this.config.tickSize;
    const moved = (level: number): number => (Number.isNaN(level) ? level : roundToTick(level + delta, tick));
    this.fixedStop = moved(this.fixedStop);
    this.target = moved(this.target);
    this.trailing = moved(this.trailing);
    this.best += delta;
    this.settleStop();
  }

  /** Becomes a copy of `other` (same config): a runtime follows the levels tick by tick on a copy while the kernel's own wait for the bar's close. */
  copyFrom(other: ProtectiveLevels): void {
    this.fixedStop = other.fixedStop;
    this.target = other.target;
    this.trailing = other.trailing;
    this.best = other.best;
    this.side = other.side;
    this.effectiveStop = other.effectiveStop;
    this.effectiveIsTrailing = other.effectiveIsTrailing;
  }

  /** A new, unopened set of levels with the same rules. */
  blank(): ProtectiveLevels {
    return new ProtectiveLevels(this.config);
  }

  close(): void {
    this.side = 0;
    this.effectiveStop = Number.NaN;
    this.effectiveIsTrailing = false;
  }

  /** The effective stop after any level changed. */
  private settleStop(): void {
    const trailingTighter = !Number.isNaN(this.trailing)
      && (Number.isNaN(this.fixedStop) || this.side * (this.trailing - this.fixedStop) > 0);
    this.effectiveStop = trailingTighter ? this.trailing : this.fixedStop;
    this.effectiveIsTrailing = trailingTighter;
  }

  /** Current levels in paise (NaN when not set), for tests and display. */
  snapshot(): { stop: number; target: number; trailing: number } {
    return { stop: this.fixedStop, target: this.target, trailing: this.trailing };
  }
}
