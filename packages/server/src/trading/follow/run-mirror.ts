// What a publisher's paper run tells its followers (follower-desk.ts), in the order it happens:
// each tick its venue saw, each order it placed (with the decision number the publisher's kernel
// gave it), each trailing-stop move, each cancellation and each bar-close mark. The publisher's
// kernel decides; a mirror only executes scaled copies, so there is still one kernel per strategy.
import type { FeedTick, OrderSide } from '@vyuha/engine';

/** One order the publisher's run placed, as its followers copy it. */
export interface MirroredOrder {
  /** The publisher's decision number: the follower's copy takes the same number in its own run. */
  readonly decision: number;
  /** The publisher's client order id (its later moves and cancellations name it). */
  readonly clientOrderId: string;
  readonly instrumentId: number;
  readonly side: OrderSide;
  /** 'market': an entry (squareOff false) or an exit; 'stop' and 'target': the position's protective orders. */
  readonly role: 'market' | 'stop' | 'target';
  readonly orderType: 'MARKET' | 'SL-M' | 'LIMIT';
  readonly squareOff: boolean;
  /** MIS, NRML or CNC: the publisher's product, so the follower's position lives as long. */
  readonly product: string;
  readonly triggerPricePaise?: number;
  readonly pricePaise?: number;
}

export interface RunMirror {
  /**
   * A tick of a traded instrument, as the publisher's venue was given it (jump: a bar's or a
   * session's open); undefined when there was nothing to wait for (no await: no turn lost).
   */
  tick(tick: FeedTick, jump: boolean): Promise<void> | undefined;
  placed(order: MirroredOrder): Promise<void>;
  /** The publisher moved a working stop's trigger (a trailing stop). */
  modified(clientOrderId: string, triggerPricePaise: number): Promise<void>;
  /** The publisher cancelled these working orders (its stop and target once one filled, or the position changed). */
  cancelled(clientOrderIds: readonly string[]): Promise<void>;
  /** The publisher marked its open position at a bar's close. */
  marked(instrumentId: number, pricePaise: number): Promise<void>;
}
