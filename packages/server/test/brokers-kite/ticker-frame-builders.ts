// Kite ticker frames built byte by byte (docs/BROKER-KITE.md, "The ticker's frames"): big-endian
// values written at their offsets, for the tests of the ticker connection, its fuzz test and the
// feed hub. Copied from test/kite-ticker-frames.test.ts's builders, plus a packet per kind.

/** A packet of `length` bytes with 32-bit big-endian values at the given offsets (and 16-bit and signed ones). */
export function packet(length: number, u32: Record<number, number>, more: { u16?: Record<number, number>; i32?: Record<number, number> } = {}): Uint8Array {
  const { u16 = {}, i32 = {} } = more;
  const bytes = new Uint8Array(length);
  const view = new DataView(bytes.buffer);
  for (const [at, value] of Object.entries(u32)) view.setUint32(Number(at), value);
  for (const [at, value] of Object.entries(u16)) view.setUint16(Number(at), value);
  for (const [at, value] of Object.entries(i32)) view.setInt32(Number(at), value);
  return bytes;
}

/** A frame: the packet count, then each packet's 2-byte length and its bytes. */
export function frame(...packets: Uint8Array[]): Uint8Array {
  const total = 2 + packets.reduce((sum, one) => sum + 2 + one.length, 0);
  const bytes = new Uint8Array(total);
  const view = new DataView(bytes.buffer);
  view.setUint16(0, packets.length);
  let offset = 2;
  for (const one of packets) {
    view.setUint16(offset, one.length);
    bytes.set(one, offset + 2);
    offset += 2 + one.length;
  }
  return bytes;
}

/** The heartbeat: one byte. */
export const HEARTBEAT = new Uint8Array([0]);

/** An LTP packet (8 bytes). */
export function ltpPacket(token: number, price: number): Uint8Array {
  return packet(8, { 0: token, 4: price });
}

/** A tradable instrument's quote packet (44 bytes): open, high, low, close from offset 28. */
export function quotePacket(token: number, fields: { price: number; volume: number; ohlc?: readonly [number, number, number, number] }): Uint8Array {
  const [open, high, low, close] = fields.ohlc ?? [fields.price, fields.price, fields.price, fields.price];
  return packet(44, { 0: token, 4: fields.price, 8: 1, 12: fields.price, 16: fields.volume, 28: open, 32: high, 36: low, 40: close });
}

/** A tradable instrument's full packet (184 bytes): times in unix seconds, no depth. */
export function fullPacket(token: number, fields: { price: number; volume: number; lastTradeTime?: number; exchangeTime?: number }): Uint8Array {
  return packet(184, {
    0: token, 4: fields.price, 8: 1, 12: fields.price, 16: fields.volume, 28: fields.price, 32: fields.price, 36: fields.price, 40: fields.price,
    44: fields.lastTradeTime ?? 0, 60: fields.exchangeTime ?? 0,
  });
}

/** An index packet: 28 bytes (quote) or, with an exchange time, 32 (full); high, low, open, close from offset 8. */
export function indexPacket(token: number, fields: { price: number; exchangeTime?: number }): Uint8Array {
  const u32: Record<number, number> = { 0: token, 4: fields.price, 8: fields.price, 12: fields.price, 16: fields.price, 20: fields.price };
  if (fields.exchangeTime === undefined) return packet(28, u32);
  return packet(32, { ...u32, 28: fields.exchangeTime });
}
