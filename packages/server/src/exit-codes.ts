// The exit codes of `vyuha`, and which failures would only fail again. The crash supervisor of
// `npm start` (scripts/supervisor.mjs) restarts the server after a crash but not after these, and
// a systemd unit can say the same with RestartPreventExitStatus=78 (README.md, "Production").

/** Success. */
export const EXIT_OK = 0;
/** Anything else that went wrong (a crash, a failed migration, a database that went away). */
export const EXIT_FAILURE = 1;
/** The command line is wrong (an unknown command or option). */
export const EXIT_USAGE = 2;
/** sysexits.h's EX_CONFIG: the configuration or the machine refuses the start; retrying cannot help. */
export const EXIT_CONFIGURATION = 78;

/**
 * Errors that name something the operator must change before a start can work: a bad variable,
 * a port another program holds, a data folder another Vyuha owns. Matched by name so that this
 * file imports none of the modules that throw them (the CLI loads commands lazily).
 */
const CONFIGURATION_ERRORS: ReadonlySet<string> = new Set([
  'ConfigError', 'HttpPortInUseError', 'PortInUseError', 'DataDirInUseError',
  'SmsConfigError', 'WebauthnConfigError', 'OAuthConfigError',
]);

/**
 * The exit code for an error that ended a command.
 * @example exitCodeFor(new ConfigError('PORT must be a port number')) // 78
 */
export function exitCodeFor(error: unknown): number {
  return error instanceof Error && CONFIGURATION_ERRORS.has(error.name) ? EXIT_CONFIGURATION : EXIT_FAILURE;
}
