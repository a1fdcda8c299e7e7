/**
 * The permission matrix as data: for every table of the metadata, every role and every
 * operation, as two different users (and a manager acting for a managed user), one case holding
 * the GraphQL request, the SQL to prepare and clean up, and the expectation. The engine test runs
 * them in-process; the HTTP and WebSocket tests can replay the same cases (`persona` says whose
 * token to use and which managed user to act for).
 */
import type { GraphqlRequest, GraphqlSession } from '../../src/graphql/types';
import type { Metadata } from '../../src/graphql/metadata/types';
import { windowClaims } from '../../src/auth/tier-windows';
import { postgresArrayLiteral } from '../../src/auth/claims';
import type { PermissionWorld, WorldUser } from './permission-matrix-world';
import {
  WRITE_INTENT, mayWrite, visibleRows, type ProbeContext, type SqlQuery, type WriteOperation,
} from './permission-matrix-intent';
import { WRITE_PROBES } from './permission-matrix-probes';
import { specialCases } from './permission-matrix-special';

export interface Persona {
  /** e.g. `advanced-2`, `manager acting for advanced`, `anonymous`. */
  readonly label: string;
  readonly role: string;
  /** The signed-in user (absent for anonymous). */
  readonly user?: WorldUser;
  /** The managed user a manager acts for (`x-hasura-managed-user-id`). */
  readonly actingFor?: WorldUser;
  readonly session: GraphqlSession;
}

export type Expectation =
  /** The request is refused with one of these codes. */
  | { readonly kind: 'error'; readonly codes: readonly string[] }
  /** `data[field]` lists exactly the rows `expected` returns (as arrays of text values of `columns`). */
  | { readonly kind: 'rows'; readonly field: string; readonly columns: readonly string[]; readonly expected: SqlQuery }
  /** The values found at `path` (arrays are walked) are exactly those `expected` returns in column `value`. */
  | { readonly kind: 'values'; readonly path: readonly string[]; readonly expected: SqlQuery }
  /** The mutation reports `affectedRows`, and each check query returns its `n`. */
  | { readonly kind: 'mutation'; readonly field: string; readonly affectedRows: number; readonly checks: readonly { readonly query: SqlQuery; readonly n: number }[] };

export interface PermissionCase {
  readonly id: string;
  readonly table: string;
  readonly operation: 'select' | WriteOperation | 'special';
  readonly persona: Persona;
  readonly prepare: readonly SqlQuery[];
  readonly request: GraphqlRequest;
  readonly expect: Expectation;
  readonly cleanup: readonly SqlQuery[];
}

const DENIED: Expectation = { kind: 'error', codes: ['validation-failed'] };

function sessionOf(role: string, user: WorldUser, actingFor?: WorldUser): GraphqlSession {
  const acting = actingFor ?? user;
  const variables: Record<string, string> = {
    'x-hasura-role': role,
    'x-hasura-user-id': acting.id,
    'x-hasura-actor-id': user.id,
    'x-hasura-default-role': user.tier,
    'x-hasura-allowed-roles': postgresArrayLiteral([user.tier, 'user', 'me']),
    'x-hasura-permissions': postgresArrayLiteral(user.permissions),
  };
  for (const [name, date] of Object.entries(windowClaims(user.tier))) variables[`x-hasura-${name.toLowerCase()}`] = date;
  return { role, variables, admin: false };
}

function person(world: PermissionWorld, label: string): WorldUser {
  const user = world.users.get(label);
  if (!user) throw new Error(`no world user ${label}`);
  return user;
}

/** Two different users per role; the manager also acting for a managed user. */
export function personasOf(role: string, world: PermissionWorld): Persona[] {
  if (role === 'anonymous') return [{ label: 'anonymous', role, session: { role, variables: { 'x-hasura-role': role }, admin: false } }];
  const labels = role === 'user' || role === 'me' ? ['trial', 'advanced'] : [role, `${role}-2`];
  const personas: Persona[] = labels.map((label) => {
    const user = person(world, label);
    return { label, role, user, session: sessionOf(role, user) };
  });
  if (role === 'manager') {
    const manager = person(world, 'manager');
    const managed = person(world, 'advanced');
    personas.push({ label: 'manager acting for advanced', role, user: manager, actingFor: managed, session: sessionOf(role, manager, managed) });
  }
  return personas;
}

function actingOf(persona: Persona): WorldUser | undefined {
  return persona.actingFor ?? persona.user;
}

/** `relation`: the SQL relation GraphQL reads the table from (a view for `ltps`). */
function selectCase(declared: { readonly table: string; readonly relation: string }, persona: Persona, primaryKey: readonly string[]): Omit<PermissionCase, 'id'> {
  const { table, relation } = declared;
  const acting = actingOf(persona);
  const visible = visibleRows(table, {
    role: persona.role,
    ...(acting ? { acting } : {}),
    ...(persona.user ? { actor: persona.user, minuteCandlesFrom: persona.session.variables['x-hasura-w1m'] ?? '' } : {}),
  });
  const keys = primaryKey.map((column) => `to_json(t."${column}")#>>'{}'`).join(', ');
  return {
    table, operation: 'select', persona, prepare: [], cleanup: [],
    request: { query: `query { ${table} { ${visible ? primaryKey.join(' ') : '__typename'} } }` },
    expect: visible
      ? { kind: 'rows', field: table, columns: primaryKey, expected: { text: `SELECT ARRAY[${keys}] AS key FROM "${relation}" t WHERE ${visible.text}`, params: visible.params } }
      : DENIED,
  };
}

/** Harmless requests for roles that must not have the field: if it exists, they change nothing. */
function deniedWrite(table: string, operation: WriteOperation): GraphqlRequest {
  if (operation === 'insert') return { query: `mutation { insert_${table}(objects: []) { affected_rows } }` };
  return { query: `mutation { ${operation}_${table}(where: {_not: {}}) { affected_rows } }` };
}

/** Users whose rows a write case aims at: the acting user, a managed user, a stranger and a staff user. */
function targetsOf(persona: Persona, world: PermissionWorld): WorldUser[] {
  const acting = actingOf(persona);
  if (!acting) return [];
  const labels = [acting.label, persona.user?.label ?? acting.label, 'advanced', 'demo-2', 'superadmin-2'];
  return [...new Set(labels)].map((label) => person(world, label)).filter((user) => user.label !== 'manager-2');
}

interface WriteCaseInput {
  readonly table: string;
  readonly operation: WriteOperation;
  readonly persona: Persona;
  readonly world: PermissionWorld;
  readonly number: number;
}

function writeCases(input: WriteCaseInput): Omit<PermissionCase, 'id'>[] {
  const { table, operation, persona, world, number } = input;
  const acting = actingOf(persona);
  const probe = WRITE_PROBES[table];
  const intended = WRITE_INTENT[table]?.[operation]?.includes(persona.role) ?? false;
  const base = { table, operation, persona };
  if (!intended || !acting || !probe) return [{ ...base, prepare: [], cleanup: [], request: deniedWrite(table, operation), expect: DENIED }];
  const context = (owner: WorldUser): ProbeContext => ({ tag: `mx${number}`, number, world, acting, owner });
  if (operation === 'insert') return insertCases({ ...input, acting, context });
  const targets = targetsOf(persona, world);
  const rows = targets.map((owner) => ({ owner, row: probe.row?.(context(owner)) }));
  const allowed = rows.filter(({ owner }) => mayWrite({ table, operation, role: persona.role, acting, target: owner }));
  const where = { _or: rows.map(({ row }) => row?.where ?? {}) };
  const set = rows[0]?.row?.set ?? {};
  const query = operation === 'update'
    ? `mutation ($where: ${table}_bool_exp!, $set: ${table}_set_input) { update_${table}(where: $where, _set: $set) { affected_rows } }`
    : `mutation ($where: ${table}_bool_exp!) { delete_${table}(where: $where) { affected_rows } }`;
  return [{
    ...base,
    prepare: rows.flatMap(({ row }) => row?.create ?? []),
    request: { query, variables: operation === 'update' ? { where, set } : { where } },
    expect: {
      kind: 'mutation',
      field: `${operation}_${table}`,
      affectedRows: allowed.length,
      checks: rows.map(({ owner, row }) => {
        const may = allowed.some((entry) => entry.owner.id === owner.id);
        return operation === 'update'
          ? { query: row?.changed ?? { text: 'SELECT 0 AS n', params: [] }, n: may ? 1 : 0 }
          : { query: row?.exists ?? { text: 'SELECT 0 AS n', params: [] }, n: may ? 0 : 1 };
      }),
    },
    cleanup: targets.flatMap((owner) => probe.cleanup(context(owner))),
  }];
}

function insertCases(input: WriteCaseInput & { acting: WorldUser; context: (owner: WorldUser) => ProbeContext }): Omit<PermissionCase, 'id'>[] {
  const { table, persona, world, acting, context } = input;
  const probe = WRITE_PROBES[table];
  if (!probe?.insert) return [];
  // Own-row tables preset user_id: the acting user is the only possible owner. Staff tables name the owner.
  const staffTable = ['user_permissions', 'managers', 'user_credits', 'deployed_strategies'].includes(table);
  const owners = staffTable ? targetsOf(persona, world) : [acting];
  return owners.map((owner) => {
    const made = probe.insert?.(context(owner));
    const may = mayWrite({ table, operation: 'insert', role: persona.role, acting, target: owner });
    return {
      table, operation: 'insert', persona,
      prepare: [...probe.cleanup(context(owner)), ...(made?.prepare ?? [])],
      request: {
        query: `mutation ($objects: [${table}_insert_input!]!) { insert_${table}(objects: $objects) { affected_rows } }`,
        variables: { objects: [made?.object ?? {}] },
      },
      expect: may
        ? { kind: 'mutation', field: `insert_${table}`, affectedRows: 1, checks: made ? [{ query: made.count, n: 1 }] : [] }
        : { kind: 'error', codes: ['permission-error'] },
      cleanup: probe.cleanup(context(owner)),
    };
  });
}

/**
 * Every case of the matrix for the metadata's tables and roles (the roles are those of
 * roles.ts; a table a role may not read yields `validation-failed` cases).
 */
export function permissionCases(metadata: Metadata, world: PermissionWorld, roles: readonly string[]): PermissionCase[] {
  const cases: Omit<PermissionCase, 'id'>[] = [];
  for (const table of metadata.tables) {
    const primaryKey = world.primaryKeys.get(table.sqlName ?? table.name) ?? table.primaryKey ?? [];
    for (const role of roles) {
      for (const persona of personasOf(role, world)) {
        cases.push(selectCase({ table: table.name, relation: table.sqlName ?? table.name }, persona, primaryKey));
        for (const operation of ['insert', 'update', 'delete'] as const) {
          cases.push(...writeCases({ table: table.name, operation, persona, world, number: cases.length + 1 }));
        }
      }
    }
  }
  cases.push(...specialCases(world, (role) => personasOf(role, world), cases.length + 1));
  return cases.map((item, index) => ({ ...item, id: `${index + 1} ${item.table} ${item.operation} as ${item.persona.label} (${item.persona.role})` }));
}
