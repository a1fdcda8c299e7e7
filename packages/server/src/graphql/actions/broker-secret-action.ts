// `set_broker_secret(user_broker_id, api_secret)`: the only way to write a broker account's API
// secret. The secret columns are hidden from every role, so nothing else can set or read them.
// The plaintext is encrypted here and exists nowhere else: not in SQL parameters, not in the
// answer, not in the audit row, not in an error message.
import type pg from 'pg';
import type { BrokerSecretKey } from '../../brokers/broker-secrets';
import { encryptBrokerSecret } from '../../brokers/broker-secrets';
import { BROKER_SECRET_KEY_VARIABLE } from '../../brokers/broker-secret-key';
import { kiteApiBaseUrl } from '../../brokers/kite/kite-http';
import { disconnectBrokerActionDeclaration } from './broker-disconnect-action';
import { VYUHA_METADATA_TABLES } from '../metadata';
import type { ActionDeclaration, ActionInvocation } from '../metadata/types';
import { GraphqlFailure } from '../types';
import { actorId, isUuid, requireRole, targetUserId } from './session-access';

const ACTION = 'set_broker_secret';
/** Longest accepted secret, in characters (brokers issue 32 to 64). */
export const API_SECRET_MAX_LENGTH = 256;

export const SET_BROKER_SECRET_TYPES = `
type set_broker_secret_output {
  user_broker_id: uuid!
  """Id of the key that encrypted the secret (a hash prefix, not the key)."""
  key_id: String!
  updated_at: timestamptz!
}
`;

/** The roles that may insert or update user_brokers in the metadata: whoever owns a broker account may set its secret. */
export const BROKER_SECRET_ROLES: readonly string[] = writerRolesOf('user_brokers');

function writerRolesOf(tableName: string): string[] {
  const table = VYUHA_METADATA_TABLES.find((candidate) => candidate.name === tableName);
  if (table === undefined) throw new Error(`GraphQL metadata: no table ${tableName}`);
  return Object.entries(table.permissions)
    .filter(([, permissions]) => permissions?.insert !== undefined || permissions?.update !== undefined)
    .map(([role]) => role);
}

export interface BrokerActionsOptions {
  readonly pool: pg.Pool;
  /** The key secrets are encrypted with; undefined: the action refuses (no key configured). */
  readonly key: BrokerSecretKey | undefined;
  /** Kite's API base URL for `disconnect_broker`; default from KITE_API_URL. */
  readonly kiteApiUrl?: string;
}

export interface SetBrokerSecretOutput {
  readonly user_broker_id: string;
  readonly key_id: string;
  /** UTC, as the engine renders timestamptz (`2024-05-02T03:45:00.123456+00:00`). */
  readonly updated_at: string;
}

const argumentPath = (name: string): string => `$.selectionSet.${ACTION}.args.${name}`;

/** Letters, digits, punctuation, symbols and spaces; no control, format or unassigned characters. */
const PRINTABLE = /^[^\p{C}]*$/u;

function checkApiSecret(value: unknown): string {
  // The value is never quoted back: a near-miss of a real secret is still a secret.
  const fail = (reason: string): never => {
    throw new GraphqlFailure('validation-failed', `api_secret ${reason}`, argumentPath('api_secret'));
  };
  if (typeof value !== 'string') return fail('must be a string');
  if (value.trim() === '') return fail('must not be empty');
  const length = [...value].length;
  if (length > API_SECRET_MAX_LENGTH) return fail(`must be at most ${API_SECRET_MAX_LENGTH} characters, got ${length}`);
  if (!PRINTABLE.test(value)) return fail('must hold printable characters only (no newlines, tabs or other control characters)');
  if (value.trim() !== value) return fail('must not start or end with a space');
  return value;
}

/**
 * The `set_broker_secret` handler: encrypts the secret and stores ciphertext, nonce and key id
 * in one UPDATE of the target user's account, with an audit row in the same statement.
 * @example await setBrokerSecretAction(options, { args: { user_broker_id, api_secret: 'abc' }, session }) // { user_broker_id, key_id: '66687aadf862bd77', updated_at: '2025-...+00:00' }
 */
export async function setBrokerSecretAction(options: BrokerActionsOptions, invocation: ActionInvocation): Promise<SetBrokerSecretOutput> {
  const { session, args } = invocation;
  requireRole(session, BROKER_SECRET_ROLES, ACTION);
  const userId = targetUserId(session);
  const actor = actorId(session);
  if (options.key === undefined) {
    throw new GraphqlFailure('not-supported',
      `broker API secrets cannot be stored: the server has no encryption key. Set ${BROKER_SECRET_KEY_VARIABLE} (the base64 of 32 random bytes) and restart`,
      `$.selectionSet.${ACTION}`);
  }
  const userBrokerId = args.user_broker_id;
  if (!isUuid(userBrokerId)) {
    // Not quoted back either: a client that swapped the arguments would get its secret echoed.
    throw new GraphqlFailure('validation-failed', 'user_broker_id must be a uuid', argumentPath('user_broker_id'));
  }
  const secret = encryptBrokerSecret(options.key, checkApiSecret(args.api_secret));
  // Row checks mirror the session layer: the account must be the target user's, and a manager
  // acting for someone must still be linked to them (a link removed since the token was cached).
  const { rows } = await options.pool.query<{ user_broker_id: string; updated_at: string }>(
    `WITH updated AS (
       UPDATE user_brokers b
          SET api_secret_ciphertext = $4, api_secret_nonce = $5, api_secret_key_id = $6
         FROM (SELECT user_broker_id, api_secret_key_id AS previous_key_id FROM user_brokers
                WHERE user_broker_id = $1::uuid AND user_id = $2::uuid
                  AND ($3::uuid = $2::uuid OR EXISTS (SELECT 1 FROM managers m WHERE m.manager_id = $3::uuid AND m.user_id = $2::uuid))
                FOR UPDATE) previous
        WHERE b.user_broker_id = previous.user_broker_id
       RETURNING b.user_broker_id, b.user_id, b.broker, b.client_id, b.updated_at, previous.previous_key_id
     ), audit AS (
       INSERT INTO audit_log (actor_user_id, action, entity, entity_id, before, after)
       SELECT $3::uuid, 'broker.secret.set', 'public.user_brokers', user_broker_id::text,
              CASE WHEN previous_key_id IS NULL THEN NULL ELSE jsonb_build_object('key_id', previous_key_id) END,
              jsonb_build_object('user_id', user_id, 'broker', broker, 'client_id', client_id, 'key_id', $6::text)
         FROM updated
     )
     SELECT user_broker_id, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"') AS updated_at FROM updated`,
    [userBrokerId, userId, actor, secret.ciphertext, secret.nonce, secret.keyId]);
  const row = rows[0];
  // Someone else's account and a missing one answer alike: the id's owner is not revealed.
  if (row === undefined) throw new GraphqlFailure('not-found', `no broker account ${userBrokerId} of yours`, argumentPath('user_broker_id'));
  return { user_broker_id: row.user_broker_id, key_id: secret.keyId, updated_at: row.updated_at };
}

/**
 * The broker action declarations for the metadata (`Metadata.actions`).
 * @example brokerActions({ pool, key }).map((action) => action.name) // ['set_broker_secret', 'disconnect_broker']
 */
export function brokerActions(options: BrokerActionsOptions): ActionDeclaration[] {
  return [
    {
      name: ACTION,
      kind: 'mutation',
      field: `${ACTION}(user_broker_id: uuid!, api_secret: String!): set_broker_secret_output!`,
      types: SET_BROKER_SECRET_TYPES,
      description: "Stores a broker account's API secret, encrypted (AES-256-GCM); the secret can never be read back through GraphQL.",
      roles: BROKER_SECRET_ROLES,
      handler: (invocation) => setBrokerSecretAction(options, invocation),
    },
    disconnectBrokerActionDeclaration({ pool: options.pool, key: options.key, kiteApiUrl: options.kiteApiUrl ?? kiteApiBaseUrl(process.env) }, BROKER_SECRET_ROLES),
  ];
}
