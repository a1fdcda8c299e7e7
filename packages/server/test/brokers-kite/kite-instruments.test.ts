// Kite's instruments dump: a CSV shaped like Kite's (CRLF, an index row, NFO futures and options,
// NSE equities, a quoted name with a comma, currency and commodity rows) parsed, stored against
// the seeded demo world's indices, mapped to our instruments (and our indices' missing contracts
// made), replaced by the next day's dump only, and refused whole, naming the line, when broken.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  downloadKiteInstruments, instrumentTokens, parseKiteInstrumentsCsv, storeKiteInstruments, syncKiteInstruments,
} from '../../src/brokers/kite/kite-instruments';
import type { KiteInstrumentRow } from '../../src/brokers/kite/kite-instruments';
import { rupeeDecimalToPaise } from '../../src/brokers/kite/kite-instruments-csv';
import { freshDatabase } from '../helpers/db';
import type { TestDatabase } from '../helpers/db';

const HEADER = 'instrument_token,exchange_token,tradingsymbol,name,last_price,expiry,strike,tick_size,lot_size,instrument_type,segment,exchange';
// Tokens are exchange_token x 256 + the segment id, as in Kite's dumps.
const LINES = [
  HEADER,
  '256265,1001,NIFTY 50,NIFTY 50,0,,0,0,0,EQ,INDICES,NSE',
  '260105,1016,NIFTY BANK,NIFTY BANK,0,,0,0,0,EQ,INDICES,NSE',
  '257801,1007,NIFTY FIN SERVICE,NIFTY FIN SERVICE,0,,0,0,0,EQ,INDICES,NSE',
  '265,1,SENSEX,SENSEX,0,,0,0,0,EQ,INDICES,BSE',
  '13368834,52222,NIFTY26DECFUT,NIFTY,0,2026-12-29,0,0.05,65,FUT,NFO-FUT,NFO',
  '13369090,52223,NIFTY26DEC26000CE,NIFTY,0,2026-12-29,26000,0.05,65,CE,NFO-OPT,NFO',
  '13369346,52224,NIFTY26DEC26000PE,NIFTY,0,2026-12-29,26000.0,0.05,65,PE,NFO-OPT,NFO',
  '13369602,52225,BANKNIFTY26DECFUT,BANKNIFTY,0,2026-12-29,0,0.2,30,FUT,NFO-FUT,NFO',
  '285000197,1113282,SENSEX26D2485000CE,SENSEX,0,2026-12-24,85000,0.05,20,CE,BFO-OPT,BFO',
  '738561,2885,RELIANCE,"RELIANCE INDUSTRIES, LTD",1412.5,,0,0.1,1,EQ,NSE,NSE',
  '408065,1594,INFY,INFOSYS,1500,,0,0.05,1,EQ,NSE,NSE',
  '13370114,52227,RELIANCE26DECFUT,RELIANCE,0,2026-12-29,0,0.1,500,FUT,NFO-FUT,NFO',
  '1445891,5648,USDINR26DECFUT,USDINR,84.1225,2026-12-29,0,0.0025,1,FUT,CDS-FUT,CDS',
  '109160199,426407,CRUDEOIL26DECFUT,CRUDEOIL,5123,2026-12-18,0,1,100,FUT,MCX-FUT,MCX',
];
const DUMP = `${LINES.join('\r\n')}\r\n`;

let db: TestDatabase;
let ids: { nifty: number; bankNifty: number; finNifty: number; sensex: number; reliance: number; niftyFut: number; niftyCe: number };

async function idOf(symbol: string, exchange = 'NSE'): Promise<number> {
  const { rows } = await db.pool.query<{ instrument_id: number }>('SELECT instrument_id FROM instruments WHERE exchange = $1 AND trading_symbol = $2', [exchange, symbol]);
  if (rows[0] === undefined) throw new Error(`no ${exchange}:${symbol}`);
  return rows[0].instrument_id;
}

async function insert(sql: string, values: unknown[]): Promise<number> {
  const { rows } = await db.pool.query<{ instrument_id: number }>(`${sql} RETURNING instrument_id`, values);
  return (rows[0] as { instrument_id: number }).instrument_id;
}

beforeAll(async () => {
  db = await freshDatabase({ seeded: true });
  const nifty = await idOf('NIFTY');
  // What we have before the dump: RELIANCE, this month's NIFTY future and its 26000 call.
  const reliance = await insert(`INSERT INTO instruments (exchange, segment, kind, trading_symbol, name) VALUES ('NSE', 'EQ', 'equity', 'RELIANCE', 'RELIANCE')`, []);
  const niftyFut = await insert(
    `INSERT INTO instruments (exchange, segment, kind, trading_symbol, name, underlying_instrument_id, expiry, lot_size)
     VALUES ('NFO', 'FUT', 'future', 'NIFTY26DECFUT', 'NIFTY 2026-12-29 FUT', $1, '2026-12-29', 65)`, [nifty]);
  const niftyCe = await insert(
    `INSERT INTO instruments (exchange, segment, kind, trading_symbol, name, underlying_instrument_id, expiry, strike_paise, option_type, lot_size)
     VALUES ('NFO', 'OPT', 'option', 'NIFTY26DEC26000CE', 'NIFTY 2026-12-29 26000 CE', $1, '2026-12-29', 2600000, 'CE', 65)`, [nifty]);
  ids = { nifty, bankNifty: await idOf('BANKNIFTY'), finNifty: await idOf('FINNIFTY'), sensex: await idOf('SENSEX', 'BSE'), reliance, niftyFut, niftyCe };
});

afterAll(async () => {
  await db.close();
});

function parsed(text: string): KiteInstrumentRow[] {
  const result = parseKiteInstrumentsCsv(text);
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

describe('reading the dump', () => {
  it('reads every row: CRLF, a quoted name with a comma, rupee decimals as exact paise', () => {
    const rows = parsed(DUMP);
    expect(rows).toHaveLength(14);
    expect(rows[0]).toEqual({
      line: 2, instrumentToken: 256_265, exchangeToken: '1001', tradingSymbol: 'NIFTY 50', name: 'NIFTY 50', expiry: null, strikePaise: 0,
      tickSizePaise: 0, lotSize: 0, instrumentType: 'EQ', segment: 'INDICES', exchange: 'NSE',
    });
    expect(rows[6]).toMatchObject({ line: 8, tradingSymbol: 'NIFTY26DEC26000PE', expiry: '2026-12-29', strikePaise: 2_600_000, tickSizePaise: 5, lotSize: 65, instrumentType: 'PE' });
    expect(rows[9]).toMatchObject({ tradingSymbol: 'RELIANCE', name: 'RELIANCE INDUSTRIES, LTD', tickSizePaise: 10, segment: 'NSE' });
    // The currency segment ticks in a quarter paisa.
    expect(rows[12]).toMatchObject({ exchange: 'CDS', tickSizePaise: 0.25 });
    // LF line ends and no final line end read the same.
    expect(parsed(LINES.join('\n'))).toEqual(rows);
  });

  it('turns rupee decimals into paise from their digits', () => {
    expect(['0.05', '26000', '26000.0', '1.005', '0.0025', '1172.50', 'x', '-1', '1e3'].map(rupeeDecimalToPaise))
      .toEqual([5, 2_600_000, 2_600_000, 100.5, 0.25, 117_250, undefined, undefined, undefined]);
  });

  it('refuses a broken dump whole, naming the first broken line', () => {
    const broken = (line: number, replacement: string): string => LINES.map((text, index) => (index === line - 1 ? replacement : text)).join('\r\n');
    expect(parseKiteInstrumentsCsv(broken(4, '257801,1007,NIFTY FIN SERVICE,0,,0,0,0,EQ,INDICES,NSE'))).toEqual({ ok: false, error: 'line 4: 11 fields, the header has 12' });
    expect(parseKiteInstrumentsCsv(broken(3, 'x260105,1016,NIFTY BANK,NIFTY BANK,0,,0,0,0,EQ,INDICES,NSE')))
      .toEqual({ ok: false, error: 'line 3: instrument_token must be a whole number from 1 to 4294967295, got "x260105"' });
    expect(parseKiteInstrumentsCsv(broken(6, '13368834,52222,NIFTY26DECFUT,NIFTY,0,2026-13-29,0,0.05,65,FUT,NFO-FUT,NFO')))
      .toEqual({ ok: false, error: 'line 6: expiry must be a date as YYYY-MM-DD or empty, got "2026-13-29"' });
    expect(parseKiteInstrumentsCsv(broken(7, '13369090,52223,NIFTY26DEC26000CE,NIFTY,0,2026-12-29,26000.125,0.05,65,CE,NFO-OPT,NFO')))
      .toEqual({ ok: false, error: 'line 7: strike 26000.125 is not a whole number of paise' });
    expect(parseKiteInstrumentsCsv(broken(12, '256265,2885,RELIANCE2,RELIANCE,0,,0,0.05,1,EQ,NSE,NSE')))
      .toEqual({ ok: false, error: 'line 12: instrument_token 256265 is on line 2 already' });
    expect(parseKiteInstrumentsCsv(broken(11, '738562,2885,"RELIANCE,RELIANCE,0,,0,0.05,1,EQ,NSE,NSE')))
      .toEqual({ ok: false, error: 'line 11: a quoted field is never closed' });
    expect(parseKiteInstrumentsCsv(broken(1, HEADER.replace(',lot_size', ''))))
      .toEqual({ ok: false, error: 'line 1: the header lacks the column lot_size' });
    expect(parseKiteInstrumentsCsv('')).toEqual({ ok: false, error: 'line 1: the dump is empty: expected a header row' });
  });
});

describe('storing the dump', () => {
  it('stores the traded exchanges\' rows, maps them to our instruments and makes our indices\' missing contracts', async () => {
    const stored = await storeKiteInstruments(db.pool, parsed(DUMP), { dumpDate: '2026-11-27' as never });
    // 14 rows less the CDS and MCX ones; new: the NIFTY put, the BANKNIFTY future, the SENSEX call.
    // Mapped: 4 indices, 3 NIFTY contracts, BANKNIFTY future, SENSEX call, RELIANCE; not INFY
    // (we do not have it) nor the RELIANCE future (a stock's contract is never made).
    expect(stored).toEqual({ outcome: 'stored', rows: 12, mapped: 10, created: 3 });
    const { rows: made } = await db.pool.query(
      `SELECT exchange, kind, trading_symbol, name, expiry::text, strike_paise::int, option_type, lot_size, tick_size_paise, underlying_instrument_id
       FROM instruments WHERE instrument_id IN (SELECT instrument_id FROM broker_instruments WHERE instrument_token IN (13369346, 13369602, 285000197))
       ORDER BY trading_symbol`);
    expect(made).toEqual([
      { exchange: 'NFO', kind: 'future', trading_symbol: 'BANKNIFTY26DECFUT', name: 'BANKNIFTY 2026-12-29 FUT', expiry: '2026-12-29', strike_paise: null, option_type: null, lot_size: 30, tick_size_paise: 20, underlying_instrument_id: ids.bankNifty },
      { exchange: 'NFO', kind: 'option', trading_symbol: 'NIFTY26DEC26000PE', name: 'NIFTY 2026-12-29 26000 PE', expiry: '2026-12-29', strike_paise: 2_600_000, option_type: 'PE', lot_size: 65, tick_size_paise: 5, underlying_instrument_id: ids.nifty },
      { exchange: 'BFO', kind: 'option', trading_symbol: 'SENSEX26D2485000CE', name: 'SENSEX 2026-12-24 85000 CE', expiry: '2026-12-24', strike_paise: 8_500_000, option_type: 'CE', lot_size: 20, tick_size_paise: 5, underlying_instrument_id: ids.sensex },
    ]);
    const lookup = await instrumentTokens(db.pool, 'zerodha');
    expect(lookup.dumpDate).toBe('2026-11-27');
    expect([ids.nifty, ids.bankNifty, ids.finNifty, ids.sensex, ids.niftyFut, ids.niftyCe, ids.reliance].map((id) => lookup.tokenOf(id)))
      .toEqual([256_265, 260_105, 257_801, 265, 13_368_834, 13_369_090, 738_561]);
    expect(lookup.instrumentOf(13_368_834)).toBe(ids.niftyFut);
    expect(lookup.instrumentOf(408_065)).toBeUndefined();
    expect(lookup.contractOf(ids.niftyCe)).toEqual({ exchange: 'NFO', tradingSymbol: 'NIFTY26DEC26000CE' });
    expect(lookup.contractOf(ids.nifty)).toEqual({ exchange: 'NSE', tradingSymbol: 'NIFTY 50' });
    expect(lookup.instrumentOfContract({ exchange: 'NSE', tradingSymbol: 'RELIANCE' })).toBe(ids.reliance);
    const { rows: dumps } = await db.pool.query(`SELECT dump_date::text, row_count, mapped_count FROM broker_instrument_dumps WHERE broker = 'zerodha'`);
    expect(dumps).toEqual([{ dump_date: '2026-11-27', row_count: 12, mapped_count: 10 }]);
    const { rows: stock } = await db.pool.query(`SELECT instrument_id, strike_paise, tick_size_paise FROM broker_instruments WHERE instrument_token = 13370114`);
    expect(stock).toEqual([{ instrument_id: null, strike_paise: null, tick_size_paise: 10 }]);
  });

  it('changes nothing for the same day again, refuses an older day, and replaces everything with the next day\'s', async () => {
    const count = async (): Promise<number> => Number((await db.pool.query(`SELECT count(*) FROM broker_instruments WHERE broker = 'zerodha'`)).rows[0].count);
    expect(await storeKiteInstruments(db.pool, parsed(DUMP).slice(0, 2), { dumpDate: '2026-11-27' as never })).toEqual({ outcome: 'already-stored' });
    expect(await storeKiteInstruments(db.pool, parsed(DUMP).slice(0, 2), { dumpDate: '2026-11-26' as never })).toEqual({ outcome: 'older-than-stored', storedDate: '2026-11-27' });
    expect(await count()).toBe(12);
    // The next day: the index, and a January future with a new token.
    const nextDay = [HEADER, LINES[1], '13500002,52734,NIFTY27JANFUT,NIFTY,0,2027-01-26,0,0.05,65,FUT,NFO-FUT,NFO'].join('\n');
    expect(await storeKiteInstruments(db.pool, parsed(nextDay), { dumpDate: '2026-11-28' as never })).toEqual({ outcome: 'stored', rows: 2, mapped: 2, created: 1 });
    expect(await count()).toBe(2);
    const lookup = await instrumentTokens(db.pool);
    expect(lookup.tokenOf(ids.niftyFut)).toBeUndefined();
    expect(lookup.tokenOf(ids.nifty)).toBe(256_265);
    expect(lookup.contractOf(lookup.instrumentOf(13_500_002) as number)).toEqual({ exchange: 'NFO', tradingSymbol: 'NIFTY27JANFUT' });
    const { rows } = await db.pool.query(`SELECT dump_date::text FROM broker_instrument_dumps ORDER BY dump_date`);
    expect(rows.map((row) => row.dump_date)).toEqual(['2026-11-27', '2026-11-28']);
  });
});

describe('downloading the dump', () => {
  let server: Server;
  let baseUrl: string;
  let body: string;
  let status = 200;
  const seen: { authorization: string | undefined; version: string | undefined }[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push({ authorization: request.headers.authorization, version: request.headers['x-kite-version'] as string });
      if (request.url !== '/instruments') {
        response.writeHead(404).end();
        return;
      }
      if (status !== 200) {
        response.writeHead(status, { 'content-type': 'application/json' })
          .end(JSON.stringify({ status: 'error', message: 'Incorrect `api_key` or `access_token`.', error_type: 'TokenException' }));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/csv', 'content-encoding': 'gzip' }).end(gzipSync(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sends version 3 and the token header, and reads the gzip-encoded CSV', async () => {
    body = DUMP;
    status = 200;
    expect(await downloadKiteInstruments({ baseUrl, apiKey: 'key1', accessToken: 'tok1' })).toEqual({ ok: true, value: DUMP });
    expect(seen.at(-1)).toEqual({ authorization: 'token key1:tok1', version: '3' });
  });

  it('says a refused token is a token failure, without the token', async () => {
    status = 403;
    const result = await downloadKiteInstruments({ baseUrl, apiKey: 'key1', accessToken: 'tok-secret-9' });
    expect(result).toEqual({ ok: false, error: { kind: 'token', reason: 'Kite answered the instruments request with HTTP 403: Incorrect `api_key` or `access_token`.' } });
    expect(JSON.stringify(result)).not.toContain('tok-secret-9');
  });

  it('refuses a malformed dump, naming the line, with nothing written', async () => {
    status = 200;
    const before = await db.pool.query(`SELECT instrument_token::text, instrument_id FROM broker_instruments ORDER BY 1`);
    const instrumentsBefore = (await db.pool.query('SELECT count(*) FROM instruments')).rows[0].count;
    body = [...LINES.slice(0, 5), '13368834,52222,NIFTY26DECFUT,NIFTY,0,2026-12-29,0,0.05,sixty-five,FUT,NFO-FUT,NFO', ...LINES.slice(6)].join('\r\n');
    expect(await syncKiteInstruments({ pool: db.pool, baseUrl, apiKey: 'key1', accessToken: 'tok1', today: '2026-11-29' as never }))
      .toEqual({ outcome: 'malformed', reason: 'Kite\'s instruments dump is broken: line 6: lot_size must be a whole number, got "sixty-five"' });
    expect((await db.pool.query(`SELECT instrument_token::text, instrument_id FROM broker_instruments ORDER BY 1`)).rows).toEqual(before.rows);
    expect((await db.pool.query('SELECT count(*) FROM instruments')).rows[0].count).toBe(instrumentsBefore);
    expect((await db.pool.query(`SELECT max(dump_date)::text AS d FROM broker_instrument_dumps`)).rows[0].d).toBe('2026-11-28');
  });

  it('downloads and stores a new day\'s dump, and does not download again that day', async () => {
    body = DUMP;
    const requests = seen.length;
    expect(await syncKiteInstruments({ pool: db.pool, baseUrl, apiKey: 'key1', accessToken: 'tok1', today: '2026-11-30' as never }))
      .toEqual({ outcome: 'stored', rows: 12, mapped: 10, created: 0 });
    expect(await syncKiteInstruments({ pool: db.pool, baseUrl, apiKey: 'key1', accessToken: 'tok1', today: '2026-11-30' as never }))
      .toEqual({ outcome: 'up-to-date', dumpDate: '2026-11-30' });
    expect(seen.length).toBe(requests + 1);
  });
});
