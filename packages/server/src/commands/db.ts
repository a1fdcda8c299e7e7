import { readConfig } from '../config';
import { parseOptions, print, type CliCommand } from './command';

async function runDatabase(args: readonly string[], seeding: boolean): Promise<number> {
  parseOptions(args, {});
  const config = readConfig();
  const [{ default: pino }, { openDatabase }] = await Promise.all([import('pino'), import('../db/database')]);
  const logger = pino({ level: config.logLevel });
  const database = await openDatabase({
    config: seeding ? { ...config, seedDemo: true } : config,
    log: (message) => logger.info(message),
    seed: seeding,
  });
  await database.close();
  print(seeding ? 'Demo world is loaded.' : 'Database is up to date.');
  return 0;
}

export const dbMigrateCommand: CliCommand = {
  name: 'db migrate',
  usage: 'Usage: vyuha db migrate\n\nApplies pending migrations to the configured database and exits.\n',
  run: (args) => runDatabase(args, false),
};

export const dbSeedCommand: CliCommand = {
  name: 'db seed',
  usage: 'Usage: vyuha db seed\n\nLoads the demo world into the configured database (idempotent) and exits.\n',
  run: (args) => runDatabase(args, true),
};
