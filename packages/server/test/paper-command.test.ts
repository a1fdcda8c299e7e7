// `vyuha paper` (issue 16, item 7): the inputs and options of `vyuha backtest`, replayed through the
// paper runtime (feed, candle builder, stepped kernel, OMS, paper venue, PostgreSQL), print and
// write exactly what `vyuha backtest` prints and writes: the --trades file byte for byte, the
// --json output and the table character for character. On stored synthetic NIFTY 50 history
// (--symbol: traded as its near-month future, the rows kept under the CLI user's PAPER run) and on
// a week of 5-minute bars in a CSV (--data: a throwaway database, dropped afterwards, also when
// the run is refused).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isoDate } from '@vyuha/core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backtestCommand } from '../src/commands/backtest';
import { UsageError } from '../src/commands/command';
import { paperCommand } from '../src/commands/paper';
import { useCommandDatabase } from './helpers/db';
import { runCommand, type CommandRun } from './helpers/run-command';
import { storeSyntheticHistory } from './trading-feeds/feed-test-support';

const FROM = isoDate('2025-01-06');
const TO = isoDate('2025-01-10');
const CROSS = ['--entry', 'crossover(ema(close, 5), ema(close, 13))', '--exit', 'crossunder(ema(close, 5), ema(close, 13))'];
const WEEK_CSV = join(__dirname, 'fixtures', 'candles-week-5min.csv');

const folder = mkdtempSync(join(tmpdir(), 'vyuha-paper-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** An algorithm file: the EMA cross with a stop, a target and a trailing stop (percent of the entry). */
function exitsAlgorithm(): string {
  const path = join(folder, 'cross-exits.json');
  writeFileSync(path, JSON.stringify({
    format: 'vyuha.algorithm', version: 1,
    nodes: [
      { id: 'up', type: 'condition', position: { x: 0, y: 0 }, expression: 'crossover(ema(close, 5), ema(close, 13))' },
      { id: 'buy', type: 'buy', position: { x: 1, y: 0 } },
      { id: 'down', type: 'condition', position: { x: 0, y: 1 }, expression: 'crossunder(ema(close, 5), ema(close, 13))' },
      { id: 'exit', type: 'exit', position: { x: 1, y: 1 } },
    ],
    edges: [{ id: 'a', source: 'up', target: 'buy' }, { id: 'b', source: 'down', target: 'exit' }],
    exits: { stopLoss: { unit: 'percent', value: 0.3 }, target: { unit: 'percent', value: 0.5 }, trailingStop: { unit: 'percent', value: 0.25 } },
  }));
  return path;
}

interface Both {
  readonly backtest: CommandRun;
  readonly paper: CommandRun;
  readonly backtestTrades: string;
  readonly paperTrades: string;
}

/** Runs `vyuha backtest` and `vyuha paper` with the same options, each writing its own --trades file. */
async function both(name: string, args: readonly string[]): Promise<Both> {
  const backtestFile = join(folder, `${name}-backtest.csv`);
  const paperFile = join(folder, `${name}-paper.csv`);
  const backtest = await runCommand(backtestCommand, [...args, '--trades', backtestFile]);
  const paper = await runCommand(paperCommand, [...args, '--trades', paperFile]);
  expect(backtest.stderr).toBe('');
  expect(backtest.code).toBe(0);
  expect(paper.stderr).toBe('');
  expect(paper.code).toBe(0);
  return { backtest, paper, backtestTrades: readFileSync(backtestFile, 'utf8'), paperTrades: readFileSync(paperFile, 'utf8') };
}

interface JsonRun {
  readonly fills: Array<{ reason: string; instrument: string }>;
}

describe('vyuha paper', () => {
  const database = useCommandDatabase({ seeded: true });

  beforeAll(async () => {
    await storeSyntheticHistory(database().pool, { from: FROM, to: TO, instruments: ['NIFTY 50', 'INDIA VIX'], seed: 'paper-command' });
  }, 120_000);

  const SYMBOL = ['--symbol', 'NIFTY', '--from', FROM, '--to', TO, '--interval', '5', '--capital', '1000000'];

  it('--symbol: the same trades file, JSON and table as vyuha backtest, the run kept as a PAPER run of the CLI user', async () => {
    const json = await both('symbol', [...SYMBOL, ...CROSS, '--json']);
    expect(json.paperTrades).toBe(json.backtestTrades);
    expect(json.paper.stdout).toBe(json.backtest.stdout);
    const printed = JSON.parse(json.paper.stdout) as JsonRun;
    expect(printed.fills.length).toBeGreaterThan(4);
    expect(new Set(printed.fills.map((fill) => fill.instrument))).toEqual(new Set(['NIFTY25JANFUT']));

    const { rows } = await database().pool.query<{ status: string; name: string; strategy_id: string | null; candles: string; fills: string }>(
      `SELECT r.status, u.name, r.strategy_id, r.candles::text,
              (SELECT count(*) FROM fills f JOIN orders o USING (order_id) WHERE o.run_id = r.run_id)::text AS fills
       FROM strategy_runs r JOIN users u USING (user_id) WHERE r.kind = 'PAPER' ORDER BY r.started_at DESC LIMIT 1`);
    expect(rows[0]).toEqual({
      status: 'COMPLETE', name: 'vyuha paper (CLI)', strategy_id: null, candles: '375', fills: String(printed.fills.length),
    });

    const table = await both('symbol-table', [...SYMBOL, ...CROSS]);
    expect(table.paper.stdout).toBe(table.backtest.stdout);
    expect(table.paper.stdout).toMatch(/^Traded: NIFTY25JANFUT/);
  }, 300_000);

  it('--symbol with the algorithm\'s stop, target and trailing stop, swing: the same trades, target and trailing exits among them', async () => {
    const run = await both('symbol-exits', [...SYMBOL, '--algo', exitsAlgorithm(), '--type', 'swing', '--json']);
    expect(run.paperTrades).toBe(run.backtestTrades);
    expect(run.paper.stdout).toBe(run.backtest.stdout);
    const reasons = new Set((JSON.parse(run.paper.stdout) as JsonRun).fills.map((fill) => fill.reason));
    expect([...reasons]).toEqual(expect.arrayContaining(['entry', 'target', 'trailing']));
  }, 300_000);

  it('--data: the same trades file and JSON as vyuha backtest, through a throwaway database that is dropped', async () => {
    const before = await paperDatabases();
    const csvArgs = ['--data', WEEK_CSV, ...CROSS, '--type', 'swing', '--sizing', 'qty:10', '--charges', 'nse-equity-delivery'];
    const run = await both('csv', [...csvArgs, '--json']);
    expect(run.paperTrades).toBe(run.backtestTrades);
    expect(run.paper.stdout).toBe(run.backtest.stdout);
    expect(run.paperTrades.split('\n').length).toBeGreaterThan(6);
    // Aggregated to 15 minutes, with the algorithm's exits, intraday, all-in.
    const exits = await both('csv-exits', ['--data', WEEK_CSV, '--algo', exitsAlgorithm(), '--interval', '15', '--json']);
    expect(exits.paperTrades).toBe(exits.backtestTrades);
    expect(exits.paper.stdout).toBe(exits.backtest.stdout);
    expect((JSON.parse(exits.paper.stdout) as JsonRun).fills.some((fill) => ['stop', 'target', 'trailing'].includes(fill.reason))).toBe(true);
    expect(await paperDatabases()).toEqual(before);
  }, 300_000);

  it('--data: bars off the runtime\'s grid are refused with the reason, and the throwaway database is dropped all the same', async () => {
    const shifted = join(folder, 'shifted.csv');
    const lines = readFileSync(WEEK_CSV, 'utf8').trim().split('\n');
    // Every bar two minutes late: 09:17, 09:22, ... (5 minutes apart, but not on the 09:15 grid).
    writeFileSync(shifted, `${[lines[0], ...lines.slice(1, 60).map((line) => line.replace(/ (\d\d):(\d\d),/, (_, h: string, m: string) => {
      const minute = Number(h) * 60 + Number(m) + 2;
      return ` ${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')},`;
    }))].join('\n')}\n`);
    const before = await paperDatabases();
    const run = await runCommand(paperCommand, ['--data', shifted, ...CROSS]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^vyuha paper: .*shifted\.csv: the bar of 2025-01-06 at index 0 does not fit 5-minute bars of the NSE session/);
    expect(await paperDatabases()).toEqual(before);
  }, 120_000);

  it('--data at --speed 600, interrupted: paced, stopped with the reason, and the throwaway database dropped', async () => {
    const before = await paperDatabases();
    const started = Date.now();
    // 600x market time: the week's first 5-minute bar takes half a second, so after 2 s a few bars are in and most are not.
    setTimeout(() => process.emit('SIGINT'), 2_000);
    const run = await runCommand(paperCommand, ['--data', WEEK_CSV, ...CROSS, '--speed', '600']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    expect(run.code).toBe(130);
    expect(run.stdout).toBe('');
    const bars = Number(/^vyuha paper: interrupted after (\d+) bars; nothing printed \(run [0-9a-f-]{36}\)\n$/.exec(run.stderr)?.[1]);
    expect(bars).toBeGreaterThan(0);
    expect(bars).toBeLessThan(20);
    expect(await paperDatabases()).toEqual(before);
  }, 120_000);

  it('--symbol --options: a short straddle with stops per leg, the same trades file and JSON as vyuha backtest', async () => {
    const legsFile = join(folder, 'straddle.json');
    const leg = (option: 'CE' | 'PE'): object => ({ option, side: 'sell', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1, stopLoss: { percent: 25 } });
    writeFileSync(legsFile, JSON.stringify({ underlying: 'NIFTY', onBuy: [leg('CE'), leg('PE')] }));
    const json = await both('options', ['--symbol', 'NIFTY', '--from', FROM, '--to', TO, '--interval', '5', '--options', legsFile, '--entry', 'time() >= "09:20"', '--json']);
    expect(json.paperTrades).toBe(json.backtestTrades);
    expect(json.paper.stdout).toBe(json.backtest.stdout);
    const printed = JSON.parse(json.paper.stdout) as JsonRun;
    expect(printed.fills.length).toBeGreaterThanOrEqual(20);
    expect(new Set(printed.fills.map((fill) => fill.instrument.slice(-2)))).toEqual(new Set(['CE', 'PE']));
    expect(new Set(printed.fills.map((fill) => fill.reason))).toContain('stop');
  }, 300_000);

  it('refuses --speed outside 0, 1, 10, 60, 600 and --options without --symbol, naming the option and the reason', async () => {
    const args = ['--data', WEEK_CSV, ...CROSS];
    await expect(paperCommand.run([...args, '--speed', '7'])).rejects.toThrow(UsageError);
    await expect(paperCommand.run([...args, '--speed', '7'])).rejects.toThrow(
      '--speed must be one of 0, 1, 10, 60, 600 (0 = as fast as possible), got "7"');
    await expect(paperCommand.run([...args, '--options', join(folder, 'legs.json')])).rejects.toThrow(UsageError);
    await expect(paperCommand.run([...args, '--options', join(folder, 'legs.json')])).rejects.toThrow(
      '--options needs --symbol: option legs replay the stored history of their index');
  });

  /** The throwaway databases on the test server. */
  async function paperDatabases(): Promise<string[]> {
    const client = new pg.Client({ connectionString: database().url });
    await client.connect();
    try {
      const { rows } = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'vyuha_paper_%' ORDER BY datname`);
      return rows.map((row) => row.datname);
    } finally {
      await client.end();
    }
  }
});
