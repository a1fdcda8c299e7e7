import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildAccessClaims, postgresArrayLiteral } from '../../src/auth/claims';
import { readAuthConfig } from '../../src/auth/config';
import type { User } from '../../src/auth/context';
import { AuthError } from '../../src/auth/errors';
import { redirectAllowed } from '../../src/auth/links';
import { ConfigError } from '../../src/config';

describe('readAuthConfig', () => {
  it('has safe defaults', () => {
    const config = readAuthConfig({});
    expect(config).toMatchObject({
      accessTokenExpiresIn: 900,
      refreshTokenExpiresIn: 2_592_000,
      passwordMinLength: 9,
      passwordMaxLength: 256,
      emailVerifiedRequired: true,
      disableSignup: false,
      anonymousUsersEnabled: false,
      concealErrors: false,
      requireElevatedClaim: 'disabled',
      rateLimitEnabled: true,
      smtp: undefined,
      serverUrl: 'http://localhost:8080/v1/auth',
      clientUrl: 'http://localhost:8080',
      jwt: { type: 'RS256', key: undefined, issuer: 'hasura-auth', claimsNamespace: 'https://hasura.io/jwt/claims' },
    });
    // Failures per address (an office behind one address must get through), every request per address, refreshes.
    expect(config.rateLimits.bruteForce).toEqual({ burst: 100, intervalSeconds: 300 });
    expect(config.rateLimits.global).toEqual({ burst: 1000, intervalSeconds: 60 });
    expect(config.rateLimits.token).toEqual({ burst: 600, intervalSeconds: 60 });
    expect(config.signInThrottle).toEqual({ freeFailures: 5, maxDelaySeconds: 900 });
    expect(config.patMaxLifetimeSeconds).toBe(31_536_000);
  });

  it('reads hasura-auth durations', () => {
    expect(readAuthConfig({ AUTH_RATE_LIMIT_EMAIL_INTERVAL: '1h30m' }).rateLimits.email.intervalSeconds).toBe(5400);
    expect(readAuthConfig({ AUTH_RATE_LIMIT_SMS_INTERVAL: '45' }).rateLimits.sms.intervalSeconds).toBe(45);
  });

  it.each([
    [{ AUTH_ACCESS_TOKEN_EXPIRES_IN: 'soon' }, /AUTH_ACCESS_TOKEN_EXPIRES_IN must be a whole number from 10 to 86400, got "soon"/],
    [{ AUTH_PASSWORD_MIN_LENGTH: '300' }, /AUTH_PASSWORD_MIN_LENGTH must be a whole number from 1 to 256/],
    [{ AUTH_DISABLE_SIGNUP: 'maybe' }, /AUTH_DISABLE_SIGNUP must be true or false, got "maybe"/],
    [{ AUTH_CLIENT_URL: 'ftp://x' }, /AUTH_CLIENT_URL must be an http\(s\) URL/],
    [{ AUTH_REQUIRE_ELEVATED_CLAIM: 'always' }, /AUTH_REQUIRE_ELEVATED_CLAIM must be one of disabled, recommended, required, got "always"/],
    [{ AUTH_RATE_LIMIT_BRUTE_FORCE_INTERVAL: '5 minutes' }, /AUTH_RATE_LIMIT_BRUTE_FORCE_INTERVAL must be a duration/],
    [{ HASURA_GRAPHQL_JWT_SECRET: '{type: HS256}' }, /HASURA_GRAPHQL_JWT_SECRET must be JSON/],
    [{ HASURA_GRAPHQL_JWT_SECRET: '{"type":"HS256","key":"short"}' }, /key must be at least 32 characters/],
    [{ HASURA_GRAPHQL_JWT_SECRET: '{"type":"ES256"}' }, /type must be "HS256" or "RS256", got "ES256"/],
    [{ HASURA_GRAPHQL_JWT_SECRET: '{"type":"RS256","key":"-----BEGIN PUBLIC KEY-----"}' }, /needs both "key" \(public PEM\) and "signing_key"/],
    [{ AUTH_JWT_CUSTOM_CLAIMS: '{"org":"metadata..org"}' }, /AUTH_JWT_CUSTOM_CLAIMS.org must be a dotted path/],
    [{ AUTH_USER_DEFAULT_ROLE: 'superadmin' }, /AUTH_USER_DEFAULT_ROLE "superadmin" must be one of AUTH_USER_DEFAULT_ALLOWED_ROLES/],
  ])('refuses %o naming the variable', (env, message) => {
    expect(() => readAuthConfig(env)).toThrow(ConfigError);
    expect(() => readAuthConfig(env)).toThrow(message);
  });
});

describe('redirect allow list', () => {
  const allowed = ['http://localhost:3000', 'https://*.vyuha.in/app'];
  it.each([
    ['http://localhost:3000', true],
    ['http://localhost:3000/verified?x=1', true],
    ['https://staging.vyuha.in/app/welcome', true],
    ['https://staging.vyuha.in/application', false],
    ['http://localhost:3001/', false],
    ['https://localhost:3000/', false],
    ['http://localhost:3000@evil.example/', false],
    ['https://evil.example/?http://localhost:3000', false],
    ['https://a.b.vyuha.in/app', false],
    ['javascript:alert(1)', false],
    ['not a url', false],
  ])('%s -> %s', (target, expected) => {
    expect(redirectAllowed(target, allowed)).toBe(expected);
  });
});

describe('claims', () => {
  it('reads back as the web client parses it (docs/PRODUCT.md section 6) for any permission names', () => {
    const name = fc.stringMatching(/^[a-z][a-z:_-]{0,20}$/);
    fc.assert(fc.property(fc.array(name, { maxLength: 6 }), (permissions) => {
      const parsed = postgresArrayLiteral(permissions).replace(/["{}]/g, '').split(',').filter((item) => item !== '');
      expect(parsed).toEqual(permissions.filter((item) => item !== ''));
    }));
  });

  it('escapes quotes and backslashes', () => {
    expect(postgresArrayLiteral(['a"b', 'c\\d'])).toBe('{"a\\"b","c\\\\d"}');
    expect(postgresArrayLiteral([])).toBe('{}');
  });

  it('adds custom claims that cannot overwrite the defaults, and the elevated claim', () => {
    const config = readAuthConfig({ AUTH_JWT_CUSTOM_CLAIMS: JSON.stringify({ organisation: 'metadata.organisation', 'default-role': 'metadata.role', desks: 'metadata.desks' }) });
    const user: User = {
      id: 'user-1', createdAt: '2025-01-01T00:00:00.000Z', displayName: 'A', avatarUrl: '', locale: 'en', email: 'a@b.in', emailVerified: true,
      phoneNumber: null, phoneNumberVerified: false, isAnonymous: false, defaultRole: 'advanced', roles: ['advanced', 'user'],
      metadata: { organisation: 'Acme', role: 'superadmin', desks: ['nifty', 'banknifty'] }, activeMfaType: null,
    };
    const claims = buildAccessClaims({ user, permissions: ['strategy:backtest'], elevated: true, nowSeconds: 1000 }, config);
    expect(claims).toMatchObject({ sub: 'user-1', iss: 'hasura-auth', iat: 1000, exp: 1900 });
    expect(claims['https://hasura.io/jwt/claims']).toMatchObject({
      'x-hasura-organisation': 'Acme',
      'x-hasura-desks': '{"nifty","banknifty"}',
      'x-hasura-default-role': 'advanced',
      'x-hasura-allowed-roles': ['advanced', 'user'],
      'x-hasura-permissions': '{"strategy:backtest"}',
      'x-hasura-auth-elevated': 'user-1',
      'x-hasura-W5m': '2020-01-01',
      'x-hasura-W1m': '2021-01-01',
    });
  });
});

describe('AuthError', () => {
  it('carries the docs/AUTH-CONTRACT.md status and message, and conceals only sensitive codes', () => {
    expect(new AuthError('invalid-email-password').toBody()).toEqual({ status: 401, message: 'Incorrect email or password', error: 'invalid-email-password' });
    expect(new AuthError('email-already-in-use').toBody(true)).toEqual({ status: 400, message: 'The request payload is incorrect', error: 'invalid-request' });
    expect(new AuthError('invalid-refresh-token').toBody(true).error).toBe('invalid-refresh-token');
    expect(new AuthError('signup-disabled').status).toBe(403);
    expect(new AuthError('disabled-endpoint').status).toBe(409);
  });
});
