import { describe, expect, it } from 'vitest';
import { BROKER_LOGIN_ERROR_WORDS, describeBrokerLogin, readBrokerLoginOutcome } from './broker-login-outcome';

// "Log in to broker" replaced the page with raw JSON (not-implemented, api-key-missing). The route
// now returns to the brokers tab with a code, and the page says what happened and what to do.

/** The codes the login route sends (packages/server/src/brokers/broker-login-outcome.ts). */
const SERVER_CODES = [
  'unknown-broker', 'account-not-found', 'not-supported', 'api-key-missing', 'api-secret-missing', 'secret-key-missing',
  'secret-unreadable', 'callback-invalid', 'api-secret-wrong', 'request-token-expired', 'broker-refused',
  'broker-unreachable', 'broker-timeout', 'broker-answer-invalid', 'wrong-user',
];

const names: Record<string, string> = { zerodha: 'Zerodha (Kite Connect)', upstox: 'Upstox' };
const nameOf = (broker: string) => names[broker];

function outcome(query: string) {
  const read = readBrokerLoginOutcome(new URLSearchParams(query));
  if (read === undefined) throw new Error(`no outcome in ${query}`);
  return read;
}

describe('readBrokerLoginOutcome', () => {
  it('reads nothing from an address without a login outcome', () => {
    expect(readBrokerLoginOutcome(new URLSearchParams('tab=brokers'))).toBeUndefined();
  });

  it('reads the code, broker and client id', () => {
    expect(outcome('tab=brokers&broker_login=error&code=wrong-user&broker=zerodha&client_id=GH7890&signed_in_as=AB1234'))
      .toEqual({ kind: 'error', code: 'wrong-user', broker: 'zerodha', clientId: 'GH7890', signedInAs: 'AB1234' });
  });

  it('drops values that do not match their patterns', () => {
    expect(outcome('broker_login=error&code=Call%20us%20now&broker=Evil%20Corp&client_id=%3Cscript%3E'))
      .toEqual({ kind: 'error', code: 'unknown' });
  });
});

describe('describeBrokerLogin', () => {
  it('has words for every code the server sends', () => {
    for (const code of SERVER_CODES) expect(BROKER_LOGIN_ERROR_WORDS[code], code).toBeDefined();
    expect(Object.keys(BROKER_LOGIN_ERROR_WORDS).sort()).toEqual([...SERVER_CODES].sort());
  });

  it('says plainly that only Zerodha logs in today', () => {
    const notice = describeBrokerLogin(outcome('broker_login=error&code=not-supported&broker=upstox&client_id=UP1111'), nameOf);
    expect(notice).toEqual({
      color: 'yellow',
      title: 'Upstox login is not supported yet',
      message: 'Logging in to Upstox is not supported yet: today only Zerodha (Kite Connect) logs in. The account stays recorded here, and nothing is sent to Upstox.',
    });
  });

  it('says what is missing and what to do for a missing API key', () => {
    const notice = describeBrokerLogin(outcome('broker_login=error&code=api-key-missing&broker=zerodha&client_id=NK0000'), nameOf);
    expect(notice.message).toBe('Zerodha (Kite Connect) account NK0000 has no API key. Delete it and add it again with the API key of your Kite Connect app (the Kite Connect developer console shows it), then log in.');
  });

  it('names who signed in for a login as someone else', () => {
    const notice = describeBrokerLogin(outcome('broker_login=error&code=wrong-user&broker=zerodha&client_id=GH7890&signed_in_as=AB1234'), nameOf);
    expect(notice.message).toContain('You signed in to Zerodha (Kite Connect) as AB1234, but this account is GH7890.');
  });

  it('confirms a login', () => {
    const notice = describeBrokerLogin(outcome('broker_login=ok&broker=zerodha&client_id=AB1234'), nameOf);
    expect(notice).toMatchObject({ color: 'teal', title: 'Logged in to Zerodha (Kite Connect)' });
    expect(notice.message).toContain("Today's session of AB1234 is stored");
  });

  it('falls back to plain words for a code it does not know', () => {
    expect(describeBrokerLogin(outcome('broker_login=error&code=new-thing'), nameOf).message).toBe('The login to the broker failed (new-thing). Try again; if it keeps failing, tell support.');
  });
});
