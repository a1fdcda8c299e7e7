// The OMS's vocabulary: what a run tells the OMS about itself, what an order request holds, and
// what the OMS answers. The strategy runner is built on these (packages/server/src/trading/README.md).
//
// Client order ids: a run's orders are numbered by DECISION (0, 1, 2, ... as the runner decides
// them); slice k (0..9) of decision d has the client order id `<run id>-<d x 10 + k>` (the engine's
// `clientOrderIdFor` with sequence d x 10 + k). The same decision asked again (a restarted runner)
// finds its rows and continues from their stored state, never a second order.
import type { ChargesConfig } from '@vyuha/engine';
import type { OmsOrderStatus, OmsOrderType, OrderEventErrorCode, OrderSide, RiskRefusalCode } from '@vyuha/engine';

/** How many client order ids one decision reserves: its slices (at most 10 at the freeze quantity). */
export const SLICES_PER_DECISION = 10;

/** What the OMS needs to know about a run before it places or recovers the run's orders. */
export interface RunContext {
  readonly runId: string;
  readonly userId: string;
  /** NULL for runs not tied to a strategy. */
  readonly strategyId: string | null;
  /** The broker account the orders go through (NULL on paper without an account). */
  readonly userBrokerId: string | null;
  /** The exchange-issued algo id every order of the strategy carries. */
  readonly algoId: string | null;
  /** How fills are charged: the backtest's charge model (engine `chargeModelOf`), on the fill's IST date. */
  readonly charges: ChargesConfig;
  /** A run trading several instruments charged differently (a basket's legs): each one's model, `charges` for the rest. */
  readonly chargesByInstrument?: ReadonlyMap<number, ChargesConfig>;
  /** The strategy's daily max loss (a positive amount of paise); no limit when absent. */
  readonly strategyMaxLossPaise?: number;
  /** The user's daily max loss over all their strategies; no limit when absent. */
  readonly userMaxLossPaise?: number;
}

/** One order decided by a run. */
export interface PlaceOrderRequest {
  readonly runId: string;
  /** The run's decision number (0, 1, 2, ...): deterministic, so a repeat finds the stored rows. */
  readonly decision: number;
  readonly instrumentId: number;
  readonly side: OrderSide;
  readonly quantity: number;
  readonly orderType: OmsOrderType;
  readonly pricePaise?: number;
  readonly triggerPricePaise?: number;
  /** The broker product code (MIS, NRML, CNC, ...), as the orders table allows. */
  readonly product: string;
  /** A square-off that only reduces the position: allowed with a kill switch on or past a daily max loss. */
  readonly squareOff?: boolean;
  /** The last traded price, for the price band of LIMIT and SL orders; else the stored last price. */
  readonly referencePricePaise?: number;
}

/** A field of a request that is wrong, or a risk check's refusal. */
export interface OmsIssue {
  readonly field?: string;
  readonly code: RiskRefusalCode | 'invalid-request' | 'unknown-run' | 'unknown-instrument' | 'decision-taken';
  readonly message: string;
}

/** New levels for a working order (`Oms.modifyOrder`): its price, its trigger, or both. */
export interface ModifyOrderRequest {
  readonly clientOrderId: string;
  readonly pricePaise?: number;
  readonly triggerPricePaise?: number;
  /** The last traded price, for the price band of the new levels; else the stored last price. */
  readonly referencePricePaise?: number;
}

/** Why a modification was not made: a field of the request, the state machine, the price band or the venue. */
export interface OmsModifyIssue {
  readonly field?: string;
  readonly code:
    | 'invalid-request' | 'unknown-order' | OrderEventErrorCode | Extract<RiskRefusalCode, 'no-price-band' | 'price-outside-band' | 'trigger-outside-band'>
    | 'modify-unsupported' | 'modify-refused' | 'modify-unanswered';
  readonly message: string;
}

/** One order row as the OMS reports it. */
export interface OmsOrderView {
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly status: OmsOrderStatus;
  readonly quantity: number;
  readonly filledQuantity: number;
  /** Set while the order waits in the order-rate queue: when it is expected to leave. */
  readonly queuedUntilMs: number | null;
  readonly brokerOrderId: string | null;
  readonly statusMessage: string | null;
}

/** What `placeOrder` answers: the decision's orders (its slices), each as stored now. */
export interface PlacedDecision {
  /** True when the decision's rows already existed (a repeat after a restart): nothing new was written. */
  readonly existing: boolean;
  readonly orders: readonly OmsOrderView[];
}

/** The message on a row waiting in the order-rate queue. */
export const QUEUED_MESSAGE = 'queued: at most 10 orders per second per user and exchange segment';
/** The message of an order withdrawn before it left because a kill switch is on. */
export const KILL_SWITCH_WITHDRAWN = 'withdrawn before it was sent: kill switch on';
