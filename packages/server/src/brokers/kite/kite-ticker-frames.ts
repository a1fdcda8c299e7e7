// Kite Connect's WebSocket ticker, the bytes only (docs/BROKER-KITE.md, Ticker): the binary frames
// the server sends parsed into ticks, its text frames into order updates, errors and broker
// messages, and the JSON text frames a client sends (subscribe, unsubscribe, mode). Pure functions,
// no socket: the broker feed of the runtime (issue 17) moves the bytes.
//
// Facts this follows (docs/BROKER-KITE.md, "The ticker's frames, byte by byte"):
// - All numbers are big-endian. A binary frame is a 2-byte packet count, then per packet a 2-byte
//   length and that many bytes. A 1-byte frame is a heartbeat (about once a second), no data.
// - A packet's length is its kind: 8 LTP, 28 and 32 an index in quote and full mode, 44 and 184 a
//   tradable instrument in quote and full mode.
// - The segment is `token & 0xFF` (1 NSE, 2 NFO, 3 CDS, 4 BSE, 5 BFO, 6 BCD, 7 MCX, 8 MCXSX,
//   9 INDICES); prices are divided by 10,000,000 for CDS, 10,000 for BCD and 100 for the rest, so
//   for every segment but the two currency ones the packet's integer is the price in paise.
// - An index packet orders its prices high, low, open, close (a tradable one open, high, low,
//   close), and its change is a signed integer; every other value is read unsigned.
// - Tokens go to the server as JSON numbers: sent as strings they get no ticks.
import { err, ok } from '@vyuha/core';
import type { Result } from '@vyuha/core';

export type KiteTickMode = 'ltp' | 'quote' | 'full';

export const KITE_SEGMENTS: Readonly<Record<number, string>> = {
  1: 'NSE', 2: 'NFO', 3: 'CDS', 4: 'BSE', 5: 'BFO', 6: 'BCD', 7: 'MCX', 8: 'MCXSX', 9: 'INDICES',
};

const INDICES_SEGMENT = 9;

/** One level of a full packet's market depth. */
export interface KiteDepthLevel {
  readonly quantity: number;
  /** Paise (fractional only on the currency segments). */
  readonly pricePaise: number;
  readonly orders: number;
}

/** One instrument's tick from a binary frame; prices in paise (fractional only on the currency segments). */
export interface KiteTick {
  readonly instrumentToken: number;
  /** `token & 0xFF`: 1 NSE, 2 NFO, ... 9 INDICES (KITE_SEGMENTS). */
  readonly segment: number;
  /** False for an index (segment 9 or an index packet). */
  readonly tradable: boolean;
  readonly mode: KiteTickMode;
  readonly lastPricePaise: number;
  /** Quote and full. */
  readonly ohlc?: { readonly openPaise: number; readonly highPaise: number; readonly lowPaise: number; readonly closePaise: number };
  /** Index packets: the change as the exchange sends it (a signed integer, not scaled). */
  readonly indexChange?: number;
  /** Tradable quote and full. */
  readonly lastTradedQuantity?: number;
  readonly averageTradedPricePaise?: number;
  readonly volumeTraded?: number;
  readonly totalBuyQuantity?: number;
  readonly totalSellQuantity?: number;
  /** Full: epoch ms (the packet's unix seconds x 1000). */
  readonly lastTradeTimeMs?: number;
  readonly exchangeTimeMs?: number;
  readonly oi?: number;
  readonly oiDayHigh?: number;
  readonly oiDayLow?: number;
  readonly depth?: { readonly buy: readonly KiteDepthLevel[]; readonly sell: readonly KiteDepthLevel[] };
}

export type KiteBinaryFrame =
  | { readonly kind: 'heartbeat' }
  /** `unknown`: packets whose length is none of the five kinds (left out, by index and length). */
  | { readonly kind: 'ticks'; readonly ticks: readonly KiteTick[]; readonly unknown: readonly { readonly index: number; readonly length: number }[] };

/** Paise per packet unit: the divisor of the token's segment, against paise. */
/** What the raw integer is divided by to give paise (a division, so CDS prices stay exact decimals). */
function paiseDivisor(segment: number): number {
  if (segment === 3) return 100_000;
  if (segment === 6) return 100;
  return 1;
}

/**
 * A binary frame of the ticker: a heartbeat, or its packets as ticks. A frame whose counts run
 * past its bytes is refused, naming the packet and the byte where it broke.
 * @example parseKiteBinaryFrame(new Uint8Array([0])) // ok({ kind: 'heartbeat' })
 */
export function parseKiteBinaryFrame(bytes: Uint8Array): Result<KiteBinaryFrame, string> {
  if (bytes.length === 1) return ok({ kind: 'heartbeat' });
  if (bytes.length < 2) return err('a binary frame needs at least 2 bytes (its packet count), got 0');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint16(0);
  const ticks: KiteTick[] = [];
  const unknown: { index: number; length: number }[] = [];
  let offset = 2;
  for (let index = 0; index < count; index += 1) {
    if (offset + 2 > bytes.length) return err(`packet ${index + 1} of ${count}: its length at byte ${offset} is past the frame's ${bytes.length} bytes`);
    const length = view.getUint16(offset);
    const start = offset + 2;
    if (start + length > bytes.length) {
      return err(`packet ${index + 1} of ${count}: ${length} bytes from byte ${start} run past the frame's ${bytes.length} bytes`);
    }
    const tick = packetTick(new DataView(bytes.buffer, bytes.byteOffset + start, length));
    if (tick === undefined) unknown.push({ index, length });
    else ticks.push(tick);
    offset = start + length;
  }
  return ok({ kind: 'ticks', ticks, unknown });
}

function packetTick(packet: DataView): KiteTick | undefined {
  const length = packet.byteLength;
  if (length !== 8 && length !== 28 && length !== 32 && length !== 44 && length !== 184) return undefined;
  const u32 = (at: number): number => packet.getUint32(at);
  const instrumentToken = u32(0);
  const segment = instrumentToken & 0xff;
  const divisor = paiseDivisor(segment);
  const price = (at: number): number => u32(at) / divisor;
  const base = { instrumentToken, segment, lastPricePaise: price(4) };
  if (length === 8) return { ...base, tradable: segment !== INDICES_SEGMENT, mode: 'ltp' };
  if (length === 28 || length === 32) {
    return {
      ...base, tradable: false, mode: length === 28 ? 'quote' : 'full',
      ohlc: { highPaise: price(8), lowPaise: price(12), openPaise: price(16), closePaise: price(20) },
      indexChange: packet.getInt32(24),
      ...(length === 32 ? { exchangeTimeMs: u32(28) * 1000 } : {}),
    };
  }
  const quote = {
    ...base, tradable: segment !== INDICES_SEGMENT,
    lastTradedQuantity: u32(8), averageTradedPricePaise: price(12), volumeTraded: u32(16), totalBuyQuantity: u32(20), totalSellQuantity: u32(24),
    ohlc: { openPaise: price(28), highPaise: price(32), lowPaise: price(36), closePaise: price(40) },
  };
  if (length === 44) return { ...quote, mode: 'quote' };
  const level = (at: number): KiteDepthLevel => ({ quantity: u32(at), pricePaise: price(at + 4), orders: packet.getUint16(at + 8) });
  return {
    ...quote, mode: 'full',
    lastTradeTimeMs: u32(44) * 1000, oi: u32(48), oiDayHigh: u32(52), oiDayLow: u32(56), exchangeTimeMs: u32(60) * 1000,
    depth: {
      buy: Array.from({ length: 5 }, (_, row) => level(64 + row * 12)),
      sell: Array.from({ length: 5 }, (_, row) => level(124 + row * 12)),
    },
  };
}

export type KiteTextMessage =
  | { readonly kind: 'order'; readonly order: Readonly<Record<string, unknown>> }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'message'; readonly data: unknown };

/**
 * A text frame of the ticker: an order update (the postback's fields, as Kite sends them), an
 * error, or a broker message; anything else is refused, saying what it was.
 * @example parseKiteTextFrame('{"type":"error","data":"Invalid token"}') // ok({ kind: 'error', message: 'Invalid token' })
 */
export function parseKiteTextFrame(text: string): Result<KiteTextMessage, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return err(`a text frame must be JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return err('a text frame must be a JSON object with "type" and "data"');
  const { type, data } = parsed as { type?: unknown; data?: unknown };
  if (type === 'order') {
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return err('an order update\'s "data" must be an object (the order)');
    return ok({ kind: 'order', order: data as Record<string, unknown> });
  }
  if (type === 'error') return ok({ kind: 'error', message: typeof data === 'string' ? data : JSON.stringify(data) });
  if (type === 'message') return ok({ kind: 'message', data });
  return err(`unknown text frame type ${JSON.stringify(type)}: expected "order", "error" or "message"`);
}

/** Refuses tokens that are not whole numbers above 0 (Kite ignores tokens sent as strings). */
function checkedTokens(tokens: readonly number[]): Result<number[], string> {
  if (tokens.length === 0) return err('at least one instrument token is needed');
  const bad = tokens.find((token) => typeof token !== 'number' || !Number.isSafeInteger(token) || token <= 0 || token > 0xffffffff);
  if (bad !== undefined) return err(`instrument tokens must be whole numbers from 1 to 4294967295, got ${JSON.stringify(bad)}`);
  return ok([...tokens]);
}

/**
 * The text frame that subscribes (or unsubscribes) tokens.
 * @example kiteSubscribeMessage('subscribe', [408065]) // ok('{"a":"subscribe","v":[408065]}')
 */
export function kiteSubscribeMessage(action: 'subscribe' | 'unsubscribe', tokens: readonly number[]): Result<string, string> {
  const checked = checkedTokens(tokens);
  return checked.ok ? ok(JSON.stringify({ a: action, v: checked.value })) : checked;
}

/**
 * The text frame that sets the mode of tokens.
 * @example kiteModeMessage('full', [408065]) // ok('{"a":"mode","v":["full",[408065]]}')
 */
export function kiteModeMessage(mode: KiteTickMode, tokens: readonly number[]): Result<string, string> {
  if (mode !== 'ltp' && mode !== 'quote' && mode !== 'full') return err(`mode must be ltp, quote or full, got ${JSON.stringify(mode)}`);
  const checked = checkedTokens(tokens);
  return checked.ok ? ok(JSON.stringify({ a: 'mode', v: [mode, checked.value] })) : checked;
}
