// The option legs' counterpart of kernel/adopted-venue.ts: on a live tick stream the legs' stops,
// targets and trailing stops inside a bar are what the venue filled, not the trader's own match of
// the bar's four-tick premium path.
//
// Why: in a backtest and a replay each bar is four ticks, so the trader's match of a leg on its
// premium path and the venue's match of the same four premiums agree. Live there are many ticks a
// bar (60 on the simulated market at 1-minute bars); a leg's premium may cross its stop at a tick
// the four-tick path never shows, and a trailing stop follows every tick. The venue saw them, so
// before each bar's close the runtime tells the trader, per contract and exit side, the exit the
// venue made (kind, price, time) and the levels after the bar's ticks; the trader's path step then
// records that exit instead of matching, and carries the venue's levels forward.
//
// Optional: a trader built without it (every backtest and replay) never reads it.
import type { TradeSide } from '@vyuha/market';
import type { ProtectiveFillKind } from '../execution/matching-core';
import type { ProtectiveLevels } from '../kernel/protective-levels';

/** A leg's protective exit the venue made inside the bar being closed. */
export interface AdoptedLegExit {
  readonly kind: ProtectiveFillKind;
  /** Paise. */
  readonly price: number;
  /** Epoch ms of the fill. */
  readonly time: number;
}

/** Which legs an adopted exit or level belongs to: the contract and the side of its exit order. */
export interface AdoptedLegKey {
  readonly symbol: string;
  readonly exitSide: TradeSide;
}

function keyOf(key: AdoptedLegKey): string {
  return `${key.exitSide} ${key.symbol}`;
}

export class AdoptedLegExits {
  private exits = new Map<string, AdoptedLegExit>();
  private levels = new Map<string, ProtectiveLevels>();

  /**
   * What the venue did inside the bar about to close: its exits, and the levels of legs still
   * protected after the bar's ticks (a leg left out keeps the trader's own levels). Read by that
   * bar's path step only; legs of one contract and side share both (they see the same premiums).
   * @example adopted.adopt([{ symbol: 'NIFTY2510923600CE', exitSide: 'buy', exit: { kind: 'stop', price: 18_500, time } }])
   */
  adopt(legs: ReadonlyArray<AdoptedLegKey & { readonly exit?: AdoptedLegExit; readonly levels?: ProtectiveLevels }>): void {
    this.exits = new Map();
    this.levels = new Map();
    for (const leg of legs) {
      const key = keyOf(leg);
      if (leg.exit !== undefined) {
        if (this.exits.has(key)) throw new RangeError(`${key}: two exits told for one contract and side in one bar`);
        this.exits.set(key, leg.exit);
      }
      if (leg.levels !== undefined) this.levels.set(key, leg.levels);
    }
  }

  /**
   * The venue's exit of a leg in this bar, or undefined (the leg stays open); the leg's `levels`
   * take the venue's levels when it told any.
   */
  exitOf(leg: AdoptedLegKey, levels: ProtectiveLevels): AdoptedLegExit | undefined {
    const key = keyOf(leg);
    const venueLevels = this.levels.get(key);
    if (venueLevels !== undefined) levels.copyFrom(venueLevels);
    return this.exits.get(key);
  }

  /** The bar's path step is done: what the venue told is spent, so a later bar never reads it. */
  spend(): void {
    if (this.exits.size > 0) this.exits = new Map();
    if (this.levels.size > 0) this.levels = new Map();
  }
}
