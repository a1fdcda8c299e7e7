// What the ticker tests share: timers that move only when a test says (the connection's silence
// watchdog and reconnect backoff run on them), a bare `ws` server on 127.0.0.1 that records each
// connection and what the client sent, and a wait for real socket events with a generous limit.
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type WebSocket from 'ws';
import type { KiteTickerTimers } from '../../src/brokers/kite/kite-ticker';

/** Epoch ms the tests' clocks start at: 2026-11-27 10:00 IST. */
export const T0 = Date.UTC(2026, 10, 27, 4, 30);

interface Pending {
  readonly at: number;
  readonly order: number;
  readonly run: () => void;
}

/** Timers on a clock that moves only in `advance`, firing what falls due in time order. */
export class ManualTimers implements KiteTickerTimers {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(private time: number = T0) {}

  now(): number {
    return this.time;
  }

  setTimeout(run: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.pending.set(id, { at: this.time + ms, order: id, run });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  /** Timers waiting. */
  get waiting(): number {
    return this.pending.size;
  }

  advance(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      let due: [number, Pending] | undefined;
      for (const entry of this.pending) {
        if (entry[1].at > target) continue;
        if (due === undefined || entry[1].at < due[1].at || (entry[1].at === due[1].at && entry[1].order < due[1].order)) due = entry;
      }
      if (due === undefined) break;
      this.pending.delete(due[0]);
      this.time = due[1].at;
      due[1].run();
    }
    this.time = target;
  }
}

/** One client connection as the server saw it. */
export interface ServerConnection {
  readonly socket: WebSocket;
  readonly query: URLSearchParams;
  readonly headers: IncomingMessage['headers'];
  /** Text frames the client sent, parsed. */
  readonly messages: { a: string; v: unknown }[];
  /** The same, as sent. */
  readonly raw: string[];
  closed: boolean;
}

/** A ticker stand-in: accepts (or refuses with `refuseWith`) handshakes and records what arrives. */
export class TestTickerServer {
  readonly connections: ServerConnection[] = [];
  handshakes = 0;
  /** An HTTP status to refuse handshakes with; undefined accepts. */
  refuseWith: number | undefined;

  private readonly server: WebSocketServer;
  /** ws://127.0.0.1:<port>, once started. */
  url = '';

  private constructor() {
    this.server = new WebSocketServer({
      host: '127.0.0.1', port: 0,
      verifyClient: (_info, done) => {
        this.handshakes += 1;
        if (this.refuseWith === undefined) done(true);
        else done(false, this.refuseWith);
      },
    });
    this.server.on('connection', (socket, request) => {
      const connection: ServerConnection = {
        socket, query: new URL(request.url ?? '/', 'ws://localhost').searchParams, headers: request.headers, messages: [], raw: [], closed: false,
      };
      socket.on('message', (data, isBinary) => {
        if (isBinary) return;
        const text = Buffer.isBuffer(data) ? data.toString('utf8') : String(data);
        connection.raw.push(text);
        connection.messages.push(JSON.parse(text) as { a: string; v: unknown });
      });
      socket.on('close', () => {
        connection.closed = true;
      });
      this.connections.push(connection);
    });
  }

  static async start(): Promise<TestTickerServer> {
    const started = new TestTickerServer();
    await new Promise<void>((resolve) => started.server.once('listening', resolve));
    started.url = `ws://127.0.0.1:${(started.server.address() as AddressInfo).port}`;
    return started;
  }

  /** The latest connection. */
  get last(): ServerConnection {
    const last = this.connections.at(-1);
    if (last === undefined) throw new Error('no connection yet');
    return last;
  }

  /** Sends a frame to every open connection (binary for bytes, text for a string or an object). */
  send(data: Uint8Array | string | object): void {
    for (const connection of this.connections) {
      if (connection.closed) continue;
      if (data instanceof Uint8Array) connection.socket.send(data, { binary: true });
      else connection.socket.send(typeof data === 'string' ? data : JSON.stringify(data), { binary: false });
    }
  }

  async close(): Promise<void> {
    for (const connection of this.connections) connection.socket.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Waits (real time, polling) until `condition` holds; fails after `limitMs` naming what it waited for. */
export async function waitFor(what: string, condition: () => boolean, limitMs = 5_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
