import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import { WindowRateLimiter, type TransportLimits } from '../limits';
import { lowerCaseHeaders, type SessionResolver } from '../session';
import { serveLegacyWs, LEGACY_WS_PROTOCOL } from './legacy-ws';
import type { OperationContext } from './operations';
import { closeWith, PendingOutput, trackOutput } from './protocol-support';
import { CLOSE, serveTransportWs, TRANSPORT_WS_PROTOCOL } from './transport-ws';

export interface GraphqlWebSocketOptions extends OperationContext {
  readonly server: Server;
  readonly paths: readonly string[];
  readonly sessions: SessionResolver;
  readonly limits: TransportLimits;
  readonly log: FastifyBaseLogger;
  /** Protocol-level ping this often; a socket that did not answer the previous one is dropped (default 30 s). */
  readonly heartbeatMs?: number;
}

export interface GraphqlWebSocket {
  readonly connections: number;
  /** Closes every socket (1001 going away) and stops accepting upgrades. */
  close(): Promise<void>;
}

/**
 * WebSocket on the GraphQL paths: takes the HTTP server's upgrades for those paths, picks
 * graphql-transport-ws (preferred) or the older graphql-ws from the offered subprotocols, and
 * closes 4406 when neither is offered.
 */
export function attachGraphqlWebSocket(options: GraphqlWebSocketOptions): GraphqlWebSocket {
  const sockets = new Set<WebSocket>();
  const alive = new WeakSet<WebSocket>();
  const handshakes = new WindowRateLimiter(options.limits.handshakesPerAddress);
  const pendingOutput = new PendingOutput(options.limits);
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.limits.maxMessageBytes,
    handleProtocols: (offered) => (offered.has(TRANSPORT_WS_PROTOCOL) ? TRANSPORT_WS_PROTOCOL : offered.has(LEGACY_WS_PROTOCOL) ? LEGACY_WS_PROTOCOL : false),
  });

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    if (!options.paths.includes(path)) {
      // Nobody else listens for upgrades: answer rather than leave the socket hanging.
      if (options.server.listenerCount('upgrade') === 1) rejectUpgrade(socket, '404 Not Found');
      return;
    }
    if (!handshakes.allow(request.socket.remoteAddress ?? 'unknown', Date.now())) {
      rejectUpgrade(socket, '429 Too Many Requests');
      return;
    }
    wss.handleUpgrade(request, socket, head, (webSocket) => accept(webSocket, request));
  };

  const accept = (socket: WebSocket, request: IncomingMessage): void => {
    sockets.add(socket);
    alive.add(socket);
    socket.on('pong', () => alive.add(socket));
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', (error) => options.log.debug({ err: error }, 'graphql websocket: socket error'));
    trackOutput(socket, pendingOutput);
    const upgradeHeaders = pickAuthHeaders(lowerCaseHeaders(request.headers));
    const setup = { ...options, socket, upgradeHeaders, address: request.socket.remoteAddress ?? 'unknown' };
    if (socket.protocol === TRANSPORT_WS_PROTOCOL) serveTransportWs(setup);
    else if (socket.protocol === LEGACY_WS_PROTOCOL) serveLegacyWs(setup);
    else closeWith(socket, CLOSE.subprotocolNotAcceptable, 'Subprotocol not acceptable');
  };

  const heartbeat = setInterval(() => {
    for (const socket of sockets) {
      if (!alive.has(socket)) {
        socket.terminate();
        continue;
      }
      alive.delete(socket);
      socket.ping();
    }
  }, options.heartbeatMs ?? 30_000);
  heartbeat.unref();

  options.server.on('upgrade', onUpgrade);
  return {
    get connections() {
      return sockets.size;
    },
    async close() {
      clearInterval(heartbeat);
      options.server.off('upgrade', onUpgrade);
      for (const socket of sockets) closeWith(socket, 1001, 'Server shutting down');
      // Sockets that do not finish the closing handshake soon are cut.
      await new Promise((resolve) => setTimeout(resolve, sockets.size > 0 ? 200 : 0));
      for (const socket of sockets) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

function rejectUpgrade(socket: Duplex, status: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/** Only credentials and session headers of the upgrade request are carried into the session. */
function pickAuthHeaders(headers: Record<string, string>): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'authorization' || name.startsWith('x-hasura-')) picked[name] = value;
  }
  return picked;
}
