// Crash supervision: `npm start` ran the server in its own process, so a crash ended the platform
// until someone noticed. Now scripts/supervisor.mjs runs `vyuha start` as a child and restarts it
// after a crash, with a backoff, and never after a configuration error; signals stop everything.
// Real processes throughout: the supervisor, the server, the embedded PostgreSQL in a temp folder.
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProcessAlive, waitForExit } from '../src/db/process-info';
import { freePort, postmasterPid, within, type CliProcess } from './helpers/cli-process';
import { runScript, SUPERVISOR_SCRIPT, waitForOutput } from './helpers/supervised-process';

const STARTED = /supervisor: started the server \(pid (\d+)\)/g;
const RUNNING = /Vyuha is running at (\S+)/g;

let dataDir: string;
let env: NodeJS.ProcessEnv;
const supervisors: CliProcess[] = [];

beforeAll(async () => {
  // Outside /root: as root, PostgreSQL runs as the postgres user (ARCHITECTURE.md).
  dataDir = await mkdtemp(join(tmpdir(), 'vyuha-supervised-'));
  await chmod(dataDir, 0o755);
  env = { DATA_DIR: dataDir, PORT: String(await freePort()), VYUHA_PG_PORT: String(await freePort()), VYUHA_DEMO_HISTORY: '0' };
});

afterAll(async () => {
  for (const supervisor of supervisors) supervisor.child.kill('SIGKILL');
  const pid = await postmasterPid(dataDir);
  if (pid && isProcessAlive(pid)) process.kill(pid, 'SIGQUIT');
  await rm(dataDir, { recursive: true, force: true });
});

function supervise(extraEnv: NodeJS.ProcessEnv = {}): CliProcess {
  const supervisor = runScript(SUPERVISOR_SCRIPT, { env: { ...env, ...extraEnv } });
  supervisors.push(supervisor);
  return supervisor;
}

/** The supervisor's exit, at most 30 s after the test asked for it (it takes 1-5 s), else a failure with its output: inside the tests' 60-240 s. */
function exitOf(supervisor: CliProcess): CliProcess['exited'] {
  return within(supervisor.exited, { timeoutMs: 30_000, what: "the supervisor's exit", cli: supervisor });
}

/** The pid of the n-th child the supervisor started. */
async function childPid(supervisor: CliProcess, n: number): Promise<number> {
  return Number((await waitForOutput(supervisor, { pattern: STARTED, count: n }))[1]);
}

async function healthz(url: string): Promise<number> {
  return (await fetch(`${url}/healthz`)).status;
}

describe('the supervised server of npm start', () => {
  it('comes back from kill -9 under a new pid, backs off on a second quick crash, and SIGTERM stops everything', async () => {
    const supervisor = supervise();
    const first = await childPid(supervisor, 1);
    const url = (await waitForOutput(supervisor, { pattern: RUNNING }))[1] ?? '';
    expect(await healthz(url)).toBe(200);

    process.kill(first, 'SIGKILL');
    const second = await childPid(supervisor, 2);
    expect(second).not.toBe(first);
    await waitForOutput(supervisor, { pattern: RUNNING, count: 2 });
    expect(await healthz(url)).toBe(200);
    expect(supervisor.output()).toMatch(new RegExp(`the server \\(pid ${first}\\) was killed by SIGKILL after [\\d.]+ s; restarting in 1\\.0 s \\(restart 1 in a row\\)`));

    // A crash soon after a restart waits twice as long (its PostgreSQL, left running, is recovered by the next start).
    process.kill(second, 'SIGKILL');
    const third = await childPid(supervisor, 3);
    expect(supervisor.output()).toMatch(new RegExp(`the server \\(pid ${second}\\) was killed by SIGKILL after [\\d.]+ s; restarting in 2\\.0 s \\(restart 2 in a row\\)`));
    await waitForOutput(supervisor, { pattern: RUNNING, count: 3 });
    expect(await healthz(url)).toBe(200);

    const postgres = await postmasterPid(dataDir);
    supervisor.child.kill('SIGTERM');
    expect(await exitOf(supervisor)).toEqual({ code: 0, signal: null });
    expect(supervisor.output()).toContain(`supervisor: SIGTERM: stopping the server (pid ${third})`);
    expect(isProcessAlive(third)).toBe(false);
    expect(postgres !== undefined && isProcessAlive(postgres)).toBe(false);
    expect(await postmasterPid(dataDir)).toBeUndefined();
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    expect([...supervisor.output().matchAll(STARTED)]).toHaveLength(3);
  }, 240_000);

  it("stops cleanly on Ctrl+C delivered twice at once (the terminal's and npm's copy), without restarting", async () => {
    const supervisor = supervise();
    const pid = await childPid(supervisor, 1);
    await waitForOutput(supervisor, { pattern: RUNNING });
    supervisor.child.kill('SIGINT');
    supervisor.child.kill('SIGINT');
    // Exit code 0: one graceful stop, not the "second signal means now" exit (130).
    expect(await exitOf(supervisor)).toEqual({ code: 0, signal: null });
    expect(supervisor.output().match(/SIGINT: stopping Vyuha/g)).toHaveLength(1);
    expect(isProcessAlive(pid)).toBe(false);
    expect(await postmasterPid(dataDir)).toBeUndefined();
  });

  it('leaves no server behind when the supervisor itself is killed', async () => {
    const supervisor = supervise();
    const pid = await childPid(supervisor, 1);
    await waitForOutput(supervisor, { pattern: RUNNING });
    const postgres = await postmasterPid(dataDir);
    supervisor.child.kill('SIGKILL');
    await exitOf(supervisor);
    expect(await waitForExit(pid, 30_000)).toBe(true);
    expect(postgres !== undefined && await waitForExit(postgres, 10_000)).toBe(true);
    expect(await postmasterPid(dataDir)).toBeUndefined();
  });
});

describe('a stop while the server is still starting', () => {
  it('waits for the start to finish, then stops cleanly, leaving no PostgreSQL behind', async () => {
    // A data folder of its own: the first start's initdb gives a window of seconds to stop in.
    const fresh = await mkdtemp(join(tmpdir(), 'vyuha-supervised-early-'));
    await chmod(fresh, 0o755);
    try {
      const supervisor = supervise({ DATA_DIR: fresh, LOG_LEVEL: 'info' });
      const pid = await childPid(supervisor, 1);
      await waitForOutput(supervisor, { pattern: /creating a PostgreSQL/g });
      supervisor.child.kill('SIGTERM');
      expect(await exitOf(supervisor)).toEqual({ code: 0, signal: null });
      expect(supervisor.output()).toContain('SIGTERM: stopping Vyuha as soon as it has started');
      expect(supervisor.output()).not.toContain('Vyuha is running at');
      expect(isProcessAlive(pid)).toBe(false);
      expect(await postmasterPid(fresh)).toBeUndefined();
      expect([...supervisor.output().matchAll(STARTED)]).toHaveLength(1);
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('what the supervisor does not restart', () => {
  it('a configuration error: exit 78 after one attempt, naming the variable', async () => {
    const supervisor = supervise({ PORT: 'eighty' });
    expect(await exitOf(supervisor)).toEqual({ code: 78, signal: null });
    expect(supervisor.output()).toContain('configuration: PORT must be a port number');
    expect(supervisor.output()).toMatch(/exited with code 78 \(a configuration problem\) after [\d.]+ s; not restarting/);
    expect([...supervisor.output().matchAll(STARTED)]).toHaveLength(1);
  });

  it('a taken HTTP port: exit 78 after one attempt, and no PostgreSQL left running', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const supervisor = supervise({ PORT: String(port) });
      expect(await exitOf(supervisor)).toEqual({ code: 78, signal: null });
      expect(supervisor.output()).toContain(`Port ${port} on 127.0.0.1 is already in use by another program`);
      expect([...supervisor.output().matchAll(STARTED)]).toHaveLength(1);
      expect(await postmasterPid(dataDir)).toBeUndefined();
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });
});

describe('the backoff, with a child that crashes on cue', () => {
  it('doubles the delay up to the cap, starts again from the minimum after a stable run, and stops at exit 78', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'vyuha-backoff-'));
    try {
      const counter = join(folder, 'runs');
      await writeFile(counter, '0');
      // Runs 1-5 crash at once; run 6 stays up longer than "stable" (2 s: far above a Node start on a
      // loaded machine, so a quick crash is never mistaken for a stable run); run 7 crashes; run 8
      // reports bad configuration.
      const child = `const fs = require('node:fs'); const run = Number(fs.readFileSync(${JSON.stringify(counter)}, 'utf8')) + 1;
        fs.writeFileSync(${JSON.stringify(counter)}, String(run));
        if (run === 6) setTimeout(() => process.exit(3), 2500); else process.exit(run === 8 ? 78 : 1);`;
      const harness = `import { supervise } from ${JSON.stringify(pathToFileURL(SUPERVISOR_SCRIPT).href)};
        process.exitCode = await supervise({ command: process.execPath, args: ['-e', ${JSON.stringify(child)}],
          minDelayMs: 50, maxDelayMs: 400, stableAfterMs: 2000, log: (line) => console.log(line) });`;
      const run = runScript('--input-type=module', { env: {}, args: ['-e', harness] });
      expect(await exitOf(run)).toEqual({ code: 78, signal: null });
      const delays = [...run.output().matchAll(/restarting in (\d+) ms \(restart (\d+) in a row\)/g)].map((match) => `${match[1]}/${match[2]}`);
      // 50, 100, 200, 400, then the 400 ms cap; run 6 was stable, so its crash restarts from 50; then 78 ends it.
      expect(delays).toEqual(['50/1', '100/2', '200/3', '400/4', '400/5', '50/1', '100/2']);
      expect(run.output()).toMatch(/exited with code 3 after [2-9]\.\d s; restarting in 50 ms/);
      expect(run.output()).toMatch(/exited with code 78 \(a configuration problem\) after [\d.]+ s; not restarting/);
      expect(await readFile(counter, 'utf8')).toBe('8');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
