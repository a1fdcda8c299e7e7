import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphqlFailure, type GraphqlError, type LiveQuery } from '../../src/graphql/types';
import { createLiveQueryManager, tableName, type LiveQueryListener, type LiveQueryManager } from '../../src/graphql/ws/live-queries';
import { multiplexedSql, parameterText, payloadText } from '../../src/graphql/ws/multiplex';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { NOTES_TABLE_SQL } from './live-test-engine';

const silent = { warn: () => undefined, error: () => undefined };

interface Collector extends LiveQueryListener {
  readonly payloads: string[];
  readonly errors: GraphqlError[];
  waitFor(count: number, timeoutMs?: number): Promise<string>;
}

function collector(): Collector {
  const payloads: string[] = [];
  const errors: GraphqlError[] = [];
  return {
    payloads,
    errors,
    next: (payload) => payloads.push(payload),
    error: (error) => errors.push(error),
    async waitFor(count, timeoutMs = 3_000) {
      const deadline = Date.now() + timeoutMs;
      while (payloads.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} payloads, got ${payloads.length}: ${payloads.join(' | ')}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return payloads[count - 1] ?? '';
    },
  };
}

const NOTES_SQL = "SELECT coalesce(json_agg(body ORDER BY id), '[]')::text FROM public.test_notes WHERE owner = $1::text";

/** A LiveQuery as the engine would prepare it, over real SQL. */
function liveQuery(pool: pg.Pool, options: { params: unknown[]; sql?: string; tables?: string[]; responseKey?: string }): LiveQuery & { fetches: number } {
  const sql = options.sql ?? NOTES_SQL;
  const responseKey = options.responseKey ?? 'notes';
  const query = {
    fetches: 0,
    key: JSON.stringify([sql, options.params, responseKey]),
    sql,
    params: options.params,
    responseKey,
    tables: options.tables ?? ['public.test_notes'],
    async fetch() {
      query.fetches += 1;
      const result = await pool.query({ text: sql, values: options.params as unknown[], rowMode: 'array' });
      return payloadText(responseKey, ((result.rows[0] as unknown[] | undefined)?.[0] as string | null) ?? null);
    },
  };
  return query;
}

describe('multiplexing SQL', () => {
  it('reads every cast parameter from the parameter set', () => {
    expect(multiplexedSql('SELECT f($1::uuid, $12::int, $1::uuid);')).toBe(
      'SELECT vyuha_live_params.i::int AS i, (SELECT f((vyuha_live_params.v->>0)::uuid, (vyuha_live_params.v->>11)::int, (vyuha_live_params.v->>0)::uuid))::text AS result FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS vyuha_live_params(v, i)',
    );
  });

  it('refuses SQL with a parameter that has no cast', () => {
    expect(multiplexedSql('SELECT $1 + $2::int')).toBeUndefined();
  });

  it('writes parameters as node-postgres sends them', () => {
    expect(parameterText(new Date(Date.UTC(2024, 4, 2, 3, 45)))).toBe('2024-05-02T03:45:00.000Z');
    expect(parameterText(['a"b', null, ['x']])).toBe('{"a\\"b",NULL,{"x"}}');
    expect(parameterText({ a: 1 })).toBe('{"a":1}');
    expect(parameterText(Buffer.from([1, 255]))).toBe('\\x01ff');
    expect(parameterText(undefined)).toBeNull();
  });

  it('names tables as the triggers do', () => {
    expect([tableName('test_notes'), tableName('"public"."test_notes"'), tableName('auth.users')]).toEqual(['public.test_notes', 'public.test_notes', 'auth.users']);
  });
});

describe('the live-query manager', () => {
  let db: TestDatabase;
  let manager: LiveQueryManager;

  beforeAll(async () => {
    db = await freshDatabase();
    await db.pool.query(NOTES_TABLE_SQL);
    await db.pool.query(`
      CREATE VIEW public.test_note_counts AS SELECT owner, count(*) AS notes FROM public.test_notes GROUP BY owner;
      -- Created after migration 0009 and never passed to watch_table_changes: no trigger.
      CREATE TABLE public.test_unwatched (id int PRIMARY KEY, label text);
      INSERT INTO public.test_unwatched VALUES (1, 'before');`);
    manager = createLiveQueryManager({ pool: db.pool, log: silent, refetchIntervalMs: 20, safetyPollMs: 300 });
    await manager.ready();
  });

  afterAll(async () => {
    await manager.close();
    await db.close();
  });

  it('pushes the first result, then only results that changed; equal subscriptions share one group', async () => {
    const alice = collector();
    const aliceAgain = collector();
    const bob = collector();
    const stops = [
      manager.subscribe(liveQuery(db.pool, { params: ['alice'] }), alice),
      manager.subscribe(liveQuery(db.pool, { params: ['bob'] }), bob),
    ];
    expect(await alice.waitFor(1)).toBe('{"data":{"notes":[]}}');
    stops.push(manager.subscribe(liveQuery(db.pool, { params: ['alice'] }), aliceAgain));
    expect(await aliceAgain.waitFor(1)).toBe('{"data":{"notes":[]}}');
    expect(manager.statistics()).toMatchObject({ groups: 2, cohorts: 1, subscribers: 3 });
    await db.pool.query("INSERT INTO public.test_notes (owner, body) VALUES ('alice', 'hello')");
    expect(await alice.waitFor(2)).toBe('{"data":{"notes":["hello"]}}');
    expect(await aliceAgain.waitFor(2)).toBe('{"data":{"notes":["hello"]}}');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(bob.payloads).toHaveLength(1);
    for (const stop of stops) stop();
    expect(manager.statistics()).toMatchObject({ groups: 0, cohorts: 0, subscribers: 0 });
  });

  it('refetches 200 users watching the same query shape in one multiplexed statement', async () => {
    const listeners = Array.from({ length: 200 }, () => collector());
    const queries = listeners.map((_listener, index) => liveQuery(db.pool, { params: [`user-${index}`] }));
    const stops = queries.map((query, index) => manager.subscribe(query, listeners[index] as Collector));
    await Promise.all(listeners.map((listener) => listener.waitFor(1)));
    const before = manager.statistics().statements;
    await db.pool.query("INSERT INTO public.test_notes (owner, body) VALUES ('user-7', 'seven')");
    expect(await listeners[7]?.waitFor(2)).toBe('{"data":{"notes":["seven"]}}');
    expect(manager.statistics().statements - before).toBe(1);
    expect(queries.every((query) => query.fetches === 0)).toBe(true);
    expect(listeners.filter((listener) => listener.payloads.length > 1)).toHaveLength(1);
    for (const stop of stops) stop();
  });

  it('delivers a change committed by another connection within a second', async () => {
    const watcher = collector();
    const stop = manager.subscribe(liveQuery(db.pool, { params: ['carol'] }), watcher);
    await watcher.waitFor(1);
    const other = new pg.Client({ connectionString: db.url });
    await other.connect();
    const started = Date.now();
    await other.query("INSERT INTO public.test_notes (owner, body) VALUES ('carol', 'from elsewhere')");
    await watcher.waitFor(2, 1_000);
    expect(Date.now() - started).toBeLessThan(1_000);
    await other.end();
    stop();
  });

  it('reaches subscribers of every process (a second manager on the same database)', async () => {
    const second = createLiveQueryManager({ pool: db.pool, log: silent, refetchIntervalMs: 20 });
    await second.ready();
    const here = collector();
    const there = collector();
    const stops = [manager.subscribe(liveQuery(db.pool, { params: ['dave'] }), here), second.subscribe(liveQuery(db.pool, { params: ['dave'] }), there)];
    await Promise.all([here.waitFor(1), there.waitFor(1)]);
    await db.pool.query("INSERT INTO public.test_notes (owner, body) VALUES ('dave', 'both')");
    await Promise.all([here.waitFor(2), there.waitFor(2)]);
    for (const stop of stops) stop();
    await second.close();
  });

  it('watches the tables behind a view', async () => {
    const watcher = collector();
    const sql = "SELECT coalesce((SELECT notes FROM public.test_note_counts WHERE owner = $1::text), 0)::text";
    const stop = manager.subscribe(liveQuery(db.pool, { params: ['erin'], sql, tables: ['public.test_note_counts'], responseKey: 'count' }), watcher);
    expect(await watcher.waitFor(1)).toBe('{"data":{"count":0}}');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await db.pool.query("INSERT INTO public.test_notes (owner, body) VALUES ('erin', 'x')");
    expect(await watcher.waitFor(2, 1_000)).toBe('{"data":{"count":1}}');
    stop();
  });

  it('catches changes no trigger reports with the safety poll', async () => {
    const watcher = collector();
    const sql = 'SELECT (SELECT to_json(label) FROM public.test_unwatched WHERE id = $1::int)::text';
    const stop = manager.subscribe(liveQuery(db.pool, { params: [1], sql, tables: ['public.test_unwatched'], responseKey: 'label' }), watcher);
    expect(await watcher.waitFor(1)).toBe('{"data":{"label":"before"}}');
    await db.pool.query("UPDATE public.test_unwatched SET label = 'after'");
    expect(await watcher.waitFor(2, 2_000)).toBe('{"data":{"label":"after"}}');
    stop();
  });

  it('keeps working after the LISTEN connection is killed, refetching what it missed', async () => {
    // No safety poll within the test: only the reconnection's refetch can bring the missed change.
    const own = createLiveQueryManager({ pool: db.pool, log: silent, refetchIntervalMs: 20, safetyPollMs: 60_000 });
    await own.ready();
    const watcher = collector();
    const stop = own.subscribe(liveQuery(db.pool, { params: ['frank'] }), watcher);
    await watcher.waitFor(1);
    await db.pool.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'vyuha-live-queries' AND datname = current_database()");
    await db.pool.query("INSERT INTO public.test_notes (owner, body) VALUES ('frank', 'during the outage')");
    expect(await watcher.waitFor(2, 3_000)).toBe('{"data":{"notes":["during the outage"]}}');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await db.pool.query("INSERT INTO public.test_notes (owner, body) VALUES ('frank', 'after')");
    expect(await watcher.waitFor(3, 1_000)).toBe('{"data":{"notes":["during the outage", "after"]}}');
    stop();
    await own.close();
  });

  it('ends only the subscription whose parameters fail; the rest of its statement still gets results', async () => {
    const sql = "SELECT coalesce(json_agg(body ORDER BY id), '[]')::text FROM public.test_notes WHERE id = $1::int";
    const good = collector();
    const bad = collector();
    const stops = [
      manager.subscribe(liveQuery(db.pool, { params: [1], sql }), good),
      manager.subscribe(liveQuery(db.pool, { params: ['not a number'], sql }), bad),
    ];
    await good.waitFor(1);
    const deadline = Date.now() + 2_000;
    while (bad.errors.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(bad.errors[0]?.extensions.code).toBe('data-exception');
    expect(bad.payloads).toEqual([]);
    for (const stop of stops) stop();
  });

  it('passes a GraphqlFailure from fetch to the listeners and drops the group', async () => {
    const failing = collector();
    const query: LiveQuery = {
      key: 'failing', sql: 'SELECT 1 AS x, $1', params: [], responseKey: 'x', tables: ['public.test_notes'],
      fetch: () => Promise.reject(new GraphqlFailure('permission-error', 'not allowed any more')),
    };
    manager.subscribe(query, failing);
    const deadline = Date.now() + 2_000;
    while (failing.errors.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(failing.errors).toEqual([{ message: 'not allowed any more', extensions: { path: '$', code: 'permission-error' } }]);
    expect(manager.statistics().groups).toBe(0);
  });
});
