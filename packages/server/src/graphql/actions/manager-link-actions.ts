// Manager links made and ended with consent (/manageAccounts, /manageAccounts/consent, /users/edit;
// migration 0030): request_manager_link, manager_link_request, respond_manager_link,
// remove_manager_link, my_managers.
//
// Invariants:
// - Only the managing roles (session.ts MANAGING_ROLES: manager, administrator, superadmin) ask.
//   The answer is the same whether the address has an account or not; the consent e-mail goes
//   out only when it has one, after the transaction and without being awaited, so neither the
//   answer nor its timing tells.
// - A request's token is 32 random bytes (256 bits) in base64url; only its SHA-256 is stored; it
//   lasts REQUEST_DAYS days and works once. Asking again for the same address replaces the
//   pending request (its old link stops working), at the earliest RESEND_AFTER_MINUTES after it.
//   At most MAX_PENDING_REQUESTS pending requests per manager.
// - An unknown, expired, used or malformed token, or one whose manager may no longer manage, is
//   "This link is no longer valid" and changes nothing. Accepting inserts the managers row.
// - A link is removed by either party (by the signed-in id, never the acted-for one) or a
//   superadmin; the other party gets an e-mail. The session layer refuses
//   x-hasura-managed-user-id for the pair from the next request, and open WebSockets acting for
//   the user close (session.ts managedLinkRecheck).
// - Writes set `vyuha.actor_id` to the signed-in user, as the 0028 audit triggers expect.
import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Mailer } from '../../auth/context';
import type { ActionDeclaration, ActionInvocation } from '../metadata/types';
import { ANONYMOUS_ROLE, SIGNED_IN_ROLES, SUPERADMIN_ROLE } from '../metadata/roles';
import { MANAGING_ROLES } from '../session';
import { GraphqlFailure, type GraphqlSession } from '../types';
import { actorId, isUuid, requireRole } from './session-access';
import { inActorTransaction } from '../../trading/oms/order-rows';

export const REQUEST_MANAGER_LINK = 'request_manager_link';
export const MANAGER_LINK_REQUEST = 'manager_link_request';
export const RESPOND_MANAGER_LINK = 'respond_manager_link';
export const REMOVE_MANAGER_LINK = 'remove_manager_link';
export const MY_MANAGERS = 'my_managers';

/** How long a consent link works. */
export const REQUEST_DAYS = 7;
/** Pending (unanswered, unexpired) requests one manager may have at a time. */
export const MAX_PENDING_REQUESTS = 20;
/** Asking again for the same address replaces the pending request, but not sooner than this (no mail flood to one address). */
export const RESEND_AFTER_MINUTES = 10;
export const NO_LONGER_VALID = 'This link is no longer valid';

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export interface ManagerLinkOptions {
  readonly pool: pg.Pool;
  readonly mailer: Mailer;
  /** Where the web app is served (AUTH_CLIENT_URL): the consent link is `${clientUrl}/manageAccounts/consent#token=...`. */
  readonly clientUrl: string;
  /** Where a failed e-mail hand-off is logged. */
  readonly log?: (message: string) => void;
}

const argumentPath = (action: string, name: string): string => `$.selectionSet.${action}.args.${name}`;

function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

function emailArgument(args: Readonly<Record<string, unknown>>): string {
  const raw = args['email'];
  const email = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  if (!EMAIL.test(email) || email.length > 320) {
    throw new GraphqlFailure('validation-failed', `email: must be an e-mail address, got ${JSON.stringify(raw)}`, argumentPath(REQUEST_MANAGER_LINK, 'email'));
  }
  return email;
}

function uuidArgument(action: string, args: Readonly<Record<string, unknown>>, name: string): string {
  const value = args[name];
  if (!isUuid(value)) throw new GraphqlFailure('validation-failed', `${name}: must be a user id, got ${JSON.stringify(value)}`, argumentPath(action, name));
  return value.toLowerCase();
}

/** The signed-in user; refused for the admin secret (a link needs a person on each side). */
function signedInUser(session: GraphqlSession, action: string): string {
  if (session.admin) throw new GraphqlFailure('permission-error', `${action} needs a signed-in user, not the admin secret`, `$.selectionSet.${action}`);
  return actorId(session).toLowerCase();
}

interface Person {
  readonly name: string;
  readonly email: string | null;
}

async function person(db: Pick<pg.Pool, 'query'>, userId: string): Promise<Person | undefined> {
  const { rows } = await db.query<Person>(
    'SELECT u.name, a.email::text AS email FROM users u JOIN auth.users a ON a.id = u.user_id WHERE u.user_id = $1', [userId]);
  return rows[0];
}

function send(options: ManagerLinkOptions, message: Parameters<Mailer['sendTemplate']>[0]): void {
  options.mailer.sendTemplate(message).catch((error: unknown) => options.log?.(`manager links: e-mail ${message.template} not handed off: ${(error as Error).message}`));
}

/** request_manager_link: a pending request for `email`; the same answer whether it has an account. */
async function requestManagerLink(options: ManagerLinkOptions, invocation: ActionInvocation): Promise<{ email: string; expires_at: string }> {
  requireRole(invocation.session, MANAGING_ROLES, REQUEST_MANAGER_LINK);
  const managerId = signedInUser(invocation.session, REQUEST_MANAGER_LINK);
  const email = emailArgument(invocation.args);
  const token = randomBytes(32).toString('base64url');
  const created = await inActorTransaction(options.pool, managerId, async (client) => {
    // One request at a time per manager: the pending count below cannot race.
    const manager = await client.query<{ name: string; email: string | null }>(
      'SELECT u.name, a.email::text AS email FROM users u JOIN auth.users a ON a.id = u.user_id WHERE u.user_id = $1 FOR UPDATE OF u', [managerId]);
    const me = manager.rows[0];
    if (me === undefined) throw new GraphqlFailure('not-found', 'you have no user profile yet', `$.selectionSet.${REQUEST_MANAGER_LINK}`);
    if (me.email?.toLowerCase() === email) {
      throw new GraphqlFailure('validation-failed', 'email: that is your own address; ask for another user', argumentPath(REQUEST_MANAGER_LINK, 'email'));
    }
    const recent = await client.query(
      `SELECT 1 FROM manager_link_requests WHERE manager_id = $1 AND email = $2 AND responded_at IS NULL
          AND created_at > now() - make_interval(mins => $3)`, [managerId, email, RESEND_AFTER_MINUTES]);
    if ((recent.rowCount ?? 0) > 0) {
      throw new GraphqlFailure('validation-failed', `email: a request to this address went out less than ${RESEND_AFTER_MINUTES} minutes ago; ask again later`,
        argumentPath(REQUEST_MANAGER_LINK, 'email'));
    }
    await client.query('DELETE FROM manager_link_requests WHERE manager_id = $1 AND email = $2 AND responded_at IS NULL', [managerId, email]);
    const pending = await client.query<{ count: string }>(
      'SELECT count(*) FROM manager_link_requests WHERE manager_id = $1 AND responded_at IS NULL AND expires_at > now()', [managerId]);
    if (Number(pending.rows[0]?.count ?? 0) >= MAX_PENDING_REQUESTS) {
      throw new GraphqlFailure('validation-failed',
        `email: you already have ${MAX_PENDING_REQUESTS} pending link requests; wait for answers or for them to expire (${REQUEST_DAYS} days)`,
        argumentPath(REQUEST_MANAGER_LINK, 'email'));
    }
    const target = await client.query<{ user_id: string; name: string }>(
      'SELECT u.user_id, u.name FROM auth.users a JOIN users u ON u.user_id = a.id WHERE a.email = $1 AND u.user_id <> $2', [email, managerId]);
    const user = target.rows[0];
    const inserted = await client.query<{ expires_at: string }>(
      `INSERT INTO manager_link_requests (manager_id, email, user_id, token_sha256, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(days => $5)) RETURNING to_json(expires_at) #>> '{}' AS expires_at`,
      [managerId, email, user?.user_id ?? null, tokenHash(token), REQUEST_DAYS]);
    return { managerName: me.name, user, expiresAt: (inserted.rows[0] as { expires_at: string }).expires_at };
  });
  if (created.user !== undefined) {
    send(options, {
      template: 'manager-link-request', to: email, userId: created.user.user_id, displayName: created.user.name,
      otherName: created.managerName, link: `${options.clientUrl.replace(/\/+$/, '')}/manageAccounts/consent#token=${token}`,
    });
  }
  return { email, expires_at: created.expiresAt };
}

interface OpenRequest {
  readonly request_id: string;
  readonly manager_id: string;
  readonly manager_name: string;
  readonly user_id: string;
  readonly expires_at: string;
}

/** The pending request behind a token whose manager may still manage; undefined for anything else. */
async function openRequest(db: Pick<pg.PoolClient, 'query'>, token: unknown, lock: boolean): Promise<OpenRequest | undefined> {
  if (typeof token !== 'string' || !TOKEN.test(token)) return undefined;
  const { rows } = await db.query<OpenRequest>(
    `SELECT r.request_id, r.manager_id, m.name AS manager_name, r.user_id, to_json(r.expires_at) #>> '{}' AS expires_at
       FROM manager_link_requests r JOIN users m ON m.user_id = r.manager_id
      WHERE r.token_sha256 = $1 AND r.responded_at IS NULL AND r.expires_at > now() AND r.user_id IS NOT NULL
        AND m.tier = ANY($2::text[])${lock ? ' FOR UPDATE OF r' : ''}`,
    [tokenHash(token), MANAGING_ROLES]);
  return rows[0];
}

/** manager_link_request: who asks, for the consent page; `valid: false` for any unusable token. */
async function managerLinkRequest(options: ManagerLinkOptions, invocation: ActionInvocation): Promise<{ valid: boolean; manager_name: string | null; expires_at: string | null }> {
  const request = await openRequest(options.pool, invocation.args['token'], false);
  return request === undefined
    ? { valid: false, manager_name: null, expires_at: null }
    : { valid: true, manager_name: request.manager_name, expires_at: request.expires_at };
}

/** respond_manager_link: accept (the managers row is inserted) or decline; a token works once. */
async function respondManagerLink(options: ManagerLinkOptions, invocation: ActionInvocation): Promise<{ response: string; manager_name: string }> {
  const accept = invocation.args['accept'];
  if (typeof accept !== 'boolean') {
    throw new GraphqlFailure('validation-failed', `accept: must be true or false, got ${JSON.stringify(accept)}`, argumentPath(RESPOND_MANAGER_LINK, 'accept'));
  }
  const client = await options.pool.connect();
  try {
    await client.query('BEGIN');
    const request = await openRequest(client, invocation.args['token'], true);
    if (request === undefined) throw new GraphqlFailure('not-found', `token: ${NO_LONGER_VALID}`, argumentPath(RESPOND_MANAGER_LINK, 'token'));
    // The consenting user is who changes the links (the 0028 trail's actor).
    await client.query(`SELECT set_config('vyuha.actor_id', $1, true)`, [request.user_id]);
    const response = accept ? 'accepted' : 'declined';
    await client.query('UPDATE manager_link_requests SET responded_at = now(), response = $2 WHERE request_id = $1', [request.request_id, response]);
    if (accept) {
      await client.query('INSERT INTO managers (manager_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [request.manager_id, request.user_id]);
    }
    await client.query('COMMIT');
    return { response, manager_name: request.manager_name };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** remove_manager_link: either party (or a superadmin) ends a link; the other party is told by e-mail. */
async function removeManagerLink(options: ManagerLinkOptions, invocation: ActionInvocation): Promise<{ removed: boolean }> {
  const actor = signedInUser(invocation.session, REMOVE_MANAGER_LINK);
  const managerId = uuidArgument(REMOVE_MANAGER_LINK, invocation.args, 'manager_id');
  const userId = uuidArgument(REMOVE_MANAGER_LINK, invocation.args, 'user_id');
  const superadmin = invocation.session.role === SUPERADMIN_ROLE;
  if (!superadmin && actor !== managerId && actor !== userId) {
    throw new GraphqlFailure('permission-error', 'user_id: only the manager, the managed user or a superadmin removes a manager link',
      argumentPath(REMOVE_MANAGER_LINK, 'user_id'));
  }
  const removed = await inActorTransaction(options.pool, actor, async (client) => {
    const result = await client.query('DELETE FROM managers WHERE manager_id = $1 AND user_id = $2', [managerId, userId]);
    return (result.rowCount ?? 0) > 0;
  });
  if (!removed) throw new GraphqlFailure('not-found', `user_id: no manager link between ${managerId} and ${userId}`, argumentPath(REMOVE_MANAGER_LINK, 'user_id'));
  const remover = await person(options.pool, actor);
  for (const party of [managerId, userId].filter((id) => id !== actor)) {
    const other = await person(options.pool, party);
    if (other?.email) send(options, { template: 'manager-link-removed', to: other.email, userId: party, displayName: other.name, otherName: remover?.name ?? 'A superadmin' });
  }
  return { removed };
}

/** my_managers: who manages the signed-in user (by the signed-in id, not an acted-for user). */
async function myManagers(options: ManagerLinkOptions, invocation: ActionInvocation): Promise<unknown[]> {
  const userId = signedInUser(invocation.session, MY_MANAGERS);
  const { rows } = await options.pool.query(
    `SELECT m.manager_id, u.name, to_json(m.created_at) #>> '{}' AS since
       FROM managers m JOIN users u ON u.user_id = m.manager_id WHERE m.user_id = $1 ORDER BY u.name, m.manager_id`, [userId]);
  return rows;
}

/**
 * The manager-link action declarations for the metadata (`Metadata.actions`).
 * @example managerLinkActions({ pool, mailer, clientUrl }).map((action) => action.name) // ['request_manager_link', 'manager_link_request', ...]
 */
export function managerLinkActions(options: ManagerLinkOptions): ActionDeclaration[] {
  const everyone = [...SIGNED_IN_ROLES, ANONYMOUS_ROLE];
  return [
    {
      name: REQUEST_MANAGER_LINK,
      kind: 'mutation',
      field: `${REQUEST_MANAGER_LINK}(email: String!): request_manager_link_result!`,
      types: 'type request_manager_link_result { email: String! expires_at: timestamptz! }',
      description: `Asks the owner of an e-mail address to let you manage their account: if the address has an account, a consent link valid for ${REQUEST_DAYS} days `
        + `is e-mailed to it (the answer is the same either way). Asking again replaces the pending request; at most ${MAX_PENDING_REQUESTS} pending.`,
      roles: MANAGING_ROLES,
      handler: (invocation) => requestManagerLink(options, invocation),
    },
    {
      name: MANAGER_LINK_REQUEST,
      kind: 'query',
      field: `${MANAGER_LINK_REQUEST}(token: String!): manager_link_request_info!`,
      types: 'type manager_link_request_info { valid: Boolean! manager_name: String expires_at: timestamptz }',
      description: 'The consent page: which manager asks, while the link is valid (unknown, expired and used links are not).',
      roles: everyone,
      handler: (invocation) => managerLinkRequest(options, invocation),
    },
    {
      name: RESPOND_MANAGER_LINK,
      kind: 'mutation',
      field: `${RESPOND_MANAGER_LINK}(token: String!, accept: Boolean!): respond_manager_link_result!`,
      types: 'type respond_manager_link_result { response: String! manager_name: String! }',
      description: 'Accepts (the manager then manages your account) or declines a manager link request; the link works once.',
      roles: everyone,
      handler: (invocation) => respondManagerLink(options, invocation),
    },
    {
      name: REMOVE_MANAGER_LINK,
      kind: 'mutation',
      field: `${REMOVE_MANAGER_LINK}(manager_id: uuid!, user_id: uuid!): remove_manager_link_result!`,
      types: 'type remove_manager_link_result { removed: Boolean! }',
      description: 'Ends a manager link (the manager or the managed user; a superadmin any): acting for the user stops at once and the other party is e-mailed.',
      roles: SIGNED_IN_ROLES,
      handler: (invocation) => removeManagerLink(options, invocation),
    },
    {
      name: MY_MANAGERS,
      kind: 'query',
      field: `${MY_MANAGERS}: [my_manager!]!`,
      types: 'type my_manager { manager_id: uuid! name: String! since: timestamptz! }',
      description: 'The managers of the signed-in user, by name.',
      roles: SIGNED_IN_ROLES,
      handler: (invocation) => myManagers(options, invocation),
    },
  ];
}
