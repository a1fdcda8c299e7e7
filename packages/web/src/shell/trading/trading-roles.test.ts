import { describe, expect, it } from 'vitest';
import { mayTrade, mayUseGlobalSwitch } from './trading-roles';

describe('who sees the header trading controls', () => {
  it('shows them to the tiers that trade, not to trial, support or the base roles', () => {
    for (const role of ['basic', 'advanced', 'demo', 'backtest', 'manager', 'administrator', 'superadmin']) expect(mayTrade(role), role).toBe(true);
    for (const role of ['trial', 'support', 'user', 'me', undefined]) expect(mayTrade(role), String(role)).toBe(false);
  });

  it('gives the global switch to administrators and superadmins only (the server GLOBAL_KILL_SWITCH_ROLES)', () => {
    expect(['administrator', 'superadmin'].every(mayUseGlobalSwitch)).toBe(true);
    expect(['manager', 'advanced', 'trial', undefined].some(mayUseGlobalSwitch)).toBe(false);
  });
});
