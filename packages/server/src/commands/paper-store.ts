// Where `vyuha paper` keeps what its replay writes: the PAPER run row of a CLI user (on the
// configured database for --symbol), and a throwaway database for --data (created on the same
// PostgreSQL server, migrated, dropped afterwards, also when the run fails).
//
// - The CLI user. One users row named 'vyuha paper (CLI)' (tier advanced), made the first time and
//   found by its e-mail afterwards. It has no password or sign-in method: nobody signs in as it.
// - The run row. kind PAPER, no strategy, IN PROGRESS while the replay runs, with `lease_owner`
//   and a heartbeat every second, so the strategy runners of a server on the same database
//   (strategy-runners.ts: they take over PAPER runs whose heartbeat is older than 15 s) leave it
//   alone. It ends COMPLETE with the bars processed, or ERROR with the reason. Its params say
//   what the CLI asked for; they are not a deployable configuration, so were the CLI killed, a
//   worker that took the run over would end it in ERROR, not trade it.
import { randomBytes } from 'node:crypto';
import type { IsoDate } from '@vyuha/core';
import type { BacktestResult, CompiledAlgorithm } from '@vyuha/engine';
import pg from 'pg';
import { readConfig } from '../config';
import type { EmbeddedPostgres } from '../db/embedded-postgres';
import type { ReplaySpeed } from '../trading/feeds/replay-request';
import { runPaperReplay } from '../trading/runner/replay-run';
import type { PreparedPaperReplay } from '../trading/runner/replay-run';

const CLI_USER_EMAIL = 'vyuha-paper-cli@localhost.invalid';
const CLI_USER_NAME = 'vyuha paper (CLI)';
const HEARTBEAT_MS = 1_000;

/** The CLI user's id, made on first use. */
export async function cliUserId(pool: pg.Pool): Promise<string> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // Two CLI runs starting at once must not make two users.
    await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('vyuha.paper-cli-user', 0))`);
    const found = await client.query<{ id: string }>('SELECT id FROM auth.users WHERE email = $1', [CLI_USER_EMAIL]);
    let userId = found.rows[0]?.id;
    if (userId === undefined) {
      const made = await client.query<{ id: string }>(
        `INSERT INTO auth.users (email, display_name, default_role) VALUES ($1, $2, 'advanced') RETURNING id`, [CLI_USER_EMAIL, CLI_USER_NAME]);
      userId = made.rows[0]!.id;
    }
    await client.query(`INSERT INTO users (user_id, name, tier) VALUES ($1, $2, 'advanced') ON CONFLICT (user_id) DO NOTHING`,
      [userId, CLI_USER_NAME]);
    await client.query('COMMIT');
    return userId;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

export interface CliPaperRun {
  /** The signal instrument (the one whose stored candles are replayed). */
  readonly instrumentId: number;
  readonly prepared: PreparedPaperReplay;
  readonly program: CompiledAlgorithm;
  readonly intervalMinutes: number;
  readonly replay: { readonly from: IsoDate; readonly to: IsoDate; readonly speed: ReplaySpeed };
  /** What the command line asked for, kept in the run's params. */
  readonly asked: Record<string, unknown>;
  /** Aborted with a StopReason (replay-run.ts) when the user interrupts the CLI. */
  readonly signal?: AbortSignal;
}

/** What a CLI replay ended with: the run row and the stepped kernel's result. */
export interface CliPaperOutcome {
  readonly runId: string;
  readonly result: BacktestResult;
  /** The replay was interrupted before its last bar. */
  readonly stopped: boolean;
}

type CliRunStatus = 'COMPLETE' | 'COMPLETE: SQUARED OFF' | 'ERROR';

async function endCliRun(pool: pg.Pool, request: { runId: string; status: CliRunStatus; reason: string | null; candles: number }): Promise<void> {
  await pool.query(
    `UPDATE strategy_runs SET status = $2, status_reason = $3, error = $3, candles = $4,
       progress = CASE WHEN $2 LIKE 'COMPLETE%' THEN 100 ELSE progress END, finished_at = greatest(now(), started_at), lease_owner = NULL, heartbeat_at = NULL
     WHERE run_id = $1 AND status = 'IN PROGRESS'`, [request.runId, request.status, request.reason, request.candles]);
}

/** Replays a prepared range through the paper runtime under a new PAPER run of the CLI user. */
export async function runOnPaper(pool: pg.Pool, run: CliPaperRun): Promise<CliPaperOutcome> {
  const userId = await cliUserId(pool);
  const owner = `vyuha paper (CLI, pid ${process.pid})`;
  const { instrumentId, intervalMinutes, replay, asked } = run;
  const params = { mode: 'PAPER', source: 'vyuha paper', instrumentId, intervalMinutes, replay, asked };
  const { rows } = await pool.query<{ run_id: string }>(
    `INSERT INTO strategy_runs (user_id, kind, params, lease_owner, heartbeat_at) VALUES ($1, 'PAPER', $2, $3, now()) RETURNING run_id`,
    [userId, JSON.stringify(params), owner]);
  const runId = rows[0]!.run_id;
  const beat = setInterval(() => {
    void pool.query('UPDATE strategy_runs SET heartbeat_at = now() WHERE run_id = $1', [runId]).catch(() => undefined);
  }, HEARTBEAT_MS);
  try {
    const outcome = await runPaperReplay({
      pool, runId, userId, strategyId: null, algoId: null, instrumentId: run.instrumentId, prepared: run.prepared, program: run.program,
      intervalMinutes: run.intervalMinutes, replay: run.replay, ...(run.signal === undefined ? {} : { signal: run.signal }),
    });
    const processed = outcome.result.candlesProcessed;
    if (!outcome.stopped && processed !== run.prepared.series.length) {
      // The feed and the candle builder rebuild every prepared bar; anything else is a bug, not a result to print.
      throw new Error(`the paper runtime processed ${processed} of the ${run.prepared.series.length} prepared bars`);
    }
    clearInterval(beat);
    const status = outcome.squaredOff > 0 ? 'COMPLETE: SQUARED OFF' : 'COMPLETE';
    await endCliRun(pool, { runId, status, reason: outcome.stopped ? 'interrupted' : null, candles: processed });
    return { runId, result: outcome.result, stopped: outcome.stopped };
  } catch (error) {
    clearInterval(beat);
    await endCliRun(pool, { runId, status: 'ERROR', reason: (error as Error).message, candles: 0 }).catch(() => undefined);
    throw error;
  }
}

/** A database of the configured server (or the embedded one) that exists only while `work` runs. */
export async function withThrowawayDatabase<T>(work: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const config = readConfig();
  const [{ default: pino }, { startEmbeddedPostgres }, { loadMigrations, migrate }, { migrationsDir }] = await Promise.all([
    import('pino'), import('../db/embedded-postgres'), import('../db/migrate'), import('../paths'),
  ]);
  // stderr: stdout carries only what `vyuha backtest` prints.
  const logger = pino({ level: config.logLevel }, pino.destination(2));
  let embedded: EmbeddedPostgres | undefined;
  let serverUrl = config.databaseUrl;
  if (serverUrl === undefined) {
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPostgresPort, log: (message) => logger.info(message) });
    serverUrl = embedded.urlFor('postgres');
  }
  const name = `vyuha_paper_${randomBytes(6).toString('hex')}`;
  try {
    // Any database of the server can create another; DATABASE_URL's own is the one we know we may reach.
    await serverQuery(serverUrl, `CREATE DATABASE ${pg.escapeIdentifier(name)}`).catch((error: unknown) => {
      throw new Error(`vyuha paper --data needs a temporary database on the PostgreSQL server, and creating one failed: ${(error as Error).message}`);
    });
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const pool = new pg.Pool({ connectionString: url.toString(), max: 4 });
    let dropping = false;
    // Dropping the database ends whatever connection is still closing; only a loss before that is news.
    pool.on('error', (error) => dropping || logger.warn(`database connection lost: ${error.message}`));
    try {
      await migrate(pool, await loadMigrations(migrationsDir));
      return await work(pool);
    } finally {
      dropping = true;
      await pool.end();
      await serverQuery(serverUrl, `DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    }
  } finally {
    await embedded?.stop();
  }
}

async function serverQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
