// Kite's daily instruments dump (docs/BROKER-KITE.md, Instruments) read into rows: a CSV with a
// header naming instrument_token, exchange_token, tradingsymbol, name, last_price, expiry,
// strike, tick_size, lot_size, instrument_type, segment, exchange (read by name, so the order
// does not matter); CRLF or LF line ends; fields may be quoted ("" for a quote inside).
//
// The whole dump is refused, naming the line, when a row is broken: it is the map from our
// instruments to what the ticker and the order API speak, and half a map trades the wrong
// contract. Rupee decimals (strike, tick_size) become paise exactly, from their digits.
import { err, isIsoDate, ok } from '@vyuha/core';
import type { IsoDate, Result } from '@vyuha/core';

export const KITE_INSTRUMENT_COLUMNS = [
  'instrument_token', 'exchange_token', 'tradingsymbol', 'name', 'last_price', 'expiry',
  'strike', 'tick_size', 'lot_size', 'instrument_type', 'segment', 'exchange',
] as const;

/**
 * The exchanges whose rows must have whole-paise strikes and tick sizes: the ones the platform
 * trades. The currency segments (CDS, BCD) tick in fractions of a paisa and are read as fractions.
 */
export const WHOLE_PAISE_EXCHANGES: ReadonlySet<string> = new Set(['NSE', 'BSE', 'NFO', 'BFO']);

/** One row of the dump. */
export interface KiteInstrumentRow {
  /** 1-based line of the CSV (the header is line 1). */
  readonly line: number;
  readonly instrumentToken: number;
  readonly exchangeToken: string;
  readonly tradingSymbol: string;
  readonly name: string;
  readonly expiry: IsoDate | null;
  /** Paise; 0 for what is not an option (Kite writes 0). Fractional only on the currency segments. */
  readonly strikePaise: number;
  /** Paise; fractional only on the currency segments. */
  readonly tickSizePaise: number;
  readonly lotSize: number;
  /** EQ, FUT, CE or PE. */
  readonly instrumentType: string;
  /** NSE, BSE, NFO-FUT, NFO-OPT, INDICES ... */
  readonly segment: string;
  readonly exchange: string;
}

/**
 * The rows of a dump, or the first broken line: `line N: reason`.
 * @example parseKiteInstrumentsCsv('instrument_token,...,exchange\r\n256265,1001,NIFTY 50,NIFTY 50,0,,0,0,0,EQ,INDICES,NSE\r\n') // ok([{ line: 2, instrumentToken: 256265, ... }])
 */
export function parseKiteInstrumentsCsv(text: string): Result<KiteInstrumentRow[], string> {
  const records = csvRecords(text.startsWith('\uFEFF') ? text.slice(1) : text);
  if (!records.ok) return records;
  const [header, ...body] = records.value;
  if (header === undefined) return err('line 1: the dump is empty: expected a header row');
  const at = new Map(header.fields.map((name, index) => [name.trim(), index]));
  const missing = KITE_INSTRUMENT_COLUMNS.filter((name) => !at.has(name));
  if (missing.length > 0) return err(`line 1: the header lacks the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
  const rows: KiteInstrumentRow[] = [];
  const tokens = new Map<number, number>();
  const symbols = new Map<string, number>();
  for (const record of body) {
    if (record.fields.length === 1 && record.fields[0] === '') continue;
    if (record.fields.length !== header.fields.length) {
      return err(`line ${record.line}: ${record.fields.length} fields, the header has ${header.fields.length}`);
    }
    const row = parseRow(record, (name) => record.fields[at.get(name) as number] as string);
    if (!row.ok) return err(`line ${record.line}: ${row.error}`);
    const { instrumentToken, exchange, tradingSymbol } = row.value;
    const sameToken = tokens.get(instrumentToken);
    if (sameToken !== undefined) return err(`line ${record.line}: instrument_token ${instrumentToken} is on line ${sameToken} already`);
    const symbolKey = `${exchange}:${tradingSymbol}`;
    const sameSymbol = symbols.get(symbolKey);
    if (sameSymbol !== undefined) return err(`line ${record.line}: ${symbolKey} is on line ${sameSymbol} already`);
    tokens.set(instrumentToken, record.line);
    symbols.set(symbolKey, record.line);
    rows.push(row.value);
  }
  return ok(rows);
}

interface CsvRecord {
  readonly line: number;
  readonly fields: string[];
}

/** Records with the line each starts on; a quoted field may hold commas, quotes ("") and line ends. */
function csvRecords(text: string): Result<CsvRecord[], string> {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let index = 0;
  let quoted = false;
  let quoteLine = 0;
  const endRecord = (): void => {
    fields.push(field);
    records.push({ line: recordLine, fields });
    fields = [];
    field = '';
  };
  while (index < text.length) {
    const char = text[index] as string;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 2;
        continue;
      }
      if (char === '"') quoted = false;
      else field += char;
      if (char === '\n') line += 1;
      index += 1;
      continue;
    }
    if (char === '"' && field === '') {
      quoted = true;
      quoteLine = line;
    } else if (char === '"') {
      return err(`line ${line}: a quote inside an unquoted field`);
    } else if (char === ',') {
      fields.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      endRecord();
      if (char === '\r' && text[index + 1] === '\n') index += 1;
      line += 1;
      recordLine = line;
    } else {
      field += char;
    }
    index += 1;
  }
  if (quoted) return err(`line ${quoteLine}: a quoted field is never closed`);
  if (field !== '' || fields.length > 0) endRecord();
  return ok(records);
}

const WHOLE = /^\d+$/;
const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * Paise of a rupee decimal, from its digits (no binary rounding): '0.05' -> 5, '22050.0' ->
 * 2205000, '0.0025' -> 0.25; undefined when it is no plain decimal.
 */
export function rupeeDecimalToPaise(text: string): number | undefined {
  const match = DECIMAL.exec(text.trim());
  if (match === null) return undefined;
  const whole = match[1] as string;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length <= 2) {
    const paise = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
    return Number.isSafeInteger(paise) ? paise : undefined;
  }
  // Below a paisa (the currency segments): the digits over a power of ten, divided once.
  const value = Number(`${whole}${fraction}`) / 10 ** (fraction.length - 2);
  return Number.isFinite(value) ? value : undefined;
}

function parseRow(record: CsvRecord, field: (name: (typeof KITE_INSTRUMENT_COLUMNS)[number]) => string): Result<KiteInstrumentRow, string> {
  const tokenText = field('instrument_token').trim();
  const instrumentToken = Number(tokenText);
  if (!WHOLE.test(tokenText) || instrumentToken < 1 || instrumentToken > 0xffff_ffff) {
    return err(`instrument_token must be a whole number from 1 to 4294967295, got ${JSON.stringify(tokenText)}`);
  }
  const tradingSymbol = field('tradingsymbol').trim();
  if (tradingSymbol === '') return err('tradingsymbol is empty');
  const exchange = field('exchange').trim();
  if (!/^[A-Z]{2,8}$/.test(exchange)) return err(`exchange must be a code such as NSE or NFO, got ${JSON.stringify(exchange)}`);
  const segment = field('segment').trim();
  if (segment === '') return err('segment is empty');
  const instrumentType = field('instrument_type').trim();
  if (instrumentType === '') return err('instrument_type is empty');
  const expiryText = field('expiry').trim();
  if (expiryText !== '' && !isIsoDate(expiryText)) return err(`expiry must be a date as YYYY-MM-DD or empty, got ${JSON.stringify(expiryText)}`);
  const lotText = field('lot_size').trim();
  if (!WHOLE.test(lotText) || !Number.isSafeInteger(Number(lotText))) return err(`lot_size must be a whole number, got ${JSON.stringify(lotText)}`);
  // Not stored (the day's opening snapshot, not a live price); only checked to be a number.
  const lastPrice = field('last_price').trim();
  if (lastPrice !== '' && !Number.isFinite(Number(lastPrice))) return err(`last_price must be a number of rupees, got ${JSON.stringify(lastPrice)}`);
  const wholePaise = WHOLE_PAISE_EXCHANGES.has(exchange);
  const strikePaise = paiseField('strike', field('strike'), wholePaise);
  if (!strikePaise.ok) return strikePaise;
  const tickSizePaise = paiseField('tick_size', field('tick_size'), wholePaise);
  if (!tickSizePaise.ok) return tickSizePaise;
  if ((instrumentType === 'CE' || instrumentType === 'PE' || instrumentType === 'FUT') && expiryText === '') {
    return err(`a ${instrumentType} row needs an expiry`);
  }
  if ((instrumentType === 'CE' || instrumentType === 'PE') && strikePaise.value <= 0) return err(`a ${instrumentType} row needs a strike above 0`);
  return ok({
    line: record.line, instrumentToken, exchangeToken: field('exchange_token').trim(), tradingSymbol, name: field('name').trim(),
    expiry: expiryText === '' ? null : (expiryText as IsoDate), strikePaise: strikePaise.value, tickSizePaise: tickSizePaise.value,
    lotSize: Number(lotText), instrumentType, segment, exchange,
  });
}

function paiseField(name: string, text: string, wholePaise: boolean): Result<number, string> {
  const trimmed = text.trim();
  const paise = trimmed === '' ? 0 : rupeeDecimalToPaise(trimmed);
  if (paise === undefined) return err(`${name} must be a decimal number of rupees, got ${JSON.stringify(text)}`);
  if (wholePaise && !Number.isInteger(paise)) return err(`${name} ${trimmed} is not a whole number of paise`);
  return ok(paise);
}
