import { describe, expect, it } from 'vitest';
import { liveAccounts, liveBlocker, liveLoginNote, sessionDayStart, todayLogin, type BrokerAccountRow } from './live-availability';

const zerodha: BrokerAccountRow = {
  user_broker_id: 'a1', broker: 'zerodha', client_id: 'AB1234', active: true, api_key: 'kite-key', investment_amt_paise: 100_000_00, investment_history: [],
};

describe('liveBlocker', () => {
  it('keeps the paper-only plans on PAPER', () => {
    expect(liveBlocker({ role: 'demo', accounts: [zerodha], legs: false })?.reason).toBe('Your plan (demo) trades on paper only.');
    expect(liveBlocker({ role: 'backtest', accounts: [zerodha], legs: false })?.reason).toMatch(/paper only/);
  });

  it('asks for a connected Zerodha account, with the link to the account page', () => {
    const blocker = liveBlocker({ role: 'advanced', accounts: [{ ...zerodha, api_key: null }, { ...zerodha, user_broker_id: 'a2', broker: 'upstox' }], legs: false });
    expect(blocker?.link).toEqual({ label: 'Connect a broker account on your account page', to: '/users/edit' });
  });

  it('refuses option legs, and allows LIVE with an active Zerodha account', () => {
    expect(liveBlocker({ role: 'advanced', accounts: [zerodha], legs: true })?.reason).toMatch(/Option legs/);
    expect(liveBlocker({ role: 'advanced', accounts: [zerodha], legs: false })).toBeUndefined();
  });

  it('lists only active accounts of a LIVE broker with an API key', () => {
    expect(liveAccounts([zerodha, { ...zerodha, user_broker_id: 'off', active: false }]).map((row) => row.user_broker_id)).toEqual(['a1']);
  });
});

describe('todayLogin', () => {
  // 2026-12-01 10:30 IST is 05:00 UTC; Kite's session day began at 06:00 IST, 00:30 UTC.
  const now = Date.parse('2026-12-01T05:00:00Z');

  it('starts the session day at 06:00 IST, before and after midnight IST alike', () => {
    expect(new Date(sessionDayStart(now)).toISOString()).toBe('2026-12-01T00:30:00.000Z');
    // 05:59 IST on 2 December is still 1 December's session day; 06:00 IST starts the next.
    expect(new Date(sessionDayStart(Date.parse('2026-12-02T00:29:00Z'))).toISOString()).toBe('2026-12-01T00:30:00.000Z');
    expect(new Date(sessionDayStart(Date.parse('2026-12-02T00:30:00Z'))).toISOString()).toBe('2026-12-02T00:30:00.000Z');
  });

  it('says an account verified by a login since 06:00 IST logged in today, at what time', () => {
    const login = todayLogin({ ...zerodha, ownership: 'verified', ownership_checked_at: '2026-12-01T03:35:00Z' }, now);
    expect(login).toEqual({ userBrokerId: 'a1', loggedIn: true, words: 'Zerodha AB1234: logged in today at 09:05 IST.' });
    expect(liveLoginNote(login)).toBeUndefined();
  });

  it('asks for today\'s login, with its link, after yesterday\'s login or none, and says what deploying meets', () => {
    const yesterday = todayLogin({ ...zerodha, ownership: 'verified', ownership_checked_at: '2026-11-30T09:00:00Z' }, now);
    expect(yesterday).toEqual({
      userBrokerId: 'a1', loggedIn: false, words: 'Zerodha AB1234: not logged in today. Log in to Zerodha for today.', loginPath: '/api/broker_login/zerodha/AB1234',
    });
    expect(todayLogin({ ...zerodha, ownership: 'unverified', ownership_checked_at: null }, now).loggedIn).toBe(false);
    expect(todayLogin(zerodha, now).loggedIn).toBe(false);
    expect(liveLoginNote(yesterday)).toMatch(/^This account has not logged in to Zerodha today: the server refuses to deploy LIVE without today's session\./);
    expect(liveLoginNote(undefined)).toBeUndefined();
  });
});
