/**
 * POST /v1/graphql and /graphql: the body read as text, scanned (json-scan.ts) and parsed; the
 * request budget and a slot in flight taken before the body is read (transport-guards.ts); one
 * request or a batch, whose operations run one after another (the event loop gets a turn
 * between them), each answered in Hasura's shape.
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { scanJson } from './json-scan';
import type { TransportLimits } from './limits';
import type { SessionResolver } from './session';
import { budgetError, budgetUser, guardRoutes, refuseHttp, type TransportGuards } from './transport-guards';
import { GraphqlFailure, type GraphqlEngine, type GraphqlError, type GraphqlRequest } from './types';

/** The two paths Hasura clients post to (README.md, HTTP endpoints: `/v1/graphql` and `/graphql`). */
export const GRAPHQL_PATHS: readonly string[] = ['/v1/graphql', '/graphql'];

const JSON_TYPE = 'application/json; charset=utf-8';
const GRAPHQL_RESPONSE_TYPE = 'application/graphql-response+json; charset=utf-8';

export interface GraphqlHttpOptions {
  readonly engine: GraphqlEngine;
  readonly sessions: SessionResolver;
  readonly limits: TransportLimits;
  readonly log: FastifyBaseLogger;
  /** Internal error messages are shown to clients only outside production. */
  readonly production: boolean;
  /** The request budget and admission shared by every transport of the process. */
  readonly guards: TransportGuards;
}

/**
 * A GraphQL request body, checked field by field; a bad one throws `bad-request` naming the
 * field (`$.query`, `$[2].variables`).
 * @example parseGraphqlRequest({ query: '{ a }' }) -> { query: '{ a }', variables: null, operationName: null }
 */
export function parseGraphqlRequest(value: unknown, path = '$'): GraphqlRequest {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new GraphqlFailure('bad-request', 'the request body must be a JSON object', path);
  const body = value as Record<string, unknown>;
  if (typeof body.query !== 'string') {
    throw new GraphqlFailure('bad-request', body.query === undefined ? "the key 'query' was not present" : "the key 'query' must be a string", `${path}.query`);
  }
  const variables = body.variables ?? null;
  if (variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) {
    throw new GraphqlFailure('bad-request', "the key 'variables' must be an object or null", `${path}.variables`);
  }
  const operationName = body.operationName ?? null;
  if (operationName !== null && typeof operationName !== 'string') {
    throw new GraphqlFailure('bad-request', "the key 'operationName' must be a string or null", `${path}.operationName`);
  }
  return { query: body.query, variables: variables as Record<string, unknown> | null, operationName };
}

/** `{"errors":[...]}` text. */
export function errorsBody(errors: readonly GraphqlError[]): string {
  return JSON.stringify({ errors });
}

/** The GraphqlError of anything thrown: a GraphqlFailure as it is, anything else `unexpected`. */
export function toGraphqlError(error: unknown, options: { production: boolean }): GraphqlError {
  if (error instanceof GraphqlFailure) return error.toGraphqlError();
  const detail = !options.production && error instanceof Error ? `: ${error.message}` : '';
  return { message: `internal error${detail}`, extensions: { path: '$', code: 'unexpected' } };
}

/**
 * The HTTP status of a request-level failure in GraphQL-over-HTTP mode
 * (`Accept: application/graphql-response+json`); plain `application/json` keeps Hasura's 200.
 */
export function statusForFailure(code: string): number {
  if (code === 'invalid-jwt' || code === 'invalid-headers') return 401;
  if (code === 'access-denied') return 403;
  if (code === 'too-many-requests') return 429;
  if (code === 'server-busy') return 503;
  if (code === 'unexpected') return 500;
  return 400;
}

/** Registers POST (and a 405 for GET) on /v1/graphql and /graphql in an encapsulated scope. */
export async function registerGraphqlHttp(app: FastifyInstance, options: GraphqlHttpOptions): Promise<void> {
  await app.register(async (scope) => {
    useRawBodies(scope, options);
    guardRoutes(scope, options.guards);
    for (const path of GRAPHQL_PATHS) {
      scope.post(path, { bodyLimit: options.limits.bodyLimitBytes }, (request, reply) => answerGraphql(request, reply, options));
      scope.get(path, async (_request, reply) => {
        // WebSocket upgrades never reach routes (the server's 'upgrade' event takes them).
        void reply.code(405).header('allow', 'POST').type(JSON_TYPE);
        return errorsBody([{ message: 'GraphQL over HTTP takes POST with a JSON body; subscriptions use a WebSocket on this path', extensions: { path: '$', code: 'bad-request' } }]);
      });
    }
  });
}

/**
 * Every content type is read as text and parsed by the handler (Hasura accepts a JSON body
 * whatever its content type); oversized and unreadable bodies answer in Hasura's error shape.
 */
export function useRawBodies(scope: FastifyInstance, options: { readonly production: boolean; readonly log: FastifyBaseLogger }): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  scope.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 500) options.log.error({ err: error }, 'graphql: request failed');
    const message = status === 413 ? 'the request body is larger than the limit' : status < 500 ? error.message : toGraphqlError(error, options).message;
    const code = status === 413 ? 'bad-request' : status < 500 ? 'bad-request' : 'unexpected';
    return reply.code(status).type(JSON_TYPE).send(errorsBody([{ message, extensions: { path: '$', code } }]));
  });
}

const NON_SPACE = /\S/;

/**
 * The request body as JSON; text that is not JSON throws `parse-failed`, JSON with more values
 * or deeper nesting than the limits allow `bad-request` (checked before parsing).
 */
export function readJsonBody(body: unknown, limits: Pick<TransportLimits, 'maxJsonValues' | 'maxJsonDepth'>): unknown {
  if (typeof body !== 'string' || !NON_SPACE.test(body)) throw new GraphqlFailure('parse-failed', 'the request body is empty: send a JSON object {"query": ...}');
  const refused = scanJson(body, { maxValues: limits.maxJsonValues, maxDepth: limits.maxJsonDepth });
  if (refused) throw new GraphqlFailure('bad-request', `the request body is too large to read: ${refused}`);
  try {
    return JSON.parse(body);
  } catch (error) {
    throw new GraphqlFailure('parse-failed', `the request body is not valid JSON: ${(error as Error).message}`);
  }
}

function wantsGraphqlResponse(accept: string | undefined): boolean {
  return accept !== undefined && accept.includes('application/graphql-response+json');
}

async function answerGraphql(request: FastifyRequest, reply: FastifyReply, options: GraphqlHttpOptions): Promise<FastifyReply> {
  const strict = wantsGraphqlResponse(request.headers.accept);
  const type = strict ? GRAPHQL_RESPONSE_TYPE : JSON_TYPE;
  let parsed: GraphqlRequest | GraphqlRequest[];
  try {
    parsed = parseBody(readJsonBody(request.body, options.limits), options.limits.maxBatchSize);
  } catch (error) {
    // A body we cannot read is a 400 in both modes (Hasura answers 400 too).
    return reply.code(400).type(type).send(errorsBody([toGraphqlError(error, options)]));
  }
  try {
    const session = await options.sessions(request.headers, true);
    const count = Array.isArray(parsed) ? parsed.length : 1;
    // The address paid one token before the body was read; a batch pays for each operation.
    const address = count > 1 ? options.guards.budget.address(request.ip, count - 1) : { ok: true as const };
    if (!address.ok) return refuseHttp(reply, { status: 429, retryAfterSeconds: address.retryAfterSeconds, error: budgetError(address, 'address') });
    const user = options.guards.budget.user(budgetUser(session), count);
    if (!user.ok) return refuseHttp(reply, { status: 429, retryAfterSeconds: user.retryAfterSeconds, error: budgetError(user, 'user') });
    if (Array.isArray(parsed)) {
      const bodies: string[] = [];
      // Held together to the limits of one operation (types.ts BatchSpent).
      const batch = { nodes: 0, aliases: 0, cost: 0, tokens: 0 };
      for (const one of parsed) {
        // One after another, with a turn of the event loop between: a batch is never all at once.
        if (bodies.length > 0) await new Promise<void>((resolve) => setImmediate(resolve));
        bodies.push((await options.engine.execute(one, session, { batch })).body);
      }
      return reply.code(200).type(type).send(`[${bodies.join(',')}]`);
    }
    const outcome = await options.engine.execute(parsed, session);
    const status = strict && outcome.failed && outcome.requestError ? statusForFailure(outcome.errors[0]?.extensions.code ?? 'bad-request') : 200;
    // The engine's text goes out as it is: no parse or stringify on the hot path.
    return reply.code(status).type(type).send(outcome.body);
  } catch (error) {
    const graphqlError = toGraphqlError(error, options);
    const code = graphqlError.extensions.code;
    if (code === 'unexpected') options.log.error({ err: error }, 'graphql: request failed');
    const status = code === 'unexpected' ? 500 : strict ? statusForFailure(code) : 200;
    return reply.code(status).type(type).send(errorsBody([graphqlError]));
  }
}

function parseBody(body: unknown, maxBatchSize: number): GraphqlRequest | GraphqlRequest[] {
  if (!Array.isArray(body)) return parseGraphqlRequest(body);
  if (body.length === 0) throw new GraphqlFailure('bad-request', 'a batch must hold at least one operation');
  if (body.length > maxBatchSize) throw new GraphqlFailure('bad-request', `a batch may hold at most ${maxBatchSize} operations, got ${body.length}`);
  return body.map((item, index) => parseGraphqlRequest(item, `$[${index}]`));
}
