import type { AuthConfig } from './config';
import type { User } from './context';
import type { AccessTokenClaims } from './jwt';
import { windowClaims } from './tier-windows';

/** Everything the claims are made of. */
export interface ClaimSource {
  readonly user: User;
  readonly permissions: readonly string[];
  readonly elevated: boolean;
  readonly nowSeconds: number;
  /** The PAT of a PAT session: `x-hasura-auth-pat-id`, and the token expires no later than it. */
  readonly pat?: { readonly id: string; readonly expiresAtSeconds: number };
  /** The refresh-token family holding a password-reset grant: `x-hasura-auth-password-reset`. */
  readonly passwordResetFamily?: string;
  /** When the session's interactive sign-in happened, epoch seconds: the token's `auth_time`. */
  readonly signedInAtSeconds?: number;
}

/**
 * A Postgres array literal, as Hasura reads list claims.
 * @example postgresArrayLiteral(['strategy:backtest', 'strategy:deploy']) -> '{"strategy:backtest","strategy:deploy"}'
 */
export function postgresArrayLiteral(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/[\\"]/g, (match) => `\\${match}`)}"`).join(',')}}`;
}

/** The access-token payload of docs/AUTH-CONTRACT.md's JWT layout plus Vyuha's claims. */
export function buildAccessClaims(source: ClaimSource, config: AuthConfig): AccessTokenClaims {
  const { user } = source;
  const hasura: Record<string, unknown> = {};
  // Custom claims first: the defaults below overwrite any clash (docs/AUTH-CONTRACT.md: cannot overwrite defaults).
  for (const [name, path] of Object.entries(config.customClaims)) {
    const value = readPath(user, path);
    if (value !== undefined && value !== null) hasura[`x-hasura-${name}`] = claimString(value);
  }
  for (const [name, date] of Object.entries(windowClaims(user.defaultRole))) hasura[`x-hasura-${name}`] = date;
  hasura['x-hasura-allowed-roles'] = [...new Set([...user.roles, user.defaultRole])];
  hasura['x-hasura-default-role'] = user.defaultRole;
  hasura['x-hasura-user-id'] = user.id;
  hasura['x-hasura-user-is-anonymous'] = String(user.isAnonymous);
  hasura['x-hasura-permissions'] = postgresArrayLiteral(source.permissions);
  if (source.elevated) hasura['x-hasura-auth-elevated'] = user.id;
  if (source.pat) hasura['x-hasura-auth-pat-id'] = source.pat.id;
  if (source.passwordResetFamily !== undefined) hasura['x-hasura-auth-password-reset'] = source.passwordResetFamily;
  return {
    sub: user.id,
    iss: config.jwt.issuer,
    iat: source.nowSeconds,
    exp: accessTokenExpiry(source, config),
    // OpenID Connect's name for "when the user authenticated": a refreshed token keeps its session's.
    ...(source.signedInAtSeconds === undefined ? {} : { auth_time: source.signedInAtSeconds }),
    [config.jwt.claimsNamespace]: hasura,
  };
}

/**
 * When an access token expires: AUTH_ACCESS_TOKEN_EXPIRES_IN after issue, and never after the PAT
 * of a PAT session. @example accessTokenExpiry({nowSeconds: 100, pat: {id, expiresAtSeconds: 400}}, {accessTokenExpiresIn: 900}) -> 400
 */
export function accessTokenExpiry(source: Pick<ClaimSource, 'nowSeconds' | 'pat'>, config: Pick<AuthConfig, 'accessTokenExpiresIn'>): number {
  const normal = source.nowSeconds + config.accessTokenExpiresIn;
  return source.pat ? Math.min(normal, source.pat.expiresAtSeconds) : normal;
}

function readPath(value: unknown, path: string): unknown {
  let current = value;
  for (const step of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[step];
  }
  return current;
}

/** Hasura claims are strings; lists become Postgres array literals. */
function claimString(value: unknown): string {
  if (Array.isArray(value)) return postgresArrayLiteral(value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))));
  return typeof value === 'string' ? value : JSON.stringify(value);
}
