// `square_off_positions`: /positions' "Square off" (one position) and "Square off all". The API over
// ../../trading/position-square-off.ts: each position's strategy is stopped with its square-off,
// so its runner closes the position at market through the run's kernel and OMS and ends the run
// (a basket's: closed at once on paper, or by the worker holding its broker account when LIVE).
//
// - Who: the roles that stop strategies (DEPLOY_ROLES, as stop_strategy); the account is the
//   session's user or the managed user when a manager acts for one, the actor is the signed-in person.
// - A refusal changes nothing and answers one error naming `positions[i]` (StrategyActionRefusal).
import type { ActionInvocation } from '../metadata/types';
import { GraphqlFailure } from '../types';
import { squareOffPositions } from '../../trading/position-square-off';
import type { PositionKey } from '../../trading/position-square-off';
import { actorId, isUuid, requireRole, targetUserId } from './session-access';
import { DEPLOY_ROLES, StrategyActionRefusal } from './strategy-actions';
import type { StrategyActionContext } from './strategy-actions';

export const SQUARE_OFF_POSITIONS = 'square_off_positions';

export const SQUARE_OFF_ROLES: readonly string[] = DEPLOY_ROLES;

/** More than this in one call is refused (a page shows at most a few hundred open positions). */
const MAX_POSITIONS = 500;

export const SQUARE_OFF_TYPES = `
"""One position: the run holding it and the instrument."""
input position_key {
  run_id: uuid!
  instrument_id: Int!
}

"""A strategy whose run was asked to close its positions at market and end."""
type squared_off_strategy {
  strategy_id: uuid!
  run_id: uuid
}

type square_off_positions_result {
  strategies: [squared_off_strategy!]!
}
`;

function keysArgument(value: unknown): PositionKey[] {
  const path = `$.selectionSet.${SQUARE_OFF_POSITIONS}.args.positions`;
  if (!Array.isArray(value) || value.length === 0) throw new GraphqlFailure('validation-failed', 'positions must list at least one position', path);
  if (value.length > MAX_POSITIONS) throw new GraphqlFailure('validation-failed', `positions may list at most ${MAX_POSITIONS} positions`, path);
  return value.map((item: unknown, index) => {
    const fields = (item ?? {}) as Readonly<Record<string, unknown>>;
    if (!isUuid(fields.run_id)) {
      throw new GraphqlFailure('validation-failed', `positions[${index}].run_id must be a uuid, got ${JSON.stringify(fields.run_id)}`, `${path}[${index}].run_id`);
    }
    const instrumentId = fields.instrument_id;
    if (typeof instrumentId !== 'number' || !Number.isSafeInteger(instrumentId) || instrumentId <= 0) {
      throw new GraphqlFailure('validation-failed', `positions[${index}].instrument_id must be a positive integer, got ${JSON.stringify(instrumentId)}`,
        `${path}[${index}].instrument_id`);
    }
    return { runId: fields.run_id, instrumentId };
  });
}

/**
 * The `square_off_positions` handler.
 * @example await squareOffPositionsAction(context, { args: { positions: [{ run_id, instrument_id: 26000 }] }, session }) // { strategies: [{ strategy_id, run_id }] }
 */
export async function squareOffPositionsAction(
  context: StrategyActionContext,
  invocation: ActionInvocation,
): Promise<{ strategies: Array<{ strategy_id: string; run_id: string | null }> }> {
  const { session, args } = invocation;
  requireRole(session, SQUARE_OFF_ROLES, SQUARE_OFF_POSITIONS);
  const positions = keysArgument(args.positions);
  const result = await squareOffPositions(context.pool, { actorId: actorId(session), userId: targetUserId(session), positions }, { queue: context.queue });
  if (!result.ok) throw new StrategyActionRefusal(SQUARE_OFF_POSITIONS, result.error);
  return { strategies: result.value.strategies.map((item) => ({ strategy_id: item.strategyId, run_id: item.runId })) };
}
