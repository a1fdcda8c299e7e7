// What an action may read from its session: whose account it acts on, the role, the permissions
// claim and the tier's minimum candle dates. Session variables are lower-case (types.ts).
import type { IsoDate } from '@vyuha/core';
import { isIsoDate } from '@vyuha/core';
import { windowClaims } from '../../auth/tier-windows';
import { GraphqlFailure } from '../types';
import type { GraphqlSession } from '../types';

/** Roles whose menu shows Backtest (docs/PRODUCT.md section 6). */
export const BACKTEST_ROLES: readonly string[] = ['advanced', 'demo', 'administrator', 'manager', 'superadmin', 'backtest'];

/** Every signed-in role: the nine tiers plus `user` and `me` (charts on the dashboard need candles for all). */
export const SIGNED_IN_ROLES: readonly string[] = ['trial', 'basic', 'advanced', 'demo', 'backtest', 'manager', 'administrator', 'superadmin', 'support', 'user', 'me'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a canonical UUID text. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/**
 * Reads a list claim: a Postgres array literal (`{"a","b"}`, as auth/claims.ts writes it), a JSON
 * array, or the spec's quoted comma-separated text; a missing claim is an empty list.
 * @example parseListClaim('{"strategy:backtest","strategy:deploy"}') // ['strategy:backtest', 'strategy:deploy']
 */
export function parseListClaim(text: string | undefined): string[] {
  if (text === undefined) return [];
  const inner = text.trim().replace(/^[{[]/, '').replace(/[}\]]$/, '');
  const items: string[] = [];
  let current = '';
  let quoted = false;
  let started = false;
  for (let index = 0; index < inner.length; index += 1) {
    const char = inner[index] as string;
    if (quoted && char === '\\') {
      current += inner[index + 1] ?? '';
      index += 1;
    } else if (char === '"') {
      quoted = !quoted;
      started = true;
    } else if (char === ',' && !quoted) {
      if (started || current.trim() !== '') items.push(current.trim());
      current = '';
      started = false;
    } else {
      current += char;
    }
  }
  if (started || current.trim() !== '') items.push(current.trim());
  return items;
}

/** The user the request acts on (a managed user when a manager acts for one); refused without one. */
export function targetUserId(session: GraphqlSession): string {
  const userId = session.variables['x-hasura-user-id'];
  if (!isUuid(userId)) throw new GraphqlFailure('permission-error', 'this action needs a signed-in user (x-hasura-user-id)', '$');
  return userId;
}

/** The signed-in user (the manager when acting for someone), else the target user. */
export function actorId(session: GraphqlSession): string {
  const actor = session.variables['x-hasura-actor-id'];
  return isUuid(actor) ? actor : targetUserId(session);
}

/** Refuses a role outside `roles` (the admin secret passes). */
export function requireRole(session: GraphqlSession, roles: readonly string[], action: string): void {
  if (session.admin || roles.includes(session.role)) return;
  throw new GraphqlFailure('permission-error', `role ${session.role} may not use ${action}`, `$.selectionSet.${action}`);
}

/** Refuses a session whose `x-hasura-permissions` lacks `permission` (the admin secret passes). */
export function requirePermission(session: GraphqlSession, permission: string, action: string): void {
  if (session.admin) return;
  if (parseListClaim(session.variables['x-hasura-permissions']).includes(permission)) return;
  throw new GraphqlFailure('permission-error', `${action} needs the ${permission} permission`, `$.selectionSet.${action}`);
}

/**
 * The earliest candle date the session's tier may load at `intervalMinutes`: the `x-hasura-w<n>m`
 * claim, else the tier's table (auth/tier-windows.ts) for the default role; undefined for the
 * admin secret (no limit).
 * @example minimumCandleDate({ role: 'demo', admin: false, variables: { 'x-hasura-w5m': '2023-01-01' } }, 5) // '2023-01-01'
 */
export function minimumCandleDate(session: GraphqlSession, intervalMinutes: number): IsoDate | undefined {
  if (session.admin) return undefined;
  const claimed = session.variables[`x-hasura-w${intervalMinutes}m`];
  if (claimed !== undefined && isIsoDate(claimed)) return claimed;
  const tier = session.variables['x-hasura-default-role'] ?? session.role;
  const fallback = windowClaims(tier)[`W${intervalMinutes}m`];
  if (fallback !== undefined && isIsoDate(fallback)) return fallback;
  // An interval with no claim of its own takes the nearest shorter window's limit (the stricter band).
  const windows = Object.keys(windowClaims(tier)).map((name) => Number(name.slice(1, -1))).filter((minutes) => minutes <= intervalMinutes);
  const nearest = windows.length === 0 ? undefined : windowClaims(tier)[`W${Math.max(...windows)}m`];
  return nearest !== undefined && isIsoDate(nearest) ? nearest : undefined;
}
