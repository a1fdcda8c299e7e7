/**
 * Issue 15, item 7: removing a manager link (a row of `managers`) ends that manager's live
 * subscriptions for the user at once. The manager signs in over HTTP, subscribes over
 * graphql-transport-ws (the `graphql-ws` npm client, as an outside client would) acting for a
 * managed user with `x-hasura-managed-user-id`, and sees the user's rows pushed; then the link is
 * deleted. Before the fix the session was checked only at `connection_init` and before new
 * operations: the subscription kept pushing the user's data. Now the socket closes with 4403
 * within a bounded time, and no push of the user's data arrives after the deletion.
 */
import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startSpecServer, type SpecServer } from './spec-server';

/** How long the close may take after the link is deleted (a NOTIFY, one SELECT, the close frame). */
const BOUND_MS = 2_000;

let server: SpecServer;

beforeAll(async () => {
  server = await startSpecServer();
});
afterAll(async () => server?.close());

interface Watched {
  readonly client: Client;
  readonly pushes: Array<{ at: number; subcategories: string[] }>;
  readonly closed: Promise<{ at: number; code: number; reason: string }>;
  readonly first: Promise<void>;
}

/** A manager's subscription to the managed user's `unlink` app configs, with every push and the close recorded. */
async function watchAsManager(managedUserId: string, category: string): Promise<Watched> {
  const token = await server.token('manager');
  const pushes: Watched['pushes'] = [];
  let closedWith: (value: { at: number; code: number; reason: string }) => void = () => undefined;
  const closed = new Promise<{ at: number; code: number; reason: string }>((resolve) => {
    closedWith = resolve;
  });
  const client = createClient({
    url: server.wsUrl, webSocketImpl: WebSocket, retryAttempts: 0, lazy: false,
    connectionParams: { headers: { Authorization: `Bearer ${token}`, 'x-hasura-role': 'manager', 'x-hasura-managed-user-id': managedUserId } },
    on: { closed: (event) => closedWith({ at: performance.now(), code: (event as { code: number }).code, reason: (event as { reason: string }).reason }) },
    onNonLazyError: () => undefined,
  });
  let firstSeen: () => void = () => undefined;
  const first = new Promise<void>((resolve) => {
    firstSeen = resolve;
  });
  client.subscribe<{ user_app_configs: { subcategory: string }[] }>(
    { query: `subscription { user_app_configs(where: {category: {_eq: "${category}"}}, order_by: {subcategory: asc}) { subcategory } }` },
    {
      next: (value) => {
        pushes.push({ at: performance.now(), subcategories: (value.data?.user_app_configs ?? []).map((row) => row.subcategory) });
        firstSeen();
      },
      error: () => undefined,
      complete: () => undefined,
    },
  );
  return { client, pushes, closed, first };
}

async function addConfig(userId: string, category: string, subcategory: string): Promise<void> {
  await server.db.pool.query(
    `INSERT INTO user_app_configs (user_id, category, subcategory, meta_data) VALUES ($1, $2, $3, '{}')`, [userId, category, subcategory]);
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

describe('a manager acting for a managed user over graphql-ws', () => {
  it('sees the managed user\'s rows live, and once the link is deleted the socket closes (4403) and nothing of the user arrives', async () => {
    const advanced = await server.userId('advanced');
    const manager = await server.userId('manager');
    const category = 'unlink';
    await addConfig(advanced, category, 'before');
    const watched = await watchAsManager(advanced, category);
    await watched.first;
    expect(watched.pushes.at(-1)?.subcategories).toEqual(['before']);

    // While the link holds, a change of the user's rows is pushed.
    await addConfig(advanced, category, 'linked');
    expect(await waitFor(() => watched.pushes.some((push) => push.subcategories.includes('linked')), 5_000)).toBe(true);

    const deletedAt = performance.now();
    await server.db.pool.query('DELETE FROM managers WHERE manager_id = $1 AND user_id = $2', [manager, advanced]);
    const pushesAtDeletion = watched.pushes.length;
    // The user's data changes right after: this must never reach the manager.
    await addConfig(advanced, category, 'after');

    const closed = await Promise.race([watched.closed, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), BOUND_MS * 2))]);
    expect(closed, 'the socket must close').toBeDefined();
    expect(closed?.code).toBe(4403);
    expect(closed?.reason).toContain('no longer manage');
    expect((closed?.at ?? Number.POSITIVE_INFINITY) - deletedAt).toBeLessThan(BOUND_MS);
    // Give a late push every chance to show up.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(watched.pushes.slice(pushesAtDeletion).filter((push) => push.subcategories.includes('after'))).toEqual([]);
    await watched.client.dispose();

    // Linked again, the manager may act for the user again (nothing was cached about the refusal).
    await server.db.pool.query('INSERT INTO managers (manager_id, user_id) VALUES ($1, $2)', [manager, advanced]);
    const again = await watchAsManager(advanced, category);
    await again.first;
    expect(again.pushes.at(-1)?.subcategories).toEqual(['after', 'before', 'linked']);
    await again.client.dispose();
  });

  it('leaves the manager\'s other sockets alone: one acting for a user still managed keeps its pushes', async () => {
    const basic = await server.userId('basic');
    const trial = await server.userId('trial');
    const manager = await server.userId('manager');
    const category = 'unlink_other';
    const kept = await watchAsManager(basic, category);
    const ended = await watchAsManager(trial, category);
    await Promise.all([kept.first, ended.first]);
    await server.db.pool.query('DELETE FROM managers WHERE manager_id = $1 AND user_id = $2', [manager, trial]);
    expect((await ended.closed).code).toBe(4403);
    await addConfig(basic, category, 'still_managed');
    expect(await waitFor(() => kept.pushes.some((push) => push.subcategories.includes('still_managed')), 5_000)).toBe(true);
    await Promise.all([kept.client.dispose(), ended.client.dispose()]);
    await server.db.pool.query('INSERT INTO managers (manager_id, user_id) VALUES ($1, $2)', [manager, trial]);
  });
});
