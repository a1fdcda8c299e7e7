// Placing a saved basket on paper, all or nothing, and the user's choice when it stops half-way.
// LIVE placement (live-basket.ts) sends the legs the same way through the broker account's OMS in
// the strategy worker holding it, with this file's decision numbers, outcomes and rule.
//
// Invariants:
// - One placement is one strategy_runs row (kind PAPER, the basket's strategy, the user's), and
//   every leg goes through the OMS and the paper venue as a strategy's order does (oms/, paper/):
//   risk checks, rows written before sending, the fill with its position and daily P&L in one
//   transaction, charged by the engine's model for the leg's instrument.
// - Legs go one at a time, in the basket's order (decision i = leg i). The first leg that does
//   not fill (refused by a risk check, rejected, or a LIMIT/stop leg whose level the current price
//   has not reached: paper fills a basket leg at once or cancels it) stops the placement: the
//   legs after it are never sent.
// - Each leg is priced now (basket-quotes.ts) and the venue is given that price as the
//   instrument's tick before the order, so a MARKET leg fills at the previewed price.
// - The outcome per leg, and later the user's choice (keep the filled legs or square them off),
//   are written on the run's `result`; the run ends COMPLETE (every leg filled) or ERROR with
//   the reason in words in `status_reason` (then `ERROR: SQUARED OFF` once squared off).
import type { OmsOrderStatus } from '@vyuha/engine';
import type pg from 'pg';
import { ManualScheduler } from '../feeds/scheduler';
import { KillSwitchWatch } from '../kill-switch-watch';
import type { Oms } from '../oms/oms';
import { readInstrument } from '../oms/risk-inputs';
import type { PaperVenue } from '../paper/paper-venue';
import { withPaperOms } from '../runner/paper-oms';
import { BasketRefusal } from './basket-legs';
import type { BasketDocument } from './basket-legs';
import { quoteBasket, registerLegInstruments } from './basket-quotes';
import type { QuotedLeg } from './basket-quotes';
import { readOwnBasket } from './basket-store';

/** How a leg ended (PENDING: not yet, in the result of a LIVE placement its runner is still sending: live-basket.ts). */
export type LegStatus = 'FILLED' | 'REFUSED' | 'REJECTED' | 'NOT_FILLED' | 'NOT_SENT' | 'PENDING';

export interface LegOutcome {
  readonly index: number;
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  readonly quantity: number;
  readonly status: LegStatus;
  /** Why it did not fill, in words (the risk check's sentence, the venue's, or ours). */
  readonly message: string | null;
  readonly averagePricePaise: number | null;
  readonly chargesPaise: number;
}

export type BasketChoice = 'keep' | 'square-off';

/** What a placement answers and what the run's `result` holds. */
export interface BasketResult {
  readonly basket: true;
  readonly legs: readonly LegOutcome[];
  /** Every leg filled. */
  readonly complete: boolean;
  /** Some legs filled and a later one did not: the user keeps or squares off the filled ones. */
  readonly needsChoice: boolean;
  readonly choice: BasketChoice | null;
  readonly choiceAt: string | null;
  /** The square-off orders' outcome, once chosen. */
  readonly squareOff: readonly LegOutcome[];
}

export interface BasketPlacementContext {
  readonly pool: pg.Pool;
  /** Shared by the process; one is opened for the call when absent. */
  readonly killSwitches?: KillSwitchWatch;
  /** The clock (default Date.now): the legs' prices and the fills' times. */
  readonly now?: () => number;
}

/** The first decision of the choice's square-off: 100 + i for leg i on paper, 100 + k for a LIVE run's k-th open position (live-basket.ts). */
export const SQUARE_OFF_DECISION_BASE = 100;

/** Runs `work` with the context's kill switch watch, or one opened for the call. */
export async function withWatch<T>(context: BasketPlacementContext, work: (watch: KillSwitchWatch) => Promise<T>): Promise<T> {
  const watch = context.killSwitches ?? await KillSwitchWatch.open({ pool: context.pool });
  try {
    return await work(watch);
  } finally {
    if (context.killSwitches === undefined) await watch.close();
  }
}

export interface LegOrder {
  readonly leg: QuotedLeg;
  readonly decision: number;
  readonly side: 'BUY' | 'SELL';
  readonly squareOff: boolean;
}

/** The decision's orders as stored: their statuses and messages, the fills' average price and charges. */
export async function decisionOutcome(pool: pg.Pool, runId: string, decision: number): Promise<{
  statuses: OmsOrderStatus[]; message: string | null; averagePricePaise: number | null; chargesPaise: number; filled: number;
}> {
  const { rows } = await pool.query<{ status: OmsOrderStatus; status_message: string | null; filled: number; value: number | null; charges: number | null }>(
    `SELECT o.status, o.status_message, o.filled_quantity AS filled,
       (SELECT sum(f.quantity * f.price_paise)::float8 FROM fills f WHERE f.order_id = o.order_id) AS value,
       (SELECT sum(c.value::numeric)::float8 FROM fills f, jsonb_each_text(f.charges_paise) c WHERE f.order_id = o.order_id) AS charges
     FROM orders o WHERE o.run_id = $1 AND o.client_order_id = ANY($2::text[]) ORDER BY o.client_order_id`,
    [runId, Array.from({ length: 10 }, (_, slice) => `${runId}-${decision * 10 + slice}`)]);
  const filled = rows.reduce((sum, row) => sum + row.filled, 0);
  const value = rows.reduce((sum, row) => sum + (row.value ?? 0), 0);
  return {
    statuses: rows.map((row) => row.status), message: rows.find((row) => row.status_message !== null)?.status_message ?? null,
    averagePricePaise: filled === 0 ? null : Math.round(value / filled), chargesPaise: rows.reduce((sum, row) => sum + (row.charges ?? 0), 0), filled,
  };
}

/** Sends one leg's order on its own OMS (its charges are its instrument's) and waits for its end. */
export async function sendLeg(context: BasketPlacementContext & {
  readonly watch: KillSwitchWatch; readonly runId: string; readonly userId: string; readonly strategyId: string | null;
},
  order: LegOrder): Promise<LegOutcome> {
  const { leg } = order;
  const instrumentId = leg.instrumentId as number;
  const instrument = await readInstrument(context.pool, instrumentId);
  const nowMs = (context.now ?? Date.now)();
  const base = { index: leg.index, symbol: leg.leg.symbol, side: order.side, quantity: leg.quantity };
  return withPaperOms({
    pool: context.pool, runId: context.runId, userId: context.userId, strategyId: context.strategyId, algoId: null, clock: new ManualScheduler(nowMs),
    rules: { tickSizePaise: instrument?.tickSizePaise ?? 5, slippage: { kind: 'none' } }, charges: leg.charges, killSwitches: context.watch,
  }, async ({ oms, venue }: { oms: Oms; venue: PaperVenue }): Promise<LegOutcome> => {
    const tick = { instrumentId, time: nowMs, price: leg.pricePaise, volume: 0, synthetic: true };
    venue.onTick(tick);
    const market = order.squareOff || leg.leg.order_type === 'MARKET';
    const placed = await oms.placeOrder({
      runId: context.runId, decision: order.decision, instrumentId, side: order.side, quantity: leg.quantity,
      orderType: order.squareOff ? 'MARKET' : leg.leg.order_type, product: leg.product, referencePricePaise: leg.pricePaise, squareOff: order.squareOff,
      ...(market || leg.leg.price_paise === undefined ? {} : { pricePaise: leg.leg.price_paise }),
      ...(market || leg.leg.trigger_price_paise === undefined ? {} : { triggerPricePaise: leg.leg.trigger_price_paise }),
    });
    if (!placed.ok) return { ...base, status: 'REFUSED', message: placed.error.map((issue) => issue.message).join('; '), averagePricePaise: null, chargesPaise: 0 };
    // A LIMIT or stop leg meets the current price as a jump: a level already passed fills there.
    if (!market) venue.onTick(tick, { jump: true });
    await oms.settled();
    let outcome = await decisionOutcome(context.pool, context.runId, order.decision);
    const working = placed.value.orders.filter((view, slice) => outcome.statuses[slice] !== 'FILLED' && outcome.statuses[slice] !== 'REJECTED'
      && outcome.statuses[slice] !== 'CANCELLED').map((view) => view.clientOrderId);
    for (const clientOrderId of working) await oms.cancelIfWorking(clientOrderId);
    if (working.length > 0) {
      await oms.settled();
      outcome = await decisionOutcome(context.pool, context.runId, order.decision);
    }
    const filled = outcome.filled === leg.quantity;
    const rejected = outcome.statuses.includes('REJECTED');
    const message = filled ? null : rejected ? outcome.message ?? 'rejected by the venue'
      : `the ${leg.leg.order_type} level was not reached at the current price, so the order was cancelled (on paper a basket leg fills at once or not at all)`;
    return { ...base, status: filled ? 'FILLED' : rejected ? 'REJECTED' : 'NOT_FILLED', message, averagePricePaise: outcome.averagePricePaise, chargesPaise: outcome.chargesPaise };
  });
}

/** A leg after the one that did not fill. */
export function leftOut(leg: QuotedLeg): LegOutcome {
  return { index: leg.index, symbol: leg.leg.symbol, side: leg.leg.side, quantity: leg.quantity, status: 'NOT_SENT', message: 'not sent: an earlier leg did not fill', averagePricePaise: null, chargesPaise: 0 };
}

/**
 * Runs `work` holding the run's advisory lock (one connection for its length), so two square-offs
 * of one basket run (the choice and /positions, say) never both send a closing order.
 */
export async function withRunLock<T>(pool: pg.Pool, runId: string, work: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(`SELECT pg_advisory_lock(hashtextextended('basket-run:' || $1, 0))`, [runId]);
    try {
      return await work();
    } finally {
      await client.query(`SELECT pg_advisory_unlock(hashtextextended('basket-run:' || $1, 0))`, [runId]);
    }
  } finally {
    client.release();
  }
}

/** The reason in words for a run that did not fill every leg. */
export function reasonOf(outcomes: readonly LegOutcome[]): string {
  const failed = outcomes.find((outcome) => outcome.status !== 'FILLED' && outcome.status !== 'NOT_SENT');
  const filled = outcomes.filter((outcome) => outcome.status === 'FILLED').length;
  const which = failed === undefined ? '' : `leg ${failed.index + 1} (${failed.symbol}) ${failed.status === 'NOT_FILLED' ? 'did not fill' : 'was refused'}: ${failed.message ?? ''}`;
  return `${which}; ${filled === 0 ? 'nothing was filled' : `${filled} leg${filled === 1 ? '' : 's'} filled: keep or square off`}`;
}

/** The basket's legs priced, or the refusal naming each field. */
export async function quotedOrRefused(pool: pg.Pool, basket: BasketDocument, nowMs: number): Promise<QuotedLeg[]> {
  const quoted = await quoteBasket(pool, basket, nowMs);
  if (quoted.issues.length > 0) throw new BasketRefusal(quoted.issues);
  return quoted.legs;
}

/**
 * Places the user's saved basket on paper: a new PAPER run, the legs in order until one does not
 * fill. Throws BasketRefusal (nothing written) for another user's or an unknown basket and for
 * any leg that cannot be priced.
 * @example await placeBasket({ pool }, { userId, strategyId }) // { runId, result: { complete: true, legs: [{ status: 'FILLED', ... }] } }
 */
export async function placeBasket(context: BasketPlacementContext, request: { readonly userId: string; readonly strategyId: string }): Promise<{ runId: string; result: BasketResult }> {
  const basket = await readOwnBasket(context.pool, request);
  return placeBasketDocument(context, { ...request, document: basket.document });
}

/**
 * Places `document` on paper as placeBasket places a saved basket (a new PAPER run of `strategyId`
 * for `userId`); `extraParams` are merged into the run's params beside `basket` (an ensemble sync
 * names its ensemble and account there: trading/ensembles/).
 * @example await placeBasketDocument({ pool }, { userId, strategyId, document }) // { runId, result: { complete: true, ... } }
 */
export async function placeBasketDocument(context: BasketPlacementContext, request: {
  readonly userId: string; readonly strategyId: string; readonly document: BasketDocument; readonly extraParams?: Record<string, unknown>;
}): Promise<{ runId: string; result: BasketResult }> {
  const { pool } = context;
  const nowMs = (context.now ?? Date.now)();
  const legs = await registerLegInstruments(pool, await quotedOrRefused(pool, request.document, nowMs), nowMs);
  // The heartbeat keeps the runners' take-over scan off this run while it places (it is no strategy job).
  const { rows } = await pool.query<{ run_id: string }>(
    `INSERT INTO strategy_runs (strategy_id, user_id, kind, status, params, heartbeat_at, lease_owner)
     VALUES ($1, $2, 'PAPER', 'IN PROGRESS', $3, now(), 'basket') RETURNING run_id`,
    [request.strategyId, request.userId, JSON.stringify({ ...request.extraParams, basket: { ...request.document, prices: legs.map((leg) => leg.pricePaise) } })]);
  const runId = rows[0]!.run_id;
  const outcomes = await withWatch(context, async (watch) => {
    const done: LegOutcome[] = [];
    for (const leg of legs) {
      const stopped = done.some((outcome) => outcome.status !== 'FILLED');
      done.push(stopped ? leftOut(leg) : await sendLeg({ ...context, watch, runId, userId: request.userId, strategyId: request.strategyId },
        { leg, decision: leg.index, side: leg.leg.side, squareOff: false }));
    }
    return done;
  });
  const complete = outcomes.every((outcome) => outcome.status === 'FILLED');
  const needsChoice = !complete && outcomes.some((outcome) => outcome.status === 'FILLED');
  const result: BasketResult = { basket: true, legs: outcomes, complete, needsChoice, choice: null, choiceAt: null, squareOff: [] };
  await pool.query(
    `UPDATE strategy_runs SET status = $2, result = $3, status_reason = $4, error = $4, finished_at = now(), heartbeat_at = NULL, lease_owner = NULL WHERE run_id = $1`,
    [runId, complete ? 'COMPLETE' : 'ERROR', JSON.stringify(result), complete ? null : reasonOf(outcomes)]);
  return { runId, result };
}

/**
 * The user's choice after a PAPER basket stopped with legs filled: keep them, or square them off (a
 * MARKET order against each filled leg at its price now). Recorded once; a second choice, a run
 * that needs none, another user's run or a LIVE one (live-basket.ts chooses those) is refused with
 * nothing changed.
 * @example await chooseBasketOutcome({ pool }, { userId, runId, choice: 'square-off' }) // { ..., choice: 'square-off', squareOff: [{ status: 'FILLED' }] }
 */
export async function chooseBasketOutcome(context: BasketPlacementContext, request: { readonly userId: string; readonly runId: string; readonly choice: BasketChoice }): Promise<BasketResult> {
  const { pool } = context;
  // The choice is claimed first (compare-and-set on the row), so two clicks cannot both square off.
  const { rows } = await pool.query<{ result: BasketResult; params: { basket: BasketDocument }; strategy_id: string }>(
    `UPDATE strategy_runs SET result = result || jsonb_build_object('choice', $3::text, 'choiceAt', now()::text)
     WHERE run_id = $1 AND user_id = $2 AND kind = 'PAPER' AND params ? 'basket' AND (result ->> 'needsChoice')::boolean AND result ->> 'choice' IS NULL
     RETURNING result, params, strategy_id`, [request.runId, request.userId, request.choice]);
  const claimed = rows[0];
  if (claimed === undefined) {
    throw new BasketRefusal([{ field: 'run_id', code: 'no-choice', message: `run ${request.runId} is not a basket placement of yours waiting for a keep or square-off choice` }]);
  }
  if (request.choice === 'keep') return claimed.result;
  const nowMs = (context.now ?? Date.now)();
  const filled = new Set(claimed.result.legs.filter((leg) => leg.status === 'FILLED').map((leg) => leg.index));
  const document = claimed.params.basket;
  const legs = await registerLegInstruments(pool, await quotedOrRefused(pool, { ...document, legs: document.legs.filter((_, index) => filled.has(index)) }, nowMs), nowMs);
  const squareOff = await withRunLock(pool, request.runId, () => withWatch(context, async (watch) => {
    const done: LegOutcome[] = [];
    for (const [position, leg] of legs.entries()) {
      const original = [...filled][position] as number;
      const closing = { ...leg, index: original };
      done.push(await sendLeg({ ...context, watch, runId: request.runId, userId: request.userId, strategyId: claimed.strategy_id },
        { leg: closing, decision: SQUARE_OFF_DECISION_BASE + original, side: leg.leg.side === 'BUY' ? 'SELL' : 'BUY', squareOff: true }));
    }
    return done;
  }));
  const result: BasketResult = { ...claimed.result, squareOff };
  const closed = squareOff.every((outcome) => outcome.status === 'FILLED');
  await pool.query(`UPDATE strategy_runs SET result = $2, status = $3 WHERE run_id = $1`,
    [request.runId, JSON.stringify(result), closed ? 'ERROR: SQUARED OFF' : 'ERROR']);
  return result;
}
