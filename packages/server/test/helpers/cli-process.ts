import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { probePort } from '../../src/db/process-info';
import { repoRoot } from '../../src/paths';

const CLI = join(repoRoot, 'packages', 'server', 'bin', 'vyuha.mjs');

/** A `vyuha` CLI process of the test's own, with its output collected. */
export interface CliProcess {
  readonly child: ChildProcess;
  output(): string;
  /** Resolves with the exit code (or signal) when the process ends. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function runCli(args: string[], options: { env: NodeJS.ProcessEnv; uid?: number; gid?: number }): CliProcess {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'warn', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.gid ?? options.uid }),
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, output: () => output, exited };
}

/** Waits for the "is running" line; fails with the process output if it exits or takes too long. */
export async function waitForRunning(cli: CliProcess, timeoutMs = 90_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let ended = false;
  void cli.exited.then(() => (ended = true));
  while (Date.now() < deadline) {
    const match = /Vyuha is running at (\S+)/.exec(cli.output());
    if (match?.[1]) return match[1];
    if (ended) throw new Error(`vyuha exited before it was running:\n${cli.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`vyuha was not running after ${timeoutMs} ms:\n${cli.output()}`);
}

export async function freePort(): Promise<number> {
  const probe = await probePort('127.0.0.1', 0);
  if (!probe.free) throw new Error('no free port');
  return probe.port;
}

/** The pid PostgreSQL wrote into its lock file, if the file is there. */
export async function postmasterPid(dataDir: string): Promise<number | undefined> {
  const text = await readFile(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').catch(() => undefined);
  const pid = Number(text?.split('\n')[0]);
  return pid || undefined;
}

export async function embeddedUrl(dataDir: string, port: number): Promise<string> {
  const { password } = JSON.parse(await readFile(join(dataDir, 'postgres-credentials.json'), 'utf8')) as { password: string };
  return `postgres://vyuha:${encodeURIComponent(password)}@127.0.0.1:${port}/vyuha`;
}

/**
 * Waits for `promise`, but at most `timeoutMs`: then fails naming what it waited for, with the
 * process's output so far, instead of leaving the test to its timeout with nothing to read.
 */
export async function within<T>(promise: Promise<T>, wait: { timeoutMs: number; what: string; cli: CliProcess }): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${wait.what}: not done after ${wait.timeoutMs} ms. Output of vyuha so far:\n${wait.cli.output()}`)), wait.timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
