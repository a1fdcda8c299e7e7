/**
 * Issue 19 item 3: acting for a managed user is audited, and manager links are made and ended
 * with consent. The platform as spec-server.ts starts it (real PostgreSQL, HTTP and graphql-ws),
 * with the auth service's real mail delivery pointed at a loopback SMTP server that keeps every
 * mail (as the auth tests do).
 *
 * - Every mutation (table or action, HTTP or WebSocket) made while acting writes one acting_audit
 *   row with both ids, its operation name, root fields and outcome; none without acting; the 0028
 *   trail names the manager as the actor of an acting write.
 * - request_manager_link e-mails a consent link (token in the fragment) only to an address with
 *   an account, answers the same either way, replaces a pending request for the same address (not
 *   within RESEND_AFTER_MINUTES) and stops at the pending limit; accept links, decline does not; used, expired and unknown tokens
 *   are "no longer valid" and change nothing.
 * - remove_manager_link by the managed user e-mails the manager, and the manager's next request
 *   acting for the user is refused. Roles that may not manage cannot ask.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailCatcher, type MailCatcher, type ReceivedMail } from '../helpers/mail-catcher';
import { demoEmail } from '../../src/db/seed/demo-users';
import { MAX_PENDING_REQUESTS, RESEND_AFTER_MINUTES } from '../../src/graphql/actions/manager-link-actions';
import { dataOf, startSpecServer, type GraphqlBody, type SpecServer } from './spec-server';

let server: SpecServer;
let mail: MailCatcher;

beforeAll(async () => {
  mail = await startMailCatcher();
  server = await startSpecServer({
    authEnv: { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(mail.port), SMTP_SECURE: 'false', SMTP_SENDER: 'Vyuha Test <auth@vyuha.test>' },
  });
});
afterAll(async () => {
  await server?.close();
  await mail?.close();
});

interface AuditRow {
  actor_id: string;
  subject_id: string;
  actor_name: string;
  operation_name: string | null;
  root_fields: string[];
  outcome: string;
  error: string | null;
}

async function auditRows(subjectId: string): Promise<AuditRow[]> {
  const { rows } = await server.db.pool.query<AuditRow>(
    `SELECT actor_id, subject_id, actor_name, operation_name, root_fields, outcome, error FROM acting_audit
      WHERE subject_id = $1 ORDER BY created_at, acting_audit_id`, [subjectId]);
  return rows;
}

async function actingHeaders(userId: string): Promise<{ token: string; headers: Record<string, string> }> {
  return { token: await server.token('manager'), headers: { 'x-hasura-role': 'manager', 'x-hasura-managed-user-id': userId } };
}

const INSERT_CONFIG = `mutation SaveConfig($sub: String!) {
  insert_user_app_configs_one(object: {category: "acting", subcategory: $sub, meta_data: {}}) { user_id subcategory }
}`;

function tokenOf(received: ReceivedMail): string {
  const match = /https?:\/\/\S+/.exec(received.text);
  if (!match) throw new Error(`no link in "${received.subject}"`);
  const url = new URL(match[0]);
  expect(url.pathname).toBe('/manageAccounts/consent');
  expect(url.search).toBe('');
  const token = new URLSearchParams(url.hash.slice(1)).get('token');
  if (!token) throw new Error(`no token in ${url.href}`);
  return token;
}

async function requestLink(email: string, role: 'manager' | 'superadmin' = 'manager'): Promise<GraphqlBody> {
  return server.graphql({ query: 'mutation { request_manager_link(email: "' + email + '") { email expires_at } }' },
    { token: await server.token(role), headers: { 'x-hasura-role': role } });
}

async function respond(token: string, accept: boolean): Promise<GraphqlBody> {
  return server.graphql({ query: 'mutation R($t: String!, $a: Boolean!) { respond_manager_link(token: $t, accept: $a) { response manager_name } }', variables: { t: token, a: accept } }, {});
}

/** Moves an address's pending requests 11 minutes into the past (past RESEND_AFTER_MINUTES). */
async function backdatePending(email: string): Promise<void> {
  await server.db.pool.query(
    `UPDATE manager_link_requests SET created_at = created_at - interval '11 minutes' WHERE email = $1 AND responded_at IS NULL`, [email]);
}

async function linked(managerId: string, userId: string): Promise<boolean> {
  const { rowCount } = await server.db.pool.query('SELECT 1 FROM managers WHERE manager_id = $1 AND user_id = $2', [managerId, userId]);
  return (rowCount ?? 0) > 0;
}

describe('the acting audit', () => {
  it('records every HTTP mutation made while acting, with both ids, root fields and outcome; none when not acting', async () => {
    const manager = await server.userId('manager');
    const advanced = await server.userId('advanced');
    const { token, headers } = await actingHeaders(advanced);
    dataOf(await server.graphql({ query: INSERT_CONFIG, variables: { sub: 'http_ok' }, operationName: 'SaveConfig' }, { token, headers }));
    // The same row again: a primary-key conflict, an execution error.
    const failed = await server.graphql({ query: INSERT_CONFIG, variables: { sub: 'http_ok' }, operationName: 'SaveConfig' }, { token, headers });
    expect(failed.errors?.length).toBeGreaterThan(0);
    // An action mutation refused by its own checks.
    const action = await server.graphql({ query: 'mutation { request_manager_link(email: "not an address") { email } }' }, { token, headers });
    expect(action.errors?.[0]?.message).toContain('email');
    // The manager's own mutation, not acting: not in the trail.
    dataOf(await server.graphql({ query: INSERT_CONFIG, variables: { sub: 'own' } }, { token, headers: { 'x-hasura-role': 'manager' } }));
    const rows = await auditRows(advanced);
    expect(rows.map((row) => [row.actor_id, row.subject_id, row.operation_name, row.root_fields, row.outcome])).toEqual([
      [manager, advanced, 'SaveConfig', ['insert_user_app_configs_one'], 'ok'],
      [manager, advanced, 'SaveConfig', ['insert_user_app_configs_one'], 'error'],
      [manager, advanced, null, ['request_manager_link'], 'error'],
    ]);
    expect(rows[0]?.actor_name).not.toBe('');
    expect(rows[1]?.error).not.toBeNull();
    expect(rows[0]?.error).toBeNull();
    expect((await server.db.pool.query('SELECT 1 FROM acting_audit WHERE subject_id = $1', [manager])).rowCount).toBe(0);
    // A query while acting is not a mutation: no row.
    dataOf(await server.graphql({ query: '{ user_app_configs(limit: 1) { subcategory } }' }, { token, headers }));
    expect(await auditRows(advanced)).toHaveLength(3);
  });

  it('records a mutation made over graphql-ws while acting', async () => {
    const manager = await server.userId('manager');
    const basic = await server.userId('basic');
    const { token, headers } = await actingHeaders(basic);
    const client = server.wsClient({ Authorization: `Bearer ${token}`, ...headers });
    const result = await new Promise<unknown>((resolve, reject) => {
      client.subscribe({ query: INSERT_CONFIG, variables: { sub: 'over_ws' }, operationName: 'SaveConfig' }, { next: resolve, error: reject, complete: () => undefined });
    });
    expect(JSON.stringify(result)).toContain('over_ws');
    const rows = await auditRows(basic);
    expect(rows.map((row) => [row.actor_id, row.subject_id, row.root_fields, row.outcome])).toEqual([[manager, basic, ['insert_user_app_configs_one'], 'ok']]);
  });

  it('is readable by each party and a superadmin, and nobody writes it through GraphQL', async () => {
    const advanced = await server.userId('advanced');
    const read = async (role: 'manager' | 'advanced' | 'superadmin' | 'basic') => server.graphql(
      { query: '{ acting_audit(where: {subject_id: {_eq: "' + advanced + '"}}) { root_fields } }' },
      { token: await server.token(role), headers: { 'x-hasura-role': role } });
    expect((dataOf(await read('manager'))['acting_audit'] as unknown[]).length).toBe(3);
    expect((dataOf(await read('advanced'))['acting_audit'] as unknown[]).length).toBe(3);
    expect((dataOf(await read('superadmin'))['acting_audit'] as unknown[]).length).toBe(3);
    expect(dataOf(await read('basic'))['acting_audit']).toEqual([]);
    const write = await server.graphql({ query: 'mutation { delete_acting_audit(where: {}) { affected_rows } }' },
      { token: await server.token('superadmin'), headers: { 'x-hasura-role': 'superadmin' } });
    expect(write.errors?.[0]?.extensions?.code).toBe('validation-failed');
  });

  it('writes the acting manager as the actor of the 0028 audit trail', async () => {
    const superadmin = await server.userId('superadmin');
    const demo = await server.userId('demo');
    await server.db.pool.query('INSERT INTO managers (manager_id, user_id) VALUES ($1, $2)', [superadmin, demo]);
    const token = await server.token('superadmin');
    dataOf(await server.graphql({
      query: 'mutation { insert_user_credits_one(object: {user_id: "' + demo + '", category: "BACKTEST", subcategory: "CANDLES", credits: 5, expiry: "2099-01-01"}) { user_id } }',
    }, { token, headers: { 'x-hasura-role': 'superadmin', 'x-hasura-managed-user-id': demo } }));
    const { rows } = await server.db.pool.query<{ actor_user_id: string | null }>(
      `SELECT actor_user_id FROM audit_log WHERE action = 'user_credits.insert' AND entity_id = $1 ORDER BY id DESC LIMIT 1`, [demo]);
    expect(rows[0]?.actor_user_id).toBe(superadmin);
    expect((await auditRows(demo)).map((row) => [row.actor_id, row.root_fields])).toEqual([[superadmin, ['insert_user_credits_one']]]);
    await server.db.pool.query('DELETE FROM managers WHERE manager_id = $1 AND user_id = $2', [superadmin, demo]);
  });
});

describe('manager links with consent', () => {
  it('e-mails a consent link that accepts once; a used link is no longer valid', async () => {
    const manager = await server.userId('manager');
    const demo = await server.userId('demo');
    const to = demoEmail('demo');
    const since = mail.countFor(to);
    const answer = dataOf(await requestLink(to.toUpperCase()))['request_manager_link'] as { email: string; expires_at: string };
    expect(answer.email).toBe(to);
    const days = (Date.parse(answer.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);
    const received = await mail.waitFor(to, { since });
    expect(received.text).toContain('Ananya Deshpande asks to manage your Vyuha account');
    const token = tokenOf(received);
    const { rows } = await server.db.pool.query<{ stored: Buffer }>('SELECT token_sha256 AS stored FROM manager_link_requests WHERE manager_id = $1 AND email = $2', [manager, to]);
    expect(rows[0]?.stored.toString('base64url')).not.toBe(token);
    expect(rows[0]?.stored).toHaveLength(32);

    const info = dataOf(await server.graphql({ query: 'query I($t: String!) { manager_link_request(token: $t) { valid manager_name } }', variables: { t: token } }, {}));
    expect(info['manager_link_request']).toEqual({ valid: true, manager_name: expect.any(String) });
    expect(await linked(manager, demo)).toBe(false);
    expect(dataOf(await respond(token, true))['respond_manager_link']).toMatchObject({ response: 'accepted' });
    expect(await linked(manager, demo)).toBe(true);

    // Reused: refused in words, nothing changes (the link stays, no second answer stored).
    const again = await respond(token, false);
    expect(again.errors?.[0]?.message).toBe('token: This link is no longer valid');
    expect(await linked(manager, demo)).toBe(true);
    const used = dataOf(await server.graphql({ query: 'query I($t: String!) { manager_link_request(token: $t) { valid manager_name } }', variables: { t: token } }, {}));
    expect(used['manager_link_request']).toEqual({ valid: false, manager_name: null });
  });

  it('declines without a link; expired and unknown tokens change nothing', async () => {
    const manager = await server.userId('manager');
    const backtest = await server.userId('backtest');
    const to = demoEmail('backtest');
    let since = mail.countFor(to);
    dataOf(await requestLink(to));
    const declined = tokenOf(await mail.waitFor(to, { since }));
    expect(dataOf(await respond(declined, false))['respond_manager_link']).toMatchObject({ response: 'declined' });
    expect(await linked(manager, backtest)).toBe(false);

    since = mail.countFor(to);
    dataOf(await requestLink(to));
    const expired = tokenOf(await mail.waitFor(to, { since }));
    await server.db.pool.query(
      `UPDATE manager_link_requests SET created_at = now() - interval '8 days', expires_at = now() - interval '1 day' WHERE manager_id = $1 AND email = $2 AND responded_at IS NULL`,
      [manager, to]);
    expect((await respond(expired, true)).errors?.[0]?.message).toBe('token: This link is no longer valid');
    expect((await respond('A'.repeat(43), true)).errors?.[0]?.message).toBe('token: This link is no longer valid');
    expect((await respond('short', true)).errors?.[0]?.message).toBe('token: This link is no longer valid');
    expect(await linked(manager, backtest)).toBe(false);
  });

  it('answers the same for an address without an account and sends nothing; asking again replaces the pending request', async () => {
    const nobody = 'nobody-here@example.test';
    const known = await requestLink(demoEmail('support'));
    const unknown = await requestLink(nobody);
    expect(Object.keys(dataOf(unknown)['request_manager_link'] as object)).toEqual(Object.keys(dataOf(known)['request_manager_link'] as object));
    const supportFirst = tokenOf(await mail.waitFor(demoEmail('support')));
    const since = mail.countFor(demoEmail('support'));
    // Not again within RESEND_AFTER_MINUTES (no mail flood), whether the address has an account or not.
    expect((await requestLink(demoEmail('support'))).errors?.[0]?.message).toContain(`less than ${RESEND_AFTER_MINUTES} minutes`);
    expect((await requestLink(nobody)).errors?.[0]?.message).toContain(`less than ${RESEND_AFTER_MINUTES} minutes`);
    await backdatePending(demoEmail('support'));
    dataOf(await requestLink(demoEmail('support')));
    const supportSecond = tokenOf(await mail.waitFor(demoEmail('support'), { since }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mail.countFor(nobody)).toBe(0);
    expect((await server.db.pool.query('SELECT 1 FROM auth.outbox WHERE recipient = $1', [nobody])).rowCount).toBe(0);
    const valid = async (token: string) => (dataOf(await server.graphql({ query: 'query I($t: String!) { manager_link_request(token: $t) { valid } }', variables: { t: token } }, {}))['manager_link_request'] as { valid: boolean }).valid;
    expect(await valid(supportFirst)).toBe(false);
    expect(await valid(supportSecond)).toBe(true);
  });

  it(`stops at ${MAX_PENDING_REQUESTS} pending requests per manager`, async () => {
    const superadmin = await server.userId('superadmin');
    for (let index = 0; index < MAX_PENDING_REQUESTS; index += 1) dataOf(await requestLink(`limit-${index}@example.test`, 'superadmin'));
    const refused = await requestLink('limit-extra@example.test', 'superadmin');
    expect(refused.errors?.[0]?.message).toContain(`${MAX_PENDING_REQUESTS} pending`);
    // Asking again for an address already pending replaces it and is not refused.
    await backdatePending('limit-3@example.test');
    dataOf(await requestLink('limit-3@example.test', 'superadmin'));
    const { rows } = await server.db.pool.query<{ count: string }>('SELECT count(*) FROM manager_link_requests WHERE manager_id = $1', [superadmin]);
    expect(Number(rows[0]?.count)).toBe(MAX_PENDING_REQUESTS);
  });

  it('refuses roles that may not manage, and removal by anyone but the parties', async () => {
    for (const role of ['basic', 'support'] as const) {
      const body = await server.graphql({ query: 'mutation { request_manager_link(email: "x@example.test") { email } }' },
        { token: await server.token(role), headers: { 'x-hasura-role': role } });
      expect(body.errors?.[0]?.extensions?.code, role).toBe('validation-failed');
    }
    const manager = await server.userId('manager');
    const trial = await server.userId('trial');
    const stranger = await server.graphql({ query: `mutation { remove_manager_link(manager_id: "${manager}", user_id: "${trial}") { removed } }` },
      { token: await server.token('basic'), headers: { 'x-hasura-role': 'basic' } });
    expect(stranger.errors?.[0]?.extensions?.code).toBe('permission-error');
    expect(await linked(manager, trial)).toBe(true);
  });

  it('unlinking by the user e-mails the manager and stops acting at once', async () => {
    const manager = await server.userId('manager');
    const trial = await server.userId('trial');
    const { token, headers } = await actingHeaders(trial);
    dataOf(await server.graphql({ query: '{ user_app_configs(limit: 1) { subcategory } }' }, { token, headers }));
    const since = mail.countFor(demoEmail('manager'));
    const removed = await server.graphql({ query: `mutation { remove_manager_link(manager_id: "${manager}", user_id: "${trial}") { removed } }` },
      { token: await server.token('trial'), headers: { 'x-hasura-role': 'trial' } });
    expect(dataOf(removed)['remove_manager_link']).toEqual({ removed: true });
    const notice = await mail.waitFor(demoEmail('manager'), { since });
    expect(notice.subject).toContain('removed');
    const refused = await server.graphql({ query: '{ user_app_configs(limit: 1) { subcategory } }' }, { token, headers });
    expect(refused.errors?.[0]?.extensions?.code).toBe('access-denied');
    expect(refused.errors?.[0]?.message).toContain('do not manage');
    await server.db.pool.query('INSERT INTO managers (manager_id, user_id) VALUES ($1, $2)', [manager, trial]);
  });
});
