// `npm start` as a test runs it: scripts/start.mjs (web build check, then the supervisor) or
// scripts/supervisor.mjs alone, as a real process with its output collected, plus waiting for a
// line of that output. The server tests (npm-start-*.test.ts) and the browser walk-through
// (tests/browser/first-hour.test.ts) share it.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../../src/paths';
import type { CliProcess } from './cli-process';

export const START_SCRIPT = join(repoRoot, 'scripts', 'start.mjs');
export const SUPERVISOR_SCRIPT = join(repoRoot, 'scripts', 'supervisor.mjs');
/** `npx vyuha` itself. */
export const VYUHA_BIN = join(repoRoot, 'packages', 'server', 'bin', 'vyuha.mjs');

/**
 * Settings a test run may have in its own environment that `npm start` on a newcomer's machine
 * would not: the browser tests' global setup sets AUTH_WEBAUTHN_* for its shared server, Vitest
 * sets NODE_ENV=test (a web build under it would be React's development build).
 */
const NOT_A_NEWCOMERS = /^(AUTH_|SMTP_|HASURA_|KITE_|VYUHA_|ADMIN_SECRET$|DATABASE_URL$|DATA_DIR$|PORT$|HOST$|NODE_ENV$|LOG_LEVEL$)/;

/** This process's environment without the variables above: what a fresh shell would pass. */
export function newcomerEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !NOT_A_NEWCOMERS.test(name)));
}

/**
 * Runs a Node script of the repository (cwd: the repository root) with the test's environment on
 * top of this process's (or, with `clean`, of newcomerEnvironment()).
 */
export function runScript(script: string, options: { env: NodeJS.ProcessEnv; args?: readonly string[]; clean?: boolean }): CliProcess {
  const child = spawn(process.execPath, [script, ...(options.args ?? [])], {
    cwd: repoRoot,
    env: { ...(options.clean === true ? newcomerEnvironment() : process.env), LOG_LEVEL: 'warn', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, output: () => output, exited };
}

/**
 * Waits until the output holds `count` matches of `pattern` (a global regex) and returns the last
 * one; fails with the whole output when the process ends first or the time runs out.
 */
export async function waitForOutput(watched: CliProcess, options: { pattern: RegExp; count?: number; timeoutMs?: number }): Promise<RegExpExecArray> {
  const { pattern } = options;
  if (!pattern.global) throw new Error('waitForOutput needs a global pattern (/.../g)');
  const count = options.count ?? 1;
  const timeoutMs = options.timeoutMs ?? 90_000;
  const deadline = Date.now() + timeoutMs;
  let ended = false;
  void watched.exited.then(() => (ended = true));
  for (;;) {
    const matches = [...watched.output().matchAll(pattern)];
    const match = matches[count - 1];
    if (match) return match as RegExpExecArray;
    if (ended) throw new Error(`the process ended before ${pattern} appeared ${count} time(s):\n${watched.output()}`);
    if (Date.now() > deadline) throw new Error(`${pattern} did not appear ${count} time(s) within ${timeoutMs} ms:\n${watched.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
