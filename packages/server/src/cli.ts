import { ConfigError, readConfig } from './config';
import { readDeployedVersion } from './version';

const HELP = `Usage: vyuha <command>

Commands:
  start         run the platform (web app, /healthz, /version.json) on the database
  db migrate    apply pending database migrations and exit
  db seed       load the demo world (idempotent) and exit
  version       print the deployed version
  help          show this text

Environment:
  PORT (8080), HOST (127.0.0.1), DATA_DIR (.data), DATABASE_URL (external PostgreSQL >= 15; then
  nothing is embedded), VYUHA_PG_PORT (54329, embedded PostgreSQL), VYUHA_DEMO (1 seeds the demo
  world, 0 does not; default 1 when embedded), LOG_LEVEL (info)
`;

const DEMO_SIGN_IN = 'Demo sign-in: <role>@demo.vyuha.in / vyuha-demo-2026 (roles: trial, basic, advanced, demo, backtest, manager, administrator, superadmin, support)';

/** Runs one CLI command; resolves to the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const [command, subcommand] = argv;
  try {
    switch (command) {
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(HELP);
        return 0;
      case 'version':
      case '--version':
        process.stdout.write(`${readDeployedVersion()}\n`);
        return 0;
      case 'start':
        return await runStart();
      case 'db':
        return await runDatabaseCommand(subcommand);
      default:
        process.stderr.write(`vyuha: unknown command "${command}"\n\n${HELP}`);
        return 2;
    }
  } catch (error) {
    const message = error instanceof ConfigError ? `configuration: ${error.message}` : (error as Error).message;
    process.stderr.write(`vyuha: ${message}\n`);
    return 1;
  }
}

async function runStart(): Promise<number> {
  const config = readConfig();
  const startedAt = performance.now();
  // Loaded on demand so that `vyuha --help` answers at once.
  const { startServer } = await import('./start');
  const server = await startServer(config);
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  process.stdout.write(`\nVyuha is running at ${server.url} (ready in ${seconds} s)\n${config.seedDemo ? `${DEMO_SIGN_IN}\n` : ''}Press Ctrl+C to stop.\n\n`);
  await new Promise<void>((resolve) => {
    const shutdown = (signal: NodeJS.Signals) => {
      process.stdout.write(`\n${signal}: stopping Vyuha…\n`);
      // A second signal while draining means "now".
      process.once(signal, () => process.exit(130));
      void server.stop().then(resolve, (error: unknown) => {
        process.stderr.write(`vyuha: error while stopping: ${(error as Error).message}\n`);
        resolve();
      });
    };
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
  });
  return 0;
}

async function runDatabaseCommand(subcommand: string | undefined): Promise<number> {
  if (subcommand !== 'migrate' && subcommand !== 'seed') {
    process.stderr.write(`vyuha: "db" takes "migrate" or "seed"\n\n${HELP}`);
    return 2;
  }
  const config = readConfig();
  const [{ default: pino }, { openDatabase }] = await Promise.all([import('pino'), import('./db/database')]);
  const logger = pino({ level: config.logLevel });
  const seeding = subcommand === 'seed';
  const database = await openDatabase({
    config: seeding ? { ...config, seedDemo: true } : config,
    log: (message) => logger.info(message),
    seed: seeding,
  });
  await database.close();
  process.stdout.write(seeding ? 'Demo world is loaded.\n' : 'Database is up to date.\n');
  return 0;
}
