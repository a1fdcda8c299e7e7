import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { istEpochMs, isoDate, type IsoDate } from '@vyuha/core';
import { buildTradingSymbol, generateSyntheticMarket, sessionOf, tradingDaysBetween, type SyntheticSeries } from '@vyuha/market';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backtestCommand } from '../src/commands/backtest';
import { writeCandles } from '../src/market-data/candle-store';
import { useCommandDatabase } from './helpers/db';
import { runCommand, type CommandRun } from './helpers/run-command';

// A week of synthetic NIFTY 50 and INDIA VIX minutes in the store (the demo generator, seeded),
// then a 09:20 short ATM straddle with 25% stops per leg, squared off at 15:15. One contract of
// the first day also has imported candles, shaped so its stop is hit at 10:00.

const FROM = isoDate('2024-06-03');
const TO = isoDate('2024-06-07');
const folder = mkdtempSync(join(tmpdir(), 'vyuha-options-cli-'));
const legsFile = join(folder, 'straddle.json');
const leg = (option: 'CE' | 'PE'): object => ({ option, side: 'sell', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1, stopLoss: { percent: 25 } });
writeFileSync(legsFile, JSON.stringify({ underlying: 'NIFTY', onBuy: [leg('CE'), leg('PE')] }, null, 2));

const run = (args: readonly string[]): Promise<CommandRun> => runCommand(backtestCommand, args);

const straddle = ['--symbol', 'NIFTY', '--options', legsFile, '--entry', 'time() >= "09:20"', '--from', FROM, '--to', TO];

describe('vyuha backtest --symbol --options (stored history)', () => {
  const database = useCommandDatabase({ seeded: true });
  let nifty: SyntheticSeries;
  let contract: string;

  beforeAll(async () => {
    const { pool } = database();
    const sessions = tradingDaysBetween('NSE', FROM, TO).map((date) => {
      const session = sessionOf('NSE', date)!;
      return { date, openMinute: session.open, closeMinute: session.close };
    });
    const [month] = [...generateSyntheticMarket({ sessions, seed: 'options-cli-test', instruments: ['NIFTY 50', 'INDIA VIX'], startLevels: { 'NIFTY 50': 22_500, 'INDIA VIX': 14 } })];
    const ids = new Map((await pool.query<{ name: string; instrument_id: number }>(`SELECT name, instrument_id FROM instruments WHERE kind = 'index'`)).rows.map((row) => [row.name, row.instrument_id]));
    for (const series of month!.series) {
      const candles = { length: series.time.length, time: series.time, open: series.open, high: series.high, low: series.low, close: series.close, volume: series.volume };
      await writeCandles(pool, { instrumentId: ids.get(series.instrument)!, candles, source: 'synthetic' });
      if (series.instrument === 'NIFTY 50') nifty = series;
    }
    // The CE the straddle sells on day one: ATM (50-point steps) at the 09:20 bar's close.
    const signalBar = nifty.time.indexOf(istEpochMs(FROM, '09:20'));
    const strike = Math.round((nifty.close[signalBar] as number) / 100 / 50) * 50;
    const expiry = '2024-06-06' as IsoDate;
    contract = buildTradingSymbol({ kind: 'option', underlying: 'NIFTY', expiry, strike, optionType: 'CE' });
    const { rows } = await pool.query<{ instrument_id: number }>(
      `INSERT INTO instruments (exchange, segment, kind, trading_symbol, name, underlying_instrument_id, expiry, strike_paise, option_type, lot_size)
       VALUES ('NFO', 'OPT', 'option', $1, $1, $2, $3, $4, 'CE', 25) RETURNING instrument_id`,
      [contract, ids.get('NIFTY 50'), expiry, strike * 100]);
    // Every minute of the week at Rs 100, except day one from 10:00: the 10:00 bar trades up to
    // Rs 130 (the 25% stop is Rs 125) and the rest of that day stays at Rs 120.
    const times: number[] = [];
    const bars: Array<[number, number, number, number]> = [];
    for (const session of sessions) {
      for (let minute = 0; minute < 375; minute += 1) {
        times.push(istEpochMs(session.date, '09:15') + minute * 60_000);
        const dayOne = session.date === FROM;
        bars.push(!dayOne || minute < 45 ? [10_000, 10_000, 10_000, 10_000] : minute === 45 ? [10_000, 13_000, 10_000, 12_000] : [12_000, 12_000, 12_000, 12_000]);
      }
    }
    const column = (pick: number): Int32Array => Int32Array.from(bars.map((bar) => bar[pick] as number));
    await writeCandles(pool, {
      instrumentId: rows[0]!.instrument_id, source: 'import',
      candles: { length: times.length, time: Float64Array.from(times), open: column(0), high: column(1), low: column(2), close: column(3), volume: new Float64Array(times.length) },
    });
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('sells the straddle at 09:20 each day, exits by stop or square-off, and its P&L is the sum of its trades', async () => {
    const tradesFile = join(folder, 'trades.csv');
    const { code, stdout, stderr } = await run([...straddle, '--trades', tradesFile, '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as { summary: { netPnl: number; trades: number; charges: number }; trades: Array<{ net: number }>; fills: unknown[] };
    const rows = readFileSync(tradesFile, 'utf8').trim().split('\n');
    expect(rows[0]).toBe('time,instrument,side,quantity,price,charges,reason');
    const fills = rows.slice(1).map((line) => {
      const [time, instrument, side, quantity, price, charges, reason] = line.split(',') as [string, string, string, string, string, string, string];
      return { time, instrument, side, quantity: Number(quantity), price, charges: Number(charges), reason };
    });
    const entries = fills.filter((fill) => fill.reason === 'entry');
    // Five sessions, two legs each. time() is a bar's CLOSING time, so `time() >= "09:20"` first
    // holds at the close of the 09:19 bar and the orders fill at the next open: 09:20:00.
    expect(entries).toHaveLength(10);
    for (const entry of entries) {
      expect(entry.time.slice(11)).toBe('09:20:00');
      expect(entry.side).toBe('SELL');
      expect(entry.instrument).toMatch(/^NIFTY24[0-9A-Z]+(CE|PE)$/);
    }
    const exits = fills.filter((fill) => fill.reason !== 'entry');
    expect(exits).toHaveLength(10);
    for (const exit of exits) {
      expect(['stop', 'square-off']).toContain(exit.reason);
      expect(exit.side).toBe('BUY');
      if (exit.reason === 'square-off') expect(exit.time.slice(11)).toBe('15:15:00');
    }
    // The imported contract is priced from its candles: entry at 100 (09:20 open), stop at 125 in the 10:00 bar.
    // That bar (100, 130, 100, 120) closed up, so its tick path is 100 -> 100 -> 130 -> 120: the stop
    // is crossed on tick 2, stamped 30 s into the minute (ARCHITECTURE.md, "Matching core").
    expect(fills.filter((fill) => fill.instrument === contract && fill.time.startsWith(FROM)).map((fill) => [fill.time, fill.side, fill.price, fill.reason])).toEqual([
      [`${FROM} 09:20:00`, 'SELL', '100.00', 'entry'], [`${FROM} 10:00:30`, 'BUY', '125.00', 'stop'],
    ]);
    expect(result.summary.trades).toBe(result.trades.length);
    expect(result.summary.netPnl).toBe(result.trades.reduce((sum, trade) => sum + trade.net, 0));
    // Charges by default are the NSE options schedule: every fill pays something.
    expect(fills.every((fill) => fill.charges > 0)).toBe(true);
  });

  it('prints the metrics table without --json', async () => {
    const { code, stdout } = await run(straddle);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Candles processed\s+1875$/m);
    expect(stdout).toMatch(/^Trades\s+10$/m);
  });

  it('refuses a config file with a syntax error as FILE:line:column, and a bad field by its path, running nothing', async () => {
    const broken = join(folder, 'broken.json');
    writeFileSync(broken, '{\n  "underlying": "NIFTY",\n  "onBuy": [}\n');
    const syntax = await run(['--symbol', 'NIFTY', '--options', broken, '--entry', 'close > 0', '--from', FROM, '--to', TO]);
    expect(syntax.code).toBe(1);
    expect(syntax.stderr).toMatch(new RegExp(`^vyuha backtest: ${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: 3:13: `));
    const badField = join(folder, 'bad-field.json');
    writeFileSync(badField, JSON.stringify({ underlying: 'NIFTY', onBuy: [leg('CE'), { ...leg('PE'), strike: { by: 'atm-offset', steps: 99 } }] }));
    const field = await run(['--symbol', 'NIFTY', '--options', badField, '--entry', 'close > 0', '--from', FROM, '--to', TO]);
    expect(field.code).toBe(1);
    expect(field.stderr).toContain('onBuy[1].strike.steps: must be a whole number between -20 and 20, got 99');
    expect(field.stdout).toBe('');
  });

  it('needs --from and --to, and the config underlying to be --symbol', async () => {
    await expect(run(['--symbol', 'NIFTY', '--options', legsFile, '--entry', 'close > 0'])).rejects.toThrow(/needs --from and --to/);
    const other = await run(['--symbol', 'BANKNIFTY', '--options', legsFile, '--entry', 'close > 0', '--from', FROM, '--to', TO]);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('is not the underlying');
  });
});
