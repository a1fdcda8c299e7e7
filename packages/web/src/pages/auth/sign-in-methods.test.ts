import { describe, expect, it } from 'vitest';
import { PASSWORD_ONLY, readEnabledMethods, securityKeyUse, signInMethods, type EnabledMethods } from './sign-in-methods';

// The sign-in tabs offered magic link and SMS code whatever the server had switched on, and both
// answered "This endpoint is disabled". The screens now offer what GET /v1/auth/methods reports.

/** The demo world's answer (packages/server/src/auth/demo-methods.ts) on port 8080. */
const DEMO: EnabledMethods = {
  ...PASSWORD_ONLY,
  magicLink: true,
  smsOtp: true,
  anonymous: true,
  securityKeys: { enabled: true, rpId: 'localhost', origins: ['http://localhost:8080'] },
  delivery: { email: 'outbox', sms: 'outbox' },
};

describe('signInMethods', () => {
  it('offers only the password on a server with every optional method off', () => {
    expect(signInMethods(PASSWORD_ONLY, 'http://127.0.0.1:8080')).toEqual(['password']);
  });

  it('offers magic link, SMS and security key in the demo world at localhost', () => {
    expect(signInMethods(DEMO, 'http://localhost:8080')).toEqual(['password', 'magic-link', 'sms', 'security-key']);
  });

  it('leaves security keys out at an IP address, where no browser runs them', () => {
    expect(signInMethods(DEMO, 'http://127.0.0.1:8080')).toEqual(['password', 'magic-link', 'sms']);
  });
});

describe('securityKeyUse', () => {
  const keys = DEMO.securityKeys;
  it('is "here" on an allowed origin whose host is the relying party or under it', () => {
    expect(securityKeyUse(keys, 'http://localhost:8080')).toEqual({ kind: 'here' });
    expect(securityKeyUse({ enabled: true, rpId: 'vyuha.in', origins: ['https://app.vyuha.in'] }, 'https://app.vyuha.in')).toEqual({ kind: 'here' });
  });

  it('points elsewhere from an IP address, another port, or a host outside the relying party', () => {
    for (const origin of ['http://127.0.0.1:8080', 'http://localhost:9999', 'http://[::1]:8080', 'https://evil-localhost:8080']) {
      expect(securityKeyUse(keys, origin)).toEqual({ kind: 'elsewhere', at: 'http://localhost:8080' });
    }
  });

  it('is off when the server has them off', () => {
    expect(securityKeyUse(PASSWORD_ONLY.securityKeys, 'http://localhost:8080')).toEqual({ kind: 'off' });
  });
});

describe('readEnabledMethods', () => {
  it('reads the server answer', () => {
    expect(readEnabledMethods(JSON.parse(JSON.stringify(DEMO)))).toEqual(DEMO);
  });

  it('reads anything malformed as password only, never as a method switched on', () => {
    expect(readEnabledMethods('OK')).toEqual(PASSWORD_ONLY);
    expect(readEnabledMethods(null)).toEqual(PASSWORD_ONLY);
    expect(readEnabledMethods({ magicLink: 'yes', smsOtp: 1, securityKeys: { enabled: 'true', origins: [3] } })).toEqual(PASSWORD_ONLY);
  });
});
