// One socket to Kite's ticker (docs/BROKER-KITE.md, Ticker): it keeps the instruments wanted and
// each one's mode, and says again what it wants on every (re)connect, because Kite forgets a
// dropped connection's subscriptions. The bytes are kite-ticker-frames.ts's; this file moves them.
//
// Invariants:
// - After every successful handshake the connection sends subscribe, then mode, for every wanted
//   token (JSON numbers, in batches of SUBSCRIBE_BATCH), before anything else.
// - A connection is dead when no frame at all (Kite's one-byte heartbeat comes about once a
//   second) has arrived for SILENCE_MS: it is dropped and a new one made. The check runs every
//   WATCHDOG_MS on the injected timers, so tests move time by hand.
// - Reconnects wait 1, 2, 4 ... s, at most MAX_RECONNECT_DELAY_MS; the count starts again after a
//   connection that stayed open HEALTHY_AFTER_MS.
// - HTTP 403 at the handshake means the access token is dead (expired, logged out): the connection
//   stops trying and reports `session-refused`. A new login's token comes through
//   `setAccessToken`, then `connect`.
// - A malformed frame is counted and reported, never thrown; a listener that throws is reported
//   too. Nothing said by this file carries the API key or the access token.
import { err, ok } from '@vyuha/core';
import type { Result } from '@vyuha/core';
import WebSocket from 'ws';
import { ConfigError } from '../../config';
import { KITE_API_VERSION } from './kite-login';
import { kiteModeMessage, kiteSubscribeMessage, parseKiteBinaryFrame, parseKiteTextFrame } from './kite-ticker-frames';
import type { KiteTick, KiteTickMode } from './kite-ticker-frames';

export const KITE_TICKER_URL_VARIABLE = 'KITE_TICKER_URL';
export const DEFAULT_KITE_TICKER_URL = 'wss://ws.kite.trade';
/** No frame for this long (heartbeats included) and the socket is dead. */
export const SILENCE_MS = 5_000;
/** How often silence (and a hanging handshake) is looked for. */
export const WATCHDOG_MS = 1_000;
/** A handshake that has not finished by then is given up and retried. */
export const CONNECT_TIMEOUT_MS = 10_000;
export const FIRST_RECONNECT_DELAY_MS = 1_000;
export const MAX_RECONNECT_DELAY_MS = 60_000;
/** A connection open this long was healthy: the next failure waits FIRST_RECONNECT_DELAY_MS again. */
export const HEALTHY_AFTER_MS = 30_000;
/** Tokens per subscribe or mode request (Kite takes 3,000 instruments per connection). */
export const SUBSCRIBE_BATCH = 500;

/**
 * The ticker's base URL: KITE_TICKER_URL (tests point it at a server on 127.0.0.1), else Kite's.
 * A value that is not a ws(s) URL is a ConfigError naming the variable.
 * @example kiteTickerBaseUrl({}) // 'wss://ws.kite.trade'
 */
export function kiteTickerBaseUrl(env: NodeJS.ProcessEnv): string {
  const raw = env[KITE_TICKER_URL_VARIABLE]?.trim();
  if (raw === undefined || raw === '') return DEFAULT_KITE_TICKER_URL;
  const refusal = new ConfigError(`${KITE_TICKER_URL_VARIABLE} must be a ws(s) URL such as ${DEFAULT_KITE_TICKER_URL}`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refusal;
  }
  if (url.protocol !== 'wss:' && url.protocol !== 'ws:') throw refusal;
  return raw.replace(/\/+$/, '');
}

/** Time and timers, injected so tests move time by hand. */
export interface KiteTickerTimers {
  /** Epoch ms. */
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The wall clock and Node's timers. */
export const WALL_TIMERS: KiteTickerTimers = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** What the connection is doing; each change is stamped with the timers' now (epoch ms). */
export type KiteTickerStateChange =
  | { readonly state: 'connecting'; readonly at: number }
  | { readonly state: 'open'; readonly at: number }
  | { readonly state: 'stalled'; readonly at: number; readonly silentMs: number }
  | { readonly state: 'reconnecting'; readonly at: number; readonly attempt: number; readonly delayMs: number; readonly reason: string }
  | { readonly state: 'session-refused'; readonly at: number; readonly httpStatus: number }
  | { readonly state: 'closed'; readonly at: number };

export type KiteTickerState = KiteTickerStateChange['state'] | 'idle';

/** Something that went wrong without ending the connection's job. */
export type KiteTickerProblem =
  | { readonly kind: 'malformed-frame'; readonly at: number; readonly frame: 'binary' | 'text'; readonly reason: string }
  | { readonly kind: 'broker-error'; readonly at: number; readonly message: string }
  | { readonly kind: 'connection'; readonly at: number; readonly message: string }
  | { readonly kind: 'listener'; readonly at: number; readonly message: string };

/** What the connection reports; every method optional. A listener that throws is reported, not fatal. */
export interface KiteTickerListener {
  onTicks?(ticks: readonly KiteTick[], receivedAt: number): void;
  /** An order update's `data`, as Kite sent it (order ids as strings). */
  onOrder?(order: Readonly<Record<string, unknown>>, receivedAt: number): void;
  /** A broker message (`{"type":"message"}`). */
  onMessage?(data: unknown, receivedAt: number): void;
  onProblem?(problem: KiteTickerProblem): void;
  onState?(change: KiteTickerStateChange): void;
}

export interface KiteTickerOptions {
  /** kiteTickerBaseUrl(env). */
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly accessToken: string;
  /** Default WALL_TIMERS. */
  readonly timers?: KiteTickerTimers;
}

/** Counters for the platform's status page. */
export interface KiteTickerStats {
  readonly frames: number;
  readonly malformedFrames: number;
  readonly connections: number;
  readonly reconnects: number;
}

// Order ids have 19 digits, past a JavaScript number's exact range; Kite sends them as strings,
// and any sent bare are quoted before parsing so they stay exact.
const BARE_ORDER_ID = /("(?:order_id|exchange_order_id|parent_order_id)"\s*:\s*)(-?\d+)(?=\s*[,}])/g;

/**
 * One ticker socket. `connect` starts it; `subscribe`/`setMode`/`unsubscribe` change what it
 * wants (sent at once when open, and again after every reconnect); `close` ends it.
 * @example const ticker = new KiteTickerConnection({ baseUrl, apiKey, accessToken }); ticker.listen({ onTicks }); ticker.subscribe([256265], 'full'); ticker.connect()
 */
export class KiteTickerConnection {
  private readonly timers: KiteTickerTimers;
  private readonly listeners = new Set<KiteTickerListener>();
  private readonly wanted = new Map<number, KiteTickMode>();
  private accessToken: string;
  private socket: WebSocket | undefined;
  private stateNow: KiteTickerState = 'idle';
  private running = false;
  private failures = 0;
  private startedAt = 0;
  private openedAt: number | undefined;
  private lastFrameAt = 0;
  private watchdog: unknown;
  private retry: unknown;
  private counts = { frames: 0, malformedFrames: 0, connections: 0, reconnects: 0 };

  constructor(private readonly options: KiteTickerOptions) {
    this.timers = options.timers ?? WALL_TIMERS;
    this.accessToken = options.accessToken;
  }

  get state(): KiteTickerState {
    return this.stateNow;
  }

  get stats(): KiteTickerStats {
    return { ...this.counts };
  }

  /** The tokens wanted and each one's mode. */
  get subscriptions(): ReadonlyMap<number, KiteTickMode> {
    return new Map(this.wanted);
  }

  /** Adds a listener; returns its removal. */
  listen(listener: KiteTickerListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A new login's token, used from the next handshake on (the open socket, if any, stays). */
  setAccessToken(accessToken: string): void {
    this.accessToken = accessToken;
  }

  /** Starts connecting (and reconnecting) until `close` or a refused session; no-op when already running. */
  connect(): void {
    if (this.running) return;
    this.running = true;
    this.failures = 0;
    this.open();
  }

  /** Stops for good (until `connect`): the socket is closed and no retry is pending. */
  close(): void {
    const wasActive = this.running || this.socket !== undefined;
    this.running = false;
    this.clearTimers();
    this.dropSocket();
    if (wasActive || this.stateNow !== 'closed') this.changeState({ state: 'closed', at: this.timers.now() });
  }

  /**
   * Wants `tokens` in `mode` (Kite's default for a fresh subscription is quote); a token wanted
   * already takes the new mode. Sent at once when open. Tokens that are not whole numbers from 1
   * to 2^32-1 are refused, nothing changed.
   */
  subscribe(tokens: readonly number[], mode: KiteTickMode = 'quote'): Result<void, string> {
    const checked = kiteModeMessage(mode, tokens);
    if (!checked.ok) return checked;
    const unique = [...new Set(tokens)];
    const fresh = unique.filter((token) => !this.wanted.has(token));
    for (const token of unique) this.wanted.set(token, mode);
    if (this.stateNow === 'open') {
      this.sendBatches((batch) => kiteSubscribeMessage('subscribe', batch), fresh);
      this.sendBatches((batch) => kiteModeMessage(mode, batch), unique);
    }
    return ok(undefined);
  }

  /** Sets the mode of tokens already wanted (others are ignored). */
  setMode(mode: KiteTickMode, tokens: readonly number[]): Result<void, string> {
    const known = tokens.filter((token) => this.wanted.has(token));
    if (known.length === 0) return tokens.length === 0 ? err('at least one instrument token is needed') : ok(undefined);
    return this.subscribe(known, mode);
  }

  /** No longer wants `tokens` (unknown ones are ignored). */
  unsubscribe(tokens: readonly number[]): void {
    const gone = [...new Set(tokens)].filter((token) => this.wanted.delete(token));
    if (this.stateNow === 'open') this.sendBatches((batch) => kiteSubscribeMessage('unsubscribe', batch), gone);
  }

  private open(): void {
    const at = this.timers.now();
    const url = new URL(this.options.baseUrl);
    url.searchParams.set('api_key', this.options.apiKey);
    url.searchParams.set('access_token', this.accessToken);
    this.changeState({ state: 'connecting', at });
    this.startedAt = at;
    this.openedAt = undefined;
    this.counts.connections += 1;
    const socket = new WebSocket(url, { headers: { 'X-Kite-Version': KITE_API_VERSION }, handshakeTimeout: CONNECT_TIMEOUT_MS });
    this.socket = socket;
    let handshakeStatus: number | undefined;
    let lastError: string | undefined;
    // Listeners stay on a socket after it is dropped (an 'error' without one would crash the
    // process); each first checks that the socket is still the current one.
    socket.on('unexpected-response', (_request, response) => {
      handshakeStatus = response.statusCode;
      response.resume();
      socket.terminate();
    });
    socket.on('open', () => {
      if (socket === this.socket) this.onOpen();
    });
    socket.on('message', (data, isBinary) => {
      if (socket === this.socket) this.onFrame(data, isBinary);
    });
    socket.on('error', (error) => {
      lastError = this.redact(error.message);
    });
    socket.on('close', (code) => {
      if (socket !== this.socket) return;
      this.socket = undefined;
      if (handshakeStatus === 403) {
        this.refuse(handshakeStatus);
        return;
      }
      const reason = handshakeStatus !== undefined
        ? `the ticker answered the handshake with HTTP ${handshakeStatus}`
        : this.openedAt === undefined ? `the ticker could not be reached${lastError === undefined ? '' : `: ${lastError}`}` : `the ticker closed the socket (code ${code})`;
      this.report({ kind: 'connection', at: this.timers.now(), message: reason });
      this.scheduleReconnect(reason);
    });
    this.armWatchdog();
  }

  private onOpen(): void {
    const at = this.timers.now();
    this.openedAt = at;
    this.lastFrameAt = at;
    this.changeState({ state: 'open', at });
    const byMode = new Map<KiteTickMode, number[]>();
    for (const [token, mode] of this.wanted) byMode.set(mode, [...(byMode.get(mode) ?? []), token]);
    this.sendBatches((batch) => kiteSubscribeMessage('subscribe', batch), [...this.wanted.keys()]);
    for (const [mode, tokens] of byMode) this.sendBatches((batch) => kiteModeMessage(mode, batch), tokens);
  }

  private onFrame(data: WebSocket.RawData, isBinary: boolean): void {
    const at = this.timers.now();
    this.lastFrameAt = at;
    this.counts.frames += 1;
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    if (isBinary) this.onBinary(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), at);
    else this.onText(bytes.toString('utf8'), at);
  }

  private onBinary(bytes: Uint8Array, at: number): void {
    const parsed = parseKiteBinaryFrame(bytes);
    if (!parsed.ok) {
      this.malformed('binary', parsed.error, at);
      return;
    }
    if (parsed.value.kind === 'heartbeat') return;
    const { ticks, unknown } = parsed.value;
    if (unknown.length > 0) {
      const named = unknown.map((packet) => `packet ${packet.index + 1} has ${packet.length} bytes`).join(', ');
      this.malformed('binary', `${named}: no packet kind is that long, left out`, at);
    }
    if (ticks.length > 0) this.emit((listener) => listener.onTicks?.(ticks, at));
  }

  private onText(text: string, at: number): void {
    const parsed = parseKiteTextFrame(text.replace(BARE_ORDER_ID, '$1"$2"'));
    if (!parsed.ok) {
      this.malformed('text', parsed.error, at);
      return;
    }
    const message = parsed.value;
    if (message.kind === 'order') this.emit((listener) => listener.onOrder?.(message.order, at));
    else if (message.kind === 'error') this.report({ kind: 'broker-error', at, message: this.redact(message.message) });
    else this.emit((listener) => listener.onMessage?.(message.data, at));
  }

  private malformed(frame: 'binary' | 'text', reason: string, at: number): void {
    this.counts.malformedFrames += 1;
    this.report({ kind: 'malformed-frame', at, frame, reason });
  }

  /** Runs every WATCHDOG_MS while a socket exists: silence, a hanging handshake, a healthy connection. */
  private armWatchdog(): void {
    if (this.watchdog !== undefined) this.timers.clearTimeout(this.watchdog);
    this.watchdog = this.timers.setTimeout(() => {
      this.watchdog = undefined;
      const socket = this.socket;
      if (socket === undefined) return;
      const now = this.timers.now();
      if (this.openedAt === undefined) {
        if (now - this.startedAt >= CONNECT_TIMEOUT_MS) {
          this.dropSocket();
          this.scheduleReconnect(`the handshake took longer than ${CONNECT_TIMEOUT_MS / 1000} s`);
          return;
        }
      } else {
        const silentMs = now - this.lastFrameAt;
        if (silentMs >= SILENCE_MS) {
          this.changeState({ state: 'stalled', at: now, silentMs });
          this.dropSocket();
          this.scheduleReconnect(`no frame for ${Math.floor(silentMs / 1000)} s`);
          return;
        }
        if (now - this.openedAt >= HEALTHY_AFTER_MS) this.failures = 0;
      }
      this.armWatchdog();
    }, WATCHDOG_MS);
  }

  private scheduleReconnect(reason: string): void {
    if (!this.running) return;
    const delayMs = Math.min(FIRST_RECONNECT_DELAY_MS * 2 ** this.failures, MAX_RECONNECT_DELAY_MS);
    this.failures += 1;
    this.counts.reconnects += 1;
    this.changeState({ state: 'reconnecting', at: this.timers.now(), attempt: this.failures, delayMs, reason });
    if (this.retry !== undefined) this.timers.clearTimeout(this.retry);
    this.retry = this.timers.setTimeout(() => {
      this.retry = undefined;
      if (this.running && this.socket === undefined) this.open();
    }, delayMs);
  }

  private refuse(httpStatus: number): void {
    this.running = false;
    this.clearTimers();
    this.changeState({ state: 'session-refused', at: this.timers.now(), httpStatus });
  }

  /** Forgets the current socket and ends it; its late events are ignored. */
  private dropSocket(): void {
    const socket = this.socket;
    this.socket = undefined;
    this.openedAt = undefined;
    if (socket !== undefined) socket.terminate();
  }

  private clearTimers(): void {
    if (this.watchdog !== undefined) this.timers.clearTimeout(this.watchdog);
    if (this.retry !== undefined) this.timers.clearTimeout(this.retry);
    this.watchdog = undefined;
    this.retry = undefined;
  }

  private sendBatches(message: (batch: number[]) => Result<string, string>, tokens: readonly number[]): void {
    const socket = this.socket;
    if (socket === undefined || tokens.length === 0) return;
    for (let start = 0; start < tokens.length; start += SUBSCRIBE_BATCH) {
      const built = message(tokens.slice(start, start + SUBSCRIBE_BATCH));
      // The tokens were checked when they were wanted: a refusal here is a bug.
      if (!built.ok) throw new Error(`a ticker request could not be built: ${built.error}`);
      socket.send(built.value);
    }
  }

  private changeState(change: KiteTickerStateChange): void {
    this.stateNow = change.state;
    this.emit((listener) => listener.onState?.(change));
  }

  private report(problem: KiteTickerProblem): void {
    for (const listener of this.listeners) {
      try {
        listener.onProblem?.(problem);
      } catch {
        // A listener that cannot take a problem report has nowhere else to hear of it.
      }
    }
  }

  private emit(call: (listener: KiteTickerListener) => void): void {
    for (const listener of this.listeners) {
      try {
        call(listener);
      } catch (error) {
        this.report({ kind: 'listener', at: this.timers.now(), message: `a ticker listener failed: ${this.redact((error as Error).message)}` });
      }
    }
  }

  /** Errors from the socket library may quote the URL: the key and token never leave this file. */
  private redact(text: string): string {
    let out = text;
    for (const secret of [this.accessToken, this.options.accessToken, this.options.apiKey]) {
      if (secret !== '') out = out.split(secret).join('[redacted]');
    }
    return out;
  }
}
