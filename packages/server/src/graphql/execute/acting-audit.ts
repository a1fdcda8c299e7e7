/**
 * The trail of acting for a managed user (migration 0030, `acting_audit`): every mutation a
 * manager makes while acting for a user, whatever the transport (HTTP, WebSocket, the Fastify
 * plugin all run engine.execute -> executeRequest), is written here once it has run.
 *
 * Invariants:
 * - A session acts for a user when its `x-hasura-actor-id` (the signed-in manager) and
 *   `x-hasura-user-id` (the managed user, set by session.ts only while a `managers` row links
 *   them) are both uuids and differ; the admin secret never acts.
 * - Only operations that reached execution as mutations are written (a request refused before,
 *   e.g. by validation, changed nothing); outcome 'error' when the response carries errors.
 * - The row is written after the mutation, in its own statement: a failed write is logged and
 *   never turns a mutation that ran into an error answer.
 */
import type { ExecutionOutcome, GraphqlSession } from '../types';
import type { StatementRunner } from './database';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The (actor, subject) pair of a session acting for a managed user, else undefined. */
export function actingPair(session: GraphqlSession): { readonly actorId: string; readonly subjectId: string } | undefined {
  if (session.admin) return undefined;
  const actorId = session.variables['x-hasura-actor-id'];
  const subjectId = session.variables['x-hasura-user-id'];
  if (actorId === undefined || subjectId === undefined || !UUID.test(actorId) || !UUID.test(subjectId)) return undefined;
  return actorId.toLowerCase() === subjectId.toLowerCase() ? undefined : { actorId, subjectId };
}

/** The signed-in user's id when it is a uuid (what the 0028 audit triggers read as `vyuha.actor_id`). */
export function signedInActor(session: GraphqlSession): string | undefined {
  if (session.admin) return undefined;
  const actorId = session.variables['x-hasura-actor-id'];
  return actorId !== undefined && UUID.test(actorId) ? actorId.toLowerCase() : undefined;
}

const INSERT_SQL = `INSERT INTO public.acting_audit (actor_id, actor_name, subject_id, operation_name, root_fields, outcome, error)
  SELECT $1::uuid, coalesce((SELECT name FROM public.users WHERE user_id = $1::uuid), ''), $2::uuid, $3, $4::text[], $5, $6`;

export interface ActingMutation {
  readonly session: GraphqlSession;
  readonly operationName: string | undefined;
  readonly rootFields: readonly string[];
  readonly outcome: ExecutionOutcome;
}

/** Writes the acting_audit row of a mutation when its session acts for a managed user. */
export async function recordActingMutation(
  runner: StatementRunner,
  mutation: ActingMutation,
  log: ((message: string) => void) | undefined,
): Promise<void> {
  const pair = actingPair(mutation.session);
  if (pair === undefined || mutation.rootFields.length === 0) return;
  const failed = mutation.outcome.failed;
  const error = failed ? (mutation.outcome.errors[0]?.message ?? 'error').slice(0, 500) : null;
  const operationName = mutation.operationName === undefined ? null : mutation.operationName.slice(0, 200);
  try {
    const client = await runner.connect();
    try {
      await runner.query(client, {
        sql: INSERT_SQL,
        params: [pair.actorId, pair.subjectId, operationName, mutation.rootFields.slice(0, 100), failed ? 'error' : 'ok', error],
      });
    } finally {
      client.release();
    }
  } catch (failure) {
    log?.(`acting_audit: could not record ${mutation.rootFields.join(', ')} by ${pair.actorId} for ${pair.subjectId}: ${(failure as Error).message}`);
  }
}
