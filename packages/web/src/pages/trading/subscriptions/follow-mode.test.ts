import { describe, expect, it } from 'vitest';
import { followArgs, followIssue, followLiveBlocker, liveFollowAccounts, PAPER_ACCOUNT } from './follow-mode';

const zerodha = { user_broker_id: 'z1', broker: 'zerodha', client_id: 'ZL1', active: true };
const off = { ...zerodha, user_broker_id: 'z2', active: false };
const other = { user_broker_id: 'u1', broker: 'upstox', client_id: 'U1', active: true };

describe('LIVE following in the subscribe and edit dialogs', () => {
  it('is blocked for paper-only plans and without an active Zerodha account, with the reason', () => {
    expect(followLiveBlocker({ role: 'demo', brokers: [zerodha] })).toBe('Your plan (demo) trades on paper only.');
    expect(followLiveBlocker({ role: 'backtest', brokers: [zerodha] })).toMatch(/paper only/);
    expect(followLiveBlocker({ role: 'basic', brokers: [off, other] })).toMatch(/Zerodha account/);
    expect(followLiveBlocker({ role: 'basic', brokers: [zerodha] })).toBeUndefined();
    expect(liveFollowAccounts([zerodha, off, other]).map((account) => account.user_broker_id)).toEqual(['z1']);
  });

  it('needs a LIVE account chosen for LIVE, and sends the mode with the account', () => {
    expect(followIssue({ mode: 'LIVE', broker: PAPER_ACCOUNT }, [zerodha])).toMatch(/Choose the Zerodha account/);
    expect(followIssue({ mode: 'LIVE', broker: 'u1' }, [zerodha, other])).toMatch(/Choose the Zerodha account/);
    expect(followIssue({ mode: 'LIVE', broker: 'z1' }, [zerodha])).toBeUndefined();
    expect(followIssue({ mode: 'PAPER', broker: PAPER_ACCOUNT }, [])).toBeUndefined();
    expect(followArgs({ mode: 'LIVE', broker: 'z1' })).toEqual({ mode: 'LIVE', broker: 'z1' });
    expect(followArgs({ mode: 'PAPER', broker: PAPER_ACCOUNT })).toEqual({ mode: 'PAPER', broker: null });
  });
});
