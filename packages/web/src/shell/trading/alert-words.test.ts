import { describe, expect, it } from 'vitest';
import { alertLink, alertWords } from './alert-words';

describe('alertWords', () => {
  it('titles each kind the runtime writes', () => {
    for (const kind of ['broker-session-missing', 'broker-session-lost', 'unexplained-position', 'margin-short', 'order-unresolved', 'rate-limited', 'reconciled', 'follow-not-live']) {
      expect(alertWords(kind).title).not.toBe('Trading alert');
    }
    expect(alertWords('broker-session-lost').linkLabel).toBe('Log in to the broker again');
  });

  it('still titles a kind it does not know', () => {
    expect(alertWords('something-new').title).toBe('Trading alert');
  });
});

describe('alertLink', () => {
  it('follows paths inside the app only', () => {
    expect(alertLink('/account/brokers')).toBe('/account/brokers');
    expect(alertLink('https://kite.zerodha.com')).toBeUndefined();
    expect(alertLink('//evil.example')).toBeUndefined();
    expect(alertLink(null)).toBeUndefined();
  });
});
