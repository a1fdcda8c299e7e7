// The stand-in's instrument master: what addInstrument accepts, the segment id and price divisor the
// ticker needs (the token's low byte), the CSV dump of GET /instruments, and a small demo universe
// (NIFTY and BANKNIFTY indices, current futures, a few options) for main.ts.
// The dump's columns, in Kite's order: instrument_token, exchange_token, tradingsymbol, name,
// last_price, expiry, strike, tick_size, lot_size, instrument_type, segment, exchange. Tokens follow
// the layout seen in Kite's rows: exchange_token x 256 + the segment id (docs/BROKER-KITE.md, ticker).
import { rupees } from './kite-format';

export type InstrumentType = 'EQ' | 'FUT' | 'CE' | 'PE';

export interface StandInInstrument {
  readonly instrumentToken: number;
  readonly exchangeToken: number;
  readonly tradingSymbol: string;
  readonly name: string;
  /** NSE, BSE, NFO, BFO, CDS, BCD, MCX. */
  readonly exchange: string;
  /** NSE, NFO-FUT, NFO-OPT, INDICES, ... */
  readonly segment: string;
  readonly instrumentType: InstrumentType;
  /** YYYY-MM-DD, for derivatives. */
  readonly expiry?: string;
  readonly strikePaise?: number;
  readonly tickSizePaise: number;
  readonly lotSize: number;
  /** Largest quantity one order may carry; autoslice splits by it. */
  readonly freezeQuantity?: number;
  /** Margin per rupee of exposure for futures and short options (default 0.15); see margin.ts. */
  readonly marginFraction?: number;
  /** Previous day's close, the ticker's `close` (default: the first price ticked). */
  readonly closePaise?: number;
}

/** Segment ids of the ticker (the token's low byte). */
export const SEGMENT_INDICES = 9;

/** The ticker's segment id of an instrument token. @example segmentOf(256_265) // 9 */
export function segmentOf(instrumentToken: number): number {
  return instrumentToken & 0xff;
}

/** What a ticker price is divided by on this segment: 1e7 on CDS (3), 1e4 on BCD (6), 100 elsewhere. */
export function priceDivisor(segment: number): number {
  if (segment === 3) return 10_000_000;
  if (segment === 6) return 10_000;
  return 100;
}

/** Refuses an instrument the stand-in could not serve consistently; the message names the field. */
export function checkInstrument(instrument: StandInInstrument): void {
  const positive: Array<[string, number]> = [['instrumentToken', instrument.instrumentToken], ['exchangeToken', instrument.exchangeToken]];
  // An index is not traded: the dump lists it with a tick size and lot of 0.
  const tradable: Array<[string, number]> = [['tickSizePaise', instrument.tickSizePaise], ['lotSize', instrument.lotSize]];
  if (instrument.segment !== 'INDICES') positive.push(...tradable);
  for (const [field, value] of positive) {
    if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`addInstrument: ${field} must be a positive whole number, got ${value}.`);
  }
  for (const [field, value] of tradable) {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`addInstrument: ${field} must be a whole number, got ${value}.`);
  }
  if (instrument.instrumentToken > 0xffff_ffff) throw new Error('addInstrument: instrumentToken must fit in 32 bits.');
  if (instrument.freezeQuantity !== undefined && (!Number.isSafeInteger(instrument.freezeQuantity) || instrument.freezeQuantity <= 0)) {
    throw new Error(`addInstrument: freezeQuantity must be a positive whole number, got ${instrument.freezeQuantity}.`);
  }
  if (instrument.tradingSymbol === '' || instrument.exchange === '') throw new Error('addInstrument: tradingSymbol and exchange are required.');
}

function csvField(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * The instruments dump, one line per instrument and a trailing newline (which the JS client turns
 * into one mostly empty extra row, as it does with Kite's own dump).
 */
export function instrumentsCsv(instruments: readonly StandInInstrument[], lastPaise: (token: number) => number | undefined): string {
  const header = 'instrument_token,exchange_token,tradingsymbol,name,last_price,expiry,strike,tick_size,lot_size,instrument_type,segment,exchange';
  const rows = instruments.map((one) => [
    one.instrumentToken, one.exchangeToken, one.tradingSymbol, one.name, rupees(lastPaise(one.instrumentToken) ?? 0),
    one.expiry ?? '', rupees(one.strikePaise ?? 0), rupees(one.tickSizePaise), one.lotSize, one.instrumentType, one.segment, one.exchange,
  ].map(csvField).join(','));
  return `${[header, ...rows].join('\n')}\n`;
}

/** A token the way Kite's rows show it: exchange_token x 256 + segment id. */
function tokenOf(exchangeToken: number, segment: number): number {
  return exchangeToken * 256 + segment;
}

/**
 * The last Tuesday of the month of `isoDate` if on or after it, else of the next month: NSE's monthly
 * expiry from Sep-2025 (docs/MARKET-RULES.md).
 */
export function monthlyExpiry(isoDate: string): string {
  const [year = 2026, month = 1] = isoDate.split('-').map(Number);
  for (let offset = 0; offset < 2; offset += 1) {
    const last = new Date(Date.UTC(year, month - 1 + offset + 1, 0));
    while (last.getUTCDay() !== 2) last.setUTCDate(last.getUTCDate() - 1);
    const text = last.toISOString().slice(0, 10);
    if (text >= isoDate) return text;
  }
  throw new Error('unreachable: next month always has a last Tuesday');
}

export interface DemoUniverse {
  readonly instruments: readonly StandInInstrument[];
  /** Where the random walk starts, by token. */
  readonly startPaise: ReadonlyMap<number, number>;
}

/** NIFTY 50 and NIFTY BANK (indices), their current-month futures, and four options around the money. */
export function demoUniverse(todayIso: string): DemoUniverse {
  const expiry = monthlyExpiry(todayIso);
  const yymmm = `${expiry.slice(2, 4)}${new Date(`${expiry}T00:00:00Z`).toLocaleString('en', { month: 'short', timeZone: 'UTC' }).toUpperCase()}`;
  const instruments: StandInInstrument[] = [];
  const startPaise = new Map<number, number>();
  const underlyings = [
    { name: 'NIFTY', index: 'NIFTY 50', indexToken: 256_265, spot: 2_450_000, lot: 75, freeze: 1_800, step: 5_000, base: 40_000 },
    { name: 'BANKNIFTY', index: 'NIFTY BANK', indexToken: 260_105, spot: 5_200_000, lot: 35, freeze: 900, step: 10_000, base: 41_000 },
  ];
  for (const one of underlyings) {
    instruments.push({
      instrumentToken: one.indexToken, exchangeToken: one.indexToken >> 8, tradingSymbol: one.index, name: one.index,
      exchange: 'NSE', segment: 'INDICES', instrumentType: 'EQ', tickSizePaise: 5, lotSize: 1,
    });
    startPaise.set(one.indexToken, one.spot);
    const futureToken = tokenOf(one.base, 2);
    instruments.push({
      instrumentToken: futureToken, exchangeToken: one.base, tradingSymbol: `${one.name}${yymmm}FUT`, name: one.name, exchange: 'NFO',
      segment: 'NFO-FUT', instrumentType: 'FUT', expiry, tickSizePaise: 10, lotSize: one.lot, freezeQuantity: one.freeze,
    });
    startPaise.set(futureToken, one.spot + 4_000);
    const atm = Math.round(one.spot / one.step) * one.step;
    let exchangeToken = one.base + 1;
    for (const strike of [atm, atm + one.step]) {
      for (const type of ['CE', 'PE'] as const) {
        const token = tokenOf(exchangeToken, 2);
        instruments.push({
          instrumentToken: token, exchangeToken, tradingSymbol: `${one.name}${yymmm}${strike / 100}${type}`, name: one.name, exchange: 'NFO',
          segment: 'NFO-OPT', instrumentType: type, expiry, strikePaise: strike, tickSizePaise: 5, lotSize: one.lot, freezeQuantity: one.freeze,
        });
        startPaise.set(token, 15_000);
        exchangeToken += 1;
      }
    }
  }
  return { instruments, startPaise };
}
