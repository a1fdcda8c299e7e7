import { describe, expect, it } from 'vitest';
import {
  encodeKiteSessionForm, kiteLoginUrl, kiteSessionExpiry, kiteSessionForm, parseKiteCallback, parseKiteSessionAnswer,
} from '../src/brokers/kite/kite-login';
import { KITE_INVALID_CHECKSUM, KITE_TOKEN_INVALID, kiteSessionSuccess } from './helpers/kite-payloads';

describe('the Kite login URL', () => {
  it('carries v=3 and the api_key, URL-encoded', () => {
    expect(kiteLoginUrl('abc123')).toBe('https://kite.zerodha.com/connect/login?v=3&api_key=abc123');
    expect(kiteLoginUrl('a b&c')).toBe('https://kite.zerodha.com/connect/login?v=3&api_key=a+b%26c');
  });
});

describe('the Kite callback', () => {
  it('is the start of a login without request_token and status', () => {
    expect(parseKiteCallback({})).toEqual({ ok: true, value: { kind: 'start' } });
  });

  it('gives the request token on action=login, status=success', () => {
    expect(parseKiteCallback({ request_token: 'hXUDqyoSDuqNqs2l5tCXvVX5lhsfDFRR', action: 'login', status: 'success' }))
      .toEqual({ ok: true, value: { kind: 'token', requestToken: 'hXUDqyoSDuqNqs2l5tCXvVX5lhsfDFRR' } });
  });

  it.each([
    [{ request_token: 'abc', status: 'cancelled' }, /status "cancelled", not success/],
    [{ request_token: 'abc' }, /status "\(none\)", not success/],
    [{ request_token: 'abc', status: 'success', action: 'basket' }, /action "basket", not login/],
    [{ request_token: 'a-b/c', status: 'success' }, /malformed request_token/],
    [{ request_token: ['a', 'b'], status: 'success' }, /more than one request_token/],
    [{ request_token: 'abc', status: ['success', 'success'] }, /more than one status/],
    [{ status: 'error' }, /status "error" and no request_token/],
  ])('refuses %j, naming the field', (query, message) => {
    const parsed = parseKiteCallback(query);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(message);
  });
});

describe('the exchange form', () => {
  it('checksums api_key + request_token + api_secret with SHA-256', () => {
    // printf '%s' 'kitekey123RqTok456apisecret789' | sha256sum
    const form = kiteSessionForm({ apiKey: 'kitekey123', requestToken: 'RqTok456', apiSecret: 'apisecret789' });
    expect(form).toEqual({
      api_key: 'kitekey123',
      request_token: 'RqTok456',
      checksum: 'b1064655bb72bdc92cc6ef8e7e9bbe8a0c825f6a0b077b78589e3d8a988e5ebf',
    });
    expect(encodeKiteSessionForm(form)).toBe('api_key=kitekey123&request_token=RqTok456&checksum=b1064655bb72bdc92cc6ef8e7e9bbe8a0c825f6a0b077b78589e3d8a988e5ebf');
    expect(encodeKiteSessionForm(form)).not.toContain('apisecret789');
  });
});

describe('the exchange answer', () => {
  it('gives the access token and Kite user id of a success', () => {
    expect(parseKiteSessionAnswer(kiteSessionSuccess({ accessToken: 'AcCeSs123', userId: 'AB1234', apiKey: 'k' })))
      .toEqual({ ok: true, value: { accessToken: 'AcCeSs123', userId: 'AB1234' } });
  });

  it("gives Kite's reason for a refusal", () => {
    expect(parseKiteSessionAnswer(KITE_INVALID_CHECKSUM)).toEqual({ ok: false, error: 'Kite refused the login (TokenException): Invalid `checksum`.' });
    expect(parseKiteSessionAnswer(KITE_TOKEN_INVALID)).toEqual({ ok: false, error: 'Kite refused the login (TokenException): Token is invalid or has expired.' });
  });

  it.each([
    ['<html>502 Bad Gateway</html>', 'the Kite session answer is not JSON'],
    ['[]', 'the Kite session answer is not a JSON object'],
    ['{"status":"maybe"}', 'the Kite session answer has no status "success" or "error"'],
    ['{"status":"success"}', 'the Kite session answer has no data object'],
    ['{"status":"success","data":{"user_id":"AB1234"}}', 'the Kite session answer has no data.access_token string'],
    ['{"status":"success","data":{"user_id":"AB1234","access_token":""}}', 'the Kite session answer has no data.access_token string'],
    ['{"status":"success","data":{"access_token":"AcCeSs123"}}', 'the Kite session answer has no data.user_id string'],
  ])('names what is wrong in %s', (body, message) => {
    expect(parseKiteSessionAnswer(body)).toEqual({ ok: false, error: message });
  });

  it('never puts the access token in an error', () => {
    const parsed = parseKiteSessionAnswer('{"status":"success","data":{"access_token":"SeCrEtToKeN","user_id":7}}');
    expect(parsed.ok).toBe(false);
    expect(JSON.stringify(parsed)).not.toContain('SeCrEtToKeN');
  });
});

describe('the session expiry', () => {
  it.each([
    // 15:30 IST -> 06:00 IST the next day (00:30 UTC).
    ['2026-03-02T10:00:00Z', '2026-03-03T00:30:00.000Z'],
    // 03:00 IST (before 06:00) -> 06:00 IST the same day.
    ['2026-03-01T21:30:00Z', '2026-03-02T00:30:00.000Z'],
    // Exactly 06:00 IST: that token is already dead, the next one lives a day.
    ['2026-03-02T00:30:00Z', '2026-03-03T00:30:00.000Z'],
    // 05:59:59 IST -> one second later.
    ['2026-03-02T00:29:59Z', '2026-03-02T00:30:00.000Z'],
    // 23:59 IST on the last day of a year.
    ['2026-12-31T18:29:00Z', '2027-01-01T00:30:00.000Z'],
  ])('a token issued at %s dies at %s', (issued, expires) => {
    expect(new Date(kiteSessionExpiry(Date.parse(issued))).toISOString()).toBe(expires);
  });
});

describe('Kite URLs as settings (a stand-in in tests and demos)', () => {
  it('reads KITE_API_URL and KITE_LOGIN_URL, defaulting to Kite, and refuses what is not an http(s) URL', async () => {
    const { kiteApiBaseUrl, kiteLoginBaseUrl } = await import('../src/brokers/kite/kite-http');
    expect(kiteApiBaseUrl({})).toBe('https://api.kite.trade');
    expect(kiteLoginBaseUrl({})).toBe('https://kite.zerodha.com/connect/login');
    expect(kiteLoginBaseUrl({ KITE_LOGIN_URL: 'http://127.0.0.1:4010/connect/login/' })).toBe('http://127.0.0.1:4010/connect/login');
    expect(kiteLoginUrl('abc', kiteLoginBaseUrl({ KITE_LOGIN_URL: 'http://127.0.0.1:4010/connect/login' })))
      .toBe('http://127.0.0.1:4010/connect/login?v=3&api_key=abc');
    expect(() => kiteLoginBaseUrl({ KITE_LOGIN_URL: 'ws://x' })).toThrow(/KITE_LOGIN_URL must be an http\(s\) URL/);
    expect(() => kiteApiBaseUrl({ KITE_API_URL: 'not a url' })).toThrow(/KITE_API_URL must be an http\(s\) URL/);
  });
});
