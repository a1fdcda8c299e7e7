import { createHash } from 'node:crypto';
import { Kind, parse, valueFromASTUntyped, type FieldNode, type OperationDefinitionNode } from 'graphql';
import Fastify, { type FastifyInstance } from 'fastify';
import type pg from 'pg';
import { readAuthConfig } from '../../src/auth/config';
import { signJwt, type AccessTokenClaims } from '../../src/auth/jwt';
import { createSigningKeys } from '../../src/auth/signing-keys';
import { registerGraphql, type GraphqlPluginOptions, type GraphqlTransport } from '../../src/graphql/plugin';
import type { ExecutionOutcome, GraphqlEngine, GraphqlError, GraphqlRequest, GraphqlSession, LiveQuery } from '../../src/graphql/types';

// A deliberately small GraphqlEngine over a real table, for the transport tests: it knows two
// root fields (`notes`, `insert_note`) and follows the engine contract of types.ts (JSON built
// in PostgreSQL, `$n::type` parameters, a LiveQuery per subscription). The transport never
// knows it is not the real engine.

export const NOTES_TABLE_SQL = `
CREATE TABLE public.test_notes (
  id serial PRIMARY KEY,
  owner text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT '2024-05-02T03:45:00Z'
);
SELECT public.watch_table_changes('public.test_notes');`;

/** HS256 test key (HASURA_GRAPHQL_JWT_SECRET key). */
export const TEST_JWT_KEY = 'test-key-for-graphql-transport-0123456789';

/** A signed access token with Hasura claims for `userId`. */
export function testToken(options: { userId?: string; roles?: string[]; defaultRole?: string; expiresIn?: number; extra?: Record<string, unknown> }): string {
  const now = Math.floor(Date.now() / 1000);
  const hasura: Record<string, unknown> = {
    'x-hasura-allowed-roles': options.roles ?? ['user', 'me', 'basic'],
    'x-hasura-default-role': options.defaultRole ?? 'basic',
    ...(options.userId === undefined ? {} : { 'x-hasura-user-id': options.userId }),
    ...options.extra,
  };
  const claims: AccessTokenClaims = { sub: options.userId ?? 'nobody', iss: 'hasura-auth', iat: now, exp: now + (options.expiresIn ?? 900), 'https://hasura.io/jwt/claims': hasura };
  return signJwt(claims, { algorithm: 'HS256', secret: Buffer.from(TEST_JWT_KEY) });
}

interface Root {
  readonly field: FieldNode;
  readonly operation: OperationDefinitionNode;
  readonly args: Record<string, unknown>;
}

function failure(code: string, message: string, path = '$'): ExecutionOutcome {
  const errors: GraphqlError[] = [{ message, extensions: { path, code } }];
  return { body: JSON.stringify({ errors }), failed: true, errors, requestError: true };
}

function rootOf(request: GraphqlRequest): Root | GraphqlError {
  let document;
  try {
    document = parse(request.query);
  } catch (error) {
    return { message: (error as Error).message, extensions: { path: '$', code: 'validation-failed' } };
  }
  const operation = document.definitions.find((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION);
  const field = operation?.selectionSet.selections[0];
  if (!operation || field?.kind !== Kind.FIELD) return { message: 'no operation', extensions: { path: '$', code: 'validation-failed' } };
  const variables = (request.variables ?? {}) as Record<string, unknown>;
  const args = Object.fromEntries((field.arguments ?? []).map((argument) => [argument.name.value, valueFromASTUntyped(argument.value, variables)]));
  return { field, operation, args };
}

const NOTE_JSON = `json_build_object('id', id, 'body', body, 'owner', json_build_object('id', owner), 'created_at', created_at)`;

/** The notes a session may see, as SQL with `$n::type` parameters. */
function notesStatement(session: GraphqlSession): { sql: string; params: unknown[] } | GraphqlError {
  if (session.admin) return { sql: `SELECT coalesce(json_agg(${NOTE_JSON} ORDER BY id), '[]')::text FROM public.test_notes`, params: [] };
  const userId = session.variables['x-hasura-user-id'];
  if (session.role === 'anonymous') return { message: "field 'notes' not found in type: 'query_root'", extensions: { path: '$.selectionSet.notes', code: 'validation-failed' } };
  if (userId === undefined) return { message: 'missing session variable: "x-hasura-user-id"', extensions: { path: '$', code: 'not-found' } };
  return { sql: `SELECT coalesce(json_agg(${NOTE_JSON} ORDER BY id), '[]')::text FROM public.test_notes WHERE owner = $1::text`, params: [userId] };
}

/** The engine; `statements` counts SQL statements it ran (execute + LiveQuery.fetch). */
export function createTestEngine(pool: pg.Pool): GraphqlEngine & { statements: number; executeRows(request: GraphqlRequest, session: GraphqlSession): AsyncIterable<Record<string, unknown>> } {
  const engine = {
    statements: 0,
    async execute(request: GraphqlRequest, session: GraphqlSession): Promise<ExecutionOutcome> {
      const root = rootOf(request);
      if (!('field' in root)) return failure(root.extensions.code, root.message);
      const key = (root.field.alias ?? root.field.name).value;
      if (root.field.name.value === 'notes') {
        const statement = notesStatement(session);
        if (!('sql' in statement)) return failure(statement.extensions.code, statement.message, statement.extensions.path);
        engine.statements += 1;
        const result = await pool.query<{ json: string }>({ text: statement.sql.replace('::text FROM', '::text AS json FROM'), values: statement.params });
        return { body: `{"data":{${JSON.stringify(key)}:${result.rows[0]?.json ?? 'null'}}}`, failed: false, errors: [], requestError: false };
      }
      if (root.field.name.value === 'insert_note' && root.operation.operation === 'mutation') {
        const owner = session.variables['x-hasura-user-id'];
        if (owner === undefined) return failure('permission-error', 'insert_note needs a user');
        engine.statements += 1;
        const result = await pool.query<{ json: string }>(`INSERT INTO public.test_notes (owner, body) VALUES ($1, $2) RETURNING ${NOTE_JSON}::text AS json`, [owner, String(root.args.body)]);
        return { body: `{"data":{${JSON.stringify(key)}:${result.rows[0]?.json ?? 'null'}}}`, failed: false, errors: [], requestError: false };
      }
      return failure('validation-failed', `field '${root.field.name.value}' not found in type: 'query_root'`, `$.selectionSet.${root.field.name.value}`);
    },
    async subscribe(request: GraphqlRequest, session: GraphqlSession): Promise<LiveQuery | { errors: readonly GraphqlError[] }> {
      const root = rootOf(request);
      if (!('field' in root)) return { errors: [root] };
      if (root.field.name.value !== 'notes') return { errors: [{ message: `field '${root.field.name.value}' not found in type: 'subscription_root'`, extensions: { path: '$.selectionSet', code: 'validation-failed' } }] };
      const statement = notesStatement(session);
      if (!('sql' in statement)) return { errors: [statement] };
      const responseKey = (root.field.alias ?? root.field.name).value;
      return {
        key: createHash('sha256').update(JSON.stringify([statement.sql, statement.params, responseKey])).digest('hex'),
        sql: statement.sql,
        params: statement.params,
        responseKey,
        tables: ['public.test_notes'],
        async fetch() {
          engine.statements += 1;
          const client = await pool.connect();
          try {
            await client.query("BEGIN; SET LOCAL TimeZone = 'UTC'");
            const result = await client.query<{ json: string }>({ text: statement.sql, values: statement.params, rowMode: 'array' } as pg.QueryConfig);
            await client.query('COMMIT');
            const row = result.rows[0] as unknown as [string | null] | undefined;
            return `{"data":{${JSON.stringify(responseKey)}:${row?.[0] ?? 'null'}}}`;
          } finally {
            client.release();
          }
        },
      };
    },
    async *executeRows(request: GraphqlRequest, session: GraphqlSession): AsyncIterable<Record<string, unknown>> {
      const outcome = await engine.execute(request, session);
      if (outcome.failed) throw Object.assign(new Error('query failed'), { errors: outcome.errors });
      const data = (JSON.parse(outcome.body) as { data: Record<string, unknown> }).data;
      for (const row of (Object.values(data)[0] ?? []) as Record<string, unknown>[]) yield row;
    },
  };
  return engine;
}

export interface TestServer {
  readonly app: FastifyInstance;
  readonly transport: GraphqlTransport;
  /** http://127.0.0.1:<port> */
  readonly url: string;
  /** ws://127.0.0.1:<port>/v1/graphql */
  readonly wsUrl: string;
  close(): Promise<void>;
}

/** A real Fastify on 127.0.0.1:0 with registerGraphql; tokens verified by the auth service's HS256 keys. */
export async function startGraphqlServer(options: { pool: pg.Pool; engine: GraphqlPluginOptions['engine'] } & Partial<Omit<GraphqlPluginOptions, 'pool' | 'engine'>>): Promise<TestServer> {
  const app = Fastify({ logger: { level: 'silent' } });
  const config = readAuthConfig({ HASURA_GRAPHQL_JWT_SECRET: JSON.stringify({ type: 'HS256', key: TEST_JWT_KEY }) });
  const keys = createSigningKeys({ pool: options.pool, config });
  const transport = await registerGraphql(app, { verifyToken: keys.verify, production: false, log: app.log, adminSecret: 'test-admin-secret', ...options });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await transport.liveQueries.ready();
  return { app, transport, url: `http://127.0.0.1:${port}`, wsUrl: `ws://127.0.0.1:${port}/v1/graphql`, close: () => app.close() };
}
