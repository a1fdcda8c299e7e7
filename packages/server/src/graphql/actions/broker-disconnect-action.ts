// `disconnect_broker(user_broker_id)`: the user ends the day's broker session. The broker is asked
// to end it too (Kite: DELETE /session/token), so the token is dead everywhere, not only here; the
// session row is marked ended whatever the broker answers, so no strategy trades through it again
// until the next login (a LIVE strategy of the account pauses its entries and tells the user).
import type pg from 'pg';
import { liveBrokerSession, invalidateBrokerSession } from '../../brokers/broker-sessions';
import type { BrokerSecretKey } from '../../brokers/broker-secrets';
import { logoutKiteSession } from '../../brokers/kite/kite-http';
import type { ActionDeclaration, ActionInvocation } from '../metadata/types';
import { GraphqlFailure } from '../types';
import { actorId, isUuid, requireRole, targetUserId } from './session-access';

const ACTION = 'disconnect_broker';

export const DISCONNECT_BROKER_TYPES = `
type disconnect_broker_output {
  user_broker_id: uuid!
  """True when the broker confirmed it ended the session; false when it had already ended or the broker could not be reached."""
  broker_confirmed: Boolean!
  message: String!
}
`;

export interface DisconnectBrokerOptions {
  readonly pool: pg.Pool;
  readonly key: BrokerSecretKey | undefined;
  /** Kite's API base URL (kiteApiBaseUrl of the environment). */
  readonly kiteApiUrl: string;
  readonly now?: () => number;
}

export interface DisconnectBrokerOutput {
  readonly user_broker_id: string;
  readonly broker_confirmed: boolean;
  readonly message: string;
}

/** The handler: the caller's (or their managed user's) account, its session ended here and at the broker. */
export async function disconnectBrokerAction(
  options: DisconnectBrokerOptions, roles: readonly string[], invocation: ActionInvocation,
): Promise<DisconnectBrokerOutput> {
  const { session, args } = invocation;
  requireRole(session, roles, ACTION);
  const userId = targetUserId(session);
  const actor = actorId(session);
  const userBrokerId = args.user_broker_id;
  if (!isUuid(userBrokerId)) throw new GraphqlFailure('validation-failed', 'user_broker_id must be a uuid', `$.selectionSet.${ACTION}.args.user_broker_id`);
  const { rows } = await options.pool.query<{ broker: string; client_id: string; has_session: boolean }>(
    `SELECT ub.broker, ub.client_id, EXISTS (SELECT 1 FROM broker_sessions s WHERE s.user_broker_id = ub.user_broker_id AND s.invalidated_at IS NULL) AS has_session
     FROM user_brokers ub
     WHERE ub.user_broker_id = $1::uuid AND ub.user_id = $2::uuid
       AND ($3::uuid = $2::uuid OR EXISTS (SELECT 1 FROM managers m WHERE m.manager_id = $3::uuid AND m.user_id = $2::uuid))`,
    [userBrokerId, userId, actor]);
  const account = rows[0];
  // Someone else's account and a missing one answer alike.
  if (account === undefined) throw new GraphqlFailure('not-found', `no broker account ${userBrokerId} of yours`, `$.selectionSet.${ACTION}.args.user_broker_id`);
  if (!account.has_session) {
    return { user_broker_id: userBrokerId, broker_confirmed: false, message: `${account.client_id} has no session to end` };
  }
  let confirmed = false;
  let message = `the session of ${account.client_id} is ended`;
  const live = await liveBrokerSession(options.pool, { userBrokerId, keys: options.key === undefined ? [] : [options.key], nowMs: (options.now ?? Date.now)() });
  if (live.ok && live.value.broker === 'zerodha') {
    const loggedOut = await logoutKiteSession({ baseUrl: options.kiteApiUrl, apiKey: live.value.apiKey, accessToken: live.value.accessToken });
    confirmed = loggedOut.ok && loggedOut.value;
    if (!loggedOut.ok) message += `; Kite could not be asked to end it (${loggedOut.error.reason}), so Kite ends it at 06:00 IST`;
    else if (!loggedOut.value) message += '; Kite had already ended it';
  }
  await invalidateBrokerSession(options.pool, userBrokerId, 'disconnected by the user');
  await options.pool.query(
    `INSERT INTO audit_log (actor_user_id, action, entity, entity_id, after)
     VALUES ($1, 'broker.logout', 'public.broker_sessions', $2, jsonb_build_object('user_id', $3::uuid, 'broker', $4::text, 'client_id', $5::text, 'broker_confirmed', $6::boolean))`,
    [actor, userBrokerId, userId, account.broker, account.client_id, confirmed]);
  return { user_broker_id: userBrokerId, broker_confirmed: confirmed, message };
}

/** The declaration for the metadata; `roles`: whoever may write their broker accounts. */
export function disconnectBrokerActionDeclaration(options: DisconnectBrokerOptions, roles: readonly string[]): ActionDeclaration {
  return {
    name: ACTION,
    kind: 'mutation',
    field: `${ACTION}(user_broker_id: uuid!): disconnect_broker_output!`,
    types: DISCONNECT_BROKER_TYPES,
    description: "Ends a broker account's session for today, here and at the broker (Kite: DELETE /session/token); LIVE strategies of the account stop sending entries until the next login.",
    roles,
    handler: (invocation) => disconnectBrokerAction(options, roles, invocation),
  };
}
