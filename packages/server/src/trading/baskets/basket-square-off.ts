// Closing a basket run's open positions on request (/positions' square-off). A basket's run has
// no runner to stop (basket-placement.ts places it and ends it), so the close is sent here, as the
// placement's choice sends it: a MARKET order against each open position, priced now, through the
// run's OMS and paper venue, marked as a square-off (the OMS's risk check refuses one that would
// not reduce the position).
//
// Invariants:
// - Only the account's own PAPER basket runs; every position asked for must be open. A LIVE
//   basket's positions are at the broker and only its runner may send to it: they are refused
//   here; /positions asks the runners for them (live-basket.ts requestLiveBasketSquareOff).
// - One square-off of a run at a time (withRunLock), each order a decision of its own numbered
//   after every stored one (from 200 on: the placement's legs are 0-9, its choice 100-109; a LIVE
//   basket's requested square-offs number theirs the same way: live-basket.ts).
// - The outcomes are appended to the run's result (`squareOff`); once the run holds nothing open
//   its status gains ": SQUARED OFF".
import { istDate } from '@vyuha/core';
import { lotSize, parseTradingSymbol } from '@vyuha/market';
import type { OptionUnderlying } from '@vyuha/market';
import type pg from 'pg';
import { BasketRefusal } from './basket-legs';
import type { BasketDocument, BasketIssue, BasketLeg } from './basket-legs';
import { sendLeg, withRunLock, withWatch } from './basket-placement';
import type { BasketPlacementContext, LegOutcome } from './basket-placement';
import { quoteBasket, registerLegInstruments } from './basket-quotes';

/** The first decision number of a requested square-off. */
export const REQUESTED_SQUARE_OFF_BASE = 200;

/** An open position of a basket run as its positions row and instrument hold it. */
export interface OpenPosition { readonly instrument_id: number; readonly net_quantity: number; readonly trading_symbol: string; readonly kind: string }

/** The closing leg of a position: the opposite side, in lots of a contract (units of an equity). */
export function closingLeg(position: OpenPosition, nowMs: number): BasketLeg | BasketIssue {
  const side = position.net_quantity > 0 ? 'SELL' : 'BUY';
  const units = Math.abs(position.net_quantity);
  if (position.kind === 'equity') return { symbol: position.trading_symbol, side, quantity: units, order_type: 'MARKET' };
  const contract = parseTradingSymbol(position.trading_symbol);
  const lot = lotSize({ symbol: contract.underlying as OptionUnderlying, tradeDate: istDate(nowMs), expiry: contract.expiry });
  if (units % lot !== 0) {
    return { field: 'instrument_id', code: 'not-whole-lots', message: `${position.trading_symbol}: ${units} units are not whole lots of ${lot}` };
  }
  return { symbol: position.trading_symbol, side, lots: units / lot, order_type: 'MARKET' };
}

/** The first decision of a requested square-off of the run: after every stored one, and 200 at least. */
export async function nextSquareOffDecision(pool: pg.Pool, runId: string): Promise<number> {
  const { rows } = await pool.query<{ decision: number | null }>(
    `SELECT max(substring(client_order_id FROM '-([0-9]+)$')::int / 10) AS decision FROM orders WHERE run_id = $1`, [runId]);
  return Math.max(REQUESTED_SQUARE_OFF_BASE, (rows[0]?.decision ?? 0) + 1);
}

/**
 * Squares off the basket run's open positions (those of `instrumentIds`, else every one). Throws
 * BasketRefusal, changing nothing, for a run that is not the user's basket placement or a
 * position that is not open.
 * @example await squareOffBasketPositions({ pool }, { userId, runId, instrumentIds: [41] }) // [{ symbol, side: 'BUY', status: 'FILLED', ... }]
 */
export async function squareOffBasketPositions(context: BasketPlacementContext, request: {
  readonly userId: string; readonly runId: string; readonly instrumentIds?: readonly number[];
}): Promise<LegOutcome[]> {
  const { pool } = context;
  const nowMs = (context.now ?? Date.now)();
  const { rows: runs } = await pool.query<{ strategy_id: string | null; basket: BasketDocument; kind: string }>(
    `SELECT strategy_id, kind, params -> 'basket' AS basket FROM strategy_runs WHERE run_id = $1 AND user_id = $2 AND kind IN ('PAPER', 'LIVE') AND params ? 'basket'`,
    [request.runId, request.userId]);
  const run = runs[0];
  if (run === undefined) throw new BasketRefusal([{ field: 'run_id', code: 'not-found', message: `run ${request.runId} is not a basket placement of yours` }]);
  if (run.kind === 'LIVE') {
    throw new BasketRefusal([{ field: 'run_id', code: 'live-basket',
      message: `run ${request.runId} is a LIVE basket placement: its positions are closed by the strategy worker holding its broker account (square_off_positions)` }]);
  }
  return withRunLock(pool, request.runId, async () => {
    const { rows: open } = await pool.query<OpenPosition>(
      `SELECT p.instrument_id, p.net_quantity, i.trading_symbol, i.kind FROM positions p JOIN instruments i USING (instrument_id)
       WHERE p.run_id = $1 AND p.net_quantity <> 0 ORDER BY p.instrument_id`, [request.runId]);
    const wanted = request.instrumentIds ?? open.map((position) => position.instrument_id);
    const missing = wanted.filter((id) => !open.some((position) => position.instrument_id === id));
    if (missing.length > 0) throw new BasketRefusal([{ field: 'instrument_id', code: 'not-open', message: `no open position of run ${request.runId} in instrument ${missing.join(', ')}` }]);
    const closing = open.filter((position) => wanted.includes(position.instrument_id)).map((position) => closingLeg(position, nowMs));
    const issues = closing.filter((leg): leg is BasketIssue => 'field' in leg);
    if (issues.length > 0) throw new BasketRefusal(issues);
    const quoted = await quoteBasket(pool, { version: 1, product: run.basket.product, legs: closing as BasketLeg[] }, nowMs);
    if (quoted.issues.length > 0) throw new BasketRefusal(quoted.issues);
    const legs = await registerLegInstruments(pool, quoted.legs, nowMs);
    const first = await nextSquareOffDecision(pool, request.runId);
    const outcomes = await withWatch(context, async (watch) => {
      const done: LegOutcome[] = [];
      for (const [position, leg] of legs.entries()) {
        done.push(await sendLeg({ ...context, watch, runId: request.runId, userId: request.userId, strategyId: run.strategy_id },
          { leg, decision: first + position, side: leg.leg.side, squareOff: true }));
      }
      return done;
    });
    await pool.query(
      `UPDATE strategy_runs SET result = coalesce(result, '{}') || jsonb_build_object('squareOff', coalesce(result -> 'squareOff', '[]') || $2::jsonb),
         status = CASE WHEN status IN ('COMPLETE', 'ERROR') AND NOT EXISTS (SELECT 1 FROM positions p WHERE p.run_id = $1 AND p.net_quantity <> 0)
                       THEN status || ': SQUARED OFF' ELSE status END
       WHERE run_id = $1`, [request.runId, JSON.stringify(outcomes)]);
    return outcomes;
  });
}
