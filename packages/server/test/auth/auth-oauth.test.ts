import { createClient } from '@nhost/nhost-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOauthRouteModule } from '../../src/auth/oauth/oauth-routes';
import { readOAuthProviders } from '../../src/auth/oauth/providers';
import { followSignIn, startOidcFixture, type OidcFixture } from './support/oidc-fixture';
import { auditActions, postJson, startMethodsApp, type MethodsApp } from './support/methods-app';

// OAuth / OpenID Connect over HTTP against a real OpenID provider (oidc-provider) on loopback:
// the browser is played by following redirects with a cookie jar.

const APP_PAGE = 'http://localhost:3000/after-sign-in';

describe('sign-in with an OpenID Connect provider', () => {
  let fixture: OidcFixture;
  let service: MethodsApp;
  const url = (path: string): string => `${service.authUrl}${path}`;

  beforeAll(async () => {
    fixture = await startOidcFixture({
      'subject-new': { email: 'New.Person@example.com', emailVerified: true, name: 'New Person' },
      'subject-existing': { email: 'existing@example.com', emailVerified: true, name: 'Existing' },
      'subject-unverified': { email: 'taken@example.com', emailVerified: false, name: 'Impostor' },
      'subject-connect': { email: 'elsewhere@example.com', emailVerified: true, name: 'Connector' },
    });
    const providers = readOAuthProviders({
      AUTH_PROVIDER_OIDC_ISSUER: fixture.issuer,
      AUTH_PROVIDER_OIDC_CLIENT_ID: fixture.clientId,
      AUTH_PROVIDER_OIDC_CLIENT_SECRET: fixture.clientSecret,
      AUTH_PROVIDER_GITHUB_ENABLED: 'true',
      AUTH_PROVIDER_GITHUB_CLIENT_ID: 'github-client',
      AUTH_PROVIDER_GITHUB_CLIENT_SECRET: 'github-secret',
    });
    service = await startMethodsApp({ modules: [createOauthRouteModule({ providers })], env: { AUTH_ACCESS_CONTROL_ALLOWED_REDIRECT_URLS: APP_PAGE } });
    fixture.allowRedirectUri(url('/signin/provider/oidc/callback'));
  });
  afterAll(async () => {
    await service.close();
    await fixture.close();
  });

  async function signInAs(login: string, startUrl: string): Promise<URL> {
    const hosts = [new URL(service.origin).host, new URL(fixture.issuer).host];
    return new URL((await followSignIn({ startUrl, login, stopOutside: hosts })).finalUrl);
  }

  it('creates the user on first sign-in and hands back a refresh token (URL built by the Nhost client)', async () => {
    const nhost = createClient({ authUrl: service.authUrl, storage: { get: () => null, set: () => undefined, remove: () => undefined } });
    // The client's type lists hasura-auth's providers, which have no generic OIDC one; at run
    // time it builds the URL for any name.
    const provider = 'oidc' as Parameters<typeof nhost.auth.signInProviderURL>[0];
    const startUrl = nhost.auth.signInProviderURL(provider, { redirectTo: APP_PAGE, displayName: 'Chosen Name' });
    const landing = await signInAs('subject-new', startUrl);
    expect(landing.origin + landing.pathname).toBe(APP_PAGE);
    const refreshToken = landing.searchParams.get('refreshToken') ?? '';
    expect(refreshToken).toMatch(/^[0-9a-f-]{36}$/);
    const session = await postJson(url('/token'), { refreshToken });
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({ email: 'new.person@example.com', emailVerified: true, displayName: 'Chosen Name' });
    const links = await service.db.pool.query('SELECT provider_id, provider_user_id FROM auth.user_providers WHERE user_id = $1', [session.body.user.id]);
    expect(links.rows).toEqual([{ provider_id: 'oidc', provider_user_id: 'subject-new' }]);
    // Signing in again finds the same user.
    const again = await signInAs('subject-new', url(`/signin/provider/oidc?redirectTo=${encodeURIComponent(APP_PAGE)}`));
    const second = await postJson(url('/token'), { refreshToken: again.searchParams.get('refreshToken') });
    expect(second.body.user.id).toBe(session.body.user.id);
    expect(await auditActions(service.db, session.body.user.id)).toEqual(expect.arrayContaining(['auth.provider.link', 'auth.signin']));
  });

  it('links to an existing account with the same verified e-mail', async () => {
    const signUp = await postJson(url('/signup/email-password'), { email: 'existing@example.com', password: 'a long enough password' });
    const existingId = signUp.body.session.user.id;
    const landing = await signInAs('subject-existing', url('/signin/provider/oidc'));
    // No redirectTo: AUTH_CLIENT_URL.
    expect(landing.origin).toBe('http://localhost:3000');
    const session = await postJson(url('/token'), { refreshToken: landing.searchParams.get('refreshToken') });
    expect(session.body.user.id).toBe(existingId);
  });

  it('never links by an e-mail the provider has not verified', async () => {
    await postJson(url('/signup/email-password'), { email: 'taken@example.com', password: 'a long enough password' });
    const landing = await signInAs('subject-unverified', url(`/signin/provider/oidc?redirectTo=${encodeURIComponent(APP_PAGE)}`));
    expect(landing.searchParams.get('refreshToken')).toBeNull();
    expect(landing.searchParams.get('error')).toBe('email-already-in-use');
    expect((await service.db.pool.query("SELECT 1 FROM auth.user_providers WHERE provider_user_id = 'subject-unverified'")).rowCount).toBe(0);
  });

  it('connects a provider account to the signed-in user', async () => {
    const signUp = await postJson(url('/signup/email-password'), { email: 'owner@example.com', password: 'a long enough password' });
    const { accessToken, user } = signUp.body.session;
    const landing = await signInAs('subject-connect', url(`/signin/provider/oidc?connect=${encodeURIComponent(accessToken)}&redirectTo=${encodeURIComponent(APP_PAGE)}`));
    const session = await postJson(url('/token'), { refreshToken: landing.searchParams.get('refreshToken') });
    expect(session.body.user.id).toBe(user.id);
    expect(session.body.user.email).toBe('owner@example.com');
    const links = await service.db.pool.query('SELECT provider_user_id FROM auth.user_providers WHERE user_id = $1', [user.id]);
    expect(links.rows).toEqual([{ provider_user_id: 'subject-connect' }]);
  });

  it('refuses an unknown state, and sends provider errors back to the app', async () => {
    const unknown = await fetch(url('/signin/provider/oidc/callback?state=00000000-0000-4000-8000-000000000000&code=abc'), { redirect: 'manual' });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: 'invalid-state' });
    const started = await fetch(url(`/signin/provider/oidc?redirectTo=${encodeURIComponent(APP_PAGE)}`), { redirect: 'manual' });
    const authorize = new URL(started.headers.get('location') ?? '');
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('nonce')).not.toBeNull();
    const state = authorize.searchParams.get('state') ?? '';
    const denied = await fetch(url(`/signin/provider/oidc/callback?state=${state}&error=access_denied`), { redirect: 'manual' });
    const back = new URL(denied.headers.get('location') ?? '');
    expect(back.origin + back.pathname).toBe(APP_PAGE);
    expect(back.searchParams.get('error')).toBe('oauth-provider-error');
    // The state was used up by that answer.
    const replayed = await fetch(url(`/signin/provider/oidc/callback?state=${state}&code=abc`), { redirect: 'manual' });
    expect(replayed.status).toBe(400);
  });

  it('refuses redirects outside the allow list and providers that are not enabled', async () => {
    const outside = await fetch(url(`/signin/provider/oidc?redirectTo=${encodeURIComponent('https://evil.example/')}`), { redirect: 'manual' });
    expect(outside.status).toBe(400);
    expect(await outside.json()).toMatchObject({ error: 'redirectTo-not-allowed' });
    const google = await fetch(url('/signin/provider/google'), { redirect: 'manual' });
    expect(await google.json()).toMatchObject({ status: 409, error: 'disabled-endpoint' });
  });

  it('sends the browser to GitHub with the preset endpoints', async () => {
    const started = await fetch(url('/signin/provider/github'), { redirect: 'manual' });
    expect(started.status).toBe(302);
    const authorize = new URL(started.headers.get('location') ?? '');
    expect(authorize.origin + authorize.pathname).toBe('https://github.com/login/oauth/authorize');
    expect(authorize.searchParams.get('client_id')).toBe('github-client');
    expect(authorize.searchParams.get('redirect_uri')).toBe(url('/signin/provider/github/callback'));
    const stored = await service.db.pool.query<{ options: { provider: string; codeVerifier: string } }>('SELECT options FROM auth.provider_requests WHERE id = $1', [authorize.searchParams.get('state')]);
    expect(stored.rows[0]?.options.provider).toBe('github');
    expect(stored.rows[0]?.options.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
