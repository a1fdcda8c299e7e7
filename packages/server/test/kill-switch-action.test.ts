// set_kill_switch and set_global_kill_switch as a client meets them: the platform on a seeded
// database (test/graphql/spec-server.ts, the actions of start.ts), demo users signed in over
// HTTP, POST /v1/graphql; the rows and audit rows read back with SQL; and the effect on an OMS
// opened on the same database (test/trading-oms/oms-test-support.ts), which refuses a new order
// within 1 s of the switch being turned on through the API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SET_GLOBAL_KILL_SWITCH, setGlobalKillSwitchAction } from '../src/graphql/actions/kill-switch-action';
import { GraphqlFailure } from '../src/graphql/types';
import { graphqlSession } from './graphql/actions-support';
import { dataOf, startSpecServer } from './graphql/spec-server';
import type { GraphqlBody, SpecServer } from './graphql/spec-server';
import { createWorld, NIFTY_LOT, newScheduler, openRig } from './trading-oms/oms-test-support';
import type { AccountRig, OmsWorld } from './trading-oms/oms-test-support';

const RESULT = 'user_id on square_off set_at set_by global_on';
const SET = `mutation ($on: Boolean!, $squareOff: Boolean) { set_kill_switch(on: $on, square_off: $squareOff) { ${RESULT} } }`;
const SET_GLOBAL = `mutation ($on: Boolean!, $squareOff: Boolean) { set_global_kill_switch(on: $on, square_off: $squareOff) { ${RESULT} } }`;

interface SwitchAnswer {
  readonly user_id: string | null;
  readonly on: boolean;
  readonly square_off: boolean;
  readonly set_at: string;
  readonly set_by: string | null;
  readonly global_on: boolean;
}

let server: SpecServer;

function answerOf(body: GraphqlBody, field: 'set_kill_switch' | 'set_global_kill_switch'): SwitchAnswer {
  return dataOf(body)[field] as SwitchAnswer;
}

function errorOf(body: GraphqlBody): { code: string | undefined; message: string; path: string | undefined } {
  const error = body.errors?.[0];
  if (error === undefined) throw new Error(`expected an error, got ${JSON.stringify(body)}`);
  expect(body.data ?? null).toBeNull();
  return { code: error.extensions?.code, message: error.message, path: error.extensions?.path };
}

/** Every switch row and the switches' audit trail: what a refused call must leave as it was. */
async function snapshot(): Promise<string> {
  const switches = await server.db.pool.query('SELECT user_id, is_on, square_off, changed_by, changed_at FROM kill_switches ORDER BY user_id NULLS FIRST');
  const audit = await server.db.pool.query(`SELECT count(*)::int AS n FROM audit_log WHERE entity = 'kill_switches'`);
  return JSON.stringify({ switches: switches.rows, audit: audit.rows });
}

async function switchRow(userId: string | null): Promise<{ is_on: boolean; square_off: boolean; changed_by: string | null } | undefined> {
  const { rows } = await server.db.pool.query<{ is_on: boolean; square_off: boolean; changed_by: string | null }>(
    'SELECT is_on, square_off, changed_by FROM kill_switches WHERE user_id IS NOT DISTINCT FROM $1::uuid', [userId]);
  return rows[0];
}

async function lastAudit(entityId: string): Promise<{ actor_user_id: string | null; action: string; after: Record<string, unknown> } | undefined> {
  const { rows } = await server.db.pool.query<{ actor_user_id: string | null; action: string; after: Record<string, unknown> }>(
    `SELECT actor_user_id, action, after FROM audit_log WHERE entity = 'kill_switches' AND entity_id = $1 AND action LIKE 'kill_switch.o%'
      ORDER BY id DESC LIMIT 1`, [entityId]);
  return rows[0];
}

beforeAll(async () => {
  server = await startSpecServer();
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('set_kill_switch', () => {
  it("turns the caller's own switch on with square-off and off again, each with an audit row naming the caller", async () => {
    const token = await server.token('advanced');
    const userId = await server.userId('advanced');
    const on = answerOf(await server.graphql({ query: SET, variables: { on: true, squareOff: true } }, { token }), 'set_kill_switch');
    expect(on).toMatchObject({ user_id: userId, on: true, square_off: true, set_by: userId, global_on: false });
    expect(on.set_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/);
    expect(await switchRow(userId)).toEqual({ is_on: true, square_off: true, changed_by: userId });
    expect(await lastAudit(userId)).toEqual({ actor_user_id: userId, action: 'kill_switch.on', after: { is_on: true, square_off: true, reason: null } });

    // square_off is about turning on: turning off clears it, whatever is sent.
    const off = answerOf(await server.graphql({ query: SET, variables: { on: false, squareOff: true } }, { token }), 'set_kill_switch');
    expect(off).toMatchObject({ user_id: userId, on: false, square_off: false, set_by: userId });
    expect(Date.parse(off.set_at)).toBeGreaterThanOrEqual(Date.parse(on.set_at));
    expect(await switchRow(userId)).toEqual({ is_on: false, square_off: false, changed_by: userId });
    expect((await lastAudit(userId))?.action).toBe('kill_switch.off');

    // Omitted square_off is false; the row is readable through GraphQL by its owner.
    const plain = answerOf(await server.graphql({ query: 'mutation { set_kill_switch(on: true) { on square_off } }' }, { token }), 'set_kill_switch');
    expect(plain).toEqual({ on: true, square_off: false });
    const read = dataOf(await server.graphql({ query: '{ kill_switches { user_id is_on square_off } }' }, { token }));
    expect(read.kill_switches).toEqual([{ user_id: userId, is_on: true, square_off: false }]);
    answerOf(await server.graphql({ query: SET, variables: { on: false } }, { token }), 'set_kill_switch');
  });

  it("lets a manager acting for a managed user set that user's switch, not their own, and records the manager", async () => {
    const token = await server.token('manager');
    const managerId = await server.userId('manager');
    const managedId = await server.userId('basic');
    const before = await switchRow(managerId);
    const answer = answerOf(await server.graphql({ query: SET, variables: { on: true, squareOff: true } },
      { token, headers: { 'x-hasura-managed-user-id': managedId } }), 'set_kill_switch');
    expect(answer).toMatchObject({ user_id: managedId, on: true, square_off: true, set_by: managerId });
    expect(await switchRow(managedId)).toEqual({ is_on: true, square_off: true, changed_by: managerId });
    expect(await switchRow(managerId)).toEqual(before);
    expect((await lastAudit(managedId))?.actor_user_id).toBe(managerId);

    // A user the manager does not manage: the session layer refuses, nothing changes.
    const unmanaged = await server.userId('demo');
    const state = await snapshot();
    const refused = errorOf(await server.graphql({ query: SET, variables: { on: true } }, { token, headers: { 'x-hasura-managed-user-id': unmanaged } }));
    expect(refused.code).toBe('access-denied');
    expect(await snapshot()).toBe(state);
    await server.graphql({ query: SET, variables: { on: false } }, { token, headers: { 'x-hasura-managed-user-id': managedId } });
  });

  it('refuses bad input as a GraphQL validation error naming the argument, and changes nothing', async () => {
    const token = await server.token('advanced');
    const state = await snapshot();
    const missing = errorOf(await server.graphql({ query: 'mutation { set_kill_switch(square_off: true) { on } }' }, { token }));
    expect(missing.code).toBe('validation-failed');
    expect(missing.message).toContain('"on"');
    const literal = errorOf(await server.graphql({ query: 'mutation { set_kill_switch(on: "yes") { on } }' }, { token }));
    expect(literal.code).toBe('validation-failed');
    expect(literal.message).toContain('Boolean');
    const variable = errorOf(await server.graphql({ query: SET, variables: { on: 'yes' } }, { token }));
    expect(variable.code).toBe('validation-failed');
    expect(variable.message).toContain('$on');
    const absent = errorOf(await server.graphql({ query: SET, variables: {} }, { token }));
    expect(absent.code).toBe('validation-failed');
    expect(absent.message).toBe('expecting a value for non-nullable variable: "on"');
    const squareOff = errorOf(await server.graphql({ query: 'mutation { set_kill_switch(on: true, square_off: 1) { on } }' }, { token }));
    expect(squareOff.code).toBe('validation-failed');
    expect(await snapshot()).toBe(state);
  });

  it('refuses anonymous callers and a role with no trading account (support)', async () => {
    const state = await snapshot();
    const anonymous = errorOf(await server.graphql({ query: SET, variables: { on: true } }, {}));
    expect(anonymous.code).toBe('validation-failed');
    const support = errorOf(await server.graphql({ query: SET, variables: { on: true } }, { token: await server.token('support') }));
    expect(support.code).toBe('validation-failed');
    expect(support.message).toContain("'set_kill_switch' not found");
    expect(await snapshot()).toBe(state);
  });
});

describe('set_global_kill_switch', () => {
  it('is refused to every role but administrator and superadmin, and the global row stays as it was', async () => {
    const state = await snapshot();
    for (const role of ['advanced', 'manager', 'demo', 'trial'] as const) {
      const refused = errorOf(await server.graphql({ query: SET_GLOBAL, variables: { on: true } }, { token: await server.token(role) }));
      expect(refused.code, role).toBe('validation-failed');
      expect(refused.message, role).toBe("field 'set_global_kill_switch' not found in type: 'mutation_root'");
    }
    // The handler refuses on its own too, should a role ever get the field.
    const manager = graphqlSession({ tier: 'manager', userId: await server.userId('manager') });
    const direct = await setGlobalKillSwitchAction({ pool: server.db.pool }, { args: { on: true }, session: manager }).then(() => undefined, (error: unknown) => error);
    expect(direct).toBeInstanceOf(GraphqlFailure);
    expect((direct as GraphqlFailure).code).toBe('permission-error');
    expect((direct as GraphqlFailure).path).toBe(`$.selectionSet.${SET_GLOBAL_KILL_SWITCH}`);
    expect(await switchRow(null)).toBeUndefined();
    expect(await snapshot()).toBe(state);
  });

  it('is set by the administrator and turned off by the superadmin, each audited', async () => {
    const administratorId = await server.userId('administrator');
    const on = answerOf(await server.graphql({ query: SET_GLOBAL, variables: { on: true, squareOff: false } }, { token: await server.token('administrator') }),
      'set_global_kill_switch');
    expect(on).toMatchObject({ user_id: null, on: true, square_off: false, set_by: administratorId, global_on: true });
    expect(await switchRow(null)).toEqual({ is_on: true, square_off: false, changed_by: administratorId });
    expect(await lastAudit('global')).toMatchObject({ actor_user_id: administratorId, action: 'kill_switch.on' });

    // A user's own answer says the global switch is on.
    const own = answerOf(await server.graphql({ query: SET, variables: { on: false } }, { token: await server.token('demo') }), 'set_kill_switch');
    expect(own).toMatchObject({ on: false, global_on: true });

    const superadminId = await server.userId('superadmin');
    const off = answerOf(await server.graphql({ query: SET_GLOBAL, variables: { on: false } }, { token: await server.token('superadmin') }), 'set_global_kill_switch');
    expect(off).toMatchObject({ user_id: null, on: false, set_by: superadminId, global_on: false });
    expect(await lastAudit('global')).toMatchObject({ actor_user_id: superadminId, action: 'kill_switch.off' });
  });
});

describe('the effect on an OMS', () => {
  let world: OmsWorld;
  let rig: AccountRig;
  let token: string;

  beforeAll(async () => {
    world = await createWorld(server.db.pool);
    rig = await openRig(server.db.pool, { world, scheduler: newScheduler() });
    // The world's trader signed in: the advanced demo user's claims with the world user's id.
    const advanced = await server.token('advanced');
    const claims = JSON.parse(Buffer.from(advanced.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub: string; iss: string; iat: number; exp: number } & Record<string, unknown>;
    const hasura = { ...(claims['https://hasura.io/jwt/claims'] as Record<string, unknown>), 'x-hasura-user-id': world.userId };
    token = await server.keys.sign({ ...claims, sub: world.userId, 'https://hasura.io/jwt/claims': hasura });
  });

  afterAll(async () => {
    await rig?.close();
  });

  const marketBuy = (decision: number) => ({
    runId: world.runId, decision, instrumentId: world.futureId, side: 'BUY' as const, quantity: NIFTY_LOT, orderType: 'MARKET' as const,
    product: 'NRML', referencePricePaise: 2_600_000,
  });

  it('refuses a new order within 1 s of the switch turned on through the API, and takes orders again once it is off', async () => {
    const started = Date.now();
    answerOf(await server.graphql({ query: SET, variables: { on: true } }, { token }), 'set_kill_switch');
    while (!rig.watch.stateFor(world.userId).user && Date.now() - started < 1_000) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(Date.now() - started).toBeLessThan(1_000);
    const refused = await rig.oms.placeOrder(marketBuy(0));
    expect(refused.ok ? [] : refused.error.map((issue) => issue.code)).toEqual(['kill-switch-user']);
    expect(rig.venue.placed).toHaveLength(0);
    const written = await server.db.pool.query('SELECT count(*)::int AS n FROM orders WHERE run_id = $1', [world.runId]);
    expect(written.rows[0]).toEqual({ n: 0 });

    const stopped = Date.now();
    answerOf(await server.graphql({ query: SET, variables: { on: false } }, { token }), 'set_kill_switch');
    while (rig.watch.stateFor(world.userId).user && Date.now() - stopped < 1_000) await new Promise((resolve) => setTimeout(resolve, 5));
    const placed = await rig.oms.placeOrder(marketBuy(1));
    expect(placed.ok).toBe(true);
    expect(rig.venue.placed).toHaveLength(1);
  });

  it("is stopped by the administrators' global switch too", async () => {
    const started = Date.now();
    answerOf(await server.graphql({ query: SET_GLOBAL, variables: { on: true } }, { token: await server.token('administrator') }), 'set_global_kill_switch');
    while (!rig.watch.stateFor(world.userId).global && Date.now() - started < 1_000) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(Date.now() - started).toBeLessThan(1_000);
    const refused = await rig.oms.placeOrder(marketBuy(2));
    expect(refused.ok ? [] : refused.error.map((issue) => issue.code)).toEqual(['kill-switch-global']);
    answerOf(await server.graphql({ query: SET_GLOBAL, variables: { on: false } }, { token: await server.token('administrator') }), 'set_global_kill_switch');
  });
});
