// `vyuha sweep` and `vyuha walkforward` on a small CSV: --json rows equal the engine's serial runs
// on the same bars, the credits are announced before the runs, and wrong flags are refused with
// the flag named and the CLI's exit codes (2: the command line, 1: a refused grid or algorithm).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parameterGrid, runSweep, runWalkForward, walkForwardWindows } from '@vyuha/engine';
import type { BarSeries } from '@vyuha/engine';
import { main } from '../../src/cli';
import { configOf } from '../../src/commands/backtest-cli';
import { barSeriesOfFile } from '../../src/commands/backtest-data';
import { sweepDocumentOf } from '../../src/commands/sweep-cli';
import { runCommand } from '../helpers/run-command';
import { sessionBars, sessionBarsCsv } from '../helpers/session-bars';

const folder = mkdtempSync(join(tmpdir(), 'vyuha-sweep-'));
const data = join(folder, 'bars.csv');
writeFileSync(data, sessionBarsCsv(sessionBars({ days: 24, seed: 7 })));

afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

const ALGORITHM = [
  '--entry', 'crossover(sma(close, $fast), sma(close, $slow))', '--exit', 'crossunder(sma(close, $fast), sma(close, $slow))',
  '--param', 'fast=3:12:3', '--param', 'slow=10:40:10', '--constraint', '$fast < $slow',
];
const CONFIG = ['--type', 'swing', '--sizing', 'qty:50', '--charges', 'nse-futures'];

async function vyuha(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runCommand({ run: async (words) => main(words) }, args);
}

/** What the CLI runs, made here from the same flags and file. */
function engineInputs(): { series: BarSeries; document: unknown; combinations: Array<Record<string, number>> } {
  const read = barSeriesOfFile(data, {});
  if (!read.ok) throw new Error('the CSV reads');
  const built = sweepDocumentOf({ entry: ALGORITHM[1], exit: ALGORITHM[3], param: ['fast=3:12:3', 'slow=10:40:10'], constraint: ['$fast < $slow'] });
  if (built.document === undefined) throw new Error(built.errors.join('\n'));
  const grid = parameterGrid(built.document.parameters ?? [], built.document.constraints ?? []);
  if (!grid.ok) throw new Error('the grid is valid');
  return { series: read.value, document: built.document, combinations: grid.value };
}

const config = configOf({ type: 'swing', sizing: 'qty:50', charges: 'nse-futures' });
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('vyuha sweep', () => {
  it('prints every row as the serial sweep gives it, the best, the stability, and the credits first', async () => {
    const { code, stdout, stderr } = await vyuha(['sweep', '--data', data, ...ALGORITHM, ...CONFIG, '--metric', 'netPnl', '--workers', '1', '--heatmap', 'fast,slow', '--json']);
    expect(stderr).toBe('vyuha sweep: estimated credits 27,000 (15 combinations x 1,800 candles)\n');
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as Record<string, unknown>;
    const { series, document, combinations } = engineInputs();
    const serial = runSweep({ series, document, config, combinations, metric: 'netPnl' });
    expect(json.rows).toEqual(asJson(serial.rows));
    expect(json.best).toEqual(asJson(serial.best));
    expect(json.candlesProcessed).toBe(27_000);
    expect(json.estimatedCredits).toBe(27_000);
    expect(json.stability).toMatchObject({ neighbours: expect.any(Number) as number });
    const heatmap = json.heatmap as { xValues: number[]; yValues: number[]; cells: Array<Array<number | null>> };
    expect([heatmap.xValues, heatmap.yValues]).toEqual([[3, 6, 9, 12], [10, 20, 30, 40]]);
    // (fast 12, slow 10) breaks $fast < $slow: no run, no cell.
    expect(heatmap.cells[0]?.[3]).toBeNull();
  });

  it('names the flag of a wrong command line (exit 2) and of a refused grid (exit 1)', async () => {
    const usage = async (args: readonly string[], message: string): Promise<void> => {
      const { code, stderr } = await vyuha(['sweep', '--data', data, ...args]);
      expect(code).toBe(2);
      expect(stderr.split('\n')[0]).toBe(`vyuha sweep: ${message}`);
    };
    await usage([...ALGORITHM, '--param', 'fast=5:50'], '--param must be NAME=FROM:TO:STEP (numbers, e.g. fast=5:50:5), got "fast=5:50"');
    await usage([...ALGORITHM, '--metric', 'cagr'], '--metric must be one of netPnl, returnPercent, sharpe, winRate, profitFactor, trades, maxDrawdown, maxDrawdownPercent, got "cagr"');
    await usage([...ALGORITHM, '--workers', '0'], '--workers must be a whole number from 1 to 256, got "0"');
    await usage([...ALGORITHM, '--seed', '4'], '--seed goes with --sample N (a seeded random sample of N combinations)');
    await usage([...ALGORITHM, '--bogus'], "Unknown option '--bogus'");
    const refused = await vyuha(['sweep', '--data', data, ...ALGORITHM, '--param', 'fast=3:12:5']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('vyuha sweep: --param fast: (to - from) / step must be a whole number (within 1e-9): (12 - 3) / 5 = 1.8\n');
    const unused = await vyuha(['sweep', '--data', data, '--entry', 'close > sma(close, $fast)']);
    expect(unused.code).toBe(1);
    expect(unused.stderr).toMatch(/^vyuha sweep: --entry: 1:\d+: /);
  });
});

describe('vyuha walkforward', () => {
  it('prints the windows with their dates and choices, the stitched result and the gap, as the serial walk-forward', async () => {
    const args = ['walkforward', '--data', data, ...ALGORITHM, ...CONFIG, '--metric', 'netPnl', '--workers', '1', '--in-sample-days', '10', '--out-of-sample-days', '4', '--json'];
    const { code, stdout, stderr } = await vyuha(args);
    expect(stderr).toMatch(/^vyuha walkforward: estimated credits [\d,]+ \(3 windows: 15 combinations x in-sample candles \(33,750\) \+ /);
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as { windows: Array<Record<string, unknown>>; overfitting: Record<string, unknown>; estimatedCredits: number; candlesProcessed: number };
    const { series, document, combinations } = engineInputs();
    const windows = walkForwardWindows(series, { inSampleDays: 10, outOfSampleDays: 4 });
    if (!windows.ok) throw new Error('the windows fit');
    const serial = runWalkForward({ series, document, config, combinations, metric: 'netPnl', windows: windows.value });
    expect(json.windows).toEqual(asJson(serial.windows));
    expect(json.windows.map((window) => (window.outOfSample as { fromDate: string }).fromDate)).toEqual(['2024-01-15', '2024-01-19', '2024-01-25']);
    expect(json.overfitting).toEqual(asJson(serial.overfitting));
    expect(typeof json.overfitting.gapPercent).toBe('number');
    expect(json.candlesProcessed).toBe(serial.candlesProcessed);
    expect(json.estimatedCredits).toBeGreaterThanOrEqual(json.candlesProcessed);
  });

  it('names the day flags it refuses', async () => {
    const missing = await vyuha(['walkforward', '--data', data, ...ALGORITHM, '--out-of-sample-days', '4']);
    expect([missing.code, missing.stderr.split('\n')[0]]).toEqual([2, 'vyuha walkforward: --in-sample-days is required']);
    const long = await vyuha(['walkforward', '--data', data, ...ALGORITHM, '--in-sample-days', '20', '--out-of-sample-days', '5']);
    expect([long.code, long.stderr]).toEqual([1, 'vyuha walkforward: --in-sample-days: the series has 24 trading days; one window needs 25 (in-sample + out-of-sample)\n']);
  });
});
