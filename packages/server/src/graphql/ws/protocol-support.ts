/**
 * What both WebSocket protocols share: sending (with the bytes each socket has queued unread
 * counted, so a client that stops reading is cut off before it fills the heap), closing,
 * reading messages (scanned before JSON.parse), connection_init headers and token expiry.
 */
import { WebSocket, type RawData } from 'ws';
import type { FastifyBaseLogger } from 'fastify';
import { scanJson } from '../json-scan';
import type { TransportLimits } from '../limits';
import type { HeaderBag, ResolvedSession, SessionResolver } from '../session';
import type { OperationContext } from './operations';

/** What a protocol handler needs for one accepted socket. */
export interface ConnectionSetup extends OperationContext {
  readonly socket: WebSocket;
  /** The client address (request budget and admission). */
  readonly address: string;
  /** Authorization and x-hasura-* headers of the upgrade request (used when the payload lacks them). */
  readonly upgradeHeaders: Readonly<Record<string, string>>;
  readonly sessions: SessionResolver;
  readonly limits: TransportLimits;
  readonly log: FastifyBaseLogger;
}

/** Bytes queued unread on all sockets of a process, against the limits. */
export class PendingOutput {
  total = 0;
  constructor(readonly limits: Pick<TransportLimits, 'maxSocketPendingBytes' | 'maxPendingBytes'>) {}
}

interface SocketOutput {
  pending: number;
  closed: boolean;
  readonly shared: PendingOutput;
}

const outputs = new WeakMap<WebSocket, SocketOutput>();

/** Counts what `socket` has queued unread from now on, in `shared`. */
export function trackOutput(socket: WebSocket, shared: PendingOutput): void {
  const output: SocketOutput = { pending: 0, closed: false, shared };
  outputs.set(socket, output);
  socket.once('close', () => {
    output.closed = true;
    shared.total -= output.pending;
    output.pending = 0;
  });
}

/**
 * Sends text if the socket is still open (a result racing a close is dropped). A socket with
 * more than `maxSocketPendingBytes` queued unread, or with anything queued while all sockets
 * together are past `maxPendingBytes`, reads too slowly: it is cut (its queue freed at once).
 */
export function sendText(socket: WebSocket, text: string): void {
  if (socket.readyState !== WebSocket.OPEN) return;
  const output = outputs.get(socket);
  if (!output) {
    socket.send(text);
    return;
  }
  const { limits } = output.shared;
  if (output.pending > limits.maxSocketPendingBytes || (output.pending > 0 && output.shared.total > limits.maxPendingBytes)) {
    socket.terminate();
    return;
  }
  const bytes = text.length;
  output.pending += bytes;
  output.shared.total += bytes;
  socket.send(text, () => {
    if (output.closed) return;
    output.pending -= bytes;
    output.shared.total -= bytes;
  });
}

/** Closes with a code and a reason cut to the 123 bytes a close frame allows. */
export function closeWith(socket: WebSocket, code: number, reason: string): void {
  if (socket.readyState !== WebSocket.OPEN && socket.readyState !== WebSocket.CONNECTING) return;
  let cut = reason;
  while (Buffer.byteLength(cut) > 123) cut = cut.slice(0, -1);
  socket.close(code, cut);
}

/**
 * A message as a JSON object with a string `type`, or undefined (also when it holds more values
 * or nests deeper than the limits: it is refused before JSON.parse).
 */
export function readMessage(data: RawData, limits: Pick<TransportLimits, 'maxJsonValues' | 'maxJsonDepth'>): Record<string, unknown> | undefined {
  try {
    const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
    if (scanJson(text, { maxValues: limits.maxJsonValues, maxDepth: limits.maxJsonDepth }) !== undefined) return undefined;
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { type?: unknown }).type === 'string') {
      return value as Record<string, unknown>;
    }
  } catch {
    // not JSON: the caller answers with its protocol's error
  }
  return undefined;
}

/**
 * The headers a connection_init payload carries, as Hasura reads them: `payload.headers`, or
 * the payload's own top-level string entries (`{ Authorization: ... }`), over the upgrade
 * request's. Undefined when the payload is not an object (or null/absent).
 */
export function headersFromPayload(payload: unknown, upgradeHeaders: Readonly<Record<string, string>>): HeaderBag | undefined {
  if (payload === undefined || payload === null) return upgradeHeaders;
  if (typeof payload !== 'object' || Array.isArray(payload)) return undefined;
  const headers: Record<string, string> = { ...upgradeHeaders };
  const put = (source: object): void => {
    for (const [name, value] of Object.entries(source)) {
      if (typeof value === 'string') headers[name.toLowerCase()] = value;
    }
  };
  put(payload);
  const nested = (payload as { headers?: unknown }).headers;
  if (typeof nested === 'object' && nested !== null && !Array.isArray(nested)) put(nested);
  return headers;
}

/**
 * Calls `onExpiry` when a JWT session's token expires (Hasura closes the connection then);
 * returns the cancel function. Long lifetimes are re-armed in steps (timers hold 24 days at most).
 */
export function watchExpiry(session: ResolvedSession, onExpiry: () => void): () => void {
  const expiresAt = session.expiresAtSeconds;
  if (expiresAt === undefined) return () => undefined;
  let timer: NodeJS.Timeout | undefined;
  const arm = (): void => {
    const remaining = expiresAt * 1000 - Date.now();
    if (remaining <= 0) {
      onExpiry();
      return;
    }
    timer = setTimeout(arm, Math.min(remaining, 2_000_000_000));
    timer.unref();
  };
  arm();
  return () => {
    if (timer) clearTimeout(timer);
  };
}

/** Hasura's message for an expired token. */
export const JWT_EXPIRED_MESSAGE = 'Could not verify JWT: JWTExpired';
