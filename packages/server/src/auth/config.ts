import { ConfigError } from '../config';
import { readListenPort, type ListenPort } from './listen-port';

/** HASURA_GRAPHQL_JWT_SECRET, parsed. RS256 without `key` means "keys generated and kept in the database". */
export type JwtSettings =
  | { readonly type: 'HS256'; readonly key: string; readonly issuer: string; readonly claimsNamespace: string }
  | { readonly type: 'RS256'; readonly key: string | undefined; readonly signingKey: string | undefined; readonly issuer: string; readonly claimsNamespace: string };

/** One rate-limit rule: at most `burst` hits per `intervalSeconds` window. */
export interface RateLimitRule {
  readonly burst: number;
  readonly intervalSeconds: number;
}

/** The buckets of hasura-auth's AUTH_RATE_LIMIT_* variables, plus `token` (POST /token; ours: AUTH_RATE_LIMIT_TOKEN_*). */
export type RateLimitBucket = 'global' | 'email' | 'sms' | 'bruteForce' | 'signups' | 'token';

export interface SmtpSettings {
  readonly host: string;
  readonly port: number;
  readonly user: string | undefined;
  readonly password: string | undefined;
  readonly secure: boolean;
  readonly sender: string;
}

export type ElevatedClaimMode = 'disabled' | 'recommended' | 'required';

/** Everything the auth service reads from its environment, validated once at start. */
export interface AuthConfig {
  /**
   * The port the server answers at (PORT); with PORT=0 the bound one once the server listens.
   * serverUrl, clientUrl and ownOrigins are read through it when they default to it (listen-port.ts).
   */
  readonly listenPort: ListenPort;
  /** Public URL of the auth service, used in e-mailed links (AUTH_SERVER_URL). */
  readonly serverUrl: string;
  /** Default redirect target and the first allowed redirect prefix (AUTH_CLIENT_URL). */
  readonly clientUrl: string;
  readonly allowedRedirectUrls: readonly string[];
  /**
   * The server's own origins, always allowed as redirect targets: http://127.0.0.1:PORT,
   * http://localhost:PORT, http://HOST:PORT for a HOST that names one address, and the origin of
   * AUTH_SERVER_URL. So the README's own address works without configuring anything.
   */
  readonly ownOrigins: readonly string[];
  readonly accessTokenExpiresIn: number;
  readonly refreshTokenExpiresIn: number;
  readonly passwordMinLength: number;
  readonly passwordMaxLength: number;
  readonly emailVerifiedRequired: boolean;
  readonly disableSignup: boolean;
  readonly anonymousUsersEnabled: boolean;
  readonly concealErrors: boolean;
  readonly requireElevatedClaim: ElevatedClaimMode;
  readonly userDefaultRole: string;
  readonly userDefaultAllowedRoles: readonly string[];
  readonly allowedLocales: readonly string[];
  readonly defaultLocale: string;
  /** Claim name (without the x-hasura- prefix) -> dotted path into the user (AUTH_JWT_CUSTOM_CLAIMS). */
  readonly customClaims: Readonly<Record<string, string>>;
  readonly jwt: JwtSettings;
  /** Encrypts generated private keys at rest (AUTH_SIGNING_KEY_ENCRYPTION_SECRET); undefined = stored in clear. */
  readonly signingKeyEncryptionSecret: string | undefined;
  readonly rateLimitEnabled: boolean;
  readonly rateLimits: Readonly<Record<RateLimitBucket, RateLimitRule>>;
  /** undefined = every message goes to auth.outbox. */
  readonly smtp: SmtpSettings | undefined;
  /** Lifetime of e-mailed tickets (verify e-mail, reset password, change e-mail, magic link). */
  readonly ticketExpiresIn: number;
  /** The longest a personal access token may live, seconds (AUTH_PAT_MAX_LIFETIME, default 365 days). */
  readonly patMaxLifetimeSeconds: number;
  /** Failed sign-ins slow down, never lock (auth/signin-throttle.ts). */
  readonly signInThrottle: SignInThrottleSettings;
}

/** Consecutive failures answered at once, then waits of 1, 2, 4, ... seconds up to the cap. */
export interface SignInThrottleSettings {
  /** AUTH_SIGNIN_FREE_FAILURES, default 5. */
  readonly freeFailures: number;
  /** AUTH_SIGNIN_MAX_DELAY, default 15m. */
  readonly maxDelaySeconds: number;
}

const TRUE_WORDS = ['1', 'true', 'yes'];
const FALSE_WORDS = ['0', 'false', 'no'];
const DURATION_UNITS: Readonly<Record<string, number>> = { ms: 0.001, s: 1, m: 60, h: 3600 };

/** Reads and validates the auth configuration; a bad value throws a ConfigError naming its variable. */
export function readAuthConfig(env: NodeJS.ProcessEnv = process.env): AuthConfig {
  const listenPort = readListenPort(env.PORT);
  const host = text(env, 'HOST');
  const givenServerUrl = url(env, 'AUTH_SERVER_URL');
  const givenClientUrl = url(env, 'AUTH_CLIENT_URL');
  // Functions of the port, read when used: with PORT=0 it is known only once the server listens.
  const serverUrl = () => trimSlash(givenServerUrl ?? `http://localhost:${listenPort.current}/v1/auth`);
  const clientUrl = () => trimSlash(givenClientUrl ?? new URL(serverUrl()).origin);
  const passwordMinLength = integer(env, 'AUTH_PASSWORD_MIN_LENGTH', { fallback: 9, min: 1, max: 256 });
  const userDefaultAllowedRoles = list(env, 'AUTH_USER_DEFAULT_ALLOWED_ROLES') ?? ['trial', 'user', 'me'];
  const userDefaultRole = text(env, 'AUTH_USER_DEFAULT_ROLE') ?? 'trial';
  if (!userDefaultAllowedRoles.includes(userDefaultRole)) {
    throw new ConfigError(`AUTH_USER_DEFAULT_ROLE "${userDefaultRole}" must be one of AUTH_USER_DEFAULT_ALLOWED_ROLES (${userDefaultAllowedRoles.join(', ')})`);
  }
  const allowedLocales = list(env, 'AUTH_LOCALE_ALLOWED_LOCALES') ?? ['en'];
  const defaultLocale = text(env, 'AUTH_LOCALE_DEFAULT') ?? 'en';
  if (!allowedLocales.includes(defaultLocale)) throw new ConfigError(`AUTH_LOCALE_DEFAULT "${defaultLocale}" must be one of AUTH_LOCALE_ALLOWED_LOCALES`);
  return {
    listenPort,
    get serverUrl() {
      return serverUrl();
    },
    get clientUrl() {
      return clientUrl();
    },
    allowedRedirectUrls: list(env, 'AUTH_ACCESS_CONTROL_ALLOWED_REDIRECT_URLS') ?? [],
    get ownOrigins() {
      return ownOrigins({ port: String(listenPort.current), host, serverUrl: serverUrl() });
    },
    accessTokenExpiresIn: integer(env, 'AUTH_ACCESS_TOKEN_EXPIRES_IN', { fallback: 900, min: 10, max: 86_400 }),
    refreshTokenExpiresIn: integer(env, 'AUTH_REFRESH_TOKEN_EXPIRES_IN', { fallback: 2_592_000, min: 60, max: 31_536_000 }),
    passwordMinLength,
    passwordMaxLength: 256,
    emailVerifiedRequired: flag(env, 'AUTH_EMAIL_SIGNIN_EMAIL_VERIFIED_REQUIRED', true),
    disableSignup: flag(env, 'AUTH_DISABLE_SIGNUP', false),
    anonymousUsersEnabled: flag(env, 'AUTH_ANONYMOUS_USERS_ENABLED', false),
    concealErrors: flag(env, 'AUTH_CONCEAL_ERRORS', false),
    requireElevatedClaim: oneOf(env, 'AUTH_REQUIRE_ELEVATED_CLAIM', { choices: ['disabled', 'recommended', 'required'], fallback: 'disabled' }),
    userDefaultRole,
    userDefaultAllowedRoles,
    allowedLocales,
    defaultLocale,
    customClaims: customClaims(env),
    jwt: jwtSettings(env),
    signingKeyEncryptionSecret: text(env, 'AUTH_SIGNING_KEY_ENCRYPTION_SECRET'),
    rateLimitEnabled: flag(env, 'AUTH_RATE_LIMIT_ENABLE', true),
    rateLimits: {
      // An office behind one address signs in, refreshes and loads profiles through this: 1000 a minute.
      global: rateRule(env, 'GLOBAL', { burst: 1000, intervalSeconds: 60 }),
      email: rateRule(env, 'EMAIL', { burst: 10, intervalSeconds: 3600 }),
      sms: rateRule(env, 'SMS', { burst: 10, intervalSeconds: 3600 }),
      // Failed sign-ins per address (successes are not counted): 100 per 5 minutes.
      bruteForce: rateRule(env, 'BRUTE_FORCE', { burst: 100, intervalSeconds: 300 }),
      signups: rateRule(env, 'SIGNUPS', { burst: 10, intervalSeconds: 300 }),
      token: rateRule(env, 'TOKEN', { burst: 600, intervalSeconds: 60 }),
    },
    smtp: smtpSettings(env),
    ticketExpiresIn: integer(env, 'AUTH_TICKET_EXPIRES_IN', { fallback: 3600, min: 60, max: 2_592_000 }),
    patMaxLifetimeSeconds: boundedDuration(env, 'AUTH_PAT_MAX_LIFETIME', { fallback: 365 * 86_400, min: 60, max: 10 * 365 * 86_400 }),
    signInThrottle: {
      freeFailures: integer(env, 'AUTH_SIGNIN_FREE_FAILURES', { fallback: 5, min: 1, max: 1000 }),
      maxDelaySeconds: boundedDuration(env, 'AUTH_SIGNIN_MAX_DELAY', { fallback: 900, min: 1, max: 86_400 }),
    },
  };
}

function jwtSettings(env: NodeJS.ProcessEnv): JwtSettings {
  const raw = text(env, 'HASURA_GRAPHQL_JWT_SECRET');
  const defaults = { issuer: 'hasura-auth', claimsNamespace: 'https://hasura.io/jwt/claims' };
  if (raw === undefined) return { type: 'RS256', key: undefined, signingKey: undefined, ...defaults };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError('HASURA_GRAPHQL_JWT_SECRET must be JSON, e.g. {"type":"HS256","key":"<32+ characters>"}');
  }
  if (typeof parsed !== 'object' || parsed === null) throw new ConfigError('HASURA_GRAPHQL_JWT_SECRET must be a JSON object');
  const secret = parsed as Record<string, unknown>;
  const issuer = optionalString(secret, 'issuer') ?? defaults.issuer;
  const claimsNamespace = optionalString(secret, 'claims_namespace') ?? defaults.claimsNamespace;
  const key = optionalString(secret, 'key');
  if (secret.type === 'HS256') {
    if (key === undefined || key.length < 32) throw new ConfigError('HASURA_GRAPHQL_JWT_SECRET.key must be at least 32 characters for HS256');
    return { type: 'HS256', key, issuer, claimsNamespace };
  }
  if (secret.type === 'RS256') {
    const signingKey = optionalString(secret, 'signing_key');
    if ((key === undefined) !== (signingKey === undefined)) {
      throw new ConfigError('HASURA_GRAPHQL_JWT_SECRET needs both "key" (public PEM) and "signing_key" (private PEM) for RS256, or neither (keys kept in the database)');
    }
    return { type: 'RS256', key, signingKey, issuer, claimsNamespace };
  }
  throw new ConfigError(`HASURA_GRAPHQL_JWT_SECRET.type must be "HS256" or "RS256", got ${JSON.stringify(secret.type)}`);
}

function optionalString(object: Record<string, unknown>, field: string): string | undefined {
  const value = object[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new ConfigError(`HASURA_GRAPHQL_JWT_SECRET.${field} must be a non-empty string`);
  return value;
}

function customClaims(env: NodeJS.ProcessEnv): Record<string, string> {
  const raw = text(env, 'AUTH_JWT_CUSTOM_CLAIMS');
  if (raw === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError('AUTH_JWT_CUSTOM_CLAIMS must be a JSON object of claim name -> user path, e.g. {"organisation":"metadata.organisation"}');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ConfigError('AUTH_JWT_CUSTOM_CLAIMS must be a JSON object');
  const claims: Record<string, string> = {};
  for (const [name, path] of Object.entries(parsed)) {
    if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new ConfigError(`AUTH_JWT_CUSTOM_CLAIMS: claim name "${name}" may only hold letters, digits, _ and -`);
    if (typeof path !== 'string' || !/^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/.test(path)) throw new ConfigError(`AUTH_JWT_CUSTOM_CLAIMS.${name} must be a dotted path such as "metadata.organisation"`);
    claims[name] = path;
  }
  return claims;
}

function smtpSettings(env: NodeJS.ProcessEnv): SmtpSettings | undefined {
  const host = text(env, 'SMTP_HOST');
  if (host === undefined) return undefined;
  const secure = flag(env, 'SMTP_SECURE', false);
  return {
    host,
    port: integer(env, 'SMTP_PORT', { fallback: secure ? 465 : 587, min: 1, max: 65_535 }),
    user: text(env, 'SMTP_USER'),
    password: text(env, 'SMTP_PASS'),
    secure,
    sender: text(env, 'SMTP_SENDER') ?? 'Vyuha <no-reply@vyuha.local>',
  };
}

function rateRule(env: NodeJS.ProcessEnv, name: string, fallback: RateLimitRule): RateLimitRule {
  return {
    burst: integer(env, `AUTH_RATE_LIMIT_${name}_BURST`, { fallback: fallback.burst, min: 1, max: 1_000_000 }),
    intervalSeconds: duration(env, `AUTH_RATE_LIMIT_${name}_INTERVAL`) ?? fallback.intervalSeconds,
  };
}

/** hasura-auth writes intervals as Go durations ("5m", "1h30m"); plain numbers are seconds. */
function duration(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = text(env, name);
  if (raw === undefined) return undefined;
  if (/^\d+$/.test(raw)) return Number(raw);
  const parts = [...raw.matchAll(/(\d+)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== raw) throw new ConfigError(`${name} must be a duration such as 30s, 5m or 1h, got "${raw}"`);
  const seconds = parts.reduce((total, part) => total + Number(part[1]) * (DURATION_UNITS[part[2] ?? 's'] ?? 1), 0);
  if (seconds < 1) throw new ConfigError(`${name} must be at least 1s, got "${raw}"`);
  return seconds;
}

/** A duration (seconds or Go style, see `duration`) within a range. */
function boundedDuration(env: NodeJS.ProcessEnv, name: string, range: { fallback: number; min: number; max: number }): number {
  const seconds = duration(env, name);
  if (seconds === undefined) return range.fallback;
  if (seconds < range.min || seconds > range.max) throw new ConfigError(`${name} must be from ${range.min}s to ${range.max}s, got "${text(env, name) ?? ''}"`);
  return seconds;
}

function integer(env: NodeJS.ProcessEnv, name: string, range: { fallback: number; min: number; max: number }): number {
  const raw = text(env, name);
  if (raw === undefined) return range.fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < range.min || value > range.max) {
    throw new ConfigError(`${name} must be a whole number from ${range.min} to ${range.max}, got "${raw}"`);
  }
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = text(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (TRUE_WORDS.includes(raw)) return true;
  if (FALSE_WORDS.includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, options: { choices: readonly T[]; fallback: T }): T {
  const { choices, fallback } = options;
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  const found = choices.find((choice) => choice === raw);
  if (found === undefined) throw new ConfigError(`${name} must be one of ${choices.join(', ')}, got "${raw}"`);
  return found;
}

function url(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = text(env, name);
  if (raw === undefined) return undefined;
  try {
    const parsed = new URL(raw);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('protocol');
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  }
  return raw;
}

function list(env: NodeJS.ProcessEnv, name: string): string[] | undefined {
  const raw = text(env, name);
  if (raw === undefined) return undefined;
  return raw.split(',').map((item) => item.trim()).filter((item) => item !== '');
}

function text(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** Hosts that mean "every address" (nothing to redirect to) or are already in the list. */
const NOT_AN_ORIGIN_HOST = new Set(['0.0.0.0', '::', '[::]', '127.0.0.1', 'localhost']);

/**
 * The origins the server answers at on this machine, for the redirect allow list.
 * @example ownOrigins({ port: '8080', host: undefined, serverUrl: 'http://localhost:8080/v1/auth' }) // ['http://127.0.0.1:8080', 'http://localhost:8080']
 */
function ownOrigins(input: { port: string; host: string | undefined; serverUrl: string }): string[] {
  const origins = [`http://127.0.0.1:${input.port}`, `http://localhost:${input.port}`];
  const { host } = input;
  if (host !== undefined && !NOT_AN_ORIGIN_HOST.has(host)) origins.push(`http://${host.includes(':') ? `[${host}]` : host}:${input.port}`);
  origins.push(new URL(input.serverUrl).origin);
  return [...new Set(origins)];
}

function trimSlash(value: string): string {
  return value.replace(/\/+$/, '');
}
