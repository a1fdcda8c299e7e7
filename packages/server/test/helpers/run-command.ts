/**
 * Runs a `vyuha` command in the test's own process and collects what it printed, so a command test
 * can check the exit code and the exact text without spawning the CLI (helpers/cli-process.ts does
 * that when the process boundary itself is under test).
 */
import { vi } from 'vitest';
import type { CliCommand } from '../../src/commands/command';

export interface CommandRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `command` with `args`; stdout and stderr are captured, not shown, and restored afterwards.
 * @example const { code, stdout } = await runCommand(chargesCommand, ['--help']);
 */
export async function runCommand(command: Pick<CliCommand, 'run'>, args: readonly string[]): Promise<CommandRun> {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => out.push(String(chunk)) > 0);
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => err.push(String(chunk)) > 0);
  try {
    const code = await command.run(args);
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}
