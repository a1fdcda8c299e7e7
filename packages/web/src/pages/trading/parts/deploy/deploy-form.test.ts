import { describe, expect, it } from 'vitest';
import { deployRequestOf, draftOf, fieldErrorsOf, fieldKeyOf, loginPathIn, type DeployTarget } from './deploy-form';

const HISTORY = { from: '2026-08-03', to: '2026-10-30' };
const TARGET: DeployTarget = {
  algorithm_id: 'algo-1', algorithm_version: 2, interval_minutes: 15, strategy_type: 'intraday',
  config: { investment: 1_000_000_00, sizing: { kind: 'all-in' }, manual: false, backtest: { run_id: 'b1' } },
  instrument: { name: 'NIFTY 50', lot_size: 75 },
};
const DRAFT = draftOf(TARGET.config, { from: '2026-10-28', to: '2026-10-30' });

describe('draftOf', () => {
  it('reads the saved settings in rupees and starts on PAPER with a 600x replay', () => {
    const draft = draftOf({ investment: 2_500_000, stopLoss: { kind: 'points', points: 40 }, dailyMaxLoss: 500_000, sizing: { kind: 'lots', lots: 2, lotSize: 75 } },
      { from: '2026-10-28', to: '2026-10-30' });
    expect(draft).toMatchObject({ mode: 'PAPER', investmentRupees: 25_000, sizing: 'lots', lots: 2, stopLoss: { kind: 'points', value: 40 },
      target: { kind: 'none' }, dailyMaxLossRupees: 5_000, replay: true, speed: 600 });
  });
});

describe('deployRequestOf', () => {
  it('stores lots with the instrument lot size, exits and limits in paise, and keeps what the form does not edit', () => {
    const checked = deployRequestOf({ ...DRAFT, sizing: 'lots', lots: 2, stopLoss: { kind: 'percent', value: 0.5 }, dailyMaxLossRupees: '2,000' }, TARGET, HISTORY);
    expect(checked).toEqual({
      ok: true,
      request: {
        mode: 'PAPER', userBrokerId: null, replay: { from: '2026-10-28', to: '2026-10-30', speed: 600 },
        config: { backtest: { run_id: 'b1' }, investment: 1_000_000_00, manual: false, sizing: { kind: 'lots', lots: 2, lotSize: 75 },
          stopLoss: { kind: 'percent', percent: 0.5 }, dailyMaxLoss: 200_000 },
      },
    });
  });

  it('puts the engine\'s issue for a negative stop-loss at the stop-loss field', () => {
    const checked = deployRequestOf({ ...DRAFT, stopLoss: { kind: 'percent', value: -1 } }, TARGET, HISTORY);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.errors.stopLoss).toMatch(/^stopLoss\.percent /);
  });

  it('refuses a replay outside the stored history; a MANUAL replay waits for each signal, so it is allowed', () => {
    const checked = deployRequestOf({ ...DRAFT, replayFrom: '2026-07-01', manual: true }, TARGET, HISTORY);
    expect(checked.ok ? [] : Object.keys(checked.errors).sort()).toEqual(['replay.from']);
    const manual = deployRequestOf({ ...DRAFT, manual: true }, TARGET, HISTORY);
    expect(manual.ok && manual.request.config.manual).toBe(true);
  });

  it('sends no replay for the simulated market and asks LIVE for an account', () => {
    const market = deployRequestOf({ ...DRAFT, replay: false }, TARGET, HISTORY);
    expect(market.ok && market.request.replay).toBeNull();
    const live = deployRequestOf({ ...DRAFT, mode: 'LIVE' }, TARGET, HISTORY);
    expect(live.ok ? {} : live.errors).toEqual({ user_broker_id: 'choose the broker account the strategy trades through' });
  });

  it('refuses a zero investment at its field', () => {
    const checked = deployRequestOf({ ...DRAFT, investmentRupees: 0 }, TARGET, HISTORY);
    expect(checked.ok ? {} : Object.keys(checked.errors)).toEqual(['investment']);
  });
});

describe('server issues at fields', () => {
  it('maps a refusal\'s paths to the form fields', () => {
    expect(fieldKeyOf('config.sizing.lots')).toBe('sizing');
    expect(fieldKeyOf('replay.speed')).toBe('replay.speed');
    expect(fieldKeyOf('user_broker_id')).toBe('user_broker_id');
    expect(fieldKeyOf(undefined)).toBe('general');
    expect(fieldErrorsOf([{ field: 'strategy_id', message: 'a' }, { message: 'b' }, { field: 'config.stopLoss.percent', message: 'c' }]))
      .toEqual({ general: 'a; b', stopLoss: 'c' });
  });
});

describe('loginPathIn', () => {
  it("finds the broker login of a session refusal, and nothing in other messages", () => {
    expect(loginPathIn('Log in to Zerodha for today: there is no session for AB1234 (log in at /api/broker_login/zerodha/AB1234)'))
      .toBe('/api/broker_login/zerodha/AB1234');
    expect(loginPathIn('user_broker_id: no broker account x of yours')).toBeUndefined();
  });
});
