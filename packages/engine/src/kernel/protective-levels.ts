// Stop-loss, target and trailing stop of one position, in paise per unit.
//
// Levels are set from the entry fill price and rounded to the nearest tick. The trailing stop
// follows the best price since entry (a long's highest high, a short's lowest low) at the
// configured distance. Within a bar the order is: check this bar against the levels as they
// stood at the bar's open (the previous bar's ratchet), THEN ratchet on this bar's favourable
// extreme. A bar's high and low come without their order, so a high printed after the low must
// not tighten a stop that the low is then tested against.
import type { ProtectiveCheck } from './ports';
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
  private direction = 0;

  constructor(private readonly config: ProtectiveConfig) {}

  /** Starts the levels of a new position of `direction` (+1/-1) entered at `entryPrice` paise. */
  open(direction: number, entryPrice: number): void {
    const { stopLoss, target, trailingStop, tickSize } = this.config;
    this.direction = direction;
    this.best = entryPrice;
    this.fixedStop = stopLoss === undefined ? Number.NaN : roundToTick(entryPrice - direction * distanceFrom(stopLoss, entryPrice), tickSize);
    this.target = target === undefined ? Number.NaN : roundToTick(entryPrice + direction * distanceFrom(target, entryPrice), tickSize);
    this.trailing = trailingStop === undefined ? Number.NaN : roundToTick(entryPrice - direction * distanceFrom(trailingStop, entryPrice), tickSize);
  }

  /** True when any level is set (otherwise the bar need not be checked). */
  get active(): boolean {
    return this.direction !== 0 && !(Number.isNaN(this.fixedStop) && Number.isNaN(this.target) && Number.isNaN(this.trailing));
  }

  /** Fills `check` with the levels in force now (the tighter of fixed and trailing stop). */
  describe(check: ProtectiveCheck, index: number): void {
    check.direction = this.direction;
    check.index = index;
    check.target = this.target;
    const trailingTighter = !Number.isNaN(this.trailing)
      && (Number.isNaN(this.fixedStop) || this.direction * (this.trailing - this.fixedStop) > 0);
    check.stop = trailingTighter ? this.trailing : this.fixedStop;
    check.stopIsTrailing = trailingTighter;
  }

  /** Moves the trailing stop after the bar was checked: `high`/`low` in paise. It only ever tightens. */
  ratchet(high: number, low: number): void {
    const trailingStop = this.config.trailingStop;
    if (trailingStop === undefined || this.direction === 0) return;
    const extreme = this.direction > 0 ? high : low;
    if (this.direction * (extreme - this.best) <= 0) return;
    this.best = extreme;
    const level = roundToTick(extreme - this.direction * distanceFrom(trailingStop, extreme), this.config.tickSize);
    if (this.direction * (level - this.trailing) > 0) this.trailing = level;
  }

  /**
   * Moves every level and the best price by `delta` paise: a position rolled into another contract
   * (a future's next month, priced `delta` away) keeps its stops at the same distance.
   * @example levels.shift(12_000) // a long's stop at 2_400_000 moves to 2_412_000
   */
  shift(delta: number): void {
    if (this.direction === 0 || delta === 0) return;
    const tick = this.config.tickSize;
    const moved = (level: number): number => (Number.isNaN(level) ? level : roundToTick(level + delta, tick));
    this.fixedStop = moved(this.fixedStop);
    this.target = moved(this.target);
    this.trailing = moved(this.trailing);
    this.best += delta;
  }

  close(): void {
    this.direction = 0;
  }

  /** Current levels in paise (NaN when not set), for tests and display. */
  snapshot(): { stop: number; target: number; trailing: number } {
    return { stop: this.fixedStop, target: this.target, trailing: this.trailing };
  }
}
