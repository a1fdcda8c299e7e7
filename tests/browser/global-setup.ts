// The browser tests' world, made once per run: the web app built (or its build reused when fresh),
// one Vyuha server on a free loopback port (embedded PostgreSQL, migrations, the demo world without
// its synthetic history, auth, GraphQL, the backtest queue and workers, the web build), a real SMTP
// server on loopback that keeps every mail, and a tiny HTTP inbox over those mails for the tests.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import type { TestProject } from 'vitest/node';
import type { IsoDate } from '@vyuha/core';
import { writeSyntheticHistory } from '../../packages/server/test/graphql/actions-support';
import { startMailCatcher } from '../../packages/server/test/helpers/mail-catcher';
import { managerLinkActions } from '../../packages/server/src/graphql/actions/manager-link-actions';
import { createMailer } from '../../packages/server/src/auth/delivery';
import { readAuthConfig } from '../../packages/server/src/auth/config';
import { generateBrokerSecretKey } from '../../packages/server/src/brokers/broker-secrets';
import { brokerActions } from '../../packages/server/src/graphql/actions/broker-secret-action';
import { createDatabaseIfMissing } from '../../packages/server/src/db/database';
import { startEmbeddedPostgres } from '../../packages/server/src/db/embedded-postgres';
import { loadMigrations, migrate } from '../../packages/server/src/db/migrate';
import { seedDemoWorld } from '../../packages/server/src/db/seed';
import { saveDemoBasket } from '../../packages/server/src/db/seed/demo-baskets';
import { deployDemoPaperStrategies } from '../../packages/server/src/db/seed/demo-paper';
import { queueDemoBacktests } from '../../packages/server/src/db/seed/demo-research-backtests';
import { seedDemoSweeps } from '../../packages/server/src/db/seed/demo-sweeps';
import { backtestActions } from '../../packages/server/src/graphql/actions/backtest-actions';
import { sweepActions } from '../../packages/server/src/graphql/actions/sweep-actions';
import { tradingActions } from '../../packages/server/src/graphql/actions/trading-actions';
import { buildApp } from '../../packages/server/src/http/app';
import { startBacktestWorkers } from '../../packages/server/src/jobs/backtest-workers';
import { createJobQueue } from '../../packages/server/src/jobs/job-queue';
import { startSweepWorkers } from '../../packages/server/src/jobs/sweep-workers';
import { marketDataDir, migrationsDir, repoRoot, webDistDir } from '../../packages/server/src/paths';
import { startStrategyRunners } from '../../packages/server/src/trading/runner/strategy-runners';
import { readDeployedVersion } from '../../packages/server/src/version';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Vyuha server under test, e.g. http://127.0.0.1:41234 (no trailing slash). */
    baseUrl: string;
    /** The mail inbox: GET `${mailUrl}/mails?to=ADDRESS` lists received mails as JSON, DELETE `${mailUrl}/mails` empties it. */
    mailUrl: string;
    /** The server's database (superuser), for a test that must look at or prepare rows directly. */
    databaseUrl: string;
    /** The GraphQL admin secret (`x-hasura-admin-secret`) the server accepts. */
    adminSecret: string;
    /**
     * Why the setup failed (the web build, PostgreSQL, the server), or '' when it worked. A failed
     * setup does not abort the whole Vitest run (the other projects' results still count): every
     * browser test fails with this message instead (see browser.ts).
     */
    browserSetupError: string;
  }
}

export type { ReceivedMail } from '../../packages/server/test/helpers/mail-catcher';

const WEB_DIR = join(repoRoot, 'packages', 'web');
/** The synthetic 1-minute history the browser world stores (NSE sessions, both dates included). */
export const BROWSER_HISTORY = { from: '2026-08-03' as IsoDate, to: '2026-10-30' as IsoDate };
export const BROWSER_HISTORY_INDICES = ['NIFTY 50', 'NIFTY BANK', 'INDIA VIX'] as const;
const DATABASE_NAME = 'vyuha';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Undone in reverse order, whether setup finishes or fails half-way.
  const cleanups: (() => Promise<void>)[] = [];
  let closing = false;
  const teardown = async (): Promise<void> => {
    closing = true;
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (error) {
        process.stderr.write(`browser tests teardown: ${(error as Error).message}\n`);
      }
    }
    cleanups.length = 0;
  };
  try {
    // VYUHA_BROWSER_WEB_DIST: serve that finished build as it is (a CI artefact, another checkout's build).
    const prebuilt = process.env.VYUHA_BROWSER_WEB_DIST?.trim();
    const distDir = prebuilt ? resolve(prebuilt) : webDistDir;
    if (prebuilt) {
      if (!existsSync(join(distDir, 'index.html'))) throw new Error(`VYUHA_BROWSER_WEB_DIST: no index.html in ${distDir}`);
    } else {
      await buildWebAppIfStale();
    }

    const mail = await startMailServer();
    cleanups.push(mail.close);

    // In the system temp folder, not the checkout: as root, PostgreSQL runs as the postgres OS user.
    const dataDir = await mkdtemp(join(tmpdir(), 'vyuha-browser-'));
    await chmod(dataDir, 0o755);
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const postgres = await startEmbeddedPostgres({ dataDir, port: 0, durability: 'fast' });
    cleanups.push(() => postgres.stop());
    await createDatabaseIfMissing(postgres.urlFor('postgres'), DATABASE_NAME);
    const databaseUrl = postgres.urlFor(DATABASE_NAME);
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 20 });
    // An idle connection dropped while PostgreSQL shuts down at teardown is expected; before, it is news.
    pool.on('error', (error) => {
      if (!closing) process.stderr.write(`browser tests database: ${error.message}\n`);
    });
    cleanups.push(() => pool.end());
    await migrate(pool, await loadMigrations(migrationsDir));
    // The demo world without its synthetic 1-minute history (minutes of work no screen test needs).
    await seedDemoWorld(pool, { dataDir: marketDataDir });
    // Instead, three months of synthetic minutes for the indices the research screens use.
    await writeSyntheticHistory(pool, BROWSER_HISTORY, BROWSER_HISTORY_INDICES);

    const logger = pino({ level: 'warn' });
    const jobLog = (message: string, details?: Record<string, unknown>): void => logger.info(details ?? {}, message);
    const queue = createJobQueue({ connectionString: databaseUrl, log: jobLog });
    await queue.start();
    cleanups.push(() => queue.stop({ timeoutMs: 10_000 }));
    // As `npm start` does once its history is stored: one example backtest per user who may backtest.
    await queueDemoBacktests({ pool, queue, range: BROWSER_HISTORY, log: (message) => logger.info(message) });
    // And the demo sweep: a backtest of the sweepable example with a COMPLETE sweep and walk-forward of it.
    await seedDemoSweeps({ pool, queue, range: BROWSER_HISTORY, log: (message) => logger.info(message) });

    // The auth service writes the port into e-mailed links, so the port is chosen before the app is built.
    const port = await freePort();
    // `localhost`, not 127.0.0.1: a WebAuthn relying party id must be a domain name, never an IP address.
    const baseUrl = `http://localhost:${port}`;
    // Security keys on (off by default, as in hasura-auth): the sign-up and sign-in tests use Chromium's virtual authenticator.
    process.env.AUTH_WEBAUTHN_ENABLED = 'true';
    process.env.AUTH_WEBAUTHN_RP_ID = 'localhost';
    process.env.AUTH_WEBAUTHN_RP_ORIGINS = baseUrl;
    const adminSecret = randomBytes(24).toString('hex');
    // One key for both: secrets stored through set_broker_secret are the ones the broker login reads.
    const brokerKey = generateBrokerSecretKey();
    const authConfig = readAuthConfig({
      PORT: String(port),
      AUTH_SERVER_URL: `${baseUrl}/v1/auth`,
      AUTH_CLIENT_URL: baseUrl,
      AUTH_ACCESS_CONTROL_ALLOWED_REDIRECT_URLS: baseUrl,
      // Every test signs in from 127.0.0.1, often as the same demo user: the per-IP and per-account
      // windows would refuse sign-ins a few tests in.
      AUTH_RATE_LIMIT_ENABLE: 'false',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(mail.smtpPort),
      SMTP_SECURE: 'false',
      SMTP_SENDER: 'Vyuha <no-reply@vyuha.test>',
    });
    const app = await buildApp({
      pool, version: prebuilt ? stampedVersion(distDir) : readDeployedVersion(), webDistDir: distDir, logLevel: 'warn',
      auth: { config: authConfig },
      graphql: {
        adminSecret, production: false,
        actions: [
          ...backtestActions({ pool, queue }), ...sweepActions({ pool, queue }), ...brokerActions({ pool, key: brokerKey }), ...tradingActions({ pool, queue }),
          ...managerLinkActions({ pool, mailer: createMailer({ pool, smtp: authConfig.smtp, log: logger }), clientUrl: authConfig.clientUrl }),
        ],
      },
      // The broker login route, as startServer mounts it (its outcome lands on the account page).
      brokerLogin: { key: brokerKey },
    });
    // Undone in reverse: HTTP closes first, then the workers, the queue, the pool, PostgreSQL (startServer's order).
    // Every progress step is written (no 250 ms throttle), so a test can watch a short run's bar move.
    const workers = await startBacktestWorkers({ pool, queue, log: jobLog, progressIntervalMs: 0 });
    cleanups.push(() => workers.stop());
    const sweepWorkers = await startSweepWorkers({ pool, queue, log: jobLog });
    cleanups.push(() => sweepWorkers.stop());
    // The paper runtime, as a worker runs it (without the simulated market: this world's history
    // ends on BROWSER_HISTORY.to), the demo world's paper replays of its last 40 sessions (advanced's
    // followed by basic), and the demo trader's saved basket.
    const runners = await startStrategyRunners({ pool, queue, log: jobLog });
    cleanups.push(() => runners.stop());
    await deployDemoPaperStrategies({ pool, queue, through: BROWSER_HISTORY.to, sessions: 40, market: false, log: (message) => logger.info(message) });
    await saveDemoBasket({ pool, nowMs: Date.now(), log: (message) => logger.info(message) });
    cleanups.push(() => app.close());
    await app.listen({ host: '127.0.0.1', port });

    project.provide('baseUrl', baseUrl);
    project.provide('mailUrl', mail.inboxUrl);
    project.provide('databaseUrl', databaseUrl);
    project.provide('adminSecret', adminSecret);
    project.provide('browserSetupError', '');
  } catch (error) {
    await teardown();
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`browser tests: the setup failed; every browser test will fail with:\n${message}\n`);
    for (const key of ['baseUrl', 'mailUrl', 'databaseUrl', 'adminSecret'] as const) project.provide(key, '');
    project.provide('browserSetupError', message);
  }
  return teardown;
}

/** The version a web build stamped into its version.json. */
function stampedVersion(distDir: string): string {
  const stamped = JSON.parse(readFileSync(join(distDir, 'version.json'), 'utf8')) as { version?: unknown };
  if (typeof stamped.version !== 'string' || stamped.version === '') throw new Error(`no version in ${join(distDir, 'version.json')}`);
  return stamped.version;
}

/** Newest modification time (ms) of a file or of anything under a folder; 0 when missing. */
function newestModification(path: string): number {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestModification(join(path, entry))), info.mtimeMs);
}

/**
 * The staleness rule of scripts/start.mjs: dist/version.json is the build's stamp, and the web
 * app's inputs are its own sources and config plus the pure packages it bundles and the lockfile.
 */
async function buildWebAppIfStale(): Promise<void> {
  const inputs = [
    join(WEB_DIR, 'src'), join(WEB_DIR, 'public'), join(WEB_DIR, 'index.html'), join(WEB_DIR, 'vite.config.ts'), join(WEB_DIR, 'package.json'),
    ...['core', 'market', 'engine'].map((name) => join(repoRoot, 'packages', name, 'src')),
    join(repoRoot, 'package-lock.json'),
  ];
  const stamp = join(webDistDir, 'version.json');
  const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
  if (builtAt >= Math.max(...inputs.map(newestModification))) return;
  const vite = join(repoRoot, 'node_modules', 'vite', 'bin', 'vite.js');
  const output = await new Promise<{ code: number | null; text: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
      cwd: WEB_DIR, stdio: ['ignore', 'pipe', 'pipe'],
      // Vitest sets NODE_ENV=test: that would build React's development bundles (larger, with dev warnings).
      env: { ...process.env, NODE_ENV: 'production', NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, text: Buffer.concat(chunks).toString('utf8') }));
  });
  if (output.code !== 0 || !existsSync(stamp)) {
    // The first errors say what is wrong; a broken tree can print thousands of lines after them.
    const plain = output.text.replace(/\x1b\[[0-9;]*m/g, '');
    const text = plain.length > 5000 ? `${plain.slice(0, 5000)}\n… (${plain.length - 5000} more characters)` : plain;
    throw new Error(`browser tests: building the web app failed (vite build in packages/web, exit ${output.code}):\n${text}`);
  }
}

/** A port free on 127.0.0.1 right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

interface MailServer {
  readonly smtpPort: number;
  readonly inboxUrl: string;
  close(): Promise<void>;
}

/**
 * The shared SMTP catcher (packages/server/test/helpers/mail-catcher.ts) and an HTTP inbox on
 * 127.0.0.1 over its mails: GET /mails (optionally ?to=ADDRESS, case-insensitive) answers the
 * mails in arrival order as JSON; DELETE /mails forgets them all.
 */
async function startMailServer(): Promise<MailServer> {
  const catcher = await startMailCatcher();
  const { mails } = catcher;
  const inbox = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/mails') {
      response.writeHead(404).end();
    } else if (request.method === 'GET') {
      const to = url.searchParams.get('to')?.toLowerCase();
      const body = JSON.stringify(to === undefined ? mails : mails.filter((mail) => mail.to === to));
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    } else if (request.method === 'DELETE') {
      mails.length = 0;
      response.writeHead(204).end();
    } else {
      response.writeHead(405).end();
    }
  });
  await listen(inbox);
  const inboxUrl = `http://127.0.0.1:${(inbox.address() as AddressInfo).port}`;
  return {
    smtpPort: catcher.port,
    inboxUrl,
    async close() {
      inbox.closeAllConnections();
      await new Promise<void>((resolve) => inbox.close(() => resolve()));
      await catcher.close();
    },
  };
}

function listen(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
}
