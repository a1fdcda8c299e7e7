/**
 * The operations of one WebSocket connection: budget, admission, the managed-user link, and the
 * run itself. Every operation takes a token from the client address's and the user's budget; a
 * query or mutation also a slot in flight while it is prepared and run (transport-guards.ts),
 * like an HTTP request.
 *
 * Two things checked at `connection_init` can end while the socket is open: the `managers` link
 * of a manager acting for a managed user (`x-hasura-managed-user-id`), and the personal access
 * token of a session signed in with one (`x-hasura-auth-pat-id`: revoked, or expired). So for
 * such a session the check runs again before every operation, before every push of a live result
 * (a result computed while it held is not sent once it is gone), and whenever the table that
 * decides changes: `managers`, or the PAT rows of `auth.refresh_tokens` (migration 0017 notifies
 * them), so a subscription with nothing new to push ends at once too. A failed check revokes the
 * connection: its operations stop and the protocol closes it (4403).
 */
import { Kind, parse, type OperationTypeNode } from 'graphql';
import { DEFAULT_ENGINE_LIMITS } from '../execute/limits';
import { MAX_BRACKET_NESTING, scanQuery } from '../execute/query-scan';
import { toGraphqlError } from '../http';
import { PAT_TABLE } from '../pat-sessions';
import type { ResolvedSession, SessionRecheck } from '../session';
import { BUSY_ERROR, budgetError, budgetUser, type TransportGuards } from '../transport-guards';
import { GraphqlFailure, type GraphqlEngine, type GraphqlError, type GraphqlRequest } from '../types';
import type { LiveQueryManager } from './live-queries';

/** Where one operation's messages go (the protocol decides their wire form). */
export interface OperationSink {
  /** A result: the JSON text of `{"data":...}` or `{"errors":...}` (execution errors). */
  next(payload: string): void;
  /** Request errors (parse, validation, permission): the operation is over. */
  error(errors: readonly GraphqlError[]): void;
  complete(): void;
}

export interface OperationContext {
  readonly engine: GraphqlEngine;
  readonly liveQueries: LiveQueryManager;
  readonly production: boolean;
  /**
   * Checks what may have changed since `connection_init` (a manager's link to the user they act
   * for, a PAT session's PAT); throws a GraphqlFailure to refuse. Run before each operation and
   * each push of such a session, and with `fresh` when its table changed (see the module comment).
   */
  readonly recheckSession?: SessionRecheck;
  /** The request budget and admission shared with HTTP; absent: none (tests of the protocols alone). */
  readonly guards?: TransportGuards;
}

/** The connection an operation set belongs to. */
export interface ConnectionSide {
  /** The client address (budget and admission key). */
  readonly address: string;
  /** Ends the connection because its session no longer holds (the protocol closes it, 4403). */
  revoke(message: string): void;
}

interface Running {
  stop(): void;
}

/** The table whose rows link managers to the users they manage. */
const MANAGERS_TABLE = 'public.managers';

export class ConnectionOperations {
  private readonly running = new Map<string, Running>();
  /** Pushes of a managed session wait here, in order, for their link check. */
  private pushes: Promise<void> = Promise.resolve();
  private revoked = false;
  private readonly unwatch: () => void;
  /** Whether anything about the session is checked again (see the module comment). */
  private readonly rechecked: boolean;

  constructor(private readonly context: OperationContext, private readonly session: ResolvedSession, private readonly side: ConnectionSide) {
    this.rechecked = context.recheckSession !== undefined && (isManaged(session) || session.patId !== undefined);
    const tables = this.rechecked ? [...(isManaged(session) ? [MANAGERS_TABLE] : []), ...(session.patId === undefined ? [] : [PAT_TABLE])] : [];
    const stops = tables.map((table) => context.liveQueries.watchTable(table, () => void this.recheck({ fresh: true }).catch(() => undefined)));
    this.unwatch = () => {
      for (const stop of stops) stop();
    };
  }

  has(id: string): boolean {
    return this.running.has(id);
  }

  get size(): number {
    return this.running.size;
  }

  /** Starts an operation; the caller has checked that `id` is free. */
  start(id: string, request: GraphqlRequest, sink: OperationSink): void {
    const running: Running = { stop: () => undefined };
    this.running.set(id, running);
    const current = (): boolean => this.running.get(id) === running;
    const finish = (): void => {
      if (current()) this.running.delete(id);
    };
    // A subscription's start is prepared here and fetched by the live-query manager: it takes no
    // slot in flight (a thousand clients reconnecting at once must not be refused), only budget.
    const subscription = operationType(request) === 'subscription';
    const work = this.admitted({ slot: !subscription }, async () => {
      await this.recheck();
      if (subscription) await this.startSubscription({ request, sink, running, current, finish });
      else await this.runOnce({ request, sink, current, finish });
    });
    work.catch((error: unknown) => {
      if (!current()) return;
      finish();
      sink.error([error instanceof GraphqlFailure ? error.toGraphqlError() : toGraphqlError(error, this.context)]);
    });
  }

  /** Stops an operation (a client's `complete`/`stop`); unknown ids are ignored. */
  stop(id: string): void {
    const running = this.running.get(id);
    if (!running) return;
    this.running.delete(id);
    running.stop();
  }

  stopAll(): void {
    this.unwatch();
    for (const id of [...this.running.keys()]) this.stop(id);
  }

  /** Runs `work` within the budgets and, for queries and mutations, a slot in flight (none without guards). */
  private async admitted(input: { slot: boolean }, work: () => Promise<void>): Promise<void> {
    const { guards } = this.context;
    if (!guards) return work();
    const address = guards.budget.address(this.side.address);
    if (!address.ok) throw failureOf(budgetError(address, 'address'));
    const user = guards.budget.user(budgetUser(this.session));
    if (!user.ok) throw failureOf(budgetError(user, 'user'));
    if (!input.slot) return work();
    const release = await guards.admission.enter(this.side.address);
    if (!release) throw failureOf(BUSY_ERROR);
    try {
      await work();
    } finally {
      release();
    }
  }

  /**
   * The session's checks (nothing to check unless it is a managed or PAT session); a failure
   * revokes the connection. `fresh`: a deciding table changed, answers kept from before do not count.
   */
  private async recheck(options: { fresh?: boolean } = {}): Promise<void> {
    if (this.revoked) throw new GraphqlFailure('access-denied', 'the connection was closed');
    if (!this.rechecked || !this.context.recheckSession) return;
    try {
      await this.context.recheckSession(this.session, options);
    } catch (error) {
      if (error instanceof GraphqlFailure && !this.revoked) {
        this.revoked = true;
        this.stopAll();
        this.side.revoke(error.message);
      }
      throw error;
    }
  }

  /** A live result: at once, or for a managed or PAT session once it is checked again (in order). */
  private push(payload: string, input: { sink: OperationSink; current(): boolean }): void {
    if (!this.rechecked) {
      input.sink.next(payload);
      return;
    }
    this.pushes = this.pushes.then(async () => {
      if (!input.current()) return;
      try {
        await this.recheck();
      } catch {
        return;
      }
      if (input.current()) input.sink.next(payload);
    });
  }

  private async startSubscription(input: { request: GraphqlRequest; sink: OperationSink; running: Running; current(): boolean; finish(): void }): Promise<void> {
    const prepared = await this.context.engine.subscribe(input.request, this.session);
    if (!input.current()) return;
    if ('errors' in prepared) {
      input.finish();
      input.sink.error(prepared.errors);
      return;
    }
    input.running.stop = this.context.liveQueries.subscribe(prepared, {
      next: (payload) => this.push(payload, input),
      error: (error) => {
        if (!input.current()) return;
        input.finish();
        input.sink.error([error]);
      },
    });
  }

  private async runOnce(input: { request: GraphqlRequest; sink: OperationSink; current(): boolean; finish(): void }): Promise<void> {
    const outcome = await this.context.engine.execute(input.request, this.session);
    if (!input.current()) return;
    input.finish();
    if (outcome.failed && outcome.requestError) {
      input.sink.error(outcome.errors);
      return;
    }
    input.sink.next(outcome.body);
    input.sink.complete();
  }
}

/** A session acting for another user (a manager for a managed user). */
function isManaged(session: ResolvedSession): boolean {
  const actor = session.variables['x-hasura-actor-id'];
  const user = session.variables['x-hasura-user-id'];
  return !session.admin && actor !== undefined && user !== undefined && actor !== user;
}

function failureOf(error: GraphqlError): GraphqlFailure {
  return new GraphqlFailure(error.extensions.code, error.message, error.extensions.path);
}

const operationTypes = new Map<string, OperationTypeNode | undefined>();
const OPERATION_TYPE_CACHE = 1_000;
/** Only short texts are cached (the cache then holds at most about 8 MiB of query text). */
const CACHED_QUERY_CHARACTERS = 8 * 1024;

/**
 * Whether a request is a query, mutation or subscription (undefined when it does not parse, or is
 * too large to parse here: the engine then reports why). The parse is bounded like the engine's
 * (brackets, comments, tokens). Cached by query text and operation name.
 */
export function operationType(request: GraphqlRequest): OperationTypeNode | undefined {
  const cacheable = request.query.length <= CACHED_QUERY_CHARACTERS;
  const key = cacheable ? `${request.operationName ?? ''}\u0000${request.query}` : '';
  if (cacheable && operationTypes.has(key)) return operationTypes.get(key);
  let found: OperationTypeNode | undefined;
  const { maxTokens, maxQueryLength } = DEFAULT_ENGINE_LIMITS;
  if (request.query.length <= maxQueryLength && scanQuery(request.query, { maxNesting: MAX_BRACKET_NESTING, maxComments: maxTokens }) === undefined) {
    try {
      const operations = parse(request.query, { maxTokens, noLocation: true }).definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION);
      const chosen = request.operationName ? operations.find((operation) => operation.name?.value === request.operationName) : operations[0];
      found = chosen?.operation;
    } catch {
      found = undefined;
    }
  }
  if (!cacheable) return found;
  if (operationTypes.size >= OPERATION_TYPE_CACHE) {
    const oldest = operationTypes.keys().next();
    if (!oldest.done) operationTypes.delete(oldest.value);
  }
  operationTypes.set(key, found);
  return found;
}
