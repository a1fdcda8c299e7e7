// Kite's ticker frames, built here byte by byte from the layouts in docs/BROKER-KITE.md ("The ticker's frames")
// (offsets written out, big-endian), and read back by kite-ticker-frames.ts.
import { describe, expect, it } from 'vitest';
import { kiteModeMessage, kiteSubscribeMessage, parseKiteBinaryFrame, parseKiteTextFrame } from '../src/brokers/kite/kite-ticker-frames';
import type { KiteTick } from '../src/brokers/kite/kite-ticker-frames';
import { frame, packet } from './brokers-kite/ticker-frame-builders';

function ticksOf(bytes: Uint8Array): readonly KiteTick[] {
  const parsed = parseKiteBinaryFrame(bytes);
  if (!parsed.ok) throw new Error(parsed.error);
  if (parsed.value.kind !== 'ticks') throw new Error('not ticks');
  return parsed.value.ticks;
}

// RELIANCE on NSE (segment 1): token 738561 = 0x000B4501.
const RELIANCE = 738_561;
// A NIFTY future on NFO (segment 2), a USDINR future on CDS (segment 3), NIFTY 50 (segment 9).
const NIFTY_FUT = 0x0000_4202;
const USDINR_FUT = 0x0001_2303;
const NIFTY_50 = 256_265;

describe('Kite ticker binary frames', () => {
  it('reads a 1-byte frame as a heartbeat', () => {
    expect(parseKiteBinaryFrame(new Uint8Array([0x00]))).toEqual({ ok: true, value: { kind: 'heartbeat' } });
  });

  it('reads the header of the official client\'s fixture: one packet of 184 bytes for token 884737', () => {
    const full = packet(184, { 0: 0x000d_8001 });
    const bytes = frame(full);
    expect([...bytes.slice(0, 8)]).toEqual([0x00, 0x01, 0x00, 0xb8, 0x00, 0x0d, 0x80, 0x01]);
    expect(ticksOf(bytes)[0]).toMatchObject({ instrumentToken: 884_737, segment: 1, tradable: true, mode: 'full' });
  });

  it('reads every field of a tradable full packet, prices in paise, depth with its 2 bytes of padding', () => {
    const u32: Record<number, number> = {
      0: RELIANCE, 4: 141_025, 8: 25, 12: 140_877, 16: 6_200_000, 20: 810_000, 24: 920_000,
      28: 139_500, 32: 141_990, 36: 139_210, 40: 139_890, 44: 1_764_229_800, 48: 0, 52: 0, 56: 0, 60: 1_764_229_801,
    };
    const u16: Record<number, number> = {};
    for (let row = 0; row < 5; row += 1) {
      u32[64 + row * 12] = 100 + row;
      u32[64 + row * 12 + 4] = 141_020 - row * 5;
      u16[64 + row * 12 + 8] = 3 + row;
      u16[64 + row * 12 + 10] = 0xffff;
      u32[124 + row * 12] = 200 + row;
      u32[124 + row * 12 + 4] = 141_030 + row * 5;
      u16[124 + row * 12 + 8] = 7 + row;
    }
    const [tick] = ticksOf(frame(packet(184, u32, { u16 })));
    expect(tick).toEqual({
      instrumentToken: RELIANCE, segment: 1, tradable: true, mode: 'full', lastPricePaise: 141_025,
      lastTradedQuantity: 25, averageTradedPricePaise: 140_877, volumeTraded: 6_200_000, totalBuyQuantity: 810_000, totalSellQuantity: 920_000,
      ohlc: { openPaise: 139_500, highPaise: 141_990, lowPaise: 139_210, closePaise: 139_890 },
      lastTradeTimeMs: 1_764_229_800_000, exchangeTimeMs: 1_764_229_801_000, oi: 0, oiDayHigh: 0, oiDayLow: 0,
      depth: {
        buy: [0, 1, 2, 3, 4].map((row) => ({ quantity: 100 + row, pricePaise: 141_020 - row * 5, orders: 3 + row })),
        sell: [0, 1, 2, 3, 4].map((row) => ({ quantity: 200 + row, pricePaise: 141_030 + row * 5, orders: 7 + row })),
      },
    });
  });

  it('reads a quote packet of a future, an LTP packet and an index packet in one frame, in order', () => {
    const quote = packet(44, { 0: NIFTY_FUT, 4: 2_612_340, 8: 75, 12: 2_610_000, 16: 1_234_500, 20: 1, 24: 2, 28: 2_600_000, 32: 2_615_000, 36: 2_598_000, 40: 2_605_500 });
    const ltp = packet(8, { 0: RELIANCE, 4: 141_030 });
    // Index: high, low, open, close, then a signed change.
    const index = packet(32, { 0: NIFTY_50, 4: 2_590_010, 8: 2_601_000, 12: 2_585_000, 16: 2_598_500, 20: 2_600_000, 28: 1_764_229_802 }, { i32: { 24: -9_990 } });
    const ticks = ticksOf(frame(quote, ltp, index));
    expect(ticks.map((tick) => [tick.instrumentToken, tick.mode, tick.segment, tick.tradable])).toEqual([
      [NIFTY_FUT, 'quote', 2, true], [RELIANCE, 'ltp', 1, true], [NIFTY_50, 'full', 9, false],
    ]);
    expect(ticks[0]).toMatchObject({ lastPricePaise: 2_612_340, volumeTraded: 1_234_500, ohlc: { openPaise: 2_600_000, highPaise: 2_615_000, lowPaise: 2_598_000, closePaise: 2_605_500 } });
    expect(ticks[0]!.depth).toBeUndefined();
    expect(ticks[1]).toEqual({ instrumentToken: RELIANCE, segment: 1, tradable: true, mode: 'ltp', lastPricePaise: 141_030 });
    expect(ticks[2]).toEqual({
      instrumentToken: NIFTY_50, segment: 9, tradable: false, mode: 'full', lastPricePaise: 2_590_010,
      ohlc: { highPaise: 2_601_000, lowPaise: 2_585_000, openPaise: 2_598_500, closePaise: 2_600_000 }, indexChange: -9_990, exchangeTimeMs: 1_764_229_802_000,
    });
    // An index in quote mode: 28 bytes, no timestamp.
    const [quoteIndex] = ticksOf(frame(packet(28, { 0: NIFTY_50, 4: 2_590_010 })));
    expect(quoteIndex).toMatchObject({ mode: 'quote', tradable: false });
    expect(quoteIndex!.exchangeTimeMs).toBeUndefined();
  });

  it('divides currency prices by their segment\'s divisor (CDS: 10,000,000 to the rupee)', () => {
    const [tick] = ticksOf(frame(packet(8, { 0: USDINR_FUT, 4: 841_234_500 })));
    expect(tick!.segment).toBe(3);
    // Rs 84.12345 = 8,412.345 paise.
    expect(tick!.lastPricePaise).toBe(8_412.345);
  });

  it('leaves out a packet of an unknown length, naming it, and reads the others', () => {
    const parsed = parseKiteBinaryFrame(frame(packet(12, { 0: RELIANCE }), packet(8, { 0: RELIANCE, 4: 141_000 })));
    expect(parsed).toEqual({ ok: true, value: { kind: 'ticks', ticks: [{ instrumentToken: RELIANCE, segment: 1, tradable: true, mode: 'ltp', lastPricePaise: 141_000 }], unknown: [{ index: 0, length: 12 }] } });
  });

  it('refuses a frame whose counts run past its bytes, saying where', () => {
    const whole = frame(packet(8, { 0: RELIANCE, 4: 141_000 }));
    expect(parseKiteBinaryFrame(whole.slice(0, whole.length - 3))).toEqual({ ok: false, error: 'packet 1 of 1: 8 bytes from byte 4 run past the frame\'s 9 bytes' });
    const claimsTwo = whole.slice();
    new DataView(claimsTwo.buffer).setUint16(0, 2);
    expect(parseKiteBinaryFrame(claimsTwo)).toEqual({ ok: false, error: 'packet 2 of 2: its length at byte 12 is past the frame\'s 12 bytes' });
    expect(parseKiteBinaryFrame(new Uint8Array(0)).ok).toBe(false);
  });

  it('reads a frame that is a view into a larger buffer (as a socket hands it over)', () => {
    const inner = frame(packet(8, { 0: RELIANCE, 4: 141_005 }));
    const buffer = new Uint8Array(inner.length + 7);
    buffer.set(inner, 5);
    expect(ticksOf(buffer.subarray(5, 5 + inner.length))[0]).toMatchObject({ instrumentToken: RELIANCE, lastPricePaise: 141_005 });
  });
});

describe('Kite ticker text frames', () => {
  it('reads order updates, errors and broker messages, and refuses anything else', () => {
    expect(parseKiteTextFrame('{"type":"order","data":{"order_id":"251127000123456","status":"COMPLETE","tag":"v1abc"}}'))
      .toEqual({ ok: true, value: { kind: 'order', order: { order_id: '251127000123456', status: 'COMPLETE', tag: 'v1abc' } } });
    expect(parseKiteTextFrame('{"type":"error","data":"Invalid access token"}')).toEqual({ ok: true, value: { kind: 'error', message: 'Invalid access token' } });
    expect(parseKiteTextFrame('{"type":"message","data":"Market closes early today"}')).toEqual({ ok: true, value: { kind: 'message', data: 'Market closes early today' } });
    expect(parseKiteTextFrame('{"type":"order","data":"x"}').ok).toBe(false);
    expect(parseKiteTextFrame('{"type":"tick"}')).toEqual({ ok: false, error: 'unknown text frame type "tick": expected "order", "error" or "message"' });
    expect(parseKiteTextFrame('not json').ok).toBe(false);
  });
});

describe('Kite ticker requests', () => {
  it('sends tokens as JSON numbers, and refuses what Kite would ignore', () => {
    expect(kiteSubscribeMessage('subscribe', [408_065, 884_737])).toEqual({ ok: true, value: '{"a":"subscribe","v":[408065,884737]}' });
    expect(kiteSubscribeMessage('unsubscribe', [408_065])).toEqual({ ok: true, value: '{"a":"unsubscribe","v":[408065]}' });
    expect(kiteModeMessage('full', [408_065])).toEqual({ ok: true, value: '{"a":"mode","v":["full",[408065]]}' });
    expect(kiteSubscribeMessage('subscribe', ['408065' as unknown as number]).ok).toBe(false);
    expect(kiteSubscribeMessage('subscribe', []).ok).toBe(false);
    expect(kiteModeMessage('depth' as 'full', [408_065])).toEqual({ ok: false, error: 'mode must be ltp, quote or full, got "depth"' });
  });
});
