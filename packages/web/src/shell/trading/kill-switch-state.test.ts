import { describe, expect, it } from 'vitest';
import { switchEffects, switchOf, type KillSwitchRow, type SwitchOrderRow } from './kill-switch-state';

const USER = '11111111-1111-4111-8111-111111111111';

function row(overrides: Partial<KillSwitchRow>): KillSwitchRow {
  return { kill_switch_id: 'k', user_id: USER, is_on: true, square_off: true, changed_at: '2026-11-27T04:00:00.000000+00:00', changed_by: USER, ...overrides };
}

function order(overrides: Partial<SwitchOrderRow>): SwitchOrderRow {
  return {
    order_id: 'o', client_order_id: 'c', side: 'SELL', quantity: 75, status: 'CANCELLED', status_message: null, square_off: false,
    created_at: '2026-11-27T03:00:00+00:00', updated_at: '2026-11-27T04:00:01+00:00', instrument: { trading_symbol: 'NIFTY26DECFUT' }, strategy: null,
    ...overrides,
  };
}

describe('switchOf', () => {
  it('reads the account own row and the global row apart', () => {
    const rows = [row({}), row({ kill_switch_id: 'g', user_id: null, is_on: false })];
    expect(switchOf(rows, USER)).toEqual({ on: true, squareOff: true, since: Date.UTC(2026, 10, 27, 4) });
    expect(switchOf(rows, null).on).toBe(false);
  });

  it('is off without a row, and a switch turned off keeps no square-off', () => {
    expect(switchOf([], USER)).toEqual({ on: false, squareOff: false, since: undefined });
    expect(switchOf([row({ is_on: false, square_off: true })], USER).squareOff).toBe(false);
  });
});

describe('switchEffects', () => {
  const since = Date.UTC(2026, 10, 27, 4);

  it('lists the orders cancelled since the switch went on and the square-offs it placed', () => {
    const effects = switchEffects([
      order({ order_id: 'stop', updated_at: '2026-11-27T04:00:02+00:00' }),
      order({ order_id: 'target', updated_at: '2026-11-27T04:00:01+00:00' }),
      order({ order_id: 'before', updated_at: '2026-11-27T03:59:59+00:00' }),
      order({ order_id: 'close', status: 'FILLED', square_off: true, created_at: '2026-11-27T04:00:01+00:00' }),
      order({ order_id: 'old-close', status: 'FILLED', square_off: true, created_at: '2026-11-27T03:10:00+00:00' }),
    ], since);
    expect(effects.cancelled.map((entry) => entry.order_id)).toEqual(['stop', 'target']);
    expect(effects.squareOffs.map((entry) => entry.order_id)).toEqual(['close']);
  });

  it('lists nothing before the switch has a time', () => {
    expect(switchEffects([order({})], undefined)).toEqual({ cancelled: [], squareOffs: [] });
  });
});
