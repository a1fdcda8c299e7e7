// The GraphQL clients of docs/PRODUCT.md section 7: urql over HTTP POST to /v1/graphql (same-origin
// credentials, bearer token in Authorization) and graphql-ws for subscriptions (the same headers
// in the connection params; up to 5 retries with exponential backoff; the fatal close codes of
// docs/PRODUCT.md section 8 are not retried). `restartGraphqlClients()` replaces both on sign-in, sign-out and
// when a manager switches the user they act for.
import { Client, fetchExchange, mapExchange, subscriptionExchange, type CombinedError } from '@urql/core';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import { currentAccessToken } from '../auth/auth-service';
import { useAppStore } from '../stores/app-store';

export const GRAPHQL_PATH = '/v1/graphql';
/** docs/PRODUCT.md section 9: websocket retries 5. */
export const WS_RETRY_ATTEMPTS = 5;
/** docs/PRODUCT.md section 8: close codes after which the socket is not reopened. */
export const FATAL_CLOSE_CODES: ReadonlySet<number> = new Set([4500, 4005, 4400, 4004, 4401, 4403, 4406, 4408, 4504, 4409, 4429]);

/** The headers every GraphQL request carries: the bearer token and, for a manager acting for a user, that user's id. */
export function graphqlHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const token = currentAccessToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const managed = useAppStore.getState().managedUserId;
  if (token && managed) headers['x-hasura-managed-user-id'] = managed;
  return headers;
}

function socketUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss:' : 'ws:'}//${host}${GRAPHQL_PATH}`;
}

function closeCode(event: unknown): number | undefined {
  return typeof event === 'object' && event !== null && 'code' in event ? Number((event as { code: unknown }).code) : undefined;
}

/**
 * The subscriptions' socket. Signed in (`eager`), it connects at once: the shell's header always
 * subscribes, and a screen opened in a new tab then finds the socket open and acknowledged while
 * its own code was still loading. Signed out, it connects only when something subscribes.
 */
function createSocket(eager: boolean): WsClient {
  return createWsClient({
    url: socketUrl(),
    lazy: !eager,
    // A connection refused at once is reported to the subscriptions that use it, not to the console.
    onNonLazyError: () => undefined,
    retryAttempts: WS_RETRY_ATTEMPTS,
    // Exponential backoff with a little jitter: 1 s, 2 s, 4 s, 8 s, 16 s.
    retryWait: (retries) => new Promise((resolve) => setTimeout(resolve, 1000 * 2 ** retries + Math.floor(Math.random() * 300))),
    shouldRetry: (event) => {
      const code = closeCode(event);
      return code === undefined || !FATAL_CLOSE_CODES.has(code);
    },
    connectionParams: () => ({ headers: graphqlHeaders() }),
  });
}

function createGraphqlClient(socket: WsClient): Client {
  return new Client({
    url: GRAPHQL_PATH,
    // docs/PRODUCT.md section 7: queries go as HTTP POST (urql would send short queries as GET).
    preferGetMethod: false,
    // No cache exchange: every screen reads what the server has now (and refetches after its writes).
    requestPolicy: 'network-only',
    fetchOptions: () => ({ credentials: 'same-origin', headers: graphqlHeaders() }),
    exchanges: [
      mapExchange({
        onError: (error) => {
          const kind = sessionErrorKind(error);
          if (kind !== undefined) sessionErrorHandler?.(kind);
        },
      }),
      fetchExchange,
      subscriptionExchange({
        forwardSubscription: (request) => {
          const input = { ...request, query: request.query ?? '' };
          return {
            // urql's observer and graphql-ws's sink differ only in how optional `data` is typed.
            subscribe: (sink) => ({ unsubscribe: socket.subscribe(input, sink as Parameters<WsClient['subscribe']>[1]) }),
          };
        },
      }),
    ],
  });
}

let sessionErrorHandler: ((kind: 'expired' | 'user-claim') => void) | undefined;

/** docs/PRODUCT.md section 8: what to do when a GraphQL error says the session is gone (the shell signs out and goes to sign-in). */
export function onSessionError(handler: (kind: 'expired' | 'user-claim') => void): () => void {
  sessionErrorHandler = handler;
  return () => {
    if (sessionErrorHandler === handler) sessionErrorHandler = undefined;
  };
}

let socket = createSocket(currentAccessToken() !== undefined);
let client = createGraphqlClient(socket);
const clientListeners = new Set<(client: Client) => void>();

/** The current client (replaced by restartGraphqlClients). */
export function graphqlClient(): Client {
  return client;
}

/** Replaces the HTTP and WebSocket clients: open subscriptions end and start again with the new session. */
export function restartGraphqlClients(): void {
  void socket.dispose();
  socket = createSocket(currentAccessToken() !== undefined);
  client = createGraphqlClient(socket);
  for (const listener of clientListeners) listener(client);
}

export function onGraphqlClientChange(listener: (client: Client) => void): () => void {
  clientListeners.add(listener);
  return () => clientListeners.delete(listener);
}

/** What docs/PRODUCT.md section 8 asks of a GraphQL error: 'signout' when the session is gone, else show it. */
export function sessionErrorKind(error: CombinedError | undefined): 'expired' | 'user-claim' | undefined {
  if (!error) return undefined;
  for (const graphQLError of error.graphQLErrors) {
    const code = graphQLError.extensions?.code;
    if (code === 'invalid-jwt' || code === 'invalid-refresh-token') return 'expired';
    if (/x-hasura-user-id/i.test(graphQLError.message)) return 'user-claim';
  }
  return undefined;
}

/** docs/PRODUCT.md section 8: the message shown when the session has expired. */
export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please sign in again.';
