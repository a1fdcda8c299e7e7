import { describe, expect, it } from 'vitest';
import { claimedElsewhereMessage, ownershipStatus } from './broker-ownership';

// A client id recorded by several users is settled by the broker login (migration 0014); the
// owner of a row the broker gave to someone else is told on the account page, in words.

describe('ownershipStatus', () => {
  it('labels each state', () => {
    expect(ownershipStatus({ ownership: 'verified', ownership_checked_at: '2026-03-02T10:00:00Z' })).toMatchObject({ label: 'Verified', color: 'teal' });
    expect(ownershipStatus({ ownership: 'unverified', ownership_checked_at: null })).toMatchObject({ label: 'Not verified', color: 'gray' });
    expect(ownershipStatus({ ownership: 'claimed_elsewhere', ownership_checked_at: '2026-03-02T10:00:00Z' })).toMatchObject({ label: 'Claimed elsewhere', color: 'red' });
  });
});

describe('claimedElsewhereMessage', () => {
  it('says what happened and what to do', () => {
    const message = claimedElsewhereMessage({ brokerName: 'Zerodha (Kite Connect)', clientId: 'AB1234' });
    expect(message).toContain('Another Vyuha account logged in to Zerodha (Kite Connect) as AB1234');
    expect(message).toContain('switched off and cannot trade');
    expect(message).toContain('change your broker password, then log in here again');
  });
});
