// `deploy_strategy`, `stop_strategy`, `confirm_signal` and `create_strategy_from_backtest`: the API
// over the trading runtime's deployments (../../trading/deployments.ts). The handlers read the
// session and the arguments; every rule about strategies, runs, licences and signals is the runtime's.
//
// - Whose account: the session's user, or the managed user when a manager acts for one
//   (`x-hasura-managed-user-id`); the audit rows name the signed-in person as the actor.
// - A refusal changes nothing (an expired signal excepted: it is recorded EXPIRED) and answers
//   one error: every issue's sentence in the message, the first issue's argument as the path,
//   and the list itself in `extensions.issues` ({ field, code, message }) for a form to place.
import type pg from 'pg';
import { enqueueStrategyRun } from '../../jobs/strategy-run-jobs';
import type { JobQueue } from '../../jobs/job-queue';
import { confirmSignal, deployStrategy, stopStrategy, strategyFromBacktest } from '../../trading/deployments';
import type { DeployIssue, ReplayRequest } from '../../trading/deployments';
import type { ActionInvocation } from '../metadata/types';
import { BUILDER_ROLES, OWN_ROW_WRITER_ROLES } from '../metadata/roles';
import { GraphqlFailure, IssuesFailure } from '../types';
import { actorId, isUuid, requireRole, targetUserId } from './session-access';

export const DEPLOY_STRATEGY = 'deploy_strategy';
export const STOP_STRATEGY = 'stop_strategy';
export const CONFIRM_SIGNAL = 'confirm_signal';
export const CREATE_STRATEGY_FROM_BACKTEST = 'create_strategy_from_backtest';

/** Deploying, stopping and "deploy this": the tiers that build strategies (demo and backtest on PAPER only). */
export const DEPLOY_ROLES: readonly string[] = BUILDER_ROLES;

/** Confirming: every role that may answer its own pending signals (the same roles that may update pending_signals). */
export const CONFIRM_ROLES: readonly string[] = OWN_ROW_WRITER_ROLES;

export const DEPLOY_STRATEGY_TYPES = `
"""
A replay: the stored candles of past IST dates (both included) played through the runtime at 1, 10,
60 or 600 times real time, or 0 = as fast as possible.
"""
input deploy_replay_input {
  from: date!
  to: date!
  speed: Int!
}

type deploy_strategy_result {
  """The run trading the strategy: a new one, or the paused strategy's run it resumed."""
  run_id: uuid!
}
`;

export const STOP_STRATEGY_TYPES = `
type stop_strategy_result {
  strategy_id: uuid!
  """The run asked to stop (the runner ends it); null when none was in progress."""
  run_id: uuid
}
`;

export const CONFIRM_SIGNAL_TYPES = `
type confirm_signal_result {
  pending_signal_id: uuid!
  """PROCESSED."""
  state: String!
  """ACCEPTED (the runner places its order) or REJECTED."""
  outcome: String!
}
`;

export const CREATE_STRATEGY_FROM_BACKTEST_TYPES = `
type create_strategy_from_backtest_result {
  """The new DRAFT strategy, ready for deploy_strategy."""
  strategy_id: uuid!
}
`;

export interface StrategyActionContext {
  readonly pool: pg.Pool;
  readonly queue: JobQueue;
  /** The platform's algo id for LIVE strategies without their own (VYUHA_ALGO_ID). */
  readonly defaultAlgoId?: string;
}

/** GraphQL codes of the runtime's issues: input problems are validation failures, the rest keep their own code. */
const GRAPHQL_CODE: Readonly<Record<string, string>> = {
  'invalid-mode': 'validation-failed', 'live-unavailable': 'validation-failed', 'invalid-replay': 'validation-failed',
  'invalid-config': 'validation-failed', 'resume-differs': 'validation-failed', 'permission-missing': 'permission-error',
  'broker-account': 'validation-failed', 'broker-session': 'validation-failed', 'algo-id-missing': 'validation-failed',
  'not-managed': 'access-denied',
};

/** A refusal carrying every issue in its extensions. */
export class StrategyActionRefusal extends IssuesFailure<DeployIssue> {
  constructor(action: string, issues: readonly DeployIssue[]) {
    const first = issues[0];
    const argument = first?.field !== undefined && !first.field.startsWith('config.') ? `.args.${first.field}` : '';
    const code = GRAPHQL_CODE[first?.code ?? ''] ?? first?.code ?? 'action-error';
    super(code, issues, `$.selectionSet.${action}${argument}`);
  }
}

function uuidArgument(action: string, args: Readonly<Record<string, unknown>>, name: string): string {
  const value = args[name];
  if (!isUuid(value)) {
    throw new GraphqlFailure('validation-failed', `${name} must be a uuid, got ${JSON.stringify(value)}`, `$.selectionSet.${action}.args.${name}`);
  }
  return value;
}

function booleanArgument(action: string, args: Readonly<Record<string, unknown>>, name: string): boolean {
  const value = args[name];
  if (typeof value !== 'boolean') {
    throw new GraphqlFailure('validation-failed', `${name} must be true or false, got ${JSON.stringify(value)}`, `$.selectionSet.${action}.args.${name}`);
  }
  return value;
}

/** GraphQL has coerced the input object; its fields are passed on as given and checked by the runtime. */
function replayArgument(value: unknown): ReplayRequest | null {
  if (value === undefined || value === null) return null;
  const fields = value as Readonly<Record<string, unknown>>;
  return { from: fields.from as string, to: fields.to as string, speed: fields.speed as number };
}

/**
 * The `deploy_strategy` handler.
 * @example await deployStrategyAction(context, { args: { strategy_id, mode: 'PAPER' }, session }) // { run_id }
 */
export async function deployStrategyAction(context: StrategyActionContext, invocation: ActionInvocation): Promise<{ run_id: string }> {
  const { session, args } = invocation;
  requireRole(session, DEPLOY_ROLES, DEPLOY_STRATEGY);
  const strategyId = uuidArgument(DEPLOY_STRATEGY, args, 'strategy_id');
  const mode = args.mode;
  if (typeof mode !== 'string') throw new GraphqlFailure('validation-failed', 'mode must be PAPER or LIVE', `$.selectionSet.${DEPLOY_STRATEGY}.args.mode`);
  const account = args.user_broker_id;
  if (account !== undefined && account !== null && !isUuid(account)) {
    throw new GraphqlFailure('validation-failed', `user_broker_id must be a uuid, got ${JSON.stringify(account)}`, `$.selectionSet.${DEPLOY_STRATEGY}.args.user_broker_id`);
  }
  const result = await deployStrategy(context.pool, {
    actorId: actorId(session), userId: targetUserId(session), strategyId, mode, replay: replayArgument(args.replay),
    userBrokerId: typeof account === 'string' ? account : null,
  }, {
    enqueue: (client, runId) => enqueueStrategyRun(context.queue, { client, runId }),
    ...(context.defaultAlgoId === undefined ? {} : { defaultAlgoId: context.defaultAlgoId }),
  });
  if (!result.ok) throw new StrategyActionRefusal(DEPLOY_STRATEGY, result.error);
  return { run_id: result.value.runId };
}

/**
 * The `stop_strategy` handler.
 * @example await stopStrategyAction(context, { args: { strategy_id, square_off: true }, session }) // { strategy_id, run_id }
 */
export async function stopStrategyAction(
  context: StrategyActionContext,
  invocation: ActionInvocation,
): Promise<{ strategy_id: string; run_id: string | null }> {
  const { session, args } = invocation;
  requireRole(session, DEPLOY_ROLES, STOP_STRATEGY);
  const strategyId = uuidArgument(STOP_STRATEGY, args, 'strategy_id');
  const squareOff = booleanArgument(STOP_STRATEGY, args, 'square_off');
  const result = await stopStrategy(context.pool, { actorId: actorId(session), userId: targetUserId(session), strategyId, squareOff });
  if (!result.ok) throw new StrategyActionRefusal(STOP_STRATEGY, result.error);
  return { strategy_id: strategyId, run_id: result.value.runId };
}

/**
 * The `confirm_signal` handler.
 * @example await confirmSignalAction(context, { args: { pending_signal_id, accept: true }, session }) // { ..., state: 'PROCESSED', outcome: 'ACCEPTED' }
 */
export async function confirmSignalAction(
  context: StrategyActionContext,
  invocation: ActionInvocation,
): Promise<{ pending_signal_id: string; state: string; outcome: string }> {
  const { session, args } = invocation;
  requireRole(session, CONFIRM_ROLES, CONFIRM_SIGNAL);
  const pendingSignalId = uuidArgument(CONFIRM_SIGNAL, args, 'pending_signal_id');
  const accept = booleanArgument(CONFIRM_SIGNAL, args, 'accept');
  const result = await confirmSignal(context.pool, { actorId: actorId(session), userId: targetUserId(session), pendingSignalId, accept });
  if (!result.ok) throw new StrategyActionRefusal(CONFIRM_SIGNAL, result.error);
  return { pending_signal_id: pendingSignalId, state: result.value.state, outcome: result.value.outcome };
}

/** Absent or null: the default name; otherwise a name with something besides spaces. */
function nameArgument(action: string, args: Readonly<Record<string, unknown>>): string | null {
  const value = args.name;
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new GraphqlFailure('validation-failed', `name must be a non-blank string, got ${JSON.stringify(value)}`, `$.selectionSet.${action}.args.name`);
  }
  return value.trim();
}

/**
 * The `create_strategy_from_backtest` handler ("deploy this").
 * @example await createStrategyFromBacktestAction(context, { args: { backtest_run_id }, session }) // { strategy_id }
 */
export async function createStrategyFromBacktestAction(context: StrategyActionContext, invocation: ActionInvocation): Promise<{ strategy_id: string }> {
  const { session, args } = invocation;
  const action = CREATE_STRATEGY_FROM_BACKTEST;
  requireRole(session, DEPLOY_ROLES, action);
  const backtestRunId = uuidArgument(action, args, 'backtest_run_id');
  const name = nameArgument(action, args);
  const result = await strategyFromBacktest(context.pool, { actorId: actorId(session), userId: targetUserId(session), backtestRunId, name });
  if (!result.ok) throw new StrategyActionRefusal(action, result.error);
  return { strategy_id: result.value.strategyId };
}
