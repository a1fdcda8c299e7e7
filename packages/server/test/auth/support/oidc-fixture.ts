import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

// A real OpenID provider (the `oidc-provider` package) on loopback, for the OAuth tests. The
// provider is built once the relying party's callback URL is known (the Vyuha server listens
// first), and its development login/consent pages are driven by `followSignIn`.

/** One person the provider knows. */
export interface FixtureAccount {
  readonly email: string;
  readonly emailVerified: boolean;
  readonly name: string;
}

export interface OidcFixture {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Registers the relying party's callback; must be called before the first sign-in. */
  allowRedirectUri(redirectUri: string): void;
  close(): Promise<void>;
}

/** Starts the provider on 127.0.0.1 with the given accounts (keyed by subject). */
export async function startOidcFixture(accounts: Readonly<Record<string, FixtureAccount>>): Promise<OidcFixture> {
  let handler: ((request: IncomingMessage, response: ServerResponse) => void) | undefined;
  const server = createServer((request, response) => {
    if (!handler) {
      response.writeHead(503).end('the relying party is not registered yet');
      return;
    }
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'vyuha-test';
  const clientSecret = 'a-client-secret-long-enough-for-the-test-1234567890';
  const signingKey = { ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), kid: 'fixture-key', use: 'sig', alg: 'RS256' };
  return {
    issuer,
    clientId,
    clientSecret,
    allowRedirectUri(redirectUri) {
      const provider = new Provider(issuer, {
        clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'] }],
        jwks: { keys: [signingKey] },
        cookies: { keys: ['fixture-cookie-key-one'] },
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        pkce: { required: () => true },
        ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 600, Grant: 600 },
        findAccount: (_context: unknown, subject: string) => {
          const account = accounts[subject];
          if (!account) return undefined;
          return { accountId: subject, claims: () => ({ sub: subject, email: account.email, email_verified: account.emailVerified, name: account.name }) };
        },
      });
      handler = provider.callback();
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** The outcome of following a sign-in from its start URL to the last redirect outside the provider. */
export interface FollowedSignIn {
  /** Every URL visited, in order. */
  readonly visited: readonly string[];
  /** Where the browser ended up (the app's redirectTo, with refreshToken or error parameters). */
  readonly finalUrl: string;
}

/**
 * Plays the browser: follows redirects with a cookie jar, logs in as `login` on the provider's
 * development login page and grants consent, and stops at the first URL outside `stopOutside`
 * hosts (the app's own page).
 */
export async function followSignIn(input: { startUrl: string; login: string; stopOutside: readonly string[] }): Promise<FollowedSignIn> {
  const jar = new Map<string, string>();
  const visited: string[] = [];
  let url = input.startUrl;
  let method: 'GET' | 'POST' = 'GET';
  let body: string | undefined;
  for (let hop = 0; hop < 20; hop += 1) {
    if (!input.stopOutside.includes(new URL(url).host)) return { visited, finalUrl: url };
    visited.push(url);
    const response = await fetch(url, {
      method,
      redirect: 'manual',
      headers: { cookie: cookieHeader(jar, url), ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) },
      ...(body === undefined ? {} : { body }),
    });
    storeCookies(jar, url, response.headers.getSetCookie());
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      url = new URL(location, url).toString();
      method = 'GET';
      body = undefined;
      continue;
    }
    const page = await response.text();
    if (response.status !== 200 || !new URL(url).pathname.startsWith('/interaction/')) {
      throw new Error(`followSignIn: ${method} ${url} answered ${response.status}: ${page.slice(0, 300)}`);
    }
    // The development pages post back to their own URL; the hidden `prompt` says which step it is.
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1] ?? 'consent';
    method = 'POST';
    body = new URLSearchParams(prompt === 'login' ? { prompt, login: input.login, password: 'any' } : { prompt }).toString();
  }
  throw new Error(`followSignIn: more than 20 hops from ${input.startUrl}`);
}

function cookieHeader(jar: Map<string, string>, url: string): string {
  const host = new URL(url).host;
  return [...jar].filter(([key]) => key.startsWith(`${host} `)).map(([key, value]) => `${key.slice(host.length + 1)}=${value}`).join('; ');
}

function storeCookies(jar: Map<string, string>, url: string, setCookies: readonly string[]): void {
  const host = new URL(url).host;
  for (const header of setCookies) {
    const [pair = ''] = header.split(';');
    const separator = pair.indexOf('=');
    if (separator <= 0) continue;
    const name = pair.slice(0, separator).trim();
    const value = pair.slice(separator + 1).trim();
    // An expired cookie (value cleared) must leave the jar, or the provider sees a stale session.
    if (value === '' || /expires=Thu, 01 Jan 1970/i.test(header)) jar.delete(`${host} ${name}`);
    else jar.set(`${host} ${name}`, value);
  }
}
