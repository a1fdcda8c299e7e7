// `vyuha start`: the platform in this process until SIGINT or SIGTERM (or, under the supervisor of
// `npm start`, until the supervisor goes away). What starts, and in which order, is startServer's.
import { readConfig } from '../config';
import { parseOptions, type CliCommand } from './command';

const DEMO_SIGN_IN = 'Demo sign-in: <role>@demo.vyuha.in / vyuha-demo-2026 (roles: trial, basic, advanced, demo, backtest, manager, administrator, superadmin, support)';

export const startCommand: CliCommand = {
  name: 'start',
  usage: 'Usage: vyuha start\n\nRuns the platform in this process until SIGINT or SIGTERM. Configured by environment variables (see vyuha --help).\n',
  async run(args) {
    parseOptions(args, {});
    const config = readConfig();
    const startedAt = performance.now();
    // A stop asked for while starting (Ctrl+C during the first start's initdb, the supervisor's
    // SIGTERM) waits for the start to finish, then stops cleanly: dying half-way would leave the
    // embedded PostgreSQL running. A second signal means "now".
    let stopAsked: NodeJS.Signals | undefined;
    const whileStarting = (signal: NodeJS.Signals) => {
      if (stopAsked !== undefined) process.exit(130);
      stopAsked = signal;
      process.stdout.write(`\n${signal}: stopping Vyuha as soon as it has started…\n`);
    };
    process.on('SIGINT', whileStarting);
    process.on('SIGTERM', whileStarting);
    const { startServer } = await import('../start');
    const server = await startServer(config).finally(() => {
      process.off('SIGINT', whileStarting);
      process.off('SIGTERM', whileStarting);
    });
    if (stopAsked !== undefined) {
      await server.stop();
      return 0;
    }
    const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
    process.stdout.write(`\nVyuha is running at ${server.url} (ready in ${seconds} s)\n${config.seedDemo ? `${DEMO_SIGN_IN}\n` : ''}Press Ctrl+C to stop.\n\n`);
    let stopping = false;
    await new Promise<void>((resolve) => {
      const shutdown = (signal: NodeJS.Signals) => {
        stopping = true;
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
      // Run by the supervisor of `npm start` (scripts/supervisor.mjs) over an IPC channel: if the
      // supervisor dies, nobody would stop or restart this process any more, so it stops itself.
      if (process.connected) {
        process.once('disconnect', () => {
          if (!stopping) shutdown('SIGTERM');
        });
      }
    });
    return 0;
  },
};
