// The crash supervisor of `npm start`: a small parent process that runs `vyuha start` as its child
// and starts it again when it dies unexpectedly, so one crash (an out-of-memory kill, a bug that
// escapes every handler) does not take the platform down until someone notices.
//
// Rules (ARCHITECTURE.md, "Crash supervision"):
// - Any exit the supervisor did not ask for is a crash, except a clean exit (code 0: the server
//   was stopped on purpose) and the exit codes that would only fail again: 2 (a bad command line)
//   and 78 (bad configuration, a taken port, a data folder in use; packages/server/src/exit-codes.ts).
//   Those end the supervisor with the same code.
// - A crash is restarted after a delay that doubles from 1 s up to 30 s; once a child has been up
//   for 60 s the delay starts from 1 s again. Every exit and restart is one log line with the pid,
//   the exit code or signal and how long the child ran.
// - SIGINT and SIGTERM are forwarded to the child; when it exits, the supervisor exits with its
//   code and never restarts it. The child runs in its own process group, so a terminal's Ctrl+C
//   reaches it once, through the supervisor. Copies of one signal that arrive together (npm
//   forwards the one the terminal already sent) count once; a later second signal is forwarded
//   too and makes the child stop at once (its own rule).
// - The child is connected by an IPC channel; if the supervisor itself is killed, the channel
//   closes and the child stops cleanly (packages/server/src/commands/start.ts).
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The `vyuha` CLI the supervisor runs (`vyuha start`). */
export const VYUHA_BIN = join(root, 'packages', 'server', 'bin', 'vyuha.mjs');

/** Exit codes that mean "starting again would fail the same way": never restarted. */
export const FINAL_EXIT_CODES = new Map([
  [2, 'a bad command line'],
  [78, 'a configuration problem'],
]);

const SIGNAL_NUMBERS = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGSEGV: 11, SIGTERM: 15 };

/** Signals that arrive within this many milliseconds of the one before are copies of it. */
const SAME_SIGNAL_MS = 500;

/**
 * The delay before restart number `attempt` (1 for the first restart after a stable run).
 * @example restartDelayMs({ attempt: 3, minMs: 1000, maxMs: 30000 }) // 4000
 */
export function restartDelayMs({ attempt, minMs, maxMs }) {
  return Math.min(maxMs, minMs * 2 ** Math.max(0, attempt - 1));
}

/** "exited with code 1" / "was killed by SIGKILL". */
function describeExit(code, signal) {
  return signal ? `was killed by ${signal}` : `exited with code ${code}`;
}

/**
 * Runs `command args` and keeps it running; resolves with the exit code the supervisor should end
 * with. Options: `env`, `log` (one line each), `minDelayMs` (1000), `maxDelayMs` (30000),
 * `stableAfterMs` (60000).
 */
export function supervise({ command, args, env = process.env, log = (line) => process.stderr.write(`${line}\n`), minDelayMs = 1000, maxDelayMs = 30_000, stableAfterMs = 60_000 }) {
  return new Promise((resolve) => {
    let child;
    let childStartedAt = 0;
    let attempt = 0;
    let stopping;
    let lastSignalAt = -Infinity;
    let timer;

    const finish = (code) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(code);
    };

    const start = () => {
      timer = undefined;
      childStartedAt = Date.now();
      child = spawn(command, args, { env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], detached: true });
      const current = child;
      log(`supervisor: started the server (pid ${current.pid})`);
      current.once('error', (error) => {
        log(`supervisor: the server could not be started: ${error.message}`);
        // A process that never started emits no exit event.
        if (current.pid === undefined && current === child) {
          child = undefined;
          finish(1);
        }
      });
      current.once('exit', (code, signal) => onExit(current, code, signal));
    };

    const onExit = (exited, code, signal) => {
      if (exited !== child) return;
      child = undefined;
      const ranMs = Date.now() - childStartedAt;
      const ran = `after ${(ranMs / 1000).toFixed(1)} s`;
      const exitCode = signal ? 128 + (SIGNAL_NUMBERS[signal] ?? 0) : (code ?? 1);
      if (stopping) {
        log(`supervisor: the server (pid ${exited.pid}) ${describeExit(code, signal)} after ${stopping}; stopped`);
        finish(exitCode);
        return;
      }
      if (!signal && code === 0) {
        log(`supervisor: the server (pid ${exited.pid}) stopped on its own (code 0) ${ran}; not restarting`);
        finish(0);
        return;
      }
      const final = signal ? undefined : FINAL_EXIT_CODES.get(code);
      if (final !== undefined) {
        log(`supervisor: the server (pid ${exited.pid}) exited with code ${code} (${final}) ${ran}; not restarting: starting again would fail the same way`);
        finish(code);
        return;
      }
      attempt = ranMs >= stableAfterMs ? 1 : attempt + 1;
      const delay = restartDelayMs({ attempt, minMs: minDelayMs, maxMs: maxDelayMs });
      const wait = delay < 1000 ? `${delay} ms` : `${(delay / 1000).toFixed(1)} s`;
      log(`supervisor: the server (pid ${exited.pid}) ${describeExit(code, signal)} ${ran}; restarting in ${wait} (restart ${attempt} in a row)`);
      timer = setTimeout(start, delay);
    };

    function onSignal(signal) {
      const now = Date.now();
      const copy = now - lastSignalAt < SAME_SIGNAL_MS;
      lastSignalAt = now;
      if (copy) return;
      if (timer !== undefined) {
        // Waiting to restart: nothing is running, so there is nothing to stop.
        clearTimeout(timer);
        timer = undefined;
        log(`supervisor: ${signal} while waiting to restart; stopped`);
        finish(0);
        return;
      }
      stopping ??= signal;
      if (child?.pid === undefined) return;
      log(`supervisor: ${signal}: stopping the server (pid ${child.pid})`);
      try {
        process.kill(child.pid, signal);
      } catch {
        // Already gone: its exit event ends the supervisor.
      }
    }

    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    start();
  });
}

// `node scripts/supervisor.mjs [options of vyuha start]`: supervise `vyuha start` without the web
// build step of scripts/start.mjs.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await supervise({ command: process.execPath, args: [VYUHA_BIN, 'start', ...process.argv.slice(2)] });
}
