// The OAuth / OpenID Connect providers Vyuha can sign in with, read from hasura-auth's variable
// names. GitHub and Google are presets with their published endpoints; `oidc` is any OpenID
// provider, found through its discovery document.

/** The provider ids the routes accept (`/signin/provider/:provider`). */
export type OAuthProviderId = 'github' | 'google' | 'oidc';

export const OAUTH_PROVIDER_IDS: readonly OAuthProviderId[] = ['github', 'google', 'oidc'];

/** Where a provider's endpoints are. `jwksUri` and `issuer` exist for OpenID providers only. */
export interface ProviderEndpoints {
  readonly authorization: string;
  readonly token: string;
  readonly userinfo?: string;
  readonly jwksUri?: string;
  /** Accepted `iss` values of ID tokens (Google has two spellings). */
  readonly issuers?: readonly string[];
}

/** One enabled provider. */
export interface OAuthProviderSettings {
  readonly id: OAuthProviderId;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scopes: readonly string[];
  /** How the client authenticates at the token endpoint (RFC 6749 section 2.3.1). */
  readonly clientAuthentication: 'basic' | 'post';
  /** `openid`: ID token + userinfo; `github`: GitHub's REST user and e-mail APIs. */
  readonly protocol: 'openid' | 'github';
  /** Known endpoints (presets), or undefined: discover them from `issuer`. */
  readonly endpoints?: ProviderEndpoints;
  readonly issuer?: string;
}

/** Bad provider configuration, naming the variable. */
export class OAuthConfigError extends Error {
  override readonly name = 'OAuthConfigError';
}

const GITHUB_ENDPOINTS: ProviderEndpoints = {
  authorization: 'https://github.com/login/oauth/authorize',
  token: 'https://github.com/login/oauth/access_token',
  userinfo: 'https://api.github.com/user',
};

const GOOGLE_ENDPOINTS: ProviderEndpoints = {
  authorization: 'https://accounts.google.com/o/oauth2/v2/auth',
  token: 'https://oauth2.googleapis.com/token',
  userinfo: 'https://openidconnect.googleapis.com/v1/userinfo',
  jwksUri: 'https://www.googleapis.com/oauth2/v3/certs',
  issuers: ['https://accounts.google.com', 'accounts.google.com'],
};

/**
 * The enabled providers. GitHub and Google need AUTH_PROVIDER_<NAME>_ENABLED=true plus a client
 * id and secret; the generic provider is on when AUTH_PROVIDER_OIDC_ISSUER is set.
 */
export function readOAuthProviders(env: Readonly<Record<string, string | undefined>>): Map<OAuthProviderId, OAuthProviderSettings> {
  const providers = new Map<OAuthProviderId, OAuthProviderSettings>();
  if (enabled(env, 'GITHUB')) {
    providers.set('github', {
      id: 'github',
      ...credentials(env, 'GITHUB'),
      scopes: scopes(env, 'GITHUB', ['read:user', 'user:email']),
      clientAuthentication: 'post',
      protocol: 'github',
      endpoints: GITHUB_ENDPOINTS,
    });
  }
  if (enabled(env, 'GOOGLE')) {
    providers.set('google', {
      id: 'google',
      ...credentials(env, 'GOOGLE'),
      scopes: scopes(env, 'GOOGLE', ['openid', 'email', 'profile']),
      clientAuthentication: 'basic',
      protocol: 'openid',
      endpoints: GOOGLE_ENDPOINTS,
    });
  }
  const issuer = nonEmpty(env.AUTH_PROVIDER_OIDC_ISSUER);
  if (issuer !== undefined && env.AUTH_PROVIDER_OIDC_ENABLED?.trim() !== 'false') {
    if (!/^https?:\/\/[^\s]+$/.test(issuer)) throw new OAuthConfigError(`AUTH_PROVIDER_OIDC_ISSUER must be an http(s) URL, got "${issuer}"`);
    const requested = scopes(env, 'OIDC', ['openid', 'email', 'profile']);
    providers.set('oidc', {
      id: 'oidc',
      ...credentials(env, 'OIDC'),
      // Without `openid` there is no ID token, and the nonce check would silently vanish.
      scopes: requested.includes('openid') ? requested : ['openid', ...requested],
      clientAuthentication: env.AUTH_PROVIDER_OIDC_TOKEN_AUTH?.trim() === 'post' ? 'post' : 'basic',
      protocol: 'openid',
      issuer: issuer.replace(/\/+$/, ''),
    });
  }
  return providers;
}

function enabled(env: Readonly<Record<string, string | undefined>>, name: string): boolean {
  const raw = nonEmpty(env[`AUTH_PROVIDER_${name}_ENABLED`]);
  if (raw === undefined || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw new OAuthConfigError(`AUTH_PROVIDER_${name}_ENABLED must be true or false, got "${raw}"`);
}

function credentials(env: Readonly<Record<string, string | undefined>>, name: string): { clientId: string; clientSecret: string } {
  const clientId = nonEmpty(env[`AUTH_PROVIDER_${name}_CLIENT_ID`]);
  const clientSecret = nonEmpty(env[`AUTH_PROVIDER_${name}_CLIENT_SECRET`]);
  if (clientId === undefined) throw new OAuthConfigError(`AUTH_PROVIDER_${name}_CLIENT_ID is required when the ${name.toLowerCase()} provider is enabled`);
  if (clientSecret === undefined) throw new OAuthConfigError(`AUTH_PROVIDER_${name}_CLIENT_SECRET is required when the ${name.toLowerCase()} provider is enabled`);
  return { clientId, clientSecret };
}

function scopes(env: Readonly<Record<string, string | undefined>>, name: string, fallback: readonly string[]): readonly string[] {
  const raw = nonEmpty(env[`AUTH_PROVIDER_${name}_SCOPE`]);
  return raw === undefined ? fallback : raw.split(/[\s,]+/).filter((scope) => scope !== '');
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** Parses a provider id from the URL, or undefined when it is not one Vyuha knows. */
export function parseProviderId(raw: string): OAuthProviderId | undefined {
  return OAUTH_PROVIDER_IDS.find((id) => id === raw);
}
