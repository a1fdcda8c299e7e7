import { Kind, parse, type OperationTypeNode } from 'graphql';
import { toGraphqlError } from '../http';
import type { ResolvedSession } from '../session';
import type { GraphqlEngine, GraphqlError, GraphqlRequest } from '../types';
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
   * Checks, before each operation, what may have changed since `connection_init` (a manager's
   * link to the user they act for); throws a GraphqlFailure to refuse the operation.
   */
  readonly recheckSession?: (session: ResolvedSession) => Promise<void>;
}

interface Running {
  stop(): void;
}

/**
 * The operations of one WebSocket connection, by id: subscriptions are live queries until
 * stopped; queries and mutations send one result and complete.
 */
export class ConnectionOperations {
  private readonly running = new Map<string, Running>();

  constructor(private readonly context: OperationContext, private readonly session: ResolvedSession) {}

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
    const recheck = this.context.recheckSession?.(this.session) ?? Promise.resolve();
    const work = recheck.then(() => (operationType(request) === 'subscription'
      ? this.startSubscription({ request, sink, running, current, finish })
      : this.runOnce({ request, sink, current, finish })));
    work.catch((error: unknown) => {
      if (!current()) return;
      finish();
      sink.error([toGraphqlError(error, this.context)]);
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
    for (const id of [...this.running.keys()]) this.stop(id);
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
      next: (payload) => input.sink.next(payload),
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

const operationTypes = new Map<string, OperationTypeNode | undefined>();
const OPERATION_TYPE_CACHE = 1_000;

/**
 * Whether a request is a query, mutation or subscription (undefined when it does not parse:
 * the engine then reports the syntax error). Cached by query text and operation name.
 */
export function operationType(request: GraphqlRequest): OperationTypeNode | undefined {
  const key = `${request.operationName ?? ''}\u0000${request.query}`;
  if (operationTypes.has(key)) return operationTypes.get(key);
  let found: OperationTypeNode | undefined;
  try {
    const operations = parse(request.query).definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION);
    const chosen = request.operationName ? operations.find((operation) => operation.name?.value === request.operationName) : operations[0];
    found = chosen?.operation;
  } catch {
    found = undefined;
  }
  if (operationTypes.size >= OPERATION_TYPE_CACHE) {
    const oldest = operationTypes.keys().next();
    if (!oldest.done) operationTypes.delete(oldest.value);
  }
  operationTypes.set(key, found);
  return found;
}
