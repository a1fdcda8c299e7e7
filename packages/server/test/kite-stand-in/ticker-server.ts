// The ticker WebSocket of the stand-in: the handshake check (HTTP 403 for a bad or expired token),
// subscribe / unsubscribe / mode requests with numeric tokens (strings are ignored, as Kite ignores
// them), quote mode by default, binary market data, 1-byte heartbeats and order updates as text frames.
// Frame layout as docs/BROKER-KITE.md ("The ticker's frames"): a 2-byte packet count, then per packet
// a 2-byte length and the packet; 8 bytes in ltp mode, 28/32 for indices (segment 9), 44/184 for the
// rest; all big-endian; prices x (divisor / 100) from paise.
// On subscribe and on a mode change the connection gets the instrument's current tick at once, if it
// has one (the stand-in's choice); after that, only tick() sends market data.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { KiteError } from './kite-format';
import { SEGMENT_INDICES, priceDivisor, segmentOf } from './instruments';

export type TickMode = 'ltp' | 'quote' | 'full';

/** The market state of one instrument that a tick packet carries; prices in paise. */
export interface QuoteState {
  readonly token: number;
  readonly lastPaise: number;
  readonly lastQuantity: number;
  readonly averagePaise: number;
  readonly volume: number;
  readonly openPaise: number;
  readonly highPaise: number;
  readonly lowPaise: number;
  readonly closePaise: number;
  readonly oi: number;
  readonly atMs: number;
  readonly tickSizePaise: number;
  readonly lotSize: number;
}

export interface TickerConnectionInfo {
  /** The connection's number in order of handshakes (1, 2, ...): a reconnect has a new one. */
  readonly id: number;
  readonly userId: string;
  readonly apiKey: string;
  /** Subscribed tokens and their modes, in subscription order. */
  readonly subscriptions: ReadonlyArray<{ readonly token: number; readonly mode: TickMode }>;
}

interface Connection {
  readonly id: number;
  readonly socket: WebSocket;
  readonly userId: string;
  readonly apiKey: string;
  readonly modes: Map<number, TickMode>;
}

export interface TickerOptions {
  readonly heartbeatMs: number;
  /** The user of a handshake's api_key + access_token, or a KiteError (answered as HTTP 403). */
  authenticate(apiKey: string, accessToken: string): string;
  quote(token: number): QuoteState | undefined;
  isStalled(): boolean;
}

/** One packet of `state` in `mode`. @example encodePacket(nifty, 'ltp').length // 8 */
export function encodePacket(state: QuoteState, mode: TickMode): Uint8Array {
  const segment = segmentOf(state.token);
  const scale = priceDivisor(segment) / 100;
  const price = (paise: number): number => Math.round(paise * scale);
  const index = segment === SEGMENT_INDICES;
  const length = mode === 'ltp' ? 8 : index ? (mode === 'full' ? 32 : 28) : mode === 'full' ? 184 : 44;
  const bytes = new Uint8Array(length);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, state.token);
  view.setUint32(4, price(state.lastPaise));
  if (mode === 'ltp') return bytes;
  const seconds = Math.floor(state.atMs / 1000);
  if (index) {
    // Indices: high, low, open, close, then the change (signed), then the exchange time in full mode.
    [state.highPaise, state.lowPaise, state.openPaise, state.closePaise].forEach((value, at) => view.setUint32(8 + at * 4, price(value)));
    view.setInt32(24, price(state.lastPaise - state.closePaise));
    if (mode === 'full') view.setUint32(28, seconds);
    return bytes;
  }
  const totals = depth(state);
  const quote = [
    state.lastQuantity, price(state.averagePaise), state.volume, totals.buyQuantity, totals.sellQuantity,
    price(state.openPaise), price(state.highPaise), price(state.lowPaise), price(state.closePaise),
  ];
  quote.forEach((value, at) => view.setUint32(8 + at * 4, value));
  if (mode === 'quote') return bytes;
  [seconds, state.oi, state.oi, state.oi, seconds].forEach((value, at) => view.setUint32(44 + at * 4, value));
  totals.levels.forEach((level, at) => {
    view.setUint32(64 + at * 12, level.quantity);
    view.setUint32(68 + at * 12, price(level.pricePaise));
    view.setUint16(72 + at * 12, level.orders);
  });
  return bytes;
}

/**
 * A made-up book around the last price: five bids one tick apart below it, five asks above, each
 * level (k = 1..5) with k lots and k orders. Totals are the sums of the levels.
 */
interface Depth {
  readonly levels: ReadonlyArray<{ quantity: number; pricePaise: number; orders: number }>;
  readonly buyQuantity: number;
  readonly sellQuantity: number;
}

function depth(state: QuoteState): Depth {
  const levels = [];
  for (const side of [-1, 1]) {
    for (let k = 1; k <= 5; k += 1) {
      levels.push({ quantity: k * state.lotSize, pricePaise: Math.max(0, state.lastPaise + side * k * state.tickSizePaise), orders: k });
    }
  }
  const total = 15 * state.lotSize;
  return { levels, buyQuantity: total, sellQuantity: total };
}

/** Packets wrapped in one binary frame, with the count and the 2-byte length prefixes. */
export function encodeFrame(packets: readonly Uint8Array[]): Buffer {
  const frame = Buffer.alloc(2 + packets.reduce((sum, one) => sum + 2 + one.length, 0));
  frame.writeUInt16BE(packets.length, 0);
  let offset = 2;
  for (const packet of packets) {
    frame.writeUInt16BE(packet.length, offset);
    frame.set(packet, offset + 2);
    offset += 2 + packet.length;
  }
  return frame;
}

export class TickerServer {
  private readonly server = new WebSocketServer({ noServer: true });
  private readonly connections = new Set<Connection>();
  private handshakes = 0;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly options: TickerOptions) {
    this.heartbeat = setInterval(() => {
      if (this.options.isStalled()) return;
      for (const connection of this.connections) connection.socket.send(Buffer.from([0]));
    }, options.heartbeatMs);
  }

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const query = new URL(request.url ?? '/', 'http://stand-in').searchParams;
    let userId: string;
    try {
      userId = this.options.authenticate(query.get('api_key') ?? '', query.get('access_token') ?? '');
    } catch (error) {
      if (!(error instanceof KiteError)) throw error;
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    this.server.handleUpgrade(request, socket, head, (ws) => {
      this.handshakes += 1;
      const connection: Connection = { id: this.handshakes, socket: ws, userId, apiKey: query.get('api_key') ?? '', modes: new Map() };
      this.connections.add(connection);
      ws.on('message', (data, isBinary) => {
        if (!isBinary) this.onRequest(connection, data.toString());
      });
      ws.on('close', () => this.connections.delete(connection));
    });
  }

  /** Sends the instrument's current tick to every connection subscribed to it, each in its mode. */
  pushTick(token: number): void {
    const state = this.options.quote(token);
    if (state === undefined || this.options.isStalled()) return;
    for (const connection of this.connections) {
      const mode = connection.modes.get(token);
      if (mode !== undefined) connection.socket.send(encodeFrame([encodePacket(state, mode)]));
    }
  }

  /** A text frame `{"type":"order","data":...}` to every connection of the user. */
  pushOrderUpdate(userId: string, data: Record<string, unknown>): void {
    if (this.options.isStalled()) return;
    const text = JSON.stringify({ type: 'order', data });
    for (const connection of this.connections) if (connection.userId === userId) connection.socket.send(text);
  }

  info(): TickerConnectionInfo[] {
    return [...this.connections].map((one) => ({
      id: one.id, userId: one.userId, apiKey: one.apiKey, subscriptions: [...one.modes].map(([token, mode]) => ({ token, mode })),
    }));
  }

  /** Closes every socket (code 1006-like: the TCP connection is destroyed without a close frame). */
  dropAll(): void {
    for (const connection of this.connections) connection.socket.terminate();
    this.connections.clear();
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    this.dropAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private onRequest(connection: Connection, text: string): void {
    let request: unknown;
    try {
      request = JSON.parse(text);
    } catch {
      connection.socket.send(JSON.stringify({ type: 'error', data: 'Invalid message: not JSON.' }));
      return;
    }
    const { a: action, v: value } = (request ?? {}) as { a?: unknown; v?: unknown };
    const numeric = (list: unknown): number[] => (Array.isArray(list) ? list.filter((one): one is number => Number.isInteger(one)) : []);
    const fresh: number[] = [];
    if (action === 'subscribe') {
      for (const token of numeric(value)) {
        if (!connection.modes.has(token)) connection.modes.set(token, 'quote');
        fresh.push(token);
      }
    } else if (action === 'unsubscribe') {
      for (const token of numeric(value)) connection.modes.delete(token);
    } else if (action === 'mode' && Array.isArray(value) && ['ltp', 'quote', 'full'].includes(value[0] as string)) {
      // A mode request changes tokens already subscribed; it does not subscribe (the stand-in's choice).
      for (const token of numeric(value[1])) {
        if (!connection.modes.has(token)) continue;
        connection.modes.set(token, value[0] as TickMode);
        fresh.push(token);
      }
    } else {
      connection.socket.send(JSON.stringify({ type: 'error', data: `Invalid request: ${text.slice(0, 100)}` }));
      return;
    }
    this.sendSnapshot(connection, fresh);
  }

  private sendSnapshot(connection: Connection, tokens: readonly number[]): void {
    if (this.options.isStalled()) return;
    const packets = tokens.flatMap((token) => {
      const state = this.options.quote(token);
      const mode = connection.modes.get(token);
      return state === undefined || mode === undefined ? [] : [encodePacket(state, mode)];
    });
    if (packets.length > 0) connection.socket.send(encodeFrame(packets));
  }
}
