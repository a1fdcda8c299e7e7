// `vyuha sweep --symbol` and `vyuha walkforward --symbol` on stored history: NIFTY traded as its
// near-month futures, and option legs on NIFTY with imported option candles for some of the
// contracts the runs trade. The --json rows equal the engine's serial runs over the run the
// backtest service prepares for the same request (for option legs: the serial load-and-run-again
// loop, so the threads were sent the candles loaded between passes), and wrong combinations of
// flags are refused with the CLI's exit codes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IsoDate, Paise } from '@vyuha/core';
import { optionsLegsTraderFactory, parseOptionsLegsConfig, runSweep, runWalkForward, walkForwardWindows } from '@vyuha/engine';
import type { AlgorithmDocument, ParameterBindings, SweepResult, SweepRow, WalkForwardResult } from '@vyuha/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareStoredRun } from '../../src/backtest/stored-run';
import type { PreparedRun } from '../../src/backtest/stored-run';
import { storedInstrumentOf } from '../../src/backtest/trade-plan';
import { main } from '../../src/cli';
import { sweepDocumentOf } from '../../src/commands/sweep-cli';
import { resolveInstrument } from '../../src/market-data/instrument-lookup';
import { writeSyntheticHistory } from '../graphql/actions-support';
import { useCommandDatabase } from '../helpers/db';
import { contractsAsked, writeOptionContracts } from '../helpers/option-contracts';
import { runCommand } from '../helpers/run-command';

const RANGE = { from: '2024-05-02' as IsoDate, to: '2024-06-14' as IsoDate };
const ALGORITHM = [
  '--entry', 'crossover(sma(close, $fast), sma(close, $slow))', '--exit', 'crossunder(sma(close, $fast), sma(close, $slow))',
  '--param', 'fast=3:9:3', '--param', 'slow=10:30:10', '--constraint', '$fast < $slow',
];
const STORED = ['--symbol', 'NIFTY', '--from', RANGE.from, '--to', RANGE.to, '--interval', '15', '--type', 'swing', '--capital', '500000', '--workers', '2'];
const LEGS = { underlying: 'NIFTY', onBuy: [{ option: 'CE', side: 'buy', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1 }] };
const WALK = ['--in-sample-days', '10', '--out-of-sample-days', '5'];

const folder = mkdtempSync(join(tmpdir(), 'vyuha-sweep-stored-'));
const legsFile = join(folder, 'call.json');
writeFileSync(legsFile, JSON.stringify(LEGS));
const bankNiftyLegs = join(folder, 'banknifty.json');
writeFileSync(bankNiftyLegs, JSON.stringify({ ...LEGS, underlying: 'BANKNIFTY' }));
const csv = join(folder, 'bars.csv');
writeFileSync(csv, 'datetime,open,high,low,close,volume\n');

afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

function vyuha(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runCommand({ run: async (words) => main(words) }, args);
}

/** The document and grid the CLI builds from ALGORITHM. */
function engineDocument(): { document: AlgorithmDocument; combinations: ParameterBindings[] } {
  const built = sweepDocumentOf({ entry: ALGORITHM[1], exit: ALGORITHM[3], param: ['fast=3:9:3', 'slow=10:30:10'], constraint: ['$fast < $slow'] });
  if (built.document === undefined) throw new Error(built.errors.join('\n'));
  const combinations: ParameterBindings[] = [];
  for (const fast of [3, 6, 9]) for (const slow of [10, 20, 30]) if (fast < slow) combinations.push({ fast, slow });
  return { document: built.document, combinations };
}

/** JSON's view of rows (what --json prints). */
const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('vyuha sweep / walkforward --symbol (stored history)', () => {
  const database = useCommandDatabase({ seeded: true });

  beforeAll(async () => {
    await writeSyntheticHistory(database().pool, RANGE);
  });

  /** The run the backtest service prepares for NIFTY over RANGE at 15 minutes, swing, Rs 5 lakh. */
  async function prepared(legs?: unknown): Promise<PreparedRun> {
    const { pool } = database();
    return prepareStoredRun({
      pool, instrument: await storedInstrumentOf(pool, await resolveInstrument(pool, 'NIFTY')), strategyType: 'swing', dateRange: RANGE,
      intervalMinutes: 15, capital: 50_000_000 as Paise, legs: legs === undefined ? undefined : parseOptionsLegsConfig(legs),
    });
  }

  it('sweeps NIFTY as its near-month futures and walks it forward, row for row the serial runs of the stored run', async () => {
    const sweep = await vyuha(['sweep', ...STORED, ...ALGORITHM, '--metric', 'netPnl', '--json']);
    expect(sweep.stderr).toMatch(/^vyuha sweep: estimated credits/);
    expect(sweep.code).toBe(0);
    const printed = JSON.parse(sweep.stdout) as { rows: SweepRow[]; candles: number };
    const run = await prepared();
    const contracts = run.contracts;
    if (contracts === undefined) throw new Error('an index is traded through its futures chain');
    const { document, combinations } = engineDocument();
    const serial = runSweep({ series: run.series, document, config: run.config, combinations, metric: 'netPnl', contracts });
    expect(printed.candles).toBe(run.series.length);
    expect(printed.rows).toEqual(json(serial.rows));
    expect(new Set(serial.rows.map((row) => row.metrics.netPnl)).size).toBeGreaterThan(2);
    // Futures, not the index: the serial runs without the chain give other rows.
    const indexItself = runSweep({ series: run.series, document, config: { ...run.config, sizing: { kind: 'quantity', quantity: 25 } }, combinations, metric: 'netPnl' });
    expect(printed.rows.map((row) => row.metrics.netPnl)).not.toEqual(indexItself.rows.map((row) => row.metrics.netPnl));

    const text = await vyuha(['sweep', ...STORED, ...ALGORITHM, '--metric', 'netPnl', '--top', '3']);
    expect(text.stdout).toContain(`on ${run.series.length.toLocaleString('en-US')} candles of NIFTY ${RANGE.from}..${RANGE.to} (stored), traded as its near-month futures`);

    const walk = await vyuha(['walkforward', ...STORED, ...ALGORITHM, ...WALK, '--json']);
    expect(walk.code).toBe(0);
    const windows = walkForwardWindows(run.series, { inSampleDays: 10, outOfSampleDays: 5 });
    if (!windows.ok) throw new Error('windows');
    const { equity: _equity, ...serialWalk } = runWalkForward({ series: run.series, document, config: run.config, combinations, metric: 'sharpe', windows: windows.value, contracts });
    expect(JSON.parse(walk.stdout)).toMatchObject(json(serialWalk));
  }, 120_000);

  it('sweeps and walks forward option legs, loading imported option candles as the runs on the threads ask: the serial load-and-run-again loop', async () => {
    const { pool } = database();
    const { document, combinations } = engineDocument();
    const before = await prepared(LEGS);
    if (before.legsTrader === undefined) throw new Error('an option-legs run has its trader data');
    const legsTrader = before.legsTrader;
    // The first contracts the runs look up get imported candles.
    const imported = contractsAsked((candles) => runSweep({
      series: before.series, document, config: before.config, combinations, metric: 'netPnl',
      trader: optionsLegsTraderFactory({ ...legsTrader, slippage: { kind: 'none' }, candles }),
    })).slice(0, 4);
    expect(imported.length).toBe(4);
    await writeOptionContracts(pool, { symbols: imported, underlying: 'NIFTY 50', range: RANGE });

    const sweep = await vyuha(['sweep', ...STORED, '--options', legsFile, ...ALGORITHM, '--metric', 'netPnl', '--json']);
    expect(sweep.code).toBe(0);
    const walk = await vyuha(['walkforward', ...STORED, '--options', legsFile, ...ALGORITHM, ...WALK, '--metric', 'netPnl', '--json']);
    expect(walk.code).toBe(0);

    const run = await prepared(LEGS);
    if (run.trader === undefined || run.windowTraders === undefined || run.legCandles === undefined) throw new Error('an option-legs run has its traders and candles');
    const candleRange = { dateRange: RANGE, intervalMinutes: 15 };
    const passes: SweepResult[] = [];
    do {
      passes.push(runSweep({ series: run.series, document, config: run.config, combinations, metric: 'netPnl', trader: run.trader }));
    } while (await run.legCandles.loadWanted(pool, candleRange));
    const serial = passes.at(-1) as SweepResult;
    expect(passes.length).toBeGreaterThan(1);
    // The imported candles priced trades: the first pass, without them, differs.
    expect(serial.rows.map((row) => row.metrics.netPnl)).not.toEqual(passes[0]?.rows.map((row) => row.metrics.netPnl));
    expect((JSON.parse(sweep.stdout) as { rows: SweepRow[] }).rows).toEqual(json(serial.rows));

    const windows = walkForwardWindows(run.series, { inSampleDays: 10, outOfSampleDays: 5 });
    if (!windows.ok) throw new Error('windows');
    const walkRequest = { series: run.series, document, config: run.config, combinations, metric: 'netPnl' as const, windows: windows.value, traders: run.windowTraders };
    let serialWalk: WalkForwardResult = runWalkForward(walkRequest);
    while (await run.legCandles.loadWanted(pool, candleRange)) serialWalk = runWalkForward(walkRequest);
    const { equity: _equity, ...walked } = serialWalk;
    expect(serialWalk.outOfSampleMetrics.trades).toBeGreaterThan(0);
    expect(JSON.parse(walk.stdout)).toMatchObject(json(walked));
  }, 180_000);

  it('refuses --data with --symbol, a stored run without --to, a legs file of another index and an instrument it does not know', async () => {
    const both = await vyuha(['sweep', ...STORED, '--data', csv, ...ALGORITHM]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/either --data FILE\.csv or --symbol S/);
    const noTo = await vyuha(['walkforward', '--symbol', 'NIFTY', '--from', RANGE.from, ...ALGORITHM, ...WALK]);
    expect(noTo.code).toBe(2);
    expect(noTo.stderr).toMatch(/needs --from and --to/);
    const other = await vyuha(['sweep', ...STORED, '--options', bankNiftyLegs, ...ALGORITHM]);
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/--symbol NIFTY is not the underlying of .*banknifty\.json \(BANKNIFTY\)/);
    const unknown = await vyuha(['sweep', ...STORED.map((word) => (word === 'NIFTY' ? 'NO_SUCH_STOCK' : word)), ...ALGORITHM]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^vyuha sweep: .*NO_SUCH_STOCK/);
    const noData = await vyuha(['sweep', ...ALGORITHM]);
    expect(noData.code).toBe(2);
    expect(noData.stderr).toMatch(/--data is required \(or --symbol S/);
  }, 60_000);
});
