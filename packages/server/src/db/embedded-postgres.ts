import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chown, mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { firstUnreachableAncestor, locatePostgresBinaries, type PostgresBinaries } from './postgres-binaries';
import { isProcessAlive, probePort, processCommandLine, sleep, waitForExit } from './process-info';

export interface EmbeddedPostgresOptions {
  /** Folder holding the cluster (`pg/`), its credentials, its log and the owner's pid. */
  readonly dataDir: string;
  /** TCP port on 127.0.0.1; 0 picks a free one. */
  readonly port: number;
  /** `fast` turns off fsync: only for throwaway test clusters. */
  readonly durability?: 'safe' | 'fast';
  readonly log?: (message: string) => void;
}

/** A PostgreSQL server this process started and owns. */
export interface EmbeddedPostgres {
  readonly port: number;
  readonly version: string;
  /** A connection URL for the named database on this server. */
  urlFor(database: string): string;
  stop(): Promise<void>;
}

/** The TCP port PostgreSQL should listen on belongs to another program. */
export class PortInUseError extends Error {
  override readonly name = 'PortInUseError';
}

/** Another running Vyuha already owns the data folder. */
export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
}

const SUPERUSER = 'vyuha';
const HOST = '127.0.0.1';
const READY_TIMEOUT_MS = 60_000;

/**
 * Starts (creating on first use) the PostgreSQL cluster under `dataDir`. It recovers from a
 * previous run that was killed: a server left running by a dead owner is shut down cleanly and a
 * stale `postmaster.pid` is removed, so the data is intact and the next start just works.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const log = options.log ?? (() => undefined);
  const binaries = await locatePostgresBinaries();
  const paths = clusterPaths(options.dataDir);
  await prepareDataDir(options.dataDir, binaries);
  await claimOwnership(paths.ownerPid);
  await stopLeftoverServer(paths.cluster, log);
  const credentials = await readOrCreateCredentials(paths.credentials);
  if (!(await isInitialised(paths.cluster))) {
    log(`creating a PostgreSQL ${serverVersion(binaries.version)} cluster in ${paths.cluster}`);
    await initialiseCluster({ binaries, paths, password: credentials.password });
  }
  const port = await choosePort(options.port);
  const child = await spawnServer({ binaries, paths, port, durability: options.durability ?? 'safe' });
  const exitOnCrash = () => child.kill('SIGINT');
  process.once('exit', exitOnCrash);
  const url = (database: string) =>
    `postgres://${SUPERUSER}:${encodeURIComponent(credentials.password)}@${HOST}:${port}/${encodeURIComponent(database)}`;
  await waitUntilReady({ child, url: url('postgres'), logFile: paths.log });
  log(`PostgreSQL ${serverVersion(binaries.version)} is listening on ${HOST}:${port}`);
  return {
    port,
    version: serverVersion(binaries.version),
    urlFor: url,
    async stop() {
      process.removeListener('exit', exitOnCrash);
      await stopChild(child);
      await rm(paths.ownerPid, { force: true });
    },
  };
}

interface ClusterPaths {
  readonly cluster: string;
  readonly credentials: string;
  readonly log: string;
  readonly ownerPid: string;
}

function clusterPaths(dataDir: string): ClusterPaths {
  return {
    cluster: join(dataDir, 'pg'),
    credentials: join(dataDir, 'postgres-credentials.json'),
    log: join(dataDir, 'postgres.log'),
    ownerPid: join(dataDir, 'vyuha.pid'),
  };
}

async function prepareDataDir(dataDir: string, binaries: PostgresBinaries): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o755 });
  if (!binaries.runAs) return;
  const blocked = await firstUnreachableAncestor(dataDir);
  if (blocked) {
    throw new Error(
      `The data folder ${dataDir} is inside ${blocked}, which the '${binaries.runAs.name}' OS user cannot enter ` +
        `(PostgreSQL refuses to run as root, so it runs as that user). Set DATA_DIR to a folder outside ${blocked}, ` +
        `for example DATA_DIR=/var/lib/vyuha, or run Vyuha as an ordinary user.`,
    );
  }
}

/** Refuses to share a data folder with another live Vyuha process. */
async function claimOwnership(ownerPidFile: string): Promise<void> {
  const previous = Number((await readFile(ownerPidFile, 'utf8').catch(() => '')).trim());
  if (previous && previous !== process.pid && isProcessAlive(previous)) {
    const command = (await processCommandLine(previous)) ?? '';
    if (command.includes('node')) {
      throw new DataDirInUseError(`Another Vyuha process (pid ${previous}) is using this data folder. Stop it first, or set DATA_DIR to another folder.`);
    }
  }
  await writeFile(ownerPidFile, `${process.pid}\n`);
}

/** After `kill -9` of the owner, its PostgreSQL keeps running (or leaves a stale pid file). */
async function stopLeftoverServer(clusterDir: string, log: (message: string) => void): Promise<void> {
  const pidFile = join(clusterDir, 'postmaster.pid');
  const firstLine = (await readFile(pidFile, 'utf8').catch(() => '')).split('\n')[0] ?? '';
  const pid = Number(firstLine.trim());
  if (!pid) return;
  const command = isProcessAlive(pid) ? await processCommandLine(pid) : undefined;
  if (!command || !command.includes('postgres')) {
    log(`removing a stale postmaster.pid left by a PostgreSQL that is no longer running (pid ${pid})`);
    await rm(pidFile, { force: true });
    return;
  }
  log(`stopping the PostgreSQL left running by an earlier Vyuha run (pid ${pid})`);
  // SIGINT is PostgreSQL's "fast" shutdown: roll back open transactions, checkpoint, exit.
  for (const [signal, waitMs] of [['SIGINT', 20_000], ['SIGQUIT', 5_000], ['SIGKILL', 5_000]] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      break;
    }
    if (await waitForExit(pid, waitMs)) break;
  }
  if (isProcessAlive(pid)) throw new Error(`Could not stop the leftover PostgreSQL (pid ${pid}); stop it by hand and start again.`);
  await rm(pidFile, { force: true });
}

async function readOrCreateCredentials(file: string): Promise<{ password: string }> {
  try {
    const saved = JSON.parse(await readFile(file, 'utf8')) as { password?: unknown };
    if (typeof saved.password === 'string' && saved.password.length > 0) return { password: saved.password };
  } catch {
    // First start: fall through and create them.
  }
  const password = randomBytes(24).toString('base64url');
  await writeFile(file, JSON.stringify({ user: SUPERUSER, password }, null, 2), { mode: 0o600 });
  return { password };
}

async function isInitialised(clusterDir: string): Promise<boolean> {
  return stat(join(clusterDir, 'PG_VERSION')).then(() => true, () => false);
}

/** initdb into a side folder and rename it into place, so a killed initdb never leaves half a cluster. */
async function initialiseCluster(input: { binaries: PostgresBinaries; paths: ClusterPaths; password: string }): Promise<void> {
  const { binaries, paths } = input;
  const staging = `${paths.cluster}.initialising`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { mode: 0o700 });
  const passwordFile = join(tmpdir(), `vyuha-pg-password-${randomBytes(6).toString('hex')}`);
  await writeFile(passwordFile, `${input.password}\n`, { mode: 0o600 });
  try {
    if (binaries.runAs) {
      await chown(staging, binaries.runAs.uid, binaries.runAs.gid);
      await chown(passwordFile, binaries.runAs.uid, binaries.runAs.gid);
    }
    const args = [`--pgdata=${staging}`, `--username=${SUPERUSER}`, `--pwfile=${passwordFile}`, '--auth=scram-sha-256', '--encoding=UTF8', '--no-locale', '--no-instructions'];
    const { code, output } = await runToEnd(join(binaries.binDir, 'initdb'), args, binaries);
    if (code !== 0) throw new Error(`initdb failed (exit ${code}):\n${output.trim()}`);
  } finally {
    await rm(passwordFile, { force: true });
  }
  await rename(staging, paths.cluster);
}

function runToEnd(program: string, args: string[], binaries: PostgresBinaries): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { ...runAsOptions(binaries), env: postgresEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

async function choosePort(requested: number): Promise<number> {
  const probe = await probePort(HOST, requested);
  if (probe.free) return probe.port;
  throw new PortInUseError(
    `PostgreSQL cannot listen on ${HOST}:${requested}: another program is using that port. ` +
      `Stop it, set VYUHA_PG_PORT to a free port, or set DATABASE_URL to use your own PostgreSQL.`,
  );
}

async function spawnServer(input: { binaries: PostgresBinaries; paths: ClusterPaths; port: number; durability: 'safe' | 'fast' }): Promise<ChildProcess> {
  const { binaries, paths, port } = input;
  const settings: Record<string, string> = {
    listen_addresses: HOST,
    unix_socket_directories: '',
    max_connections: '200',
    ...(input.durability === 'fast' ? { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' } : {}),
  };
  const args = ['-D', paths.cluster, '-p', String(port), ...Object.entries(settings).flatMap(([key, value]) => ['-c', `${key}=${value}`])];
  // The server writes to a file, not a pipe to us: if we die, it must not die of a broken pipe.
  const logHandle = await open(paths.log, 'a');
  if (binaries.runAs) await chown(paths.log, binaries.runAs.uid, binaries.runAs.gid);
  try {
    return spawn(join(binaries.binDir, 'postgres'), args, { ...runAsOptions(binaries), env: postgresEnv(), stdio: ['ignore', logHandle.fd, logHandle.fd] });
  } finally {
    await logHandle.close();
  }
}

async function waitUntilReady(input: { child: ChildProcess; url: string; logFile: string }): Promise<void> {
  const logStart = await stat(input.logFile).then((s) => s.size, () => 0);
  let exited: string | undefined;
  input.child.once('exit', (code, signal) => (exited = `exit code ${code ?? 'none'}, signal ${signal ?? 'none'}`));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`PostgreSQL stopped while starting (${exited}). Its log says:\n${await logTail(input.logFile, logStart)}`);
    const client = new pg.Client({ connectionString: input.url, connectionTimeoutMillis: 2_000 });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
      await sleep(100);
    }
  }
  input.child.kill('SIGINT');
  throw new Error(`PostgreSQL did not accept connections within ${READY_TIMEOUT_MS / 1000} s. Its log says:\n${await logTail(input.logFile, logStart)}`);
}

async function logTail(file: string, from: number): Promise<string> {
  const text = (await readFile(file, 'utf8').catch(() => '')).slice(from);
  return text.trim().split('\n').slice(-20).join('\n') || '(nothing)';
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGINT');
  // PostgreSQL's fast shutdown takes well under a second; SIGQUIT only if it hangs.
  const escalation = setTimeout(() => child.kill('SIGQUIT'), 30_000);
  await exited;
  clearTimeout(escalation);
}

function runAsOptions(binaries: PostgresBinaries): { uid?: number; gid?: number } {
  return binaries.runAs ? { uid: binaries.runAs.uid, gid: binaries.runAs.gid } : {};
}

/** English messages, so that logs read the same on every machine. */
function postgresEnv(): NodeJS.ProcessEnv {
  return { ...process.env, LC_ALL: 'C', LANG: 'C' };
}

/** The npm package version is `<postgres version>-beta.<wrapper release>`; people want the first part. */
function serverVersion(packageVersion: string): string {
  return packageVersion.split('-')[0]?.replace(/\.0$/, '') ?? packageVersion;
}
