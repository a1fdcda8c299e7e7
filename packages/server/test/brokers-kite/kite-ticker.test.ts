// The Kite ticker connection against a bare ws server on 127.0.0.1: what it asks for (tokens as
// JSON numbers, in batches), what it asks for again after a drop, how it finds a silent socket
// (no frame for 5 s on the injected clock), how it backs off, that a 403 handshake ends it, and
// that ticks of every mode and segment and the text frames arrive as they should.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config';
import { KiteTickerConnection, kiteTickerBaseUrl } from '../../src/brokers/kite/kite-ticker';
import type { KiteTickerProblem, KiteTickerStateChange } from '../../src/brokers/kite/kite-ticker';
import type { KiteTick } from '../../src/brokers/kite/kite-ticker-frames';
import { frame, fullPacket, HEARTBEAT, indexPacket, ltpPacket, packet, quotePacket } from './ticker-frame-builders';
import { ManualTimers, T0, TestTickerServer, waitFor } from './ticker-test-support';

const API_KEY = 'kitekey123';
const ACCESS_TOKEN = 'tok-secret-abc';
// Tokens: the low byte is the segment.
const RELIANCE = 738_561; // 0x0B4501, NSE
const NIFTY_FUT = 0x0000_4202; // NFO
const USDINR = 0x0001_2303; // CDS: prices over 10,000,000 to the rupee
const SBIN_BSE = 0x0000_7704; // BSE
const SENSEX_FUT = 0x0000_8805; // BFO
const EURINR_BCD = 0x0000_9906; // BCD: over 10,000
const CRUDE = 0x0000_aa07; // MCX
const NIFTY_50 = 256_265; // INDICES

let server: TestTickerServer;
let timers: ManualTimers;
let ticker: KiteTickerConnection;
let states: KiteTickerStateChange[];
let problems: KiteTickerProblem[];
let ticks: KiteTick[];
let orders: Record<string, unknown>[];
let messages: unknown[];

beforeEach(async () => {
  server = await TestTickerServer.start();
  timers = new ManualTimers();
  ticker = new KiteTickerConnection({ baseUrl: server.url, apiKey: API_KEY, accessToken: ACCESS_TOKEN, timers });
  states = [];
  problems = [];
  ticks = [];
  orders = [];
  messages = [];
  ticker.listen({
    onState: (change) => states.push(change),
    onProblem: (problem) => problems.push(problem),
    onTicks: (batch) => ticks.push(...batch),
    onOrder: (order) => orders.push(order),
    onMessage: (data) => messages.push(data),
  });
});

afterEach(async () => {
  ticker.close();
  await server.close();
});

const stateNames = (): string[] => states.map((change) => change.state);

async function openTicker(connections = 1): Promise<void> {
  ticker.connect();
  await waitFor(`connection ${connections}`, () => server.connections.length === connections && ticker.state === 'open');
}

describe('the ticker base URL', () => {
  it('defaults to Kite, takes KITE_TICKER_URL, and refuses what is not a ws(s) URL', () => {
    expect(kiteTickerBaseUrl({})).toBe('wss://ws.kite.trade');
    expect(kiteTickerBaseUrl({ KITE_TICKER_URL: ' ws://127.0.0.1:9000/ ' })).toBe('ws://127.0.0.1:9000');
    expect(() => kiteTickerBaseUrl({ KITE_TICKER_URL: 'https://ws.kite.trade' })).toThrow(ConfigError);
    expect(() => kiteTickerBaseUrl({ KITE_TICKER_URL: 'not a url' })).toThrow(/KITE_TICKER_URL must be a ws\(s\) URL/);
  });
});

describe('what the ticker asks for', () => {
  it('sends the key, the token and version 3 on the handshake, then subscribe and mode with numeric tokens', async () => {
    expect(ticker.subscribe([RELIANCE, NIFTY_FUT], 'full')).toEqual({ ok: true, value: undefined });
    ticker.subscribe([NIFTY_50], 'ltp');
    await openTicker();
    const connection = server.last;
    expect(connection.query.get('api_key')).toBe(API_KEY);
    expect(connection.query.get('access_token')).toBe(ACCESS_TOKEN);
    expect(connection.headers['x-kite-version']).toBe('3');
    await waitFor('three requests', () => connection.raw.length === 3);
    expect(connection.raw).toEqual([
      `{"a":"subscribe","v":[${RELIANCE},${NIFTY_FUT},${NIFTY_50}]}`,
      `{"a":"mode","v":["full",[${RELIANCE},${NIFTY_FUT}]]}`,
      `{"a":"mode","v":["ltp",[${NIFTY_50}]]}`,
    ]);
    // While open: a new token is subscribed and given its mode; a known one only changes mode.
    ticker.subscribe([SBIN_BSE], 'quote');
    ticker.setMode('quote', [RELIANCE, 999]);
    ticker.unsubscribe([NIFTY_FUT, 12345]);
    await waitFor('four more requests', () => connection.raw.length === 7);
    expect(connection.messages.slice(3)).toEqual([
      { a: 'subscribe', v: [SBIN_BSE] }, { a: 'mode', v: ['quote', [SBIN_BSE]] }, { a: 'mode', v: ['quote', [RELIANCE]] }, { a: 'unsubscribe', v: [NIFTY_FUT] },
    ]);
    expect([...ticker.subscriptions]).toEqual([[RELIANCE, 'quote'], [NIFTY_50, 'ltp'], [SBIN_BSE, 'quote']]);
  });

  it('refuses tokens Kite would ignore, changing nothing', () => {
    expect(ticker.subscribe(['408065' as unknown as number]).ok).toBe(false);
    expect(ticker.subscribe([0]).ok).toBe(false);
    expect(ticker.subscriptions.size).toBe(0);
  });

  it('splits a long list into requests of 500 tokens', async () => {
    const many = Array.from({ length: 1_200 }, (_, index) => (index + 1) * 256 + 2);
    ticker.subscribe(many, 'full');
    await openTicker();
    await waitFor('six requests', () => server.last.messages.length === 6);
    const sizes = server.last.messages.map((message) => [message.a, message.a === 'mode' ? (message.v as [string, number[]])[1].length : (message.v as number[]).length]);
    expect(sizes).toEqual([['subscribe', 500], ['subscribe', 500], ['subscribe', 200], ['mode', 500], ['mode', 500], ['mode', 200]]);
    expect(server.last.messages.flatMap((message) => (message.a === 'subscribe' ? message.v as number[] : []))).toEqual(many);
  });
});

describe('reconnecting', () => {
  it('asks again for every token with its last mode after the server drops the socket', async () => {
    ticker.subscribe([RELIANCE, NIFTY_FUT], 'quote');
    await openTicker();
    ticker.setMode('full', [NIFTY_FUT]);
    await waitFor('the mode change', () => server.last.messages.length === 3);
    server.last.socket.terminate();
    await waitFor('the reconnect', () => ticker.state === 'reconnecting');
    expect(states.at(-1)).toMatchObject({ state: 'reconnecting', attempt: 1, delayMs: 1_000, at: T0 });
    timers.advance(999);
    expect(server.handshakes).toBe(1);
    timers.advance(1);
    await waitFor('the second connection', () => server.connections.length === 2 && ticker.state === 'open');
    await waitFor('the requests again', () => server.last.messages.length === 3);
    expect(server.last.messages).toEqual([
      { a: 'subscribe', v: [RELIANCE, NIFTY_FUT] }, { a: 'mode', v: ['quote', [RELIANCE]] }, { a: 'mode', v: ['full', [NIFTY_FUT]] },
    ]);
    expect(stateNames()).toEqual(['connecting', 'open', 'reconnecting', 'connecting', 'open']);
  });

  it('drops a socket that has sent no frame for 5 s (heartbeats count) and makes a new one', async () => {
    await openTicker();
    timers.advance(4_000);
    server.send(HEARTBEAT);
    await waitFor('the heartbeat', () => ticker.stats.frames === 1);
    // Last frame at T0+4 s: at T0+8 s it has been silent 4 s, still alive.
    timers.advance(4_000);
    expect(ticker.state).toBe('open');
    timers.advance(1_000);
    expect(states.slice(-2)).toEqual([
      { state: 'stalled', at: T0 + 9_000, silentMs: 5_000 },
      { state: 'reconnecting', at: T0 + 9_000, attempt: 1, delayMs: 1_000, reason: 'no frame for 5 s' },
    ]);
    await waitFor('the stale socket to close', () => server.connections[0]?.closed === true);
    timers.advance(1_000);
    await waitFor('the new connection', () => server.connections.length === 2 && ticker.state === 'open');
  });

  it('waits 1, 2, 4 ... s up to 60 s between failed attempts, and 1 s again after a healthy connection', async () => {
    server.refuseWith = 503;
    ticker.connect();
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 8; attempt += 1) {
      await waitFor(`attempt ${attempt} to fail`, () => states.filter((change) => change.state === 'reconnecting').length === attempt);
      const last = states.at(-1) as Extract<KiteTickerStateChange, { state: 'reconnecting' }>;
      delays.push(last.delayMs);
      if (attempt === 8) server.refuseWith = undefined;
      timers.advance(last.delayMs);
    }
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000]);
    expect(problems.at(-1)).toMatchObject({ kind: 'connection', message: 'the ticker answered the handshake with HTTP 503' });
    await waitFor('the connection', () => ticker.state === 'open');
    // Healthy for 30 s (a heartbeat every 2 s), then dropped: the count starts again.
    for (let second = 0; second < 30; second += 2) {
      server.send(HEARTBEAT);
      const frames = ticker.stats.frames;
      await waitFor('a heartbeat', () => ticker.stats.frames === frames + 1);
      timers.advance(2_000);
    }
    server.last.socket.terminate();
    await waitFor('the drop', () => states.filter((change) => change.state === 'reconnecting').length === 9);
    expect(states.at(-1)).toMatchObject({ state: 'reconnecting', attempt: 1, delayMs: 1_000 });
  });

  it('stops for good on HTTP 403 at the handshake, and starts again with a new token', async () => {
    server.refuseWith = 403;
    ticker.connect();
    await waitFor('the refusal', () => ticker.state === 'session-refused');
    expect(states).toEqual([{ state: 'connecting', at: T0 }, { state: 'session-refused', at: T0, httpStatus: 403 }]);
    timers.advance(10 * 60_000);
    expect(server.handshakes).toBe(1);
    expect(timers.waiting).toBe(0);
    // A new login: the new token, then connect.
    server.refuseWith = undefined;
    ticker.setAccessToken('tok-renewed-xyz');
    ticker.connect();
    await waitFor('the new connection', () => ticker.state === 'open');
    expect(server.last.query.get('access_token')).toBe('tok-renewed-xyz');
    expect(JSON.stringify([states, problems])).not.toContain(ACCESS_TOKEN);
  });

  it('closes for good on close(): no retry, no timers', async () => {
    await openTicker();
    ticker.close();
    await waitFor('the server to see the close', () => server.last.closed);
    timers.advance(120_000);
    expect(server.connections).toHaveLength(1);
    expect(stateNames()).toEqual(['connecting', 'open', 'closed']);
    expect(timers.waiting).toBe(0);
  });
});

describe('what the ticker hears', () => {
  it('delivers ticks of every mode and segment with prices in paise', async () => {
    await openTicker();
    server.send(frame(
      ltpPacket(RELIANCE, 141_025),
      quotePacket(NIFTY_FUT, { price: 2_612_340, volume: 1_234_500, ohlc: [2_600_000, 2_615_000, 2_598_000, 2_605_500] }),
      fullPacket(SBIN_BSE, { price: 81_235, volume: 9_000, lastTradeTime: 1_764_229_800, exchangeTime: 1_764_229_801 }),
      ltpPacket(SENSEX_FUT, 8_512_300),
      ltpPacket(USDINR, 841_234_500),
      ltpPacket(EURINR_BCD, 9_712_345),
      ltpPacket(CRUDE, 512_300),
      indexPacket(NIFTY_50, { price: 2_590_010 }),
      indexPacket(NIFTY_50, { price: 2_590_020, exchangeTime: 1_764_229_802 }),
    ));
    await waitFor('nine ticks', () => ticks.length === 9);
    expect(ticks.map((tick) => [tick.instrumentToken, tick.segment, tick.mode, tick.tradable])).toEqual([
      [RELIANCE, 1, 'ltp', true], [NIFTY_FUT, 2, 'quote', true], [SBIN_BSE, 4, 'full', true], [SENSEX_FUT, 5, 'ltp', true],
      [USDINR, 3, 'ltp', true], [EURINR_BCD, 6, 'ltp', true], [CRUDE, 7, 'ltp', true], [NIFTY_50, 9, 'quote', false], [NIFTY_50, 9, 'full', false],
    ]);
    // Paise on every segment but the currency ones: Rs 84.12345 on CDS is 8,412.345 paise, Rs 971.2345 on BCD 97,123.45.
    // (The currency prices are fractions of a paisa; the frame parser scales them by a float.)
    const prices = ticks.map((tick) => tick.lastPricePaise);
    expect([...prices.slice(0, 4), ...prices.slice(6)]).toEqual([141_025, 2_612_340, 81_235, 8_512_300, 512_300, 2_590_010, 2_590_020]);
    expect(prices[4]).toBe(8_412.345);
    expect(prices[5]).toBe(97_123.45);
    expect(ticks[1]).toMatchObject({ volumeTraded: 1_234_500, ohlc: { openPaise: 2_600_000, highPaise: 2_615_000, lowPaise: 2_598_000, closePaise: 2_605_500 } });
    expect(ticks[2]).toMatchObject({ lastTradeTimeMs: 1_764_229_800_000, exchangeTimeMs: 1_764_229_801_000, volumeTraded: 9_000 });
    expect(ticks[8]?.exchangeTimeMs).toBe(1_764_229_802_000);
    expect(problems).toEqual([]);
  });

  it('hands order updates over raw, with 19-digit ids as exact strings, and reports errors and messages', async () => {
    await openTicker();
    server.send({ type: 'order', data: { order_id: '2511270001234567890', status: 'COMPLETE', tag: 'v1abc', filled_quantity: 75 } });
    // An id sent as a bare number would lose its last digits in JSON.parse: it arrives quoted.
    server.send('{"type":"order","data":{"order_id":2511270001234567891,"exchange_order_id": 1300000012345678912,"status":"OPEN"}}');
    server.send({ type: 'error', data: 'Invalid subscription' });
    server.send({ type: 'message', data: 'Markets close early today' });
    await waitFor('the text frames', () => orders.length === 2 && messages.length === 1 && problems.length === 1);
    expect(orders).toEqual([
      { order_id: '2511270001234567890', status: 'COMPLETE', tag: 'v1abc', filled_quantity: 75 },
      { order_id: '2511270001234567891', exchange_order_id: '1300000012345678912', status: 'OPEN' },
    ]);
    expect(problems).toEqual([{ kind: 'broker-error', at: T0, message: 'Invalid subscription' }]);
    expect(messages).toEqual(['Markets close early today']);
  });

  it('counts and reports a malformed frame, and carries on with the next', async () => {
    await openTicker();
    const whole = frame(ltpPacket(RELIANCE, 141_000));
    server.send(whole.slice(0, whole.length - 3));
    server.send(frame(packet(12, { 0: RELIANCE }), ltpPacket(RELIANCE, 141_005)));
    server.send('not json');
    server.send(frame(ltpPacket(RELIANCE, 141_010)));
    await waitFor('the good ticks', () => ticks.length === 2);
    expect(ticks.map((tick) => tick.lastPricePaise)).toEqual([141_005, 141_010]);
    expect(problems.map((problem) => [problem.kind, 'frame' in problem ? problem.frame : '', 'reason' in problem ? problem.reason : ''])).toEqual([
      ['malformed-frame', 'binary', 'packet 1 of 1: 8 bytes from byte 4 run past the frame\'s 9 bytes'],
      ['malformed-frame', 'binary', 'packet 1 has 12 bytes: no packet kind is that long, left out'],
      ['malformed-frame', 'text', expect.stringMatching(/^a text frame must be JSON/)],
    ]);
    expect(ticker.stats).toMatchObject({ frames: 4, malformedFrames: 3 });
    expect(ticker.state).toBe('open');
  });

  it('reports a listener that throws and keeps delivering to the others', async () => {
    const seen: number[] = [];
    ticker.listen({ onTicks: () => { throw new Error('boom'); } });
    ticker.listen({ onTicks: (batch) => seen.push(...batch.map((tick) => tick.lastPricePaise)) });
    await openTicker();
    server.send(frame(ltpPacket(RELIANCE, 141_000)));
    server.send(frame(ltpPacket(RELIANCE, 141_005)));
    await waitFor('both ticks', () => seen.length === 2);
    expect(problems.filter((problem) => problem.kind === 'listener')).toHaveLength(2);
    expect(problems[0]).toMatchObject({ kind: 'listener', message: 'a ticker listener failed: boom' });
    expect(ticker.state).toBe('open');
  });
});
