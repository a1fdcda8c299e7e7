/**
 * The trail of acting for a managed user (migration 0030, `acting_audit`; written by the engine,
 * packages/server/src/graphql/execute/acting-audit.ts).
 *
 * Who reads: the manager the rows they made, the managed user the rows about them (both by the
 * signed-in id, `X-Hasura-Actor-Id`: a manager acting for a user still sees only their own rows,
 * never another manager's actions for that user), a superadmin every row. Nobody writes through
 * GraphQL: no insert, update or delete permission for any role.
 */
import type { PermissionFilter, RolePermissions, TableDeclaration } from './types';
import { ACTOR_ID, or } from './permissions-rules';
import { SIGNED_IN_ROLES, SUPERADMIN_ROLE } from './roles';

const USER_ROW = (column: string) => ({ table: 'users', columns: { [column]: 'user_id' } }) as const;

const MINE: PermissionFilter = or({ actor_id: { _eq: ACTOR_ID } }, { subject_id: { _eq: ACTOR_ID } });

const actingAudit: TableDeclaration = {
  name: 'acting_audit',
  description: 'Every mutation a manager made while acting for a managed user: actor (the manager), subject (the user), '
    + 'operation name, root fields, time and outcome. Written by the server; read-only.',
  objectRelationships: { subject: USER_ROW('subject_id') },
  permissions: Object.fromEntries(SIGNED_IN_ROLES.map((role): [string, RolePermissions] => [
    role,
    { select: { filter: role === SUPERADMIN_ROLE ? {} : MINE, columns: 'all', allowAggregations: true, limit: 500 } },
  ])),
};

/** The acting-audit table. */
export const ACTING_AUDIT_TABLES: readonly TableDeclaration[] = [actingAudit];
