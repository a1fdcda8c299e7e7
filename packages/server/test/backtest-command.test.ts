import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { formatRupees, paiseToRupeesText } from '@vyuha/core';
import { backtestCommand } from '../src/commands/backtest';
import { UsageError } from '../src/commands/command';
import { runCommand } from './helpers/run-command';

const folder = mkdtempSync(join(tmpdir(), 'vyuha-backtest-'));

// Six 1-minute bars. Entry `close > open`, exit `close < open`, long-only, 10 units, next-open fills:
//  bar 09:15 100 -> 101 (up)    BUY signal  -> bought at 09:16's open, 101.00
//  bar 09:16 101 -> 102 (up)    already long
//  bar 09:17 102 -> 101.5 (down) EXIT signal -> sold at 09:18's open, 101.50
//  bar 09:18 101.5 -> 103 (up)  BUY signal  -> bought at 09:19's open, 103.00
//  bar 09:19 103 -> 102 (down)  EXIT signal -> sold at 09:20's open, 102.50
//  bar 09:20 102.5 -> 102.5     nothing
// P&L: 10 x (101.50 - 101) + 10 x (102.50 - 103) = 5 - 5 = Rs 0 gross, no charges.
const GOOD = `datetime,open,high,low,close,volume
2024-10-14 09:15,100,101.2,99.8,101,10
2024-10-14 09:16,101,102.3,100.9,102,10
2024-10-14 09:17,102,102.1,101.2,101.5,10
2024-10-14 09:18,101.5,103.1,101.4,103,10
2024-10-14 09:19,103,103.2,101.9,102,10
2024-10-14 09:20,102.5,102.8,102.4,102.5,10
`;

function file(name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

async function run(args: readonly string[]): Promise<{ code: number; output: string; errors: string }> {
  const { code, stdout, stderr } = await runCommand(backtestCommand, args);
  return { code, output: stdout, errors: stderr };
}

const EXPRESSIONS = ['--entry', 'close > open', '--exit', 'close < open'];

afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

describe('vyuha backtest', () => {
  it('backtests a CSV, prints JSON and writes one row per fill', async () => {
    const data = file('good.csv', GOOD);
    const trades = join(folder, 'good-trades.csv');
    const { code, output } = await run(['--data', data, ...EXPRESSIONS, '--sizing', 'qty:10', '--type', 'swing', '--trades', trades, '--json']);
    expect(code).toBe(0);
    const json = JSON.parse(output) as { trades: Array<{ entryPrice: number; exitPrice: number; gross: number }>; summary: { netPnl: number }; candlesProcessed: number };
    expect(json.trades.map((t) => [t.entryPrice, t.exitPrice, t.gross])).toEqual([[10_100, 10_150, 500], [10_300, 10_250, -500]]);
    expect(json.summary.netPnl).toBe(0);
    expect(json.candlesProcessed).toBe(6);
    expect(readFileSync(trades, 'utf8')).toBe([
      'time,side,quantity,price,charges,reason',
      '2024-10-14 09:16:00,BUY,10,101.00,0.00,entry',
      '2024-10-14 09:18:00,SELL,10,101.50,0.00,signal',
      '2024-10-14 09:19:00,BUY,10,103.00,0.00,entry',
      '2024-10-14 09:20:00,SELL,10,102.50,0.00,signal',
      '',
    ].join('\n'));
  });

  it('prints the metrics table, with charges, from an algorithm file', async () => {
    const data = file('table.csv', GOOD);
    const algorithm = {
      format: 'vyuha.algorithm', version: 1,
      nodes: [
        { id: 'up', type: 'condition', position: { x: 0, y: 0 }, expression: 'close > open' },
        { id: 'buy', type: 'buy', position: { x: 1, y: 0 } },
        { id: 'down', type: 'condition', position: { x: 0, y: 1 }, expression: 'close < open' },
        { id: 'exit', type: 'exit', position: { x: 1, y: 1 } },
      ],
      edges: [{ id: 'a', source: 'up', target: 'buy' }, { id: 'b', source: 'down', target: 'exit' }],
    };
    const algo = file('algo.json', JSON.stringify(algorithm));
    const { code, output, errors } = await run(['--data', data, '--algo', algo, '--sizing', 'qty:10', '--type', 'swing', '--charges', 'nse-futures']);
    expect(errors).toBe('');
    expect(code).toBe(0);
    expect(output).toMatch(/Candles processed\s+6/);
    expect(output).toMatch(/Trades\s+2/);
    // Four Rs 20 brokerages plus statutory charges: more than Rs 80 in all.
    const charges = /Charges paid\s+₹([\d,]+\.\d\d)/.exec(output);
    expect(Number(charges?.[1]?.replaceAll(",", ""))).toBeGreaterThan(80);
    expect(output).toMatch(/Net P&L\s+-₹[\d,]+\.\d\d/);
  });

  it('reports a bad CSV row as file:line:column and runs nothing', async () => {
    const data = file('bad.csv', GOOD.replace('2024-10-14 09:18,101.5,', '2024-10-14 09:18,abc,'));
    const trades = join(folder, 'bad-trades.csv');
    const { code, errors } = await run(['--data', data, ...EXPRESSIONS, '--trades', trades]);
    expect(code).toBe(1);
    expect(errors).toContain(`${data}:5:18:`);
    expect(existsSync(trades)).toBe(false);
  });

  it('reports bad algorithm text with line:column', async () => {
    const data = file('algo-bad.csv', GOOD);
    const { code, errors } = await run(['--data', data, '--entry', 'close > ', '--exit', 'close < open']);
    expect(code).toBe(1);
    expect(errors).toMatch(/--entry: 1:\d+: /);
    const broken = file('broken.json', '{\n  "format": "vyuha.algorithm",\n  "nodes": [\n');
    const fromFile = await run(['--data', data, '--algo', broken]);
    expect(fromFile.code).toBe(1);
    expect(fromFile.errors).toMatch(new RegExp(`${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: 4:\\d+: `));
  });

  it('refuses an impossible config, naming the field and the option', async () => {
    const data = file('config.csv', GOOD);
    const { code, errors } = await run(['--data', data, ...EXPRESSIONS, '--sizing', 'lots:2']);
    expect(code).toBe(1);
    expect(errors).toContain('impossible config: sizing.lotSize (--lot-size): is required for lots sizing');
    const negative = await run(['--data', data, ...EXPRESSIONS, '--capital=-5']);
    expect(negative.code).toBe(1);
    expect(negative.errors).toContain('capital (--capital): must be a whole number of paise above 0');
    const fill = await run(['--data', data, ...EXPRESSIONS, '--fill', 'tomorrow']);
    expect(fill.errors).toContain('fill (--fill): must be one of next-open, close, got "tomorrow"');
  });

  it('is a usage error to give both --algo and --entry, or an unknown --charges', async () => {
    await expect(backtestCommand.run(['--data', 'x.csv', '--algo', 'a.json', ...EXPRESSIONS])).rejects.toThrow(UsageError);
    await expect(backtestCommand.run(['--data', 'x.csv', ...EXPRESSIONS, '--charges', 'cheap'])).rejects.toThrow(/--charges must be one of/);
  });

  it('formats paise as rupees with two decimals', () => {
    expect([0, 5, -12_345, 1_000_000].map(paiseToRupeesText)).toEqual(['0.00', '0.05', '-123.45', '10000.00']);
    expect([0, 99_999, 10_000_000, -1_234_567_890].map((amount) => formatRupees(amount))).toEqual(['₹0.00', '₹999.99', '₹1,00,000.00', '-₹1,23,45,678.90']);
  });
});
