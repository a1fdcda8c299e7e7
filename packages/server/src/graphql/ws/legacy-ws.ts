import { GraphqlFailure } from '../types';
import { parseGraphqlRequest } from '../http';
import { ConnectionOperations, type OperationSink } from './operations';
import { closeWith, headersFromPayload, JWT_EXPIRED_MESSAGE, readMessage, sendText, watchExpiry, type ConnectionSetup } from './protocol-support';
import { CLOSE } from './transport-ws';

/** The older `graphql-ws` subprotocol (Apollo's subscriptions-transport-ws), still used by Hasura clients. */
export const LEGACY_WS_PROTOCOL = 'graphql-ws';

/**
 * Serves one socket speaking subscriptions-transport-ws: connection_init -> connection_ack + ka
 * every `keepAliveMs`, start -> data* -> complete | error, stop, connection_terminate. A refused
 * session answers `connection_error` with Hasura's message as payload, then closes (4403).
 */
export function serveLegacyWs(setup: ConnectionSetup): void {
  const { socket } = setup;
  let initReceived = false;
  let operations: ConnectionOperations | undefined;
  let cancelExpiry = (): void => undefined;
  let keepAlive: NodeJS.Timeout | undefined;
  // Old clients send `start` right after `connection_init` without waiting for the ack:
  // messages that arrive while the session is being resolved wait here, in order.
  let waiting: Record<string, unknown>[] | undefined;
  const initTimer = setTimeout(() => {
    if (!initReceived) closeWith(socket, CLOSE.connectionInitTimeout, 'Connection initialisation timeout');
  }, setup.limits.connectionInitTimeoutMs);

  const refuse = (message: string, code: number): void => {
    sendText(socket, JSON.stringify({ type: 'connection_error', payload: message }));
    closeWith(socket, code, message);
  };

  const initialise = async (payload: unknown): Promise<void> => {
    const headers = headersFromPayload(payload, setup.upgradeHeaders);
    if (!headers) {
      refuse('Invalid connection_init payload: expected an object', CLOSE.badRequest);
      return;
    }
    try {
      const session = await setup.sessions(headers);
      operations = new ConnectionOperations(setup, session, { address: setup.address, revoke: (message) => refuse(message, CLOSE.forbidden) });
      cancelExpiry = watchExpiry(session, () => refuse(JWT_EXPIRED_MESSAGE, CLOSE.forbidden));
      sendText(socket, '{"type":"connection_ack"}');
      sendText(socket, '{"type":"ka"}');
      keepAlive = setInterval(() => sendText(socket, '{"type":"ka"}'), setup.limits.keepAliveMs);
      keepAlive.unref();
      const queued = waiting ?? [];
      waiting = undefined;
      for (const message of queued) handle(message);
    } catch (error) {
      waiting = undefined;
      if (error instanceof GraphqlFailure) {
        refuse(error.message, CLOSE.forbidden);
        return;
      }
      setup.log.error({ err: error }, 'graphql-ws (legacy): session failed');
      refuse('Internal server error', CLOSE.internalError);
    }
  };

  const start = (message: Record<string, unknown>): void => {
    if (!operations) {
      refuse('start received before the connection was acknowledged', CLOSE.unauthorized);
      return;
    }
    const id = message.id;
    if (typeof id !== 'string' || id === '') {
      refuse('Invalid start message: "id" must be a non-empty string', CLOSE.badRequest);
      return;
    }
    const sink = legacySink(setup, id);
    let request;
    try {
      request = parseGraphqlRequest(message.payload, '$.payload');
    } catch (error) {
      sink.error([(error as GraphqlFailure).toGraphqlError()]);
      return;
    }
    // The old protocol lets a client reuse an id: the earlier operation is replaced.
    operations.stop(id);
    if (operations.size >= setup.limits.maxOperationsPerConnection) {
      const text = `a connection may run at most ${setup.limits.maxOperationsPerConnection} operations at once`;
      sink.error([{ message: text, extensions: { path: '$', code: 'too-many-requests' } }]);
      return;
    }
    operations.start(id, request, sink);
  };

  const handle = (message: Record<string, unknown>): void => {
    if (waiting && message.type !== 'connection_init') {
      if (waiting.length >= setup.limits.maxOperationsPerConnection) refuse('Too many messages before connection_ack', CLOSE.badRequest);
      else waiting.push(message);
      return;
    }
    switch (message.type) {
      case 'connection_init':
        if (initReceived) {
          refuse('Too many initialisation requests', CLOSE.tooManyInitialisationRequests);
          return;
        }
        initReceived = true;
        waiting = [];
        clearTimeout(initTimer);
        void initialise(message.payload);
        return;
      case 'start':
        start(message);
        return;
      case 'stop':
        if (typeof message.id === 'string' && operations?.has(message.id)) {
          operations.stop(message.id);
          sendText(socket, JSON.stringify({ type: 'complete', id: message.id }));
        }
        return;
      case 'connection_terminate':
        closeWith(socket, 1000, 'connection_terminate');
        return;
      default:
        refuse(`Unexpected message of type ${String(message.type)} received`, CLOSE.badRequest);
    }
  };

  socket.on('message', (data) => {
    const message = readMessage(data, setup.limits);
    if (!message) {
      refuse('Message must be a JSON object with a "type"', CLOSE.badRequest);
      return;
    }
    handle(message);
  });

  socket.on('close', () => {
    clearTimeout(initTimer);
    if (keepAlive) clearInterval(keepAlive);
    cancelExpiry();
    operations?.stopAll();
  });
}

function legacySink(setup: ConnectionSetup, id: string): OperationSink {
  const suffix = `,"id":${JSON.stringify(id)}}`;
  return {
    next: (payload) => sendText(setup.socket, `{"type":"data","payload":${payload}${suffix}`),
    error: (errors) => sendText(setup.socket, `{"type":"error","payload":${JSON.stringify({ errors })}${suffix}`),
    complete: () => sendText(setup.socket, `{"type":"complete"${suffix}`),
  };
}
