import { parseArgs, type ParseArgsConfig } from 'node:util';

/** One `vyuha` command, loaded only when it runs so that `vyuha --help` stays instant. */
export interface CliCommand {
  /** Words that select it, e.g. `market expiries`. */
  readonly name: string;
  /** Full usage text shown by `vyuha <name> --help` and on a usage error. */
  readonly usage: string;
  /** Resolves to the process exit code. `args` are the words after the name. */
  run(args: readonly string[]): Promise<number>;
}

/** The command line itself is wrong: exit code 2, the message and the command's usage. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * Parses `--flag value` options strictly: an unknown flag or a missing value is a UsageError
 * that names it, never a silent default.
 */
export function parseOptions<T extends Options>(args: readonly string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({ args: [...args], options, strict: true, allowPositionals });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** A required option, as text; absent gives a UsageError naming it. */
export function requireOption(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

/** A finite number from an option, or a UsageError naming the option and the bad text. */
export function numberOption(values: Record<string, unknown>, name: string): number {
  const text = requireOption(values, name);
  const value = Number(text);
  if (!Number.isFinite(value)) throw new UsageError(`--${name} must be a number, got "${text}"`);
  return value;
}

export function print(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}
