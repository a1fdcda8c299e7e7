import { ConfigError } from './config';
import { UsageError, type CliCommand } from './commands/command';
import { exitCodeFor } from './exit-codes';
import { keepHotLoopsOptimised } from './jit-settings';
import { readDeployedVersion } from './version';

/** Every command: its words, a one-line summary, and how to load it (on demand). */
const COMMANDS: ReadonlyArray<{ name: string; summary: string; load: () => Promise<CliCommand> }> = [
  { name: 'start', summary: 'run the platform (web app, /healthz, /version.json) on the database', load: async () => (await import('./commands/start')).startCommand },
  { name: 'backtest', summary: 'backtest an OHLCV CSV with an algorithm (JSON or --entry/--exit), long-only; metrics, JSON or a trades CSV', load: async () => (await import('./commands/backtest')).backtestCommand },
  { name: 'sweep', summary: "backtest every combination of an algorithm's $parameters (or a seeded sample) on a CSV over worker threads; ranked table, best, stability", load: async () => (await import('./commands/sweep')).sweepCommand },
  { name: 'walkforward', summary: 'walk-forward on a CSV: sweep each in-sample window, run its best out of sample; windows, stitched result, overfitting gap', load: async () => (await import('./commands/sweep')).walkforwardCommand },
  { name: 'paper', summary: 'what `vyuha backtest` runs, replayed through the paper trading runtime (OMS, paper venue, PostgreSQL); the same output', load: async () => (await import('./commands/paper')).paperCommand },
  { name: 'db migrate', summary: 'apply pending database migrations and exit', load: async () => (await import('./commands/db')).dbMigrateCommand },
  { name: 'db seed', summary: 'load the demo world (idempotent) and exit', load: async () => (await import('./commands/db')).dbSeedCommand },
  { name: 'outbox', summary: 'print the latest e-mails and SMS kept in auth.outbox (links and codes), also while the platform runs', load: async () => (await import('./commands/outbox')).outboxCommand },
  { name: 'charges', summary: 'charges on one order (brokerage, STT, exchange, SEBI, stamp duty, GST) on a date', load: async () => (await import('./commands/charges')).chargesCommand },
  { name: 'import candles', summary: 'import 1-minute candles from a CSV for one instrument', load: async () => (await import('./commands/import')).importCandlesCommand },
  { name: 'import bhavcopy', summary: 'import NSE F&O bhavcopies (legacy or UDiFF, CSV or .zip)', load: async () => (await import('./commands/import')).importBhavcopyCommand },
  { name: 'market expiries', summary: 'list index-option expiries of a symbol between two dates', load: async () => (await import('./commands/market')).marketExpiriesCommand },
  { name: 'option price', summary: 'price and greeks of a European option (Black-Scholes or Black-76)', load: async () => (await import('./commands/option')).optionPriceCommand },
  { name: 'option iv', summary: 'implied volatility of an option price, or why none fits', load: async () => (await import('./commands/option')).optionImpliedVolatilityCommand },
  { name: 'market holidays', summary: "list an exchange's trading holidays of a year", load: async () => (await import('./commands/market')).marketHolidaysCommand },
];

const ENVIRONMENT = `Environment:
  PORT (8080), HOST (127.0.0.1), DATA_DIR (.data), DATABASE_URL (external PostgreSQL >= 15; then
  nothing is embedded), VYUHA_PG_PORT (54329, embedded PostgreSQL), VYUHA_DEMO (1 seeds the demo
  world, 0 does not; default 1 when embedded), LOG_LEVEL (info)
`;

function help(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length), 'version'.length) + 2;
  const lines = [...COMMANDS.map((c) => [c.name, c.summary]), ['version', 'print the deployed version'], ['help', 'show this text; `vyuha <command> --help` shows one command']]
    .map(([name, summary]) => `  ${name!.padEnd(width)}${summary}`);
  return `Usage: vyuha <command> [options]\n\nCommands:\n${lines.join('\n')}\n\n${ENVIRONMENT}`;
}

/** Runs one CLI command; resolves to the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const [first] = argv;
  if (first === undefined || first === 'help' || first === '--help' || first === '-h') {
    process.stdout.write(help());
    return 0;
  }
  if (first === 'version' || first === '--version') {
    process.stdout.write(`${readDeployedVersion()}\n`);
    return 0;
  }
  // The longest command name that the words begin with: `market expiries` before `market`.
  const entry = [...COMMANDS]
    .sort((a, b) => b.name.split(' ').length - a.name.split(' ').length)
    .find((c) => c.name.split(' ').every((word, i) => argv[i] === word));
  if (!entry) {
    process.stderr.write(`vyuha: unknown command "${argv.slice(0, 2).join(' ')}"\n\n${help()}`);
    return 2;
  }
  const command = await entry.load();
  const args = argv.slice(entry.name.split(' ').length);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(command.usage);
    return 0;
  }
  keepHotLoopsOptimised();
  try {
    return await command.run(args);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`vyuha ${command.name}: ${error.message}\n\n${command.usage}`);
      return 2;
    }
    const message = error instanceof ConfigError ? `configuration: ${error.message}` : (error as Error).message;
    process.stderr.write(`vyuha: ${message}\n`);
    // 78 for what would only fail again (bad configuration, a taken port): the supervisor does not retry those.
    return exitCodeFor(error);
  }
}
