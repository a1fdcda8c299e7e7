import { describe, expect, it, afterAll, beforeAll } from 'vitest';
import { authorizationUrl, completeSignIn, newFlowSecrets, OAuthFlowError, resolveEndpoints } from '../../src/auth/oauth/oauth-client';
import { readOAuthProviders, OAuthConfigError, type OAuthProviderSettings } from '../../src/auth/oauth/providers';
import { followSignIn, startOidcFixture, type OidcFixture } from './support/oidc-fixture';

// The relying-party half of OAuth against a real OpenID provider on loopback, without Vyuha's
// routes: discovery, PKCE + nonce authorization, code exchange, ID token and userinfo.

const REDIRECT_URI = 'http://127.0.0.1:9/callback';

describe('OAuth client against oidc-provider', () => {
  let fixture: OidcFixture;
  let settings: OAuthProviderSettings;

  beforeAll(async () => {
    fixture = await startOidcFixture({ 'subject-1': { email: 'Asha@Example.com', emailVerified: true, name: 'Asha Rao' } });
    fixture.allowRedirectUri(REDIRECT_URI);
    const providers = readOAuthProviders({ AUTH_PROVIDER_OIDC_ISSUER: fixture.issuer, AUTH_PROVIDER_OIDC_CLIENT_ID: fixture.clientId, AUTH_PROVIDER_OIDC_CLIENT_SECRET: fixture.clientSecret });
    const oidc = providers.get('oidc');
    if (!oidc) throw new Error('the oidc provider should be enabled');
    settings = oidc;
  });
  afterAll(async () => fixture.close());

  async function authorize(secrets = newFlowSecrets()): Promise<{ code: string; state: string; secrets: ReturnType<typeof newFlowSecrets> }> {
    const endpoints = await resolveEndpoints(settings, Date.now());
    const startUrl = authorizationUrl({ settings, endpoints, redirectUri: REDIRECT_URI, state: 'state-123', secrets });
    const followed = await followSignIn({ startUrl, login: 'subject-1', stopOutside: [new URL(fixture.issuer).host] });
    const final = new URL(followed.finalUrl);
    expect(final.origin + final.pathname).toBe(REDIRECT_URI);
    return { code: final.searchParams.get('code') ?? '', state: final.searchParams.get('state') ?? '', secrets };
  }

  it('discovers the endpoints, signs in with PKCE and reads a verified profile', async () => {
    const { code, state, secrets } = await authorize();
    expect(state).toBe('state-123');
    const endpoints = await resolveEndpoints(settings, Date.now());
    const profile = await completeSignIn({ settings, endpoints, redirectUri: REDIRECT_URI, code, secrets, nowMilliseconds: Date.now() });
    expect(profile).toMatchObject({ providerUserId: 'subject-1', email: 'Asha@Example.com', emailVerified: true, displayName: 'Asha Rao' });
  });

  it('refuses a code exchanged with another PKCE verifier', async () => {
    const { code, secrets } = await authorize();
    const endpoints = await resolveEndpoints(settings, Date.now());
    const wrong = { ...secrets, codeVerifier: newFlowSecrets().codeVerifier };
    const error = await completeSignIn({ settings, endpoints, redirectUri: REDIRECT_URI, code, secrets: wrong, nowMilliseconds: Date.now() }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OAuthFlowError);
    expect((error as OAuthFlowError).code).toBe('oauth-token-echange-failed');
  });

  it('refuses an ID token whose nonce belongs to another sign-in', async () => {
    const { code, secrets } = await authorize();
    const endpoints = await resolveEndpoints(settings, Date.now());
    const wrong = { ...secrets, nonce: 'someone-elses-nonce' };
    const error = await completeSignIn({ settings, endpoints, redirectUri: REDIRECT_URI, code, secrets: wrong, nowMilliseconds: Date.now() }).catch((caught: unknown) => caught);
    expect((error as OAuthFlowError).code).toBe('oauth-profile-fetch-failed');
    expect((error as Error).message).toMatch(/nonce/);
  });

  it('refuses an ID token once it has expired', async () => {
    const { code, secrets } = await authorize();
    const endpoints = await resolveEndpoints(settings, Date.now());
    const twoDaysLater = Date.now() + 2 * 24 * 3600 * 1000;
    const error = await completeSignIn({ settings, endpoints, redirectUri: REDIRECT_URI, code, secrets, nowMilliseconds: twoDaysLater }).catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/expired/);
  });
});

describe('provider configuration', () => {
  it('reads the GitHub and Google presets with hasura-auth variable names', () => {
    const providers = readOAuthProviders({
      AUTH_PROVIDER_GITHUB_ENABLED: 'true', AUTH_PROVIDER_GITHUB_CLIENT_ID: 'gh-id', AUTH_PROVIDER_GITHUB_CLIENT_SECRET: 'gh-secret',
      AUTH_PROVIDER_GOOGLE_ENABLED: 'true', AUTH_PROVIDER_GOOGLE_CLIENT_ID: 'g-id', AUTH_PROVIDER_GOOGLE_CLIENT_SECRET: 'g-secret',
    });
    expect([...providers.keys()].sort()).toEqual(['github', 'google']);
    const google = providers.get('google');
    const url = new URL(authorizationUrl({ settings: google as OAuthProviderSettings, endpoints: google?.endpoints ?? { authorization: '', token: '' }, redirectUri: 'https://app.example/cb', state: 's', secrets: { codeVerifier: 'v'.repeat(43), nonce: 'n' } }));
    expect(url.host).toBe('accounts.google.com');
    expect(url.searchParams.get('scope')).toBe('openid email profile');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('nonce')).toBe('n');
    const github = providers.get('github');
    const githubUrl = new URL(authorizationUrl({ settings: github as OAuthProviderSettings, endpoints: github?.endpoints ?? { authorization: '', token: '' }, redirectUri: 'https://app.example/cb', state: 's', secrets: { codeVerifier: 'v'.repeat(43), nonce: 'n' } }));
    expect(githubUrl.host).toBe('github.com');
    // GitHub is plain OAuth 2: no ID token, so no nonce.
    expect(githubUrl.searchParams.has('nonce')).toBe(false);
  });

  it('names the missing variable', () => {
    expect(() => readOAuthProviders({ AUTH_PROVIDER_GITHUB_ENABLED: 'true', AUTH_PROVIDER_GITHUB_CLIENT_ID: 'x' })).toThrow(OAuthConfigError);
    expect(() => readOAuthProviders({ AUTH_PROVIDER_GITHUB_ENABLED: 'true', AUTH_PROVIDER_GITHUB_CLIENT_ID: 'x' })).toThrow(/AUTH_PROVIDER_GITHUB_CLIENT_SECRET/);
    expect(() => readOAuthProviders({ AUTH_PROVIDER_OIDC_ISSUER: 'not a url' })).toThrow(/AUTH_PROVIDER_OIDC_ISSUER/);
  });
});
