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
    const { startServer } = await import('../start');
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
  },
};
