import { execFileSync } from 'node:child_process';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProcessAlive, waitForExit } from '../src/db/process-info';
import { embeddedUrl, freePort, postmasterPid, runCli, waitForRunning, within, type CliProcess } from './helpers/cli-process';

// The whole CLI, as `npm start` runs it, against its own data folder and ports.

/** The process's exit, at most 20 s after the test asked for it (it takes 1-3 s), else a failure with the process's output: inside the test's 60 s. */
const exitOf = (cli: CliProcess, what: string): CliProcess['exited'] => within(cli.exited, { timeoutMs: 20_000, what, cli });

let dataDir: string;
let env: NodeJS.ProcessEnv;
let pgPort: number;
const started: CliProcess[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'vyuha-restart-'));
  await chmod(dataDir, 0o755);
  pgPort = await freePort();
  // The background market history has a test of its own (demo-history.test.ts); here it would only add minutes of CPU.
  env = { DATA_DIR: dataDir, PORT: String(await freePort()), VYUHA_PG_PORT: String(pgPort), VYUHA_DEMO_HISTORY: '0' };
});

afterAll(async () => {
  for (const cli of started) cli.child.kill('SIGKILL');
  const pid = await postmasterPid(dataDir);
  if (pid && isProcessAlive(pid)) process.kill(pid, 'SIGQUIT');
  await rm(dataDir, { recursive: true, force: true });
});

async function start(): Promise<{ cli: CliProcess; url: string }> {
  const cli = runCli(['start'], { env });
  started.push(cli);
  return { cli, url: await waitForRunning(cli) };
}

async function query<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: await embeddedUrl(dataDir, pgPort) });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('the embedded database across crashes', () => {
  it('starts, survives kill -9 of the server (and of both processes) with the data intact, and stops cleanly', async () => {
    const first = await start();
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
    expect(first.cli.output()).toContain('Demo sign-in: <role>@demo.vyuha.in / vyuha-demo-2026');
    await query('CREATE TABLE restart_marker (note text)');
    await query("INSERT INTO restart_marker VALUES ('written before kill -9')");
    const users = await query<{ n: number }>('SELECT count(*)::int AS n FROM auth.users');

    // 1. The server dies hard; its PostgreSQL lives on as an orphan.
    const orphan = await postmasterPid(dataDir);
    first.cli.child.kill('SIGKILL');
    await exitOf(first.cli, 'the exit after kill -9');
    expect(orphan && isProcessAlive(orphan)).toBe(true);

    const second = await start();
    expect((await fetch(`${second.url}/healthz`)).status).toBe(200);
    expect(isProcessAlive(orphan!)).toBe(false);
    expect(await query('SELECT note FROM restart_marker')).toEqual([{ note: 'written before kill -9' }]);
    expect(await query('SELECT count(*)::int AS n FROM auth.users')).toEqual(users);

    // 2. Both die hard: a stale postmaster.pid and an unclean shutdown to recover from.
    const server = await postmasterPid(dataDir);
    second.cli.child.kill('SIGKILL');
    process.kill(server!, 'SIGKILL');
    await exitOf(second.cli, 'the exit after kill -9');
    expect(await waitForExit(server!, 5_000)).toBe(true);
    expect(await postmasterPid(dataDir)).toBe(server);

    const third = await start();
    expect((await fetch(`${third.url}/healthz`)).status).toBe(200);
    expect(await query('SELECT note FROM restart_marker')).toEqual([{ note: 'written before kill -9' }]);

    // 3. A polite stop takes PostgreSQL down with it.
    const last = await postmasterPid(dataDir);
    third.cli.child.kill('SIGTERM');
    expect(await exitOf(third.cli, 'the exit after SIGTERM')).toEqual({ code: 0, signal: null });
    expect(isProcessAlive(last!)).toBe(false);
    expect(await postmasterPid(dataDir)).toBeUndefined();
  });

  it('refuses a second Vyuha on the same data folder with a clear message', async () => {
    const first = await start();
    const second = runCli(['start'], { env: { ...env, PORT: String(await freePort()) } });
    expect((await exitOf(second, 'the refusal of a second Vyuha')).code).toBe(78);
    expect(second.output()).toMatch(/Another Vyuha process \(pid \d+\) is using this data folder/);
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
    first.cli.child.kill('SIGTERM');
    await exitOf(first.cli, 'the exit after SIGTERM');
  });
});

describe('ports that are taken', () => {
  let blocker: ReturnType<typeof createServer>;
  let blockedPort: number;
  beforeAll(async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    blockedPort = (blocker.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => blocker.close(() => resolve())));

  it('explains a taken PostgreSQL port', async () => {
    const cli = runCli(['start'], { env: { ...env, VYUHA_PG_PORT: String(blockedPort) } });
    expect((await exitOf(cli, 'the refusal of a taken PostgreSQL port')).code).toBe(78);
    expect(cli.output()).toContain(`PostgreSQL cannot listen on 127.0.0.1:${blockedPort}: another program is using that port`);
  });

  it('explains a taken HTTP port and leaves no PostgreSQL behind', async () => {
    const cli = runCli(['start'], { env: { ...env, PORT: String(blockedPort) } });
    expect((await exitOf(cli, 'the refusal of a taken HTTP port')).code).toBe(78);
    expect(cli.output()).toContain(`Port ${blockedPort} on 127.0.0.1 is already in use by another program`);
    expect(await postmasterPid(dataDir)).toBeUndefined();
  });
});

describe('as an ordinary user', () => {
  it('starts without root (as nobody, when the tests run as root)', async () => {
    const asRoot = process.getuid?.() === 0;
    const uid = asRoot ? Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' })) : undefined;
    const gid = asRoot ? Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' })) : undefined;
    const ownDir = await mkdtemp(join(tmpdir(), 'vyuha-user-'));
    if (uid !== undefined && gid !== undefined) await chown(ownDir, uid, gid);
    const ownEnv = { DATA_DIR: ownDir, PORT: String(await freePort()), VYUHA_PG_PORT: String(await freePort()), VYUHA_DEMO: '0' };
    const cli = runCli(['start'], { env: ownEnv, ...(uid === undefined ? {} : { uid, ...(gid === undefined ? {} : { gid }) }) });
    try {
      const url = await waitForRunning(cli);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const owner = Number(execFileSync('stat', ['-c', '%u', join(ownDir, 'pg')], { encoding: 'utf8' }));
      expect(owner).toBe(uid ?? process.getuid?.());
    } finally {
      cli.child.kill('SIGTERM');
      await exitOf(cli, 'the exit after SIGTERM');
      await rm(ownDir, { recursive: true, force: true });
    }
  });
});
