// `set_kill_switch(on, square_off)` and `set_global_kill_switch(on, square_off)`: the API over the
// trading runtime's kill switches (../../trading/kill-switch.ts, table kill_switches).
//
// - A user's own switch: the session's user, or the managed user when a manager acts for one
//   (`x-hasura-managed-user-id`); the audit row's actor is the signed-in person. Every tier whose
//   account can hold orders may stop it (KILL_SWITCH_ROLES), whatever its permissions claim:
//   stopping needs no `strategy:deploy`.
// - The global switch: administrators and superadmins only (GLOBAL_KILL_SWITCH_ROLES); the
//   field is absent from every other role's schema and the handler refuses them too.
// - The API process runs no OMS: each OMS of an affected account hears of the change within 1 s
//   (its `KillSwitchWatch`) and enforces it itself (audit `kill_switch.enforced`).
import type pg from 'pg';
import { setKillSwitch } from '../../trading/kill-switch';
import type { ActionInvocation } from '../metadata/types';
import { ADMINISTRATOR_ROLE, SUPERADMIN_ROLE } from '../metadata/roles';
import { GraphqlFailure } from '../types';
import type { GraphqlSession } from '../types';
import { actorId, isUuid, requireRole, targetUserId } from './session-access';

export const SET_KILL_SWITCH = 'set_kill_switch';
export const SET_GLOBAL_KILL_SWITCH = 'set_global_kill_switch';

/**
 * Tiers whose account can hold orders: the Strategies menu (advanced, demo, backtest, manager,
 * administrator, superadmin; demo and backtest trade on paper) and the Subscriptions menu
 * (trial, basic follow published strategies with their own quantity). Not support, `user` or `me`.
 */
export const KILL_SWITCH_ROLES: readonly string[] = [
  'trial', 'basic', 'advanced', 'demo', 'backtest', 'manager', ADMINISTRATOR_ROLE, SUPERADMIN_ROLE,
];

/** Who may turn the switch over every user. */
export const GLOBAL_KILL_SWITCH_ROLES: readonly string[] = [ADMINISTRATOR_ROLE, SUPERADMIN_ROLE];

export const KILL_SWITCH_TYPES = `
"""A kill switch after the call: while on, no new order of the account (every account, for the global switch) leaves."""
type kill_switch_result {
  """The account whose switch it is; null for the administrators' global switch."""
  user_id: uuid
  on: Boolean!
  """Whether the open positions were squared off when it was turned on (false while off)."""
  square_off: Boolean!
  """When it was last set (UTC)."""
  set_at: timestamptz!
  """Who set it: the signed-in user (a manager acting for the account, an administrator); null for the system."""
  set_by: uuid
  """Whether the administrators' global switch is on: then nothing leaves whatever this switch says."""
  global_on: Boolean!
}
`;

export interface KillSwitchResult {
  readonly user_id: string | null;
  readonly on: boolean;
  readonly square_off: boolean;
  /** UTC, as the engine renders timestamptz (`2024-05-02T03:45:00.123456+00:00`). */
  readonly set_at: string;
  readonly set_by: string | null;
  readonly global_on: boolean;
}

export interface KillSwitchActionContext {
  readonly pool: pg.Pool;
}

const argumentPath = (action: string, name: string): string => `$.selectionSet.${action}.args.${name}`;

/** `on` and `square_off` as GraphQL coerced them; checked again so a direct call cannot slip a non-boolean in. */
function switchArguments(action: string, args: Readonly<Record<string, unknown>>): { on: boolean; squareOff: boolean } {
  const { on, square_off: squareOff } = args;
  if (typeof on !== 'boolean') {
    throw new GraphqlFailure('validation-failed', `on must be true or false, got ${JSON.stringify(on)}`, argumentPath(action, 'on'));
  }
  if (squareOff !== undefined && squareOff !== null && typeof squareOff !== 'boolean') {
    const got = JSON.stringify(squareOff);
    throw new GraphqlFailure('validation-failed', `square_off must be true, false or omitted, got ${got}`, argumentPath(action, 'square_off'));
  }
  return { on, squareOff: squareOff === true };
}

/** Sets the switch (row and audit row in one transaction) and reads it back as the answer. */
async function setAndRead(
  context: KillSwitchActionContext,
  request: { action: string; userId: string | null; on: boolean; squareOff: boolean; by: string | null },
): Promise<KillSwitchResult> {
  const set = await setKillSwitch(context.pool, { userId: request.userId, on: request.on, squareOff: request.squareOff, by: request.by });
  if (!set.ok) throw new GraphqlFailure('validation-failed', set.error.message, `$.selectionSet.${request.action}`);
  const { rows } = await context.pool.query<KillSwitchResult>(
    `SELECT k.user_id, k.is_on AS on, k.square_off, to_char(k.changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"') AS set_at,
            k.changed_by AS set_by, coalesce((SELECT g.is_on FROM kill_switches g WHERE g.user_id IS NULL), false) AS global_on
       FROM kill_switches k WHERE k.user_id IS NOT DISTINCT FROM $1::uuid`, [request.userId]);
  const row = rows[0];
  if (row === undefined) throw new Error('the kill switch row just written is missing');
  return row;
}

/**
 * The `set_kill_switch` handler: the target user's own switch.
 * @example await setKillSwitchAction(context, { args: { on: true, square_off: true }, session }) // { user_id, on: true, square_off: true, ... }
 */
export async function setKillSwitchAction(context: KillSwitchActionContext, invocation: ActionInvocation): Promise<KillSwitchResult> {
  const { session } = invocation;
  requireRole(session, KILL_SWITCH_ROLES, SET_KILL_SWITCH);
  const userId = targetUserId(session);
  const actor = actorId(session);
  const { on, squareOff } = switchArguments(SET_KILL_SWITCH, invocation.args);
  await requireAccount(context, { userId, actor });
  return setAndRead(context, { action: SET_KILL_SWITCH, userId, on, squareOff, by: actor });
}

/**
 * The `set_global_kill_switch` handler: the switch over every user (administrators only).
 * @example await setGlobalKillSwitchAction(context, { args: { on: true }, session: administrator }) // { user_id: null, on: true, ..., global_on: true }
 */
export async function setGlobalKillSwitchAction(
  context: KillSwitchActionContext,
  invocation: ActionInvocation,
): Promise<KillSwitchResult> {
  const { session } = invocation;
  requireRole(session, GLOBAL_KILL_SWITCH_ROLES, SET_GLOBAL_KILL_SWITCH);
  const actor = signedInActor(session);
  const { on, squareOff } = switchArguments(SET_GLOBAL_KILL_SWITCH, invocation.args);
  return setAndRead(context, { action: SET_GLOBAL_KILL_SWITCH, userId: null, on, squareOff, by: actor });
}

/** The person at the keyboard; the admin secret without a user id is recorded as the system (null). */
function signedInActor(session: GraphqlSession): string | null {
  if (session.admin && !isUuid(session.variables['x-hasura-actor-id']) && !isUuid(session.variables['x-hasura-user-id'])) return null;
  return actorId(session);
}

/**
 * The account must exist as an app user, and a manager acting for it must still be linked to it
 * (the link may have been removed since the session was resolved).
 */
async function requireAccount(context: KillSwitchActionContext, request: { userId: string; actor: string }): Promise<void> {
  const { rows } = await context.pool.query<{ exists: boolean; linked: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM users WHERE user_id = $1::uuid) AS exists,
            ($2::uuid = $1::uuid OR EXISTS (SELECT 1 FROM managers m WHERE m.manager_id = $2::uuid AND m.user_id = $1::uuid)) AS linked`,
    [request.userId, request.actor]);
  const row = rows[0];
  if (row?.linked !== true) throw new GraphqlFailure('access-denied', `you no longer manage user ${request.userId}`, '$');
  if (!row.exists) throw new GraphqlFailure('not-found', `no trading account for user ${request.userId}`, `$.selectionSet.${SET_KILL_SWITCH}`);
}
