import { GraphqlFailure } from '../types';
import { parseGraphqlRequest } from '../http';
import { ConnectionOperations, type OperationSink } from './operations';
import { closeWith, headersFromPayload, JWT_EXPIRED_MESSAGE, readMessage, sendText, watchExpiry, type ConnectionSetup } from './protocol-support';

/** The `graphql-transport-ws` subprotocol (the graphql-ws library's). */
export const TRANSPORT_WS_PROTOCOL = 'graphql-transport-ws';

/** Close codes of the protocol (docs/PRODUCT.md section 8 lists the ones its client treats as fatal). */
export const CLOSE = {
  internalError: 4500,
  badRequest: 4400,
  unauthorized: 4401,
  forbidden: 4403,
  subprotocolNotAcceptable: 4406,
  connectionInitTimeout: 4408,
  subscriberExists: 4409,
  tooManyInitialisationRequests: 4429,
} as const;

/**
 * Serves one socket speaking graphql-transport-ws: connection_init -> connection_ack (session
 * from the payload), ping/pong, subscribe -> next* -> complete | error, client complete stops.
 * Protocol violations close the socket with the protocol's 44xx codes.
 */
export function serveTransportWs(setup: ConnectionSetup): void {
  const { socket } = setup;
  let initReceived = false;
  let operations: ConnectionOperations | undefined;
  let cancelExpiry = (): void => undefined;
  const initTimer = setTimeout(() => {
    if (!initReceived) closeWith(socket, CLOSE.connectionInitTimeout, 'Connection initialisation timeout');
  }, setup.limits.connectionInitTimeoutMs);

  const initialise = async (payload: unknown): Promise<void> => {
    const headers = headersFromPayload(payload, setup.upgradeHeaders);
    if (!headers) {
      closeWith(socket, CLOSE.badRequest, 'Invalid connection_init payload: expected an object');
      return;
    }
    try {
      const session = await setup.sessions(headers);
      operations = new ConnectionOperations(setup, session, {
        address: setup.address,
        revoke: (message) => closeWith(socket, CLOSE.forbidden, `Forbidden: ${message}`),
      });
      cancelExpiry = watchExpiry(session, () => closeWith(socket, CLOSE.forbidden, `Forbidden: ${JWT_EXPIRED_MESSAGE}`));
      sendText(socket, '{"type":"connection_ack"}');
    } catch (error) {
      if (error instanceof GraphqlFailure) {
        closeWith(socket, CLOSE.forbidden, `Forbidden: ${error.message}`);
        return;
      }
      setup.log.error({ err: error }, 'graphql-transport-ws: session failed');
      closeWith(socket, CLOSE.internalError, 'Internal server error');
    }
  };

  const subscribe = (message: Record<string, unknown>): void => {
    if (!operations) {
      closeWith(socket, CLOSE.unauthorized, 'Unauthorized');
      return;
    }
    const id = message.id;
    if (typeof id !== 'string' || id === '') {
      closeWith(socket, CLOSE.badRequest, 'Invalid subscribe message: "id" must be a non-empty string');
      return;
    }
    let request;
    try {
      request = parseGraphqlRequest(message.payload, '$.payload');
    } catch (error) {
      closeWith(socket, CLOSE.badRequest, `Invalid subscribe message: ${(error as Error).message}`);
      return;
    }
    if (operations.has(id)) {
      closeWith(socket, CLOSE.subscriberExists, `Subscriber for ${id} already exists`);
      return;
    }
    if (operations.size >= setup.limits.maxOperationsPerConnection) {
      const message = `a connection may run at most ${setup.limits.maxOperationsPerConnection} operations at once`;
      sendText(socket, JSON.stringify({ id, type: 'error', payload: [{ message, extensions: { path: '$', code: 'too-many-requests' } }] }));
      return;
    }
    operations.start(id, request, transportSink(setup, id));
  };

  socket.on('message', (data) => {
    const message = readMessage(data, setup.limits);
    if (!message) {
      closeWith(socket, CLOSE.badRequest, 'Invalid message received');
      return;
    }
    switch (message.type) {
      case 'connection_init':
        if (initReceived) {
          closeWith(socket, CLOSE.tooManyInitialisationRequests, 'Too many initialisation requests');
          return;
        }
        initReceived = true;
        clearTimeout(initTimer);
        void initialise(message.payload);
        return;
      case 'ping':
        sendText(socket, message.payload === undefined ? '{"type":"pong"}' : JSON.stringify({ type: 'pong', payload: message.payload }));
        return;
      case 'pong':
        return;
      case 'subscribe':
        subscribe(message);
        return;
      case 'complete':
        if (typeof message.id === 'string') operations?.stop(message.id);
        return;
      default:
        closeWith(socket, CLOSE.badRequest, `Unexpected message of type ${String(message.type)} received`);
    }
  });

  socket.on('close', () => {
    clearTimeout(initTimer);
    cancelExpiry();
    operations?.stopAll();
  });
}

function transportSink(setup: ConnectionSetup, id: string): OperationSink {
  const prefix = `{"id":${JSON.stringify(id)},`;
  return {
    // The payload is the engine's JSON text, spliced in without a parse.
    next: (payload) => sendText(setup.socket, `${prefix}"type":"next","payload":${payload}}`),
    error: (errors) => sendText(setup.socket, `${prefix}"type":"error","payload":${JSON.stringify(errors)}}`),
    complete: () => sendText(setup.socket, `${prefix}"type":"complete"}`),
  };
}
