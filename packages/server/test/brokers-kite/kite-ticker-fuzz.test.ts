// Thousands of broken frames (random bytes, truncated packets, wrong counts, lengths past the end,
// huge counts, packets of random lengths, invalid JSON, JSON of the wrong shape), seeded so a
// failure replays: straight into the frame parser, which must never throw, and through a live
// connection, which must count each broken frame, stay open on its one socket, and still deliver
// every good frame sent between them, in order.
import { createRng } from '@vyuha/core';
import type { Rng } from '@vyuha/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KiteTickerConnection } from '../../src/brokers/kite/kite-ticker';
import { parseKiteBinaryFrame, parseKiteTextFrame } from '../../src/brokers/kite/kite-ticker-frames';
import { frame, fullPacket, indexPacket, ltpPacket, quotePacket } from './ticker-frame-builders';
import { ManualTimers, TestTickerServer, waitFor } from './ticker-test-support';

const SEED = 'kite-ticker-fuzz-1';
/** The good frames' instrument: an NSE token no random packet is likely to carry. */
const MARKER = 0x00c0_ff01;

function int(rng: Rng, below: number): number {
  return Math.floor(rng.next() * below);
}

function randomBytes(rng: Rng, length: number): Uint8Array {
  return Uint8Array.from({ length }, () => int(rng, 256));
}

/** A frame that parses: packets of the five kinds with random tokens and values. */
function validFrame(rng: Rng): Uint8Array {
  const token = (): number => (rng.nextUint32() & 0xffff_ff00) | (1 + int(rng, 9)) || 1;
  const packets = Array.from({ length: 1 + int(rng, 4) }, () => {
    const price = rng.nextUint32();
    switch (int(rng, 5)) {
      case 0: return ltpPacket(token(), price);
      case 1: return quotePacket(token(), { price, volume: rng.nextUint32() });
      case 2: return fullPacket(token(), { price, volume: rng.nextUint32(), exchangeTime: rng.nextUint32() });
      case 3: return indexPacket(token(), { price });
      default: return indexPacket(token(), { price, exchangeTime: rng.nextUint32() });
    }
  });
  return frame(...packets);
}

/** One broken (or random, rarely valid) binary frame. */
function brokenBinary(rng: Rng): Uint8Array {
  const kind = int(rng, 7);
  if (kind === 0) return randomBytes(rng, int(rng, 300));
  if (kind === 1) {
    const whole = validFrame(rng);
    return whole.slice(0, 2 + int(rng, whole.length - 2));
  }
  if (kind === 2) {
    const wrong = validFrame(rng);
    new DataView(wrong.buffer).setUint16(0, int(rng, 12));
    return wrong;
  }
  if (kind === 3) {
    const past = validFrame(rng);
    new DataView(past.buffer).setUint16(2, 185 + int(rng, 0xffff - 185));
    return past;
  }
  if (kind === 4) {
    const huge = randomBytes(rng, 2 + int(rng, 40));
    new DataView(huge.buffer).setUint16(0, 0xffff);
    return huge;
  }
  if (kind === 5) return frame(...Array.from({ length: 1 + int(rng, 3) }, () => randomBytes(rng, int(rng, 200))));
  return validFrame(rng);
}

const TEXTS = [
  'not json', '{', '{"type":"order"', '{"type":"order","data":5}', '{"type":"order","data":[1,2]}', '[]', 'null', '42', '""',
  '{"type":"tick","data":{}}', '{"data":{"order_id":"1"}}', '{"type":null}', '{"type":"order","data":null}', '\u0000\u0001',
  `${'['.repeat(5_000)}${']'.repeat(5_000)}`, '{"type":"order","data":{"order_id":"1"}', '{"type":"order","data":{}}x',
];

/** One broken (or odd) text frame. */
function brokenText(rng: Rng): string {
  if (int(rng, 3) === 0) return String.fromCharCode(...Array.from({ length: int(rng, 80) }, () => 32 + int(rng, 95)));
  return TEXTS[int(rng, TEXTS.length)] as string;
}

/** True when the connection counts this frame as malformed (refused, or with packets of no known length). */
function malformedBinary(bytes: Uint8Array): boolean {
  const parsed = parseKiteBinaryFrame(bytes);
  return !parsed.ok || (parsed.value.kind === 'ticks' && parsed.value.unknown.length > 0);
}

describe('the frame parser under random input', () => {
  it('never throws, and an accepted frame accounts for exactly the packets its header counts', () => {
    const rng = createRng(SEED);
    for (let round = 0; round < 20_000; round += 1) {
      const bytes = brokenBinary(rng);
      const parsed = parseKiteBinaryFrame(bytes);
      if (parsed.ok && parsed.value.kind === 'ticks') {
        const count = new DataView(bytes.buffer, bytes.byteOffset).getUint16(0);
        expect(parsed.value.ticks.length + parsed.value.unknown.length).toBe(count);
      }
      expect(typeof parseKiteTextFrame(brokenText(rng)).ok).toBe('boolean');
    }
  });

  it('refuses a valid frame cut anywhere after its count', () => {
    const rng = createRng(`${SEED}-cut`);
    for (let round = 0; round < 2_000; round += 1) {
      const whole = validFrame(rng);
      const cut = 2 + int(rng, whole.length - 2);
      expect(parseKiteBinaryFrame(whole.slice(0, cut)).ok).toBe(false);
    }
  });
});

describe('a connection under random frames', () => {
  let server: TestTickerServer;
  let ticker: KiteTickerConnection;

  beforeAll(async () => {
    server = await TestTickerServer.start();
    ticker = new KiteTickerConnection({ baseUrl: server.url, apiKey: 'k', accessToken: 't', timers: new ManualTimers() });
  });

  afterAll(async () => {
    ticker.close();
    await server.close();
  });

  it('counts every broken frame, stays open, and delivers the good frames between them in order', async () => {
    const marks: number[] = [];
    const orders: unknown[] = [];
    ticker.listen({
      onTicks: (ticks) => marks.push(...ticks.filter((tick) => tick.instrumentToken === MARKER).map((tick) => tick.lastPricePaise)),
      onOrder: (order) => orders.push(order.order_id),
    });
    ticker.connect();
    await waitFor('the connection', () => ticker.state === 'open');
    const rng = createRng(`${SEED}-socket`);
    let malformed = 0;
    let good = 0;
    for (let index = 0; index < 4_000; index += 1) {
      if (index % 10 === 0) {
        good += 1;
        server.send(frame(ltpPacket(MARKER, good)));
        server.send({ type: 'order', data: { order_id: `25112700000${String(good).padStart(8, '0')}` } });
      } else if (int(rng, 4) === 0) {
        const text = brokenText(rng);
        if (!parseKiteTextFrame(text).ok) malformed += 1;
        server.send(text);
      } else {
        const bytes = brokenBinary(rng);
        if (malformedBinary(bytes)) malformed += 1;
        server.send(bytes);
      }
    }
    await waitFor('every good frame', () => marks.length === good && orders.length === good, 30_000);
    expect(marks).toEqual(Array.from({ length: good }, (_, index) => index + 1));
    expect(orders.at(-1)).toBe(`25112700000${String(good).padStart(8, '0')}`);
    expect(malformed).toBeGreaterThan(2_000);
    expect(ticker.stats).toMatchObject({ frames: 4_000 + good, malformedFrames: malformed, connections: 1, reconnects: 0 });
    expect(ticker.state).toBe('open');
    expect(server.connections).toHaveLength(1);
    expect(server.last.closed).toBe(false);
  });
});
