// `vyuha backtest --symbol NIFTY ...` without --options (issue 15, items 13 and 20): the CLI runs a
// backtest on stored history through the same backtest service as a run_backtest job, so it
// trades NIFTY's near-month future with futures charges (never the index itself, chargeless) and
// gives the job's very fills; what cannot be traded is refused with the reason.
import { isoDate } from '@vyuha/core';
import type { LedgerFill } from '@vyuha/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backtestCommand } from '../src/commands/backtest';
import { UsageError } from '../src/commands/command';
import { backtestActions } from '../src/graphql/actions/backtest-actions';
import { executeBacktestRun } from '../src/jobs/backtest-run';
import { createJobQueue } from '../src/jobs/job-queue';
import type { JobQueue } from '../src/jobs/job-queue';
import { backtestInput, demoUserId, graphqlSession, saveAlgorithm, writeSyntheticHistory } from './graphql/actions-support';
import { useCommandDatabase } from './helpers/db';
import { runCommand, type CommandRun } from './helpers/run-command';

const FROM = isoDate('2024-06-03');
const TO = isoDate('2024-06-07');
const RULES = { entry: 'close > sma(close, 10)', exit: 'close < sma(close, 10)' };
const ARGS = ['--symbol', 'NIFTY', '--entry', RULES.entry, '--exit', RULES.exit, '--from', FROM, '--to', TO, '--interval', '5', '--capital', '500000'];

const run = (args: readonly string[]): Promise<CommandRun> => runCommand(backtestCommand, args);

interface JsonRun {
  readonly fills: LedgerFill[];
  readonly summary: { charges: number; netPnl: number };
  readonly traded: { kind: string; underlying: string; contracts: Array<{ tradingSymbol: string; prices: string }>; modelPrices: boolean };
}

describe('vyuha backtest --symbol NIFTY (no --options)', () => {
  const database = useCommandDatabase({ seeded: true });
  let queue: JobQueue;

  beforeAll(async () => {
    const { pool, url } = database();
    await writeSyntheticHistory(pool, { from: FROM, to: TO });
    queue = createJobQueue({ connectionString: url, supervise: false });
    await queue.start();
  });
  afterAll(async () => {
    await queue?.stop({ timeoutMs: 5_000 });
  });

  it('trades the near-month future with futures charges, fill for fill as a run_backtest job of the same request', async () => {
    const cli = await run([...ARGS, '--json']);
    expect(cli.code).toBe(0);
    const printed = JSON.parse(cli.stdout) as JsonRun;
    expect(printed.fills.length).toBeGreaterThan(0);
    expect(new Set(printed.fills.map((fill) => fill.instrument))).toEqual(new Set(['NIFTY24JUNFUT']));
    expect(printed.fills.every((fill) => fill.chargesTotal > 0 && fill.quantity % 25 === 0)).toBe(true);
    expect(printed.traded).toMatchObject({ kind: 'index-futures', underlying: 'NIFTY', contracts: [{ tradingSymbol: 'NIFTY24JUNFUT', prices: 'model' }], modelPrices: true });

    const { pool } = database();
    const userId = await demoUserId(pool, 'advanced');
    const algorithmId = await saveAlgorithm(pool, { userId, name: 'sma cross' });
    const [runAction] = backtestActions({ pool, queue, now: () => Date.UTC(2025, 0, 15, 6, 0) });
    const output = await runAction?.handler({
      args: { input: backtestInput([algorithmId], { dateRanges: [{ from: FROM, to: TO }], frequenciesAndInvestments: [{ interval: 5, investment: 500_000 }] }) },
      session: graphqlSession({ tier: 'advanced', userId }),
    }) as { run_ids: string[] };
    const runId = output.run_ids[0] as string;
    expect(await executeBacktestRun({ pool, runId })).toBe('complete');
    const { rows } = await pool.query<{ id: number; symbol: string; quantity: number; price: string; charges: Record<string, number> }>(
      `SELECT split_part(o.client_order_id, '-', 2)::int AS id, i.trading_symbol AS symbol, f.quantity, f.price_paise AS price, f.charges_paise AS charges
       FROM fills f JOIN orders o USING (order_id) JOIN instruments i USING (instrument_id) WHERE o.run_id = $1 ORDER BY id`, [runId]);
    const total = (charges: Record<string, number>): number => Object.values(charges).reduce((sum, value) => sum + Number(value), 0);
    expect(rows.map((row) => [row.id, row.symbol, row.quantity, Number(row.price), total(row.charges)])).toEqual(
      printed.fills.map((fill) => [fill.orderId, fill.instrument, fill.quantity, fill.price, fill.chargesTotal]));
  });

  it('says what it traded above the metrics table', async () => {
    const cli = await run(ARGS);
    expect(cli.code).toBe(0);
    expect(cli.stdout.split('\n')[0]).toBe("Traded: NIFTY24JUNFUT (NIFTY's near-month future, rolled on expiry day at 15:15; NSE future charges; model prices: cost of carry at 6.5% a year)");
    expect(cli.stdout).toMatch(/Charges paid\s+₹[1-9][\d,]*\.\d\d/);
  });

  it('trades a fixed number of lots with --sizing lots:N', async () => {
    const cli = await run([...ARGS, '--sizing', 'lots:2', '--json']);
    expect(cli.code).toBe(0);
    expect(new Set((JSON.parse(cli.stdout) as JsonRun).fills.map((fill) => fill.quantity))).toEqual(new Set([50]));
  });

  it('refuses an index without futures with the reason, and options that do not apply', async () => {
    const vix = await run(['--symbol', 'INDIA VIX', '--entry', RULES.entry, '--from', FROM, '--to', TO]);
    expect(vix.code).toBe(1);
    expect(vix.stderr).toMatch(/^vyuha backtest: INDIA VIX cannot be traded: an index is traded through its futures or options, and INDIA VIX has none/);
    await expect(backtestCommand.run([...ARGS, '--charges', 'none'])).rejects.toThrow(UsageError);
    await expect(backtestCommand.run([...ARGS, '--charges', 'none'])).rejects.toThrow(/--charges does not apply to --symbol without --options/);
    await expect(backtestCommand.run([...ARGS, '--sizing', 'lots:2', '--lot-size', '75'])).rejects.toThrow(/--lot-size does not apply to --symbol/);
  });

  it('refuses a run whose capital does not cover one lot, saying what one lot needs', async () => {
    const cli = await run([...ARGS.slice(0, -1), '20000']);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/^vyuha backtest: the investment ₹20,000\.00 does not cover one lot of NIFTY24JUNFUT: on 2024-06-03 a lot of 25 at ₹[\d,.]+ needs an estimated margin of ₹[\d,.]+ plus ₹[\d,.]+ of charges\n$/);
  });
});
