/**
 * What stands in front of every GraphQL operation, whatever its transport: the request budget
 * per client address and per user (request-budget.ts) and the admission of operations in flight
 * (admission.ts). One instance per process, shared by HTTP, CSV and WebSocket, so a client
 * cannot double its share by switching transport.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Admission } from './admission';
import type { TransportLimits } from './limits';
import { budgetMessage, RequestBudget, type BudgetVerdict } from './request-budget';
import type { GraphqlError, GraphqlSession } from './types';

export interface TransportGuards {
  readonly limits: TransportLimits;
  readonly admission: Admission;
  readonly budget: RequestBudget;
}

export function createTransportGuards(limits: TransportLimits): TransportGuards {
  return {
    limits,
    admission: new Admission(limits),
    budget: new RequestBudget({ perAddress: limits.addressBudget, perUser: limits.userBudget }),
  };
}

/** The user whose budget a session spends: the signed-in person (a manager acting for a user spends their own); none for anonymous and the admin secret. */
export function budgetUser(session: GraphqlSession): string | undefined {
  if (session.admin || session.role === 'anonymous') return undefined;
  return session.variables['x-hasura-actor-id'] ?? session.variables['x-hasura-user-id'];
}

/** The error of a refused budget (Hasura's shape). */
export function budgetError(verdict: Extract<BudgetVerdict, { ok: false }>, who: 'address' | 'user'): GraphqlError {
  return { message: budgetMessage({ who, retryAfterSeconds: verdict.retryAfterSeconds }), extensions: { path: '$', code: 'too-many-requests' } };
}

/** The error of an operation refused for want of a slot. */
export const BUSY_ERROR: GraphqlError = {
  message: 'the server is busy with other GraphQL requests: try again in a moment',
  extensions: { path: '$', code: 'server-busy' },
};

/** Answers a refused HTTP request: 429 (budget) or 503 (busy), Retry-After, Hasura's error body. */
export function refuseHttp(reply: FastifyReply, input: { status: 429 | 503; retryAfterSeconds: number; error: GraphqlError }): FastifyReply {
  return reply
    .code(input.status)
    .header('retry-after', String(input.retryAfterSeconds))
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ errors: [input.error] }));
}

/**
 * For every route of `scope`, before its body is read: one token from the client address's
 * budget, then a slot in flight, held until the response is finished or the connection closes.
 */
export function guardRoutes(scope: FastifyInstance, guards: TransportGuards): void {
  scope.addHook('onRequest', async (request, reply) => {
    const address = request.ip;
    const verdict = guards.budget.address(address);
    if (!verdict.ok) return refuseHttp(reply, { status: 429, retryAfterSeconds: verdict.retryAfterSeconds, error: budgetError(verdict, 'address') });
    const release = await guards.admission.enter(address);
    if (!release) return refuseHttp(reply, { status: 503, retryAfterSeconds: 1, error: BUSY_ERROR });
    if (reply.raw.writableFinished || reply.raw.destroyed) release();
    else reply.raw.once('close', release);
    return undefined;
  });
}
