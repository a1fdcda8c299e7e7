import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { GraphqlError, LiveQuery } from '../types';
import { markedSize, tooLargeFailure } from '../execute/response-ceiling';
import { inUtcTransaction, permanentError, tableName, VIEW_BASE_TABLES_SQL } from './live-query-sql';
import { multiplexedSql, parameterSetsJson, payloadText } from './multiplex';
import { clientFactoryFor, openTableChangeFeed, type ListenerLog, type TableChangeFeed } from './table-changes';

/** Receives one subscription's results; `error` ends it. */
export interface LiveQueryListener {
  next(payload: string): void;
  error(error: GraphqlError): void;
}

export interface LiveQueryManagerOptions {
  readonly pool: pg.Pool;
  readonly log: ListenerLog;
  /** How often dirty subscriptions are refetched (default 50 ms). */
  readonly refetchIntervalMs?: number;
  /** Every subscription is refetched this often even without a change: time-dependent filters (default 15 s). */
  readonly safetyPollMs?: number;
  /** Most parameter sets in one multiplexed statement (default 500). */
  readonly multiplexBatchSize?: number;
  /** The LISTEN client; defaults to a new client with the pool's settings. */
  readonly createListenClient?: () => pg.Client;
}

export interface LiveQueryStatistics {
  /** Distinct results kept (subscriptions with the same key share one). */
  readonly groups: number;
  /** Distinct SQL texts (groups multiplexed together). */
  readonly cohorts: number;
  readonly subscribers: number;
  /** Statements run for refetches since start. */
  readonly statements: number;
}

export interface LiveQueryManager {
  /** Starts pushing the query's results to `listener`; returns the function that stops it (idempotent). */
  subscribe(query: LiveQuery, listener: LiveQueryListener): () => void;
  /** Resolves once the process is LISTENing for table changes. */
  ready(): Promise<void>;
  /**
   * Calls `onChange` whenever `table` (`schema.table`) changes in any process, and after the
   * LISTEN connection was lost and is back (changes may have been missed); returns the stop function.
   */
  watchTable(table: string, onChange: () => void): () => void;
  statistics(): LiveQueryStatistics;
  close(): Promise<void>;
}

interface Group {
  readonly query: LiveQuery;
  readonly cohort: Cohort;
  readonly listeners: Set<LiveQueryListener>;
  /** The last result pushed, kept when it is small (KEPT_RESULT_CHARACTERS). */
  last: string | undefined;
  /** A digest of the last result when it was too large to keep. */
  lastDigest: string | undefined;
  /** Newcomers still owed a first result (the last one was too large to keep). */
  readonly awaiting: Set<LiveQueryListener>;
  dirty: boolean;
  failures: number;
  retryAt: number;
}

interface Cohort {
  readonly sql: string;
  /** undefined: not multiplexable, each group runs its own `fetch()`. */
  readonly multiplexed: string | undefined;
  readonly groups: Map<string, Group>;
  tables: readonly string[];
}

/**
 * Results longer than this are not kept for newcomers (a digest tells a change): the heap then
 * holds at most this much per distinct subscription, whatever the results' sizes.
 */
const KEPT_RESULT_CHARACTERS = 64 * 1024;

/** Failures after which a subscription gets an error instead of another retry. */
const MAX_TRANSIENT_FAILURES = 5;

/**
 * The live-query manager: subscriptions with the same LiveQuery key share one refetch and one
 * last result; subscriptions with the same SQL are refetched together in one multiplexed
 * statement; a NOTIFY from migration 0009's triggers marks the groups that read the table, a
 * short loop refetches them, and a result is pushed only when its text changed.
 */
export function createLiveQueryManager(options: LiveQueryManagerOptions): LiveQueryManager {
  const state = new ManagerState(options);
  const watchers = new Map<string, Set<() => void>>();
  const notify = (table: string | undefined): void => {
    const lists = table === undefined ? [...watchers.values()] : [watchers.get(table) ?? new Set<() => void>()];
    for (const list of lists) {
      for (const watcher of [...list]) {
        try {
          watcher();
        } catch (error) {
          options.log.error({ err: error }, 'live queries: a table watcher failed');
        }
      }
    }
  };
  const feed: TableChangeFeed = openTableChangeFeed({
    createClient: options.createListenClient ?? clientFactoryFor(options.pool),
    onChange: (table) => {
      state.tableChanged(table);
      notify(table);
    },
    // Changes made while disconnected were missed: refetch everything, and tell every watcher.
    onConnected: () => {
      state.markAll();
      notify(undefined);
    },
    log: options.log,
  });
  const loop = setInterval(() => void state.tick(), options.refetchIntervalMs ?? 50);
  loop.unref();
  const safety = setInterval(() => state.markAll(), options.safetyPollMs ?? 15_000);
  safety.unref();
  return {
    subscribe: (query, listener) => state.subscribe(query, listener),
    ready: () => feed.ready(),
    watchTable(table, onChange) {
      const list = watchers.get(table) ?? new Set<() => void>();
      const watcher = (): void => onChange();
      list.add(watcher);
      watchers.set(table, list);
      return () => {
        list.delete(watcher);
        if (list.size === 0 && watchers.get(table) === list) watchers.delete(table);
      };
    },
    statistics: () => state.statistics(),
    async close() {
      clearInterval(loop);
      clearInterval(safety);
      state.closed = true;
      await feed.close();
    },
  };
}

class ManagerState {
  closed = false;
  private readonly cohorts = new Map<string, Cohort>();
  private readonly tableIndex = new Map<string, Set<Cohort>>();
  private readonly dirtyCohorts = new Set<Cohort>();
  private readonly viewTables = new Map<string, Promise<readonly string[]>>();
  private running = false;
  private soon = false;
  private statements = 0;

  constructor(private readonly options: LiveQueryManagerOptions) {}

  subscribe(query: LiveQuery, listener: LiveQueryListener): () => void {
    const cohort = this.cohorts.get(query.sql) ?? this.addCohort(query);
    let group = cohort.groups.get(query.key);
    if (!group) {
      group = {
        query, cohort, listeners: new Set(), last: undefined, lastDigest: undefined, awaiting: new Set(), dirty: false, failures: 0, retryAt: 0,
      };
      cohort.groups.set(query.key, group);
      this.markDirty(group);
      this.tickSoon();
    } else if (group.last !== undefined) {
      const joined = group;
      // A newcomer gets the shared last result at once; later ones only when it changes.
      queueMicrotask(() => {
        if (joined.listeners.has(listener) && joined.last !== undefined) safeNext(listener, joined.last);
      });
    } else if (group.lastDigest !== undefined) {
      // The last result was not kept: the next refetch brings it to the newcomer.
      group.awaiting.add(listener);
      this.markDirty(group);
      this.tickSoon();
    }
    group.listeners.add(listener);
    const subscribed = group;
    return () => this.unsubscribe(subscribed, listener);
  }

  tableChanged(table: string): void {
    for (const cohort of this.tableIndex.get(table) ?? []) {
      for (const group of cohort.groups.values()) this.markDirty(group);
    }
  }

  markAll(): void {
    for (const cohort of this.cohorts.values()) {
      for (const group of cohort.groups.values()) this.markDirty(group);
    }
  }

  statistics(): LiveQueryStatistics {
    let groups = 0;
    let subscribers = 0;
    for (const cohort of this.cohorts.values()) {
      groups += cohort.groups.size;
      for (const group of cohort.groups.values()) subscribers += group.listeners.size;
    }
    return { groups, cohorts: this.cohorts.size, subscribers, statements: this.statements };
  }

  /** Refetches every dirty group whose retry time has come; one pass at a time. */
  async tick(): Promise<void> {
    if (this.running || this.closed || this.dirtyCohorts.size === 0) return;
    this.running = true;
    try {
      const now = Date.now();
      const work: Promise<void>[] = [];
      for (const cohort of [...this.dirtyCohorts]) {
        const due = [...cohort.groups.values()].filter((group) => group.dirty && group.retryAt <= now);
        if (due.length === 0) continue;
        // Cleared before the fetch: a change during it marks the group again for the next pass.
        for (const group of due) group.dirty = false;
        if (![...cohort.groups.values()].some((group) => group.dirty)) this.dirtyCohorts.delete(cohort);
        work.push(this.refetch(cohort, due));
      }
      await Promise.all(work);
    } finally {
      this.running = false;
    }
  }

  private tickSoon(): void {
    if (this.soon) return;
    this.soon = true;
    setImmediate(() => {
      this.soon = false;
      void this.tick();
    });
  }

  private addCohort(query: LiveQuery): Cohort {
    const cohort: Cohort = { sql: query.sql, multiplexed: multiplexedSql(query.sql), groups: new Map(), tables: query.tables.map(tableName) };
    this.cohorts.set(query.sql, cohort);
    this.indexTables(cohort, cohort.tables);
    // A view never fires a trigger: watch the tables it reads as well.
    void Promise.all(cohort.tables.map((table) => this.baseTables(table))).then((lists) => {
      if (this.cohorts.get(cohort.sql) !== cohort) return;
      const extra = lists.flat().filter((table) => !cohort.tables.includes(table));
      cohort.tables = [...cohort.tables, ...extra];
      this.indexTables(cohort, extra);
    });
    return cohort;
  }

  private indexTables(cohort: Cohort, tables: readonly string[]): void {
    for (const table of tables) {
      const set = this.tableIndex.get(table) ?? new Set<Cohort>();
      set.add(cohort);
      this.tableIndex.set(table, set);
    }
  }

  private unsubscribe(group: Group, listener: LiveQueryListener): void {
    group.listeners.delete(listener);
    group.awaiting.delete(listener);
    if (group.listeners.size > 0) return;
    this.removeGroup(group);
  }

  private removeGroup(group: Group): void {
    const { cohort } = group;
    if (cohort.groups.get(group.query.key) !== group) return;
    cohort.groups.delete(group.query.key);
    if (cohort.groups.size > 0) return;
    this.cohorts.delete(cohort.sql);
    this.dirtyCohorts.delete(cohort);
    for (const table of cohort.tables) {
      const set = this.tableIndex.get(table);
      set?.delete(cohort);
      if (set?.size === 0) this.tableIndex.delete(table);
    }
  }

  private markDirty(group: Group): void {
    group.dirty = true;
    this.dirtyCohorts.add(group.cohort);
  }

  private async refetch(cohort: Cohort, groups: readonly Group[]): Promise<void> {
    if (cohort.multiplexed === undefined) {
      await Promise.all(groups.map((group) => this.fetchOne(group)));
      return;
    }
    const size = this.options.multiplexBatchSize ?? 500;
    const batches: Group[][] = [];
    for (let start = 0; start < groups.length; start += size) batches.push(groups.slice(start, start + size));
    await Promise.all(batches.map((batch) => this.fetchMultiplexed(cohort.multiplexed ?? '', batch)));
  }

  private async fetchOne(group: Group): Promise<void> {
    try {
      this.statements += 1;
      this.deliver(group, await group.query.fetch());
    } catch (error) {
      this.failed(group, error);
    }
  }

  private async fetchMultiplexed(sql: string, groups: readonly Group[]): Promise<void> {
    let rows: { i: number; result: string | null }[];
    try {
      this.statements += 1;
      rows = await inUtcTransaction(this.options.pool, { sql, params: [parameterSetsJson(groups.map((group) => group.query.params))] });
    } catch (error) {
      // One bad parameter set fails the statement: run each alone so the others still get results.
      this.options.log.warn({ err: error, subscriptions: groups.length }, 'live queries: multiplexed refetch failed; refetching one by one');
      await Promise.all(groups.map((group) => this.fetchOne(group)));
      return;
    }
    for (const row of rows) {
      const group = groups[row.i - 1];
      if (!group) continue;
      const tooLarge = markedSize(row.result);
      if (tooLarge) this.failed(group, tooLargeFailure(tooLarge));
      else this.deliver(group, payloadText(group.query.responseKey, row.result));
    }
  }

  private deliver(group: Group, payload: string): void {
    group.failures = 0;
    group.retryAt = 0;
    const digest = payload.length > KEPT_RESULT_CHARACTERS ? createHash('sha256').update(payload).digest('base64url') : undefined;
    const same = digest === undefined ? payload === group.last : digest === group.lastDigest;
    const owed = [...group.awaiting];
    group.awaiting.clear();
    if (same) {
      for (const listener of owed) if (group.listeners.has(listener)) safeNext(listener, payload);
      return;
    }
    group.last = digest === undefined ? payload : undefined;
    group.lastDigest = digest;
    for (const listener of [...group.listeners]) safeNext(listener, payload);
  }

  private failed(group: Group, error: unknown): void {
    const permanent = permanentError(error);
    group.failures += 1;
    if (!permanent && group.failures < MAX_TRANSIENT_FAILURES) {
      this.options.log.warn({ err: error, failures: group.failures }, 'live queries: refetch failed; will retry');
      group.retryAt = Date.now() + Math.min(30_000, 500 * 2 ** group.failures);
      this.markDirty(group);
      return;
    }
    this.options.log.error({ err: error }, 'live queries: subscription ended by an error');
    const graphqlError = permanent ?? { message: 'database query failed', extensions: { path: '$', code: 'unexpected' } };
    this.removeGroup(group);
    for (const listener of [...group.listeners]) {
      try {
        listener.error(graphqlError);
      } catch {
        // A listener's failure must not stop the others.
      }
    }
    group.listeners.clear();
  }

  /** The tables a view reads (recursively), or [] for a table. Cached per name. */
  private baseTables(table: string): Promise<readonly string[]> {
    let found = this.viewTables.get(table);
    if (!found) {
      found = this.options.pool.query<{ name: string }>(VIEW_BASE_TABLES_SQL, [table]).then(
        (result) => result.rows.map((row) => row.name).filter((name) => name !== table),
        () => [],
      );
      this.viewTables.set(table, found);
    }
    return found;
  }
}

function safeNext(listener: LiveQueryListener, payload: string): void {
  try {
    listener.next(payload);
  } catch {
    // A listener's failure (a closed socket) must not stop the others.
  }
}

export { tableName } from './live-query-sql';
