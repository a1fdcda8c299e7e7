// The one matching core: every simulated fill of the backtest (the underlying trader through the
// simulated venue, option legs) and of the paper venue is decided here, one tick at a time. A bar
// is matched as its tick path (tick-path.ts): the bar form feeds the path's ticks through the
// same per-tick step the streaming form uses, so a backtest and a replay of the same candles
// through the paper venue make the same fills.
//
// Rules (prices in paise; `from` is where the move to a tick's price started: the previous tick's
// price on a continuous path, the tick's own price after a jump such as a bar's open or an
// order's first tick):
// - A market order fills at the next tick's price with adverse slippage (kernel/slippage.ts).
// - A limit order (buy at or below its level, sell at or above) and a stop order (buy at or
//   above, sell at or below) fill at the first price of the move that is at or beyond the level:
//   after a jump through it (a gap), the tick's price (better for a limit, worse for a stop);
//   on a continuous move, the level itself. Stops then take slippage (a triggered stop is a
//   market order); limits do not.
// - A protective pair (a position's stop, target and trailing stop: kernel/protective-levels.ts)
//   is a stop order and a limit order of the exit side on the same tick stream: whichever level
//   the path reaches first fills (on one tick only one of them can be reached; the stop is asked
//   first). A tick that fills nothing then moves the trailing stop, so a tick can tighten the
//   stop and a later tick of the same bar can hit it.
// Each step writes its outcome into a caller-owned object; nothing is allocated per tick or bar,
// and an item with nothing working is answered without looking at the path.
import type { TradeSide } from '@vyuha/market';
import type { ProtectiveLevels } from '../kernel/protective-levels';
import { slippedPrice } from '../kernel/slippage';
import type { SlippageModel } from '../kernel/slippage';
import { candleTickPath, TICKS_PER_CANDLE, tickTime } from './tick-path';
import type { CandlePrices } from './tick-path';

/** What filled a protective pair. */
export type ProtectiveFillKind = 'stop' | 'trailing' | 'target';
export type OrderType = 'market' | 'limit' | 'stop';

/** The answer of a match, written into a caller-owned object. */
export interface MatchOutcome<Kind extends string> {
  kind: 'none' | Kind;
  /** Fill price in paise (slippage applied where it applies); NaN when nothing filled. */
  price: number;
  /** The tick that filled: its index in the bar's path (bar form) or the tick's own `index`; -1 when none. */
  tick: number;
  /** Epoch ms of that tick; NaN when nothing filled. */
  time: number;
}

/** A working order on one price stream; mutable and reusable. */
export interface WorkingOrder {
  type: OrderType;
  side: TradeSide;
  /** The limit price or the stop's trigger, paise; not read for a market order. */
  level: number;
  /** The last price this order saw (NaN before its first tick, which is then a jump). */
  last: number;
}

/** A position's protective levels on one price stream. */
export interface ProtectivePair {
  readonly levels: ProtectiveLevels;
  /** The last price the pair saw: the entry fill's tick price when armed; NaN when unknown (the next tick is a jump). */
  last: number;
}

/** One tick of the streaming form; a caller-owned object, reused. */
export interface MatchTick {
  /** Paise. */
  price: number;
  /** Epoch ms. */
  time: number;
  /** True when the price got here by a jump (a session's or a candle's open): levels it passed fill at this price. */
  jump: boolean;
  /** Copied into the outcome's `tick`: the tick's place in its candle's path, or a sequence number. */
  index: number;
}

/** A path to match (the bar form): `path[fromTick..3]` is matched; ticks before it were seen before the item was armed. */
export interface PathWindow {
  /** The four ticks of the bar's path, paise (tick-path.ts). */
  readonly path: ArrayLike<number>;
  readonly fromTick: number;
  /** When the bar starts and closes, epoch ms: the fill's time is its tick's time (tick-path.ts). */
  readonly start: number;
  readonly end: number;
}

/** A candle to match as its path (the bar form). */
export interface CandleWindow {
  readonly candle: CandlePrices;
  readonly fromTick: number;
  readonly start: number;
  readonly end: number;
}

/** Clears an outcome to "nothing filled". */
export function clearOutcome(out: MatchOutcome<string>): void {
  out.kind = 'none';
  out.price = Number.NaN;
  out.tick = -1;
  out.time = Number.NaN;
}

/** A fresh outcome object (allocate once per matcher user, then reuse). */
export function emptyOutcome<Kind extends string>(): MatchOutcome<Kind> {
  return { kind: 'none', price: Number.NaN, tick: -1, time: Number.NaN };
}

/** The matching rules for one slippage model and tick size (an instrument, or option premiums). */
export class MatchingCore {
  private readonly buySlippage: { model: SlippageModel; tickSize: number; side: TradeSide };
  private readonly sellSlippage: { model: SlippageModel; tickSize: number; side: TradeSide };
  /** Where the move being matched started (`from` in the rules above), set before each step. */
  private from = 0;
  /** The bar form's path, reused for every candle. */
  private readonly scratch = new Float64Array(TICKS_PER_CANDLE);
  private readonly scratchWindow: { path: ArrayLike<number>; fromTick: number; start: number; end: number } = { path: this.scratch, fromTick: 0, start: 0, end: 0 };

  constructor(model: { readonly slippage: SlippageModel; readonly tickSize: number }) {
    this.buySlippage = { model: model.slippage, tickSize: model.tickSize, side: 'buy' };
    this.sellSlippage = { model: model.slippage, tickSize: model.tickSize, side: 'sell' };
  }

  /**
   * A market order of `side` meeting a tick at `price` paise: the fill price, slippage applied.
   * @example new MatchingCore({ slippage: { kind: 'ticks', ticks: 2 }, tickSize: 5 }).marketPrice('buy', 10_000) // 10010
   */
  marketPrice(side: TradeSide, price: number): number {
    return slippedPrice(side === 'buy' ? this.buySlippage : this.sellSlippage, price);
  }

  /** Streaming form: one tick against a working order; true (and `out` filled) when it fills. */
  orderTick(order: WorkingOrder, tick: MatchTick, out: MatchOutcome<OrderType>): boolean {
    this.from = tick.jump || Number.isNaN(order.last) ? tick.price : order.last;
    order.last = tick.price;
    if (!this.orderStep(order, tick.price, out)) return none(out);
    out.tick = tick.index;
    out.time = tick.time;
    return true;
  }

  /** Streaming form: one tick against a protective pair; a tick that fills nothing moves the trailing stop. */
  protectiveTick(pair: ProtectivePair, tick: MatchTick, out: MatchOutcome<ProtectiveFillKind>): boolean {
    if (!pair.levels.active) return none(out);
    this.from = tick.jump || Number.isNaN(pair.last) ? tick.price : pair.last;
    pair.last = tick.price;
    if (!this.protectiveStep(pair.levels, tick.price, out)) return none(out);
    out.tick = tick.index;
    out.time = tick.time;
    return true;
  }

  /** Bar form over a path: its ticks from `fromTick`, each through the per-tick step; stops at the first fill. */
  orderPath(order: WorkingOrder, window: PathWindow, out: MatchOutcome<OrderType>): boolean {
    const path = window.path;
    for (let tick = window.fromTick; tick < TICKS_PER_CANDLE; tick += 1) {
      const price = path[tick] as number;
      this.from = tick === 0 ? price : (path[tick - 1] as number);
      order.last = price;
      if (this.orderStep(order, price, out)) return filledAt(out, window, tick);
    }
    return none(out);
  }

  /** Bar form over a path for a protective pair; nothing set: answered at once, the path unread. */
  protectivePath(pair: ProtectivePair, window: PathWindow, out: MatchOutcome<ProtectiveFillKind>): boolean {
    const levels = pair.levels;
    if (!levels.active) return none(out);
    const path = window.path;
    for (let tick = window.fromTick; tick < TICKS_PER_CANDLE; tick += 1) {
      const price = path[tick] as number;
      this.from = tick === 0 ? price : (path[tick - 1] as number);
      pair.last = price;
      if (this.protectiveStep(levels, price, out)) return filledAt(out, window, tick);
    }
    return none(out);
  }

  /** Bar form over a candle: its path (tick-path.ts) through `orderPath`. */
  orderBar(order: WorkingOrder, window: CandleWindow, out: MatchOutcome<OrderType>): boolean {
    return this.orderPath(order, this.pathOf(window), out);
  }

  /** Bar form over a candle for a protective pair; nothing set: answered at once. */
  protectiveBar(pair: ProtectivePair, window: CandleWindow, out: MatchOutcome<ProtectiveFillKind>): boolean {
    if (!pair.levels.active) return none(out);
    return this.protectivePath(pair, this.pathOf(window), out);
  }

  private pathOf(window: CandleWindow): PathWindow {
    candleTickPath(window.candle, this.scratch);
    const scratch = this.scratchWindow;
    scratch.fromTick = window.fromTick;
    scratch.start = window.start;
    scratch.end = window.end;
    return scratch;
  }

  /** One order, one move from `this.from` to `price`: the rules at the top of this file. */
  private orderStep(order: WorkingOrder, price: number, out: MatchOutcome<OrderType>): boolean {
    const from = this.from;
    if (order.type === 'market') {
      out.kind = 'market';
      out.price = this.marketPrice(order.side, price);
      return true;
    }
    // s = +1: fills at or above the level (a buy stop, a sell limit); -1: at or below.
    const s = (order.type === 'limit' ? -1 : 1) * (order.side === 'buy' ? 1 : -1);
    if (s * (price - order.level) < 0) return false;
    const reached = s * (from - order.level) >= 0 ? from : order.level;
    out.kind = order.type;
    out.price = order.type === 'stop' ? this.marketPrice(order.side, reached) : reached;
    return true;
  }

  /**
   * A protective pair, one move from `this.from` to `price`. With d = +1 for a long and -1 for a short, a price p is at or
   * beyond the stop when d x (p - stop) <= 0 and the target when d x (p - target) >= 0; a level
   * not set is NaN and every comparison with NaN is false.
   */
  private protectiveStep(levels: ProtectiveLevels, price: number, out: MatchOutcome<ProtectiveFillKind>): boolean {
    const from = this.from;
    const d = levels.direction;
    const stop = levels.stop;
    if (d * (price - stop) <= 0) {
      // The exit of a long sells, of a short buys back; a triggered stop is a market order.
      out.kind = levels.stopIsTrailing ? 'trailing' : 'stop';
      out.price = this.marketPrice(d > 0 ? 'sell' : 'buy', d * (from - stop) <= 0 ? from : stop);
      return true;
    }
    const target = levels.targetLevel;
    if (d * (price - target) >= 0) {
      out.kind = 'target';
      out.price = d * (from - target) >= 0 ? from : target;
      return true;
    }
    levels.trail(price);
    return false;
  }
}

function none(out: MatchOutcome<string>): false {
  clearOutcome(out);
  return false;
}

function filledAt(out: MatchOutcome<string>, window: PathWindow, tick: number): true {
  out.tick = tick;
  out.time = tickTime(window, tick);
  return true;
}
