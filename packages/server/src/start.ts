import { addDays } from '@vyuha/core';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import pino from 'pino';
import { readAuthConfig } from './auth/config';
import { withDemoAuthMethods } from './auth/demo-methods';
import { authMethodModules } from './auth/method-modules';
import { BrokerOrderUpdates } from './brokers/broker-order-updates';
import { describeBrokerSecretKey, loadBrokerSecretKey } from './brokers/broker-secret-key';
import { kiteApiBaseUrl, kiteLoginBaseUrl } from './brokers/kite/kite-http';
import { kiteTickerBaseUrl } from './brokers/kite/kite-ticker';
import { ConfigError } from './config';
import type { ServerConfig } from './config';
import { openDatabase } from './db/database';
import { readGraphqlLimits } from './graphql/config';
import { buildApp } from './http/app';
import { backtestActions } from './graphql/actions/backtest-actions';
import { sweepActions } from './graphql/actions/sweep-actions';
import { brokerActions } from './graphql/actions/broker-secret-action';
import { tradingActions } from './graphql/actions/trading-actions';
import { managerLinkActions } from './graphql/actions/manager-link-actions';
import { createMailer } from './auth/delivery';
import { startBacktestWorkers, type BacktestWorkers } from './jobs/backtest-workers';
import { createJobQueue, type JobQueue } from './jobs/job-queue';
import { startSweepWorkers, type SweepWorkers } from './jobs/sweep-workers';
import { SimulatedMarket } from './trading/feeds/simulated-market';
import { WallScheduler } from './trading/feeds/scheduler';
import { KillSwitchWatch } from './trading/kill-switch-watch';
import { LiveAccounts } from './trading/live/live-accounts';
import { startStrategyRunners, type StrategyRunners } from './trading/runner/strategy-runners';
import { webDistDir } from './paths';
import { stopInOrder } from './stop-in-order';
import { readDeployedVersion } from './version';

/** A running platform; `stop()` drains HTTP, closes the pool and stops the embedded database. */
export interface RunningServer {
  readonly url: string;
  stop(): Promise<void>;
}

/** The HTTP port belongs to another program. */
export class HttpPortInUseError extends Error {
  override readonly name = 'HttpPortInUseError';
}

/** Starts the whole platform in this process. */
export async function startServer(config: ServerConfig): Promise<RunningServer> {
  // The demo world switches on every sign-in method that works on one machine (auth/demo-methods.ts).
  const authEnv = config.seedDemo ? withDemoAuthMethods(process.env, { port: config.port }) : process.env;
  // Validated before anything starts: a bad AUTH_* variable is a one-line error naming it.
  const authConfig = readAuthConfig(authEnv);
  const authModules = authMethodModules(authEnv);
  // Also validated first: a bad VYUHA_GRAPHQL_* budget names its variable.
  const graphqlLimits = readGraphqlLimits(process.env);
  const logger = pino({ level: config.logLevel });
  // Also before anything starts: a bad VYUHA_BROKER_SECRET_KEY or key file stops here.
  const brokerKey = await loadBrokerSecretKey({ env: process.env, dataDir: config.dataDir, embedded: config.databaseUrl === undefined });
  logger.info(describeBrokerSecretKey(brokerKey));
  // The Kite URLs (a stand-in in tests and demos) and the platform's algo id, validated up front too.
  const kite = { apiUrl: kiteApiBaseUrl(process.env), tickerUrl: kiteTickerBaseUrl(process.env) };
  kiteLoginBaseUrl(process.env);
  const defaultAlgoId = readDefaultAlgoId(process.env);
  const database = await openDatabase({ config, log: (message) => logger.info(message), openConnections: true });
  const version = readDeployedVersion();
  let app: FastifyInstance | undefined;
  let queue: JobQueue | undefined;
  let workers: BacktestWorkers | undefined;
  let sweepWorkers: SweepWorkers | undefined;
  let runners: StrategyRunners | undefined;
  let market: SimulatedMarket | undefined;
  let liveAccounts: LiveAccounts | undefined;
  let orderUpdates: BrokerOrderUpdates | undefined;
  let killSwitches: KillSwitchWatch | undefined;
  const jobLog = (message: string, details?: Record<string, unknown>): void => logger.info(details ?? {}, message);
  try {
    // The queue is needed by the API (run_backtest enqueues) and by workers.
    queue = createJobQueue({ connectionString: database.url, log: jobLog });
    await queue.start();
    const serveApi = config.processRole !== 'worker';
    app = await buildApp({
      pool: database.pool, version, webDistDir, logLevel: config.logLevel,
      ...(serveApi ? {
        auth: { config: authConfig, modules: authModules },
        graphql: {
          adminSecret: config.adminSecret, production: config.production, limits: graphqlLimits,
          actions: [
            ...backtestActions({ pool: database.pool, queue }), ...sweepActions({ pool: database.pool, queue }), ...brokerActions({ pool: database.pool, key: brokerKey.key }),
            ...tradingActions({ pool: database.pool, queue, ...(defaultAlgoId === undefined ? {} : { defaultAlgoId }) }),
            // Manager links with e-mail consent: the auth service's mail delivery (SMTP, else auth.outbox).
            ...managerLinkActions({
              pool: database.pool, mailer: createMailer({ pool: database.pool, smtp: authConfig.smtp, log: logger }),
              clientUrl: authConfig.clientUrl, log: (message) => logger.warn(message),
            }),
          ],
        },
        brokerLogin: { key: brokerKey.key },
      } : {}),
    });
    if (config.processRole !== 'api') {
      workers = await startBacktestWorkers({ pool: database.pool, queue, log: jobLog });
      sweepWorkers = await startSweepWorkers({ pool: database.pool, queue, log: jobLog });
      // The demo world's market, continued in real time: what paper strategies without a replay
      // trade on. Every process that runs strategies runs it (they make the same ticks and write
      // the same rows); it waits for the history when there is none yet.
      market = config.demoHistory
        ? new SimulatedMarket({ pool: database.pool, scheduler: new WallScheduler(), log: (message) => logger.info(message) })
        : undefined;
      if (market !== undefined) await market.catchUp();
      await market?.start();
      // LIVE: the broker accounts this worker trades, opened as runs need them (their sessions'
      // tokens are decrypted with the broker secret key: without one, LIVE runs end saying so).
      if (brokerKey.key !== undefined) {
        orderUpdates = await BrokerOrderUpdates.open({ pool: database.pool, log: (message) => logger.info(message) });
        killSwitches = await KillSwitchWatch.open({ pool: database.pool });
        liveAccounts = new LiveAccounts({
          pool: database.pool, keys: [brokerKey.key], kite, scheduler: new WallScheduler(), killSwitches, updates: orderUpdates,
          log: (message) => logger.info(message),
        });
      }
      runners = await startStrategyRunners({
        pool: database.pool, queue, log: jobLog, ...(market === undefined ? {} : { market }),
        ...(liveAccounts === undefined ? {} : { live: { accounts: liveAccounts, ...(defaultAlgoId === undefined ? {} : { defaultAlgoId }) } }),
      });
    }
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    // Whatever failed, the embedded PostgreSQL must not outlive us.
    await runners?.stop();
    await liveAccounts?.closeAll();
    await orderUpdates?.close();
    await killSwitches?.close();
    await market?.stop();
    await workers?.stop();
    await sweepWorkers?.stop();
    await queue?.stop({ graceful: false });
    await app?.close();
    await database.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new HttpPortInUseError(`Port ${config.port} on ${config.host} is already in use by another program. Stop it, or set PORT to a free port.`);
    }
    throw error;
  }
  const running = app;
  const history = config.demoHistory ? startDemoHistory({ pool: database.pool, queue, logger }) : undefined;
  const address = running.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  let stopping: Promise<void> | undefined;
  return {
    url,
    stop: () => {
      // Shutting down twice (two signals) must not close things twice.
      stopping ??= stopInOrder([
        ['the HTTP server', () => running.close()],
        ['the strategy runners', async () => runners?.stop()],
        ['the live broker accounts', async () => liveAccounts?.closeAll()],
        ['the broker order updates', async () => orderUpdates?.close()],
        ['the kill switch watch', async () => killSwitches?.close()],
        ['the simulated market', async () => market?.stop()],
        ['the backtest workers', async () => workers?.stop()],
        ['the sweep workers', async () => sweepWorkers?.stop()],
        ['the job queue', async () => queue?.stop({ timeoutMs: 10_000 })],
        ['the demo history', async () => history?.stop()],
        ['the database', () => database.close()],
      ], {
        warn: (message) => logger.warn(message),
        // What still holds the pool is the likeliest reason the database does not close.
        state: () => `pool: ${database.pool.totalCount - database.pool.idleCount} connections in use, ${database.pool.waitingCount} waiting`,
      });
      return stopping;
    },
  };
}

/** The exchange-issued algo id of the platform (VYUHA_ALGO_ID), for LIVE strategies without their own. */
function readDefaultAlgoId(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.VYUHA_ALGO_ID?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(raw)) throw new ConfigError('VYUHA_ALGO_ID must be the exchange-issued algo id: 1 to 64 letters, digits, _ or -');
  return raw;
}

/** How far back the demo users' example backtests reach from the last finished session. */
const DEMO_BACKTEST_DAYS = 91;

/**
 * Fills the demo world's synthetic market history in the background: the server is ready first,
 * the history arrives month by month with progress in the log. Once it reaches the last finished
 * session, each demo user who may backtest gets an example backtest of the last three months (the
 * administrator also a sweep and a walk-forward of the sweepable example), and
 * each who may deploy a paper strategy replaying the last 90 sessions (each once; later starts
 * find them there), the demo trader a saved basket, and the demo administrator an ensemble. Stopping waits for the month being written to
 * commit (seconds at most); the next start resumes.
 */
function startDemoHistory(options: { pool: pg.Pool; queue: JobQueue; logger: pino.Logger }): { stop(): Promise<void> } {
  const { pool, queue, logger } = options;
  const controller = new AbortController();
  const done = (async () => {
    const { lastFinishedSession, loadDemoHistory } = await import('./market-data/demo-history');
    const through = lastFinishedSession(Date.now());
    const result = await loadDemoHistory({ pool, through, log: (message) => logger.info(message), signal: controller.signal });
    if (result.monthsStored > 0) logger.info(`synthetic market history is ready through ${result.through ?? through} (${result.candlesStored} candles stored)`);
    if (controller.signal.aborted || result.through === undefined || result.through < through) return;
    const { queueDemoBacktests } = await import('./db/seed/demo-research-backtests');
    await queueDemoBacktests({ pool, queue, range: { from: addDays(through, -DEMO_BACKTEST_DAYS), to: through }, log: (message) => logger.info(message) })
      .catch((error: unknown) => logger.error({ err: error }, 'demo backtests: queueing failed (the next start tries again)'));
    const { seedDemoSweeps } = await import('./db/seed/demo-sweeps');
    await seedDemoSweeps({ pool, queue, range: { from: addDays(through, -DEMO_BACKTEST_DAYS), to: through }, log: (message) => logger.info(message) })
      .catch((error: unknown) => logger.error({ err: error }, 'demo sweeps: seeding failed (the next start tries again)'));
    const { deployDemoPaperStrategies } = await import('./db/seed/demo-paper');
    await deployDemoPaperStrategies({ pool, queue, through, log: (message) => logger.info(message) })
      .catch((error: unknown) => logger.error({ err: error }, 'demo paper strategies: deploying failed (the next start tries again)'));
    const { saveDemoBasket } = await import('./db/seed/demo-baskets');
    await saveDemoBasket({ pool, nowMs: Date.now(), log: (message) => logger.info(message) })
      .catch((error: unknown) => logger.error({ err: error }, 'demo basket: saving failed (the next start tries again)'));
    const { saveDemoEnsemble } = await import('./db/seed/demo-ensemble');
    await saveDemoEnsemble({ pool, nowMs: Date.now(), log: (message) => logger.info(message) })
      .catch((error: unknown) => logger.error({ err: error }, 'demo ensemble: making it failed (the next start tries again)'));
  })().catch((error: unknown) => logger.error({ err: error }, 'synthetic market history: generation failed'));
  return {
    async stop() {
      controller.abort();
      await done;
    },
  };
}
