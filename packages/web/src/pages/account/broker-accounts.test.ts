import { describe, expect, it } from 'vitest';
import {
  CLIENT_ID_PATTERN, DISCONNECT_BROKER_MUTATION, activeInvestmentTotalPaise, brokerLoginPath, brokerLogoutNotice, brokerLogoutQuestion,
  canLogOutOfBroker, effectiveInvestmentPaise, withHistoryEntry, type UserBrokerRow,
} from './broker-accounts';

const row = (overrides: Partial<UserBrokerRow>): UserBrokerRow => ({
  user_broker_id: 'id',
  broker: 'zerodha',
  client_id: 'ZR7314',
  active: true,
  api_key: null,
  investment_amt_paise: 0,
  investment_history: [],
  broker_info: { name: 'Zerodha (Kite Connect)' },
  ownership: 'unverified',
  ownership_checked_at: null,
  ...overrides,
});

describe('investment of a broker account (docs/PRODUCT.md section 5)', () => {
  it('uses the latest history entry, by date not by position, when there is one', () => {
    const history = [{ date: '2025-10-01', amount_paise: 60_000_000 }, { date: '2025-04-01', amount_paise: 40_000_000 }];
    expect(effectiveInvestmentPaise(row({ investment_amt_paise: 50_000_000, investment_history: history }))).toBe(60_000_000);
  });

  it('falls back to investment_amt_paise without history', () => {
    expect(effectiveInvestmentPaise(row({ investment_amt_paise: 15_000_000 }))).toBe(15_000_000);
  });

  it('totals active accounts only', () => {
    const rows = [row({ investment_amt_paise: 100 }), row({ active: false, investment_amt_paise: 1_000 }), row({ investment_amt_paise: 10 })];
    expect(activeInvestmentTotalPaise(rows)).toBe(110);
  });

  it('records a new amount for a day once, keeping the history in date order', () => {
    const history = [{ date: '2025-04-01', amount_paise: 1 }, { date: '2026-11-24', amount_paise: 2 }];
    expect(withHistoryEntry(history, { date: '2026-11-24', amount_paise: 3 })).toEqual([
      { date: '2025-04-01', amount_paise: 1 },
      { date: '2026-11-24', amount_paise: 3 },
    ]);
    expect(withHistoryEntry(history, { date: '2025-01-01', amount_paise: 0 })[0]).toEqual({ date: '2025-01-01', amount_paise: 0 });
  });
});

describe('broker accounts', () => {
  it('accepts client ids the database accepts', () => {
    expect(CLIENT_ID_PATTERN.test('ZR7314')).toBe(true);
    expect(CLIENT_ID_PATTERN.test('a')).toBe(false);
    expect(CLIENT_ID_PATTERN.test('has space')).toBe(false);
  });

  it('links to the broker login route with escaped parts', () => {
    expect(brokerLoginPath({ broker: 'zerodha', client_id: 'ZR7314' })).toBe('/api/broker_login/zerodha/ZR7314');
    expect(brokerLoginPath({ broker: 'dhan', client_id: 'a/b' })).toBe('/api/broker_login/dhan/a%2Fb');
  });
});

describe('logging out of Zerodha', () => {
  it('is offered for Zerodha accounts only, the one broker with a session', () => {
    expect(canLogOutOfBroker(row({ broker: 'zerodha' }))).toBe(true);
    expect(canLogOutOfBroker(row({ broker: 'upstox' }))).toBe(false);
    expect(canLogOutOfBroker(row({ broker: 'dhan' }))).toBe(false);
  });

  it('asks with the client id and says what stops', () => {
    expect(brokerLogoutQuestion(row({ client_id: 'ZR7314' }))).toBe(
      "End today's Zerodha session for ZR7314? LIVE strategies of this account stop sending entries until you log in again.");
  });

  it('asks for the fields the notification shows', () => {
    expect(DISCONNECT_BROKER_MUTATION).toContain('disconnect_broker(user_broker_id: $id) { user_broker_id broker_confirmed message }');
  });

  it("shows the server's message as a sentence, a success only when the broker confirmed", () => {
    expect(brokerLogoutNotice({ broker_confirmed: true, message: 'the session of ZR7314 is ended' }))
      .toEqual({ severity: 'success', text: 'The session of ZR7314 is ended.' });
    expect(brokerLogoutNotice({ broker_confirmed: false, message: 'the session of ZR7314 is ended; Kite had already ended it' }))
      .toEqual({ severity: 'info', text: 'The session of ZR7314 is ended; Kite had already ended it.' });
    expect(brokerLogoutNotice({ broker_confirmed: false, message: 'ZR7314 has no session to end.' }))
      .toEqual({ severity: 'info', text: 'ZR7314 has no session to end.' });
  });
});
