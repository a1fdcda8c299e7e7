// Squaring off open positions from /positions: each position's strategy is stopped with its
// square-off (`stopStrategy`, `squareOff: true`), so the run's own runner closes what the run holds
// at market through its kernel and OMS, exactly as "Stop and square off" does, and the fills stay
// the kernel's (the paper run checks each one). A rule strategy's run holds one position at a
// time, so closing "this position" and closing the run's positions are the same thing; the run
// ends and the strategy is STOPPED (deploy it again from /strategies).
//
// How a runner learns of it: `strategy_runs.stop_requested_at` and `stop_square_off` are written and
// NOTIFY `strategy_runs` carries the run id (deployments.ts); the run's holder reads both with its
// heartbeat (runner/strategy-runners.ts) and calls the run's `stop({ squareOff: true })`.
//
// A PAPER basket placement's run has no runner (it ended when its legs were placed): its positions
// are closed at once by MARKET square-off orders through the run's OMS and paper venue
// (baskets/basket-square-off.ts), and the run's status gains ": SQUARED OFF" once it holds nothing.
// A LIVE basket's positions are at the broker, whose orders only the worker holding the account
// sends: the request is recorded on the run, which goes back IN PROGRESS with its job in one
// compare-and-set (two clicks never both send), and that worker closes them at market and ends the
// run again (baskets/live-basket.ts requestLiveBasketSquareOff). The action answers at once.
//
// Invariants:
// - Every position asked for is checked before anything changes: it exists, its run is the
//   account's (a position of another account answers "no such position", as a missing one does),
//   it is a PAPER or LIVE run in progress and not already stopping, and it is open. One refusal
//   refuses the whole request with every issue, each at its `positions[i]` path.
// - Who acts: the account's user, or a manager still linked to the user.
import { err, ok } from '@vyuha/core';
import type { Result } from '@vyuha/core';
import type pg from 'pg';
import { BasketRefusal } from './baskets/basket-legs';
import { squareOffBasketPositions } from './baskets/basket-square-off';
import { requestLiveBasketSquareOff } from './baskets/live-basket';
import type { JobQueue } from '../jobs/job-queue';
import { stopStrategy } from './deployments';
import type { Acting, DeployIssue } from './deployments';

/** One position: the run holding it and the instrument. */
export interface PositionKey {
  readonly runId: string;
  readonly instrumentId: number;
}

export interface SquareOffRequest extends Acting {
  readonly positions: readonly PositionKey[];
}

/** What was asked of the runners: one stop with square-off per strategy. */
export interface SquareOffOutcome {
  readonly strategies: ReadonlyArray<{ readonly strategyId: string; readonly runId: string | null }>;
}

interface PositionState {
  readonly run_id: string;
  readonly instrument_id: number;
  readonly net_quantity: number;
  readonly user_id: string;
  readonly kind: string;
  readonly run_status: string;
  readonly stopping: boolean;
  readonly strategy_id: string | null;
  readonly trading_symbol: string | null;
  /** A basket placement's run: ended once placed, its positions closed here rather than by a runner. */
  readonly basket: boolean;
}

/** The issues of one stored position (undefined: missing or not the account's). */
function positionIssues(key: PositionKey, state: PositionState | undefined, context: { userId: string; field: string }): DeployIssue[] {
  const { field } = context;
  const name = state?.trading_symbol ?? `instrument ${key.instrumentId}`;
  if (state === undefined || state.user_id !== context.userId) {
    return [{ field, code: 'not-found', message: `${field}: no position of run ${key.runId} in instrument ${key.instrumentId} in this account` }];
  }
  if (state.kind !== 'PAPER' && state.kind !== 'LIVE') {
    return [{ field, code: 'invalid-status', message: `${field}: ${name} is a ${state.kind} run's position: only PAPER and LIVE positions are squared off` }];
  }
  if (!state.basket && (state.run_status !== 'IN PROGRESS' || state.stopping || state.strategy_id === null)) {
    return [{ field, code: 'run-ended', message: `${field}: the run holding ${name} has ended or is already stopping` }];
  }
  if (state.net_quantity === 0) return [{ field, code: 'invalid-status', message: `${field}: ${name} is already flat` }];
  return [];
}

/**
 * Squares off the positions: each one's strategy stopped with its square-off (the runner closes
 * at market and ends the run). Nothing changes when any position is refused.
 * @example await squareOffPositions(pool, { actorId, userId, positions: [{ runId, instrumentId: 26000 }] }) // ok({ strategies: [{ strategyId, runId }] })
 */
export async function squareOffPositions(pool: pg.Pool, request: SquareOffRequest, options: {
  readonly now?: () => number;
  /** The strategy runners' job queue: a LIVE basket's square-off is sent by a runner; without it one is refused. */
  readonly queue?: JobQueue;
} = {}): Promise<Result<SquareOffOutcome, DeployIssue[]>> {
  if (request.positions.length === 0) return err([{ field: 'positions', code: 'not-found', message: 'positions must name at least one position' }]);
  if (request.actorId !== request.userId) {
    const { rowCount } = await pool.query('SELECT 1 FROM managers WHERE manager_id = $1 AND user_id = $2', [request.actorId, request.userId]);
    if (rowCount === 0) return err([{ code: 'not-managed', message: `you do not manage user ${request.userId}` }]);
  }
  const { rows } = await pool.query<PositionState>(
    `SELECT p.run_id, p.instrument_id, p.net_quantity, r.user_id, r.kind, r.status AS run_status,
            r.stop_requested_at IS NOT NULL AS stopping, r.strategy_id, i.trading_symbol, r.params ? 'basket' AS basket
       FROM positions p JOIN strategy_runs r ON r.run_id = p.run_id LEFT JOIN instruments i ON i.instrument_id = p.instrument_id
      WHERE (p.run_id, p.instrument_id) IN (SELECT * FROM unnest($1::uuid[], $2::int[]))`,
    [request.positions.map((key) => key.runId), request.positions.map((key) => key.instrumentId)]);
  const byKey = new Map(rows.map((row) => [`${row.run_id}:${row.instrument_id}`, row]));
  const issues = request.positions.flatMap((key, index) =>
    positionIssues(key, byKey.get(`${key.runId}:${key.instrumentId}`), { userId: request.userId, field: `positions[${index}]` }));
  if (issues.length > 0) return err(issues);
  const held = request.positions.map((key) => byKey.get(`${key.runId}:${key.instrumentId}`) as PositionState);
  const strategies: Array<{ strategyId: string; runId: string | null }> = [];
  const baskets = new Map<string, { strategyId: string | null; live: boolean; instrumentIds: number[] }>();
  for (const position of held.filter((state) => state.basket)) {
    const entry = baskets.get(position.run_id) ?? { strategyId: position.strategy_id, live: position.kind === 'LIVE', instrumentIds: [] };
    entry.instrumentIds.push(position.instrument_id);
    baskets.set(position.run_id, entry);
  }
  for (const [runId, basket] of baskets) {
    try {
      if (!basket.live) {
        await squareOffBasketPositions({ pool, ...(options.now === undefined ? {} : { now: options.now }) }, { userId: request.userId, runId, instrumentIds: basket.instrumentIds });
      } else if (options.queue === undefined) {
        return err([{ field: 'positions', code: 'invalid-status', message: `positions: run ${runId} is a LIVE basket, and this server runs no strategy workers to send its square-off` }]);
      } else {
        await requestLiveBasketSquareOff({ pool, queue: options.queue }, { userId: request.userId, runId, instrumentIds: basket.instrumentIds });
      }
    } catch (error) {
      if (!(error instanceof BasketRefusal)) throw error;
      return err(error.issues.map((issue) => ({ field: 'positions', code: 'invalid-status' as const, message: `${issue.field}: ${issue.message}` })));
    }
    if (basket.strategyId !== null) strategies.push({ strategyId: basket.strategyId, runId });
  }
  const strategyIds = [...new Set(held.filter((state) => !state.basket).map((state) => state.strategy_id as string))];
  for (const strategyId of strategyIds) {
    const stopped = await stopStrategy(pool, { actorId: request.actorId, userId: request.userId, strategyId, squareOff: true });
    if (!stopped.ok) return err(stopped.error);
    strategies.push({ strategyId, runId: stopped.value.runId });
  }
  return ok({ strategies });
}
