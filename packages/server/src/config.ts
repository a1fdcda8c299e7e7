import { isAbsolute, join, resolve } from 'node:path';
import { repoRoot } from './paths';

/** Everything the server reads from its environment, validated once at start. */
export interface ServerConfig {
  readonly host: string;
  readonly port: number;
  /** Where the embedded PostgreSQL and other local state live. */
  readonly dataDir: string;
  /** An external PostgreSQL (>= 15). When set, nothing is embedded. */
  readonly databaseUrl: string | undefined;
  readonly embeddedPostgresPort: number;
  /** Seed the demo world: on by default with the embedded database, off with DATABASE_URL. */
  readonly seedDemo: boolean;
  /** Generate the demo world's synthetic market history in the background (with the demo world; off: VYUHA_DEMO_HISTORY=0). */
  readonly demoHistory: boolean;
  readonly logLevel: string;
  /** ADMIN_SECRET: the GraphQL admin secret (`x-hasura-admin-secret`); undefined = refused. */
  readonly adminSecret: string | undefined;
  /** NODE_ENV=production: introspection only for administrators, no internal error details. */
  readonly production: boolean;
  /** VYUHA_ROLE: `all` (default) serves HTTP and runs job workers; `api` only HTTP; `worker` only workers (and /healthz). */
  readonly processRole: ProcessRole;
}

export type ProcessRole = 'all' | 'api' | 'worker';
const PROCESS_ROLES: readonly ProcessRole[] = ['all', 'api', 'worker'];

/** Bad configuration, named by its variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Reads and validates the configuration from environment variables. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const databaseUrl = nonEmpty(env.DATABASE_URL);
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  const dataDir = nonEmpty(env.DATA_DIR);
  const logLevel = nonEmpty(env.LOG_LEVEL) ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  const seedDemo = readSwitch({ name: 'VYUHA_DEMO', raw: env.VYUHA_DEMO, fallback: databaseUrl === undefined });
  return {
    host: nonEmpty(env.HOST) ?? '127.0.0.1',
    port: readPort(env, 'PORT', 8080),
    dataDir: dataDir ? (isAbsolute(dataDir) ? dataDir : resolve(dataDir)) : join(repoRoot, '.data'),
    databaseUrl,
    embeddedPostgresPort: readPort(env, 'VYUHA_PG_PORT', 54329),
    seedDemo,
    demoHistory: seedDemo && readSwitch({ name: 'VYUHA_DEMO_HISTORY', raw: env.VYUHA_DEMO_HISTORY, fallback: true }),
    logLevel,
    adminSecret: readAdminSecret(env.ADMIN_SECRET),
    production: env.NODE_ENV === 'production',
    processRole: readProcessRole(env.VYUHA_ROLE),
  };
}

function readAdminSecret(raw: string | undefined): string | undefined {
  const secret = nonEmpty(raw);
  // A short secret is guessable; refusing it at start beats running with it.
  if (secret !== undefined && secret.length < 16) throw new ConfigError('ADMIN_SECRET must be at least 16 characters');
  return secret;
}

function readProcessRole(raw: string | undefined): ProcessRole {
  const role = nonEmpty(raw) ?? 'all';
  if (!PROCESS_ROLES.includes(role as ProcessRole)) throw new ConfigError(`VYUHA_ROLE must be one of ${PROCESS_ROLES.join(', ')}, got "${role}"`);
  return role as ProcessRole;
}

function readPort(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`${name} must be a port number from 0 to 65535, got "${raw}"`);
  return port;
}

function readSwitch(input: { name: string; raw: string | undefined; fallback: boolean }): boolean {
  const value = nonEmpty(input.raw);
  if (value === undefined) return input.fallback;
  if (['1', 'true', 'yes'].includes(value)) return true;
  if (['0', 'false', 'no'].includes(value)) return false;
  throw new ConfigError(`${input.name} must be 1 or 0, got "${value}"`);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
