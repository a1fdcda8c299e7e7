import { createHash, randomBytes } from 'node:crypto';
import { IdTokenError, verifyIdToken, type PublishedKey } from './id-token';
import type { OAuthProviderSettings, ProviderEndpoints } from './providers';

// The relying-party half of the authorization-code flow with PKCE (RFC 7636) and, for OpenID
// providers, nonce-bound ID tokens. Everything that talks to the provider lives here so that the
// routes only deal with Vyuha's users.

/** A failure of the flow, with the docs/AUTH-CONTRACT.md code the callback redirects with. */
export class OAuthFlowError extends Error {
  override readonly name = 'OAuthFlowError';
  constructor(
    readonly code: 'invalid-state' | 'oauth-token-echange-failed' | 'oauth-profile-fetch-failed' | 'oauth-provider-error',
    message: string,
  ) {
    super(message);
  }
}

/** Who the provider says signed in. */
export interface ProviderProfile {
  readonly providerUserId: string;
  readonly email: string | undefined;
  /** Only a verified address may link to an existing Vyuha account. */
  readonly emailVerified: boolean;
  readonly displayName: string;
  readonly avatarUrl: string;
  readonly locale: string | undefined;
}

/** The per-sign-in secrets kept server-side between the redirect and the callback. */
export interface FlowSecrets {
  readonly codeVerifier: string;
  readonly nonce: string;
}

const HTTP_TIMEOUT_MILLISECONDS = 10_000;
const DISCOVERY_TTL_MILLISECONDS = 60 * 60 * 1000;
const discoveryCache = new Map<string, { endpoints: ProviderEndpoints; fetchedAt: number }>();

/** New PKCE verifier and nonce: 32 random bytes each, base64url. */
export function newFlowSecrets(): FlowSecrets {
  return { codeVerifier: randomBytes(32).toString('base64url'), nonce: randomBytes(32).toString('base64url') };
}

/** The provider's endpoints: the preset, or its discovery document (cached for an hour). */
export async function resolveEndpoints(settings: OAuthProviderSettings, nowMilliseconds: number): Promise<ProviderEndpoints> {
  if (settings.endpoints) return settings.endpoints;
  const issuer = settings.issuer ?? '';
  const cached = discoveryCache.get(issuer);
  if (cached && nowMilliseconds - cached.fetchedAt < DISCOVERY_TTL_MILLISECONDS) return cached.endpoints;
  const document = await getJson(`${issuer}/.well-known/openid-configuration`, { code: 'oauth-provider-error' });
  // OIDC Discovery 4.3: the document must name exactly the issuer it was fetched for.
  if (document.issuer !== issuer) throw new OAuthFlowError('oauth-provider-error', `the discovery document names issuer "${String(document.issuer)}", expected "${issuer}"`);
  const endpoints: ProviderEndpoints = {
    authorization: requireUrl(document.authorization_endpoint, 'authorization_endpoint'),
    token: requireUrl(document.token_endpoint, 'token_endpoint'),
    jwksUri: requireUrl(document.jwks_uri, 'jwks_uri'),
    issuers: [issuer],
    ...(typeof document.userinfo_endpoint === 'string' ? { userinfo: document.userinfo_endpoint } : {}),
  };
  discoveryCache.set(issuer, { endpoints, fetchedAt: nowMilliseconds });
  return endpoints;
}

/** The provider URL the browser is sent to. */
export function authorizationUrl(input: { settings: OAuthProviderSettings; endpoints: ProviderEndpoints; redirectUri: string; state: string; secrets: FlowSecrets }): string {
  const url = new URL(input.endpoints.authorization);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', input.settings.clientId);
  url.searchParams.set('redirect_uri', input.redirectUri);
  url.searchParams.set('scope', input.settings.scopes.join(' '));
  url.searchParams.set('state', input.state);
  url.searchParams.set('code_challenge', createHash('sha256').update(input.secrets.codeVerifier).digest('base64url'));
  url.searchParams.set('code_challenge_method', 'S256');
  if (input.settings.protocol === 'openid') url.searchParams.set('nonce', input.secrets.nonce);
  return url.toString();
}

/** Trades the authorization code for tokens, then reads the profile (ID token and userinfo, or GitHub's API). */
export async function completeSignIn(input: {
  settings: OAuthProviderSettings;
  endpoints: ProviderEndpoints;
  redirectUri: string;
  code: string;
  secrets: FlowSecrets;
  nowMilliseconds: number;
}): Promise<ProviderProfile> {
  const tokens = await exchangeCode(input);
  const accessToken = tokens.access_token;
  if (typeof accessToken !== 'string' || accessToken === '') throw new OAuthFlowError('oauth-token-echange-failed', 'the provider returned no access token');
  if (input.settings.protocol === 'github') return githubProfile(input.endpoints, accessToken);
  return openidProfile({ ...input, idToken: tokens.id_token, accessToken });
}

async function exchangeCode(input: { settings: OAuthProviderSettings; endpoints: ProviderEndpoints; redirectUri: string; code: string; secrets: FlowSecrets }): Promise<Record<string, unknown>> {
  const body = new URLSearchParams({ grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri, code_verifier: input.secrets.codeVerifier });
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  if (input.settings.clientAuthentication === 'basic') {
    // RFC 6749 2.3.1: id and secret are form-encoded before they are joined.
    const user = encodeURIComponent(input.settings.clientId);
    const password = encodeURIComponent(input.settings.clientSecret);
    headers.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  } else {
    body.set('client_id', input.settings.clientId);
    body.set('client_secret', input.settings.clientSecret);
  }
  const response = await send(input.endpoints.token, { method: 'POST', headers, body: body.toString() }, 'oauth-token-echange-failed');
  const json = await readJson(response, 'oauth-token-echange-failed');
  // GitHub answers 200 with an `error` field, so the status alone does not say it worked.
  if (!response.ok || typeof json.error === 'string') {
    throw new OAuthFlowError('oauth-token-echange-failed', `the token endpoint refused the code: ${String(json.error ?? response.status)}`);
  }
  return json;
}

async function openidProfile(input: { settings: OAuthProviderSettings; endpoints: ProviderEndpoints; idToken: unknown; accessToken: string; secrets: FlowSecrets; nowMilliseconds: number }): Promise<ProviderProfile> {
  if (typeof input.idToken !== 'string') throw new OAuthFlowError('oauth-token-echange-failed', 'the provider returned no ID token');
  const jwks = await getJson(input.endpoints.jwksUri ?? '', { code: 'oauth-profile-fetch-failed' });
  const keys = Array.isArray(jwks.keys) ? (jwks.keys as PublishedKey[]) : [];
  let claims: Record<string, unknown>;
  try {
    claims = { ...verifyIdToken(input.idToken, { keys, issuers: input.endpoints.issuers ?? [], clientId: input.settings.clientId, nonce: input.secrets.nonce, nowMilliseconds: input.nowMilliseconds }) };
  } catch (error) {
    if (error instanceof IdTokenError) throw new OAuthFlowError('oauth-profile-fetch-failed', error.message);
    throw error;
  }
  if (input.endpoints.userinfo) {
    const userinfo = await getJson(input.endpoints.userinfo, { code: 'oauth-profile-fetch-failed', bearer: input.accessToken });
    // OIDC Core 5.3.2: userinfo of another subject must be thrown away.
    if (userinfo.sub !== claims.sub) throw new OAuthFlowError('oauth-profile-fetch-failed', 'the userinfo subject differs from the ID token subject');
    claims = { ...userinfo, ...claims };
  }
  const email = typeof claims.email === 'string' ? claims.email : undefined;
  return {
    providerUserId: String(claims.sub),
    email,
    emailVerified: email !== undefined && (claims.email_verified === true || claims.email_verified === 'true'),
    displayName: typeof claims.name === 'string' ? claims.name : (email ?? ''),
    avatarUrl: typeof claims.picture === 'string' ? claims.picture : '',
    locale: typeof claims.locale === 'string' ? claims.locale.slice(0, 2).toLowerCase() : undefined,
  };
}

async function githubProfile(endpoints: ProviderEndpoints, accessToken: string): Promise<ProviderProfile> {
  const userUrl = endpoints.userinfo ?? 'https://api.github.com/user';
  const user = await getJson(userUrl, { code: 'oauth-profile-fetch-failed', bearer: accessToken });
  if (typeof user.id !== 'number' && typeof user.id !== 'string') throw new OAuthFlowError('oauth-profile-fetch-failed', 'GitHub returned a user without an id');
  // The public profile e-mail says nothing about verification; the e-mails API does.
  const emails = await getJsonArray(`${userUrl}/emails`, accessToken);
  const primary = emails.find((entry) => entry.primary === true) ?? emails.find((entry) => entry.verified === true);
  const email = typeof primary?.email === 'string' ? primary.email : undefined;
  return {
    providerUserId: String(user.id),
    email,
    emailVerified: email !== undefined && primary?.verified === true,
    displayName: typeof user.name === 'string' && user.name !== '' ? user.name : typeof user.login === 'string' ? user.login : '',
    avatarUrl: typeof user.avatar_url === 'string' ? user.avatar_url : '',
    locale: undefined,
  };
}

async function getJson(url: string, options: { code: OAuthFlowError['code']; bearer?: string }): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
  const response = await send(url, { method: 'GET', headers }, options.code);
  if (!response.ok) throw new OAuthFlowError(options.code, `${url} answered ${response.status}`);
  return readJson(response, options.code);
}

async function getJsonArray(url: string, bearer: string): Promise<Record<string, unknown>[]> {
  const response = await send(url, { method: 'GET', headers: { accept: 'application/json', authorization: `Bearer ${bearer}` } }, 'oauth-profile-fetch-failed');
  if (!response.ok) throw new OAuthFlowError('oauth-profile-fetch-failed', `${url} answered ${response.status}`);
  const value: unknown = await response.json().catch(() => undefined);
  return Array.isArray(value) ? value.filter((entry): entry is Record<string, unknown> => typeof entry === 'object' && entry !== null) : [];
}

async function send(url: string, init: RequestInit, code: OAuthFlowError['code']): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(HTTP_TIMEOUT_MILLISECONDS) });
  } catch (error) {
    throw new OAuthFlowError(code, `${url} could not be reached: ${(error as Error).message}`);
  }
}

async function readJson(response: Response, code: OAuthFlowError['code']): Promise<Record<string, unknown>> {
  const value: unknown = await response.json().catch(() => undefined);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new OAuthFlowError(code, `${response.url} did not answer with a JSON object`);
  return value as Record<string, unknown>;
}

function requireUrl(value: unknown, field: string): string {
  if (typeof value !== 'string' || !/^https?:\/\//.test(value)) throw new OAuthFlowError('oauth-provider-error', `the discovery document has no valid ${field}`);
  return value;
}
