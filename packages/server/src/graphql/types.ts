/**
 * The contracts between the parts of the GraphQL layer:
 *
 *   session.ts   headers / WebSocket connection payload -> GraphqlSession
 *   engine       GraphqlRequest + GraphqlSession -> Hasura-shaped JSON text (queries, mutations,
 *                actions), or a LiveQuery for a subscription
 *   http.ts      POST /v1/graphql, /graphql, /api/gql/csv
 *   ws/          graphql-transport-ws and graphql-ws over the same paths, live queries
 */

/**
 * Session variables as Hasura passes them to permissions: lower-case keys, string values.
 *
 * - `x-hasura-role`: the role permissions are taken from;
 * - `x-hasura-user-id`: whose account the request acts on: the signed-in user, or the user a
 *   manager acts for (`x-hasura-managed-user-id` header, honoured only when `managers` links them);
 * - `x-hasura-actor-id`: the signed-in user, always (audit, manager links);
 * - `x-hasura-default-role`, `x-hasura-allowed-roles` (Postgres array literal), `x-hasura-permissions`,
 *   `x-hasura-w<n>m` (the tier's minimum candle dates), copied from the token's claims.
 */
export type SessionVariables = Readonly<Record<string, string>>;

export interface GraphqlSession {
  /** The role of this request (`x-hasura-role` within the allowed roles, else the default role). */
  readonly role: string;
  readonly variables: SessionVariables;
  /** The admin secret was given: every table, every column but hidden ones, no row filters. */
  readonly admin: boolean;
}

export interface GraphqlRequest {
  readonly query: string;
  readonly variables?: Readonly<Record<string, unknown>> | null;
  readonly operationName?: string | null;
}

/** Hasura's error codes (`errors[].extensions.code`) used by Vyuha. */
export type GraphqlErrorCode =
  | 'validation-failed'
  | 'parse-failed'
  | 'invalid-jwt'
  | 'invalid-headers'
  | 'access-denied'
  | 'permission-error'
  | 'constraint-violation'
  | 'data-exception'
  | 'not-supported'
  | 'bad-request'
  | 'unexpected'
  | 'too-many-requests'
  | 'server-busy'
  | 'response-too-large'
  | 'action-error';

/** One entry of a Hasura error response: `{message, extensions: {path, code}}`. */
export interface GraphqlError {
  readonly message: string;
  readonly extensions: { readonly path: string; readonly code: GraphqlErrorCode | string };
}

/** An error an action handler (or any layer) throws to answer with a Hasura-shaped error. */
export class GraphqlFailure extends Error {
  override readonly name = 'GraphqlFailure';
  constructor(readonly code: GraphqlErrorCode | string, message: string, readonly path = '$') {
    super(message);
  }

  toGraphqlError(): GraphqlError {
    return { message: this.message, extensions: { path: this.path, code: this.code } };
  }
}

/**
 * An action's refusal with every issue found: the message joins them, `extensions.issues` lists
 * them (each with its field, code and message) for clients that show them by field.
 */
export class IssuesFailure<I extends { readonly message: string }> extends GraphqlFailure {
  constructor(code: GraphqlErrorCode | string, readonly issues: readonly I[], path: string) {
    super(code, issues.map((issue) => issue.message).join('; '), path);
  }

  override toGraphqlError(): GraphqlError {
    const base = super.toGraphqlError();
    return { ...base, extensions: { ...base.extensions, issues: this.issues } } as GraphqlError;
  }
}

/** The answer to a query or mutation. */
export interface ExecutionOutcome {
  /** JSON text of the response body: `{"data":{...}}` or `{"errors":[...]}`. */
  readonly body: string;
  /** True when `body` carries errors. */
  readonly failed: boolean;
  /** The errors, when `failed` (for logs and status mapping). */
  readonly errors: readonly GraphqlError[];
  /** Whether the errors are request errors (parse, validation, session) rather than execution errors. */
  readonly requestError: boolean;
}

/**
 * A prepared subscription: one root field (GraphQL allows only one per subscription), compiled
 * to one SQL statement that returns a single row with a single text column (the field's JSON).
 *
 * Every parameter appears in `sql` as `$n::<type>` with an explicit cast, so subscriptions that
 * share `sql` (same query shape and role) can be multiplexed into one statement over many
 * parameter sets.
 */
export interface LiveQuery {
  /** Same for two subscriptions whose results are necessarily identical (query, variables, role, session variables used). */
  readonly key: string;
  readonly sql: string;
  readonly params: readonly unknown[];
  /** The response key (alias or field name) the result sits under in `data`. */
  readonly responseKey: string;
  /** SQL tables read, as `schema.table`; a change to any of them may change the result. */
  readonly tables: readonly string[];
  /** Runs the statement once; resolves to the JSON text of the payload `{"data":{"<responseKey>":...}}`. */
  fetch(): Promise<string>;
}

/**
 * What the operations of one batched HTTP request have asked for so far: a batch is held to the
 * limits of one operation (fields, aliases, cost, tokens), so twenty operations cannot ask for
 * twenty times what one may. The engine adds each operation's size as it prepares it.
 */
export interface BatchSpent {
  nodes: number;
  aliases: number;
  cost: number;
  /** Tokens of the batch's documents (parsing costs by the token). */
  tokens: number;
  /** Set once an operation found no room left: the rest are refused without being read. */
  full?: boolean;
}

export interface ExecuteOptions {
  /** Set for the operations of a batch (all of them share one object). */
  readonly batch?: BatchSpent;
}

export interface GraphqlEngine {
  /** Runs a query or mutation (mutations in one transaction); never rejects for GraphQL-level errors. */
  execute(request: GraphqlRequest, session: GraphqlSession, options?: ExecuteOptions): Promise<ExecutionOutcome>;
  /** Prepares a subscription, or answers its errors. */
  subscribe(request: GraphqlRequest, session: GraphqlSession): Promise<LiveQuery | { readonly errors: readonly GraphqlError[] }>;
}
