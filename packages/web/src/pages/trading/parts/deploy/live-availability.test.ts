import { describe, expect, it } from 'vitest';
import { liveAccounts, liveBlocker, type BrokerAccountRow } from './live-availability';

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
