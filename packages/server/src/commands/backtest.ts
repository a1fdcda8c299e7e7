// `vyuha backtest`: an OHLCV CSV run long-only through the engine (--data), or a run on stored
// history (--symbol, with or without --options: backtest-stored.ts, through the backtest service
// that run_backtest jobs use). Option parsing and output shared by both modes: backtest-cli.ts;
// reading the --data file: backtest-data.ts.
import { BacktestConfigError, runBacktest } from '@vyuha/engine';
import type { BacktestResult } from '@vyuha/engine';
import { formatParseIssue } from '@vyuha/market';
import { algorithmOf, BACKTEST_OPTIONS, configIssues, configOf, fail, report, tradesCsv } from './backtest-cli';
import { barSeriesOfFile } from './backtest-data';
import { parseOptions, requireOption, UsageError, type CliCommand } from './command';

const USAGE = `Usage: vyuha backtest --data FILE.csv (--algo FILE.json | --entry EXPR [--exit EXPR])
                      [--type intraday|swing] [--interval MIN] [--capital RUPEES]
                      [--sizing all-in|qty:N|lots:N|pct:P] [--lot-size UNITS] [--fill next-open|close]
                      [--charges none|nse-options|nse-futures|nse-equity-intraday|nse-equity-delivery]
                      [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--trades OUT.csv] [--json]
       vyuha backtest --symbol NIFTY --options LEGS.json (--algo FILE.json | --entry EXPR [--exit EXPR])
                      --from YYYY-MM-DD --to YYYY-MM-DD [--interval MIN] [--type intraday|swing]
                      [--capital RUPEES] [--fill next-open|close] [--charges ...] [--trades OUT.csv] [--json]
       vyuha backtest --symbol NIFTY (--algo FILE.json | --entry EXPR [--exit EXPR])
                      --from YYYY-MM-DD --to YYYY-MM-DD [--interval MIN] [--type intraday|swing]
                      [--capital RUPEES] [--sizing all-in|pct:P|lots:N|qty:N] [--fill next-open|close]
                      [--trades OUT.csv] [--json]

Backtests one OHLCV series (datetime,open,high,low,close,volume[,oi]) long-only with the event
kernel: signals at each bar's close, market orders at the next bar's open (--fill close: at
that close), intraday entries until 15:00 and square-off at 15:15.

  --data      candle CSV; a bad row is reported as line:column and nothing runs
  --algo      algorithm JSON (the editor's format); or --entry/--exit expressions
  --type      intraday (default) or swing (positions carried overnight)
  --interval  aggregate the bars to this many minutes (1-1440), aligned to 09:15
  --capital   starting capital in rupees (default 100000)
  --sizing    all-in (default), qty:N units, lots:N lots of --lot-size, pct:P percent of capital
  --charges   none (default) or the dated NSE schedule for options, futures or intraday equity
  --from/--to IST dates, both included
  --trades    write one row per fill: time,side,quantity,price,charges,reason
  --json      print the result as JSON (paise as integers)

Options mode (--symbol, --options): the index's stored 1-minute candles (DATABASE_URL, else the
embedded database) between --from and --to, aggregated to --interval. Each entry signal opens the
legs of LEGS.json (the options-legs config: underlying, onBuy, onSell, ...), priced every bar
from imported option candles where the store has them, else from the synthetic chain on the
stored INDIA VIX. Charges default to the options schedule of the index's exchange; --trades adds
the contract's symbol per fill.

Instrument mode (--symbol without --options): the same stored history, traded as a backtest job
trades it. An index is traded as its near-month future: whole lots sized by the estimated margin
(9% of the contract's value; --sizing pct:P of the capital, or lots:N), orders sliced at the
freeze quantity, a swing position rolled to the next month at 15:15 on expiry day, futures
charges, prices from imported futures candles where stored, else the cost-of-carry model. A stock
is traded as shares (all-in, pct:P or qty:N) with intraday or delivery equity charges. An index
without futures (INDIA VIX) is refused. The first line printed says what was traded.
`;

async function run(args: readonly string[]): Promise<number> {
  const { values } = parseOptions(args, BACKTEST_OPTIONS);
  if (values.options !== undefined || values.symbol !== undefined) {
    if (values.data !== undefined) throw new UsageError('give either --data FILE.csv or --symbol S (stored history), not both');
    // Loaded only for stored-history runs: they open the database (pg), a plain CSV run never does.
    return (await import('./backtest-stored')).runStoredBacktest(values);
  }
  const dataFile = requireOption(values, 'data');
  const config = configOf(values);
  const { algorithm, errors } = algorithmOf(values);
  if (algorithm === undefined) return fail(errors);
  const read = barSeriesOfFile(dataFile, values);
  if (!read.ok) return fail(read.error.map((issue) => `${dataFile}:${formatParseIssue(issue)}`));
  const series = read.value;
  if (series.length === 0) return fail([`${dataFile}: no candles between --from and --to`]);
  let result: BacktestResult;
  try {
    result = runBacktest({ series, program: algorithm, config });
  } catch (error) {
    if (error instanceof BacktestConfigError) return fail(configIssues(error));
    throw error;
  }
  return report({ result, series, values, tradesCsv });
}

export const backtestCommand: CliCommand = { name: 'backtest', usage: USAGE, run };
