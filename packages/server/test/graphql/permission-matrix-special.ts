/**
 * Cases beyond the generic row probes: hidden secrets, masked names, relationships that must not
 * leak, checks on what a written row points at (foreign algorithms and strategies, PAPER-only
 * tiers, deploy permission), tier changes, and owners that cannot be named on insert.
 */
import type { PermissionCase, Persona } from './permission-matrix-cases';
import type { PermissionWorld } from './permission-matrix-world';
import { WRITE_INTENT, sql } from './permission-matrix-intent';

type CaseDraft = Omit<PermissionCase, 'id'>;

const SIGNED_IN_ROLES = ['trial', 'basic', 'advanced', 'demo', 'backtest', 'manager', 'administrator', 'superadmin', 'support', 'user', 'me'];

function draft(persona: Persona, table: string, rest: Pick<CaseDraft, 'request' | 'expect'> & Partial<CaseDraft>): CaseDraft {
  return { table, operation: 'special', persona, prepare: [], cleanup: [], ...rest };
}

function idOf(world: PermissionWorld, label: string): string {
  const user = world.users.get(label);
  if (!user) throw new Error(`no world user ${label}`);
  return user.id;
}

function secretCases(personasOf: (role: string) => Persona[]): CaseDraft[] {
  const admin: Persona = { label: 'admin secret', role: 'admin', session: { role: 'admin', variables: {}, admin: true } };
  const cases: CaseDraft[] = [];
  for (const persona of [admin, ...SIGNED_IN_ROLES.map((role) => personasOf(role)[0]).filter((item): item is Persona => !!item)]) {
    for (const column of ['api_secret_ciphertext', 'api_secret_nonce', 'api_secret_key_id']) {
      cases.push(draft(persona, 'user_brokers', {
        request: { query: `query { user_brokers { ${column} } }` },
        expect: { kind: 'error', codes: ['validation-failed'] },
      }));
    }
    cases.push(draft(persona, 'user_brokers', {
      request: { query: `mutation { insert_user_brokers(objects: [{broker: "dhan", client_id: "SECRET1", api_secret_key_id: "k"}]) { affected_rows } }` },
      expect: { kind: 'error', codes: ['validation-failed'] },
    }));
  }
  return cases;
}

function supportCases(world: PermissionWorld, personasOf: (role: string) => Persona[]): CaseDraft[] {
  return personasOf('support').flatMap((persona) => [
    // Names masked (first two, four stars, last two) except the caller's own.
    draft(persona, 'users', {
      request: { query: 'query { users { user_id name } }' },
      expect: {
        kind: 'rows', field: 'users', columns: ['user_id', 'name'],
        expected: sql(`SELECT ARRAY[t.user_id::text, CASE WHEN t.user_id = $1 THEN t.name
                         ELSE left(t.name, 2) || '****' || right(t.name, 2) END] AS key FROM users t`, idOf(world, persona.label)),
      },
    }),
    // Other users' broker accounts do not come through the relationship.
    draft(persona, 'users', {
      request: { query: 'query { users { user_brokers { user_broker_id } } }' },
      expect: { kind: 'values', path: ['users', 'user_brokers', 'user_broker_id'],
        expected: sql('SELECT user_broker_id::text AS value FROM user_brokers WHERE user_id = $1', idOf(world, persona.label)) },
    }),
  ]);
}

function managerCases(world: PermissionWorld, personasOf: (role: string) => Persona[]): CaseDraft[] {
  return personasOf('manager').filter((persona) => !persona.actingFor).flatMap((persona) => {
    const managerId = idOf(world, persona.label);
    // docs/PRODUCT.md section 7: managers where manager_id = me, ordered by user name, with user.name and user.user_brokers.active.
    const query = `query ($me: uuid!) { managers(where: {manager_id: {_eq: $me}}, order_by: {user: {name: asc}}) {
      user_id user { name user_brokers { active } } } }`;
    return [
      draft(persona, 'managers', {
        request: { query, variables: { me: managerId } },
        expect: { kind: 'values', path: ['managers', 'user', 'name'],
          expected: sql('SELECT u.name AS value FROM managers m JOIN users u ON u.user_id = m.user_id WHERE m.manager_id = $1', managerId) },
      }),
      draft(persona, 'managers', {
        request: { query, variables: { me: managerId } },
        expect: { kind: 'values', path: ['managers', 'user', 'user_brokers', 'active'],
          expected: sql('SELECT b.active::text AS value FROM managers m JOIN user_brokers b ON b.user_id = m.user_id WHERE m.manager_id = $1', managerId) },
      }),
    ];
  });
}

function insertOne(table: string, object: Record<string, unknown>): PermissionCase['request'] {
  return {
    query: `mutation ($object: ${table}_insert_input!) { insert_${table}_one(object: $object) { __typename } }`,
    variables: { object },
  };
}

function referenceCheckCases(world: PermissionWorld, personasOf: (role: string) => Persona[], number: number): CaseDraft[] {
  const stranger = world.rows.get('basic-2');
  if (!stranger) throw new Error('no rows for basic-2');
  const refused = { kind: 'error', codes: ['permission-error'] } as const;
  const cases: CaseDraft[] = [];
  for (const role of WRITE_INTENT.strategies?.insert ?? []) {
    const persona = personasOf(role)[0];
    if (!persona) continue;
    const name = `special ${number}-${role}`;
    const cleanup = [sql('DELETE FROM strategies WHERE name LIKE $1', `${name}%`)];
    cases.push(
      draft(persona, 'algorithm_versions', {
        request: insertOne('algorithm_versions', { algorithm_id: stranger.algorithmId, version: 77, graph: {}, schema_version: 1 }),
        expect: refused,
      }),
      draft(persona, 'strategies', {
        request: insertOne('strategies', { name, kind: 'algo', algorithm_id: stranger.algorithmId, algorithm_version: 1 }),
        expect: refused, cleanup,
      }),
      // demo and backtest trade on paper only (docs/PRODUCT.md section 4).
      draft(persona, 'strategies', {
        request: insertOne('strategies', { name: `${name} live`, kind: 'basket', mode: 'LIVE' }),
        expect: role === 'demo' || role === 'backtest' ? refused : { kind: 'mutation', field: 'insert_strategies_one', affectedRows: -1, checks: [] },
        cleanup,
      }),
      // Becoming ACTIVE needs strategy:deploy (backtest lacks it).
      draft(persona, 'strategies', {
        request: insertOne('strategies', { name: `${name} active`, kind: 'basket', status: 'ACTIVE' }),
        expect: role === 'backtest' ? refused : { kind: 'mutation', field: 'insert_strategies_one', affectedRows: -1, checks: [] },
        cleanup,
      }),
    );
  }
  for (const role of WRITE_INTENT.subscriptions?.insert ?? []) {
    const persona = personasOf(role)[0];
    if (!persona) continue;
    cases.push(draft(persona, 'subscriptions', {
      request: insertOne('subscriptions', { strategy_id: stranger.strategyId, quantity: 1 }),
      expect: refused,
    }));
  }
  for (const role of WRITE_INTENT.user_app_configs?.insert ?? []) {
    const persona = personasOf(role)[0];
    if (!persona) continue;
    // user_id is preset: naming another owner is not even in the input type.
    cases.push(draft(persona, 'user_app_configs', {
      request: insertOne('user_app_configs', { user_id: idOf(world, 'demo-2'), category: 'probe', subcategory: 'foreign' }),
      expect: { kind: 'error', codes: ['validation-failed'] },
    }));
  }
  return cases;
}

function tierCases(world: PermissionWorld, personasOf: (role: string) => Persona[]): CaseDraft[] {
  const basicTwin = idOf(world, 'basic-2');
  const restore = [sql(`UPDATE users SET tier = 'basic' WHERE user_id = $1`, basicTwin)];
  const setTier = (userId: string, tier: string): PermissionCase['request'] => ({
    query: 'mutation ($id: uuid!, $tier: String!) { update_users(where: {user_id: {_eq: $id}}, _set: {tier: $tier}) { affected_rows } }',
    variables: { id: userId, tier },
  });
  const [administrator] = personasOf('administrator');
  const [superadmin] = personasOf('superadmin');
  const [trial] = personasOf('trial');
  if (!administrator || !superadmin || !trial) return [];
  const refused = { kind: 'error', codes: ['permission-error'] } as const;
  const tierIs = (tier: string) => sql(`SELECT count(*)::int AS n FROM users p JOIN auth.users a ON a.id = p.user_id
    WHERE p.user_id = $1 AND p.tier = $2 AND a.default_role = $2
      AND EXISTS (SELECT 1 FROM auth.user_roles r WHERE r.user_id = p.user_id AND r.role = $2)
      AND NOT EXISTS (SELECT 1 FROM auth.user_roles r WHERE r.user_id = p.user_id AND r.role = 'basic' AND $2 <> 'basic')`, basicTwin, tier);
  return [
    draft(administrator, 'users', { request: setTier(basicTwin, 'superadmin'), expect: refused, cleanup: restore }),
    draft(administrator, 'users', { request: setTier(basicTwin, 'administrator'), expect: refused, cleanup: restore }),
    draft(administrator, 'users', { request: setTier(idOf(world, 'administrator'), 'superadmin'), expect: refused }),
    draft(administrator, 'users', { request: setTier(idOf(world, 'superadmin-2'), 'basic'),
      expect: { kind: 'mutation', field: 'update_users', affectedRows: 0, checks: [] } }),
    draft(administrator, 'users', { request: setTier(basicTwin, 'advanced'), cleanup: restore,
      expect: { kind: 'mutation', field: 'update_users', affectedRows: 1, checks: [{ query: tierIs('advanced'), n: 1 }] } }),
    draft(superadmin, 'users', { request: setTier(basicTwin, 'administrator'), cleanup: restore,
      expect: { kind: 'mutation', field: 'update_users', affectedRows: 1, checks: [{ query: tierIs('administrator'), n: 1 }] } }),
    draft(trial, 'users', { request: setTier(idOf(world, 'trial'), 'superadmin'), expect: { kind: 'error', codes: ['validation-failed'] } }),
  ];
}

/** The special cases; `affectedRows: -1` means "succeeds" for `_one` inserts (no affected_rows there). */
export function specialCases(world: PermissionWorld, personasOf: (role: string) => Persona[], number: number): CaseDraft[] {
  return [
    ...secretCases(personasOf),
    ...supportCases(world, personasOf),
    ...managerCases(world, personasOf),
    ...referenceCheckCases(world, personasOf, number),
    ...tierCases(world, personasOf),
  ];
}
