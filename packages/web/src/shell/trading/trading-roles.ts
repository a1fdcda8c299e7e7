// Who sees the header's trading controls. The server's lists (packages/server/src/graphql/actions/
// kill-switch-action.ts, KILL_SWITCH_ROLES and GLOBAL_KILL_SWITCH_ROLES; strategy-actions.ts,
// CONFIRM_ROLES) are mirrored here so a button shows only where the call would be allowed.
//
// Trial is left out on purpose: issue 18 shows the trial tier no kill switch and no signals queue
// (its dashboard is a look around, not a desk). The server would still accept trial's own switch.
// Support, `user` and `me` never trade.
import type { Role } from '../../app/menu';

/** Roles that see the kill switch, the pending-signals queue and the trading alerts. */
export const TRADING_ROLES: readonly Role[] = ['basic', 'advanced', 'demo', 'backtest', 'manager', 'administrator', 'superadmin'];

/** Roles that may turn the administrators' switch over every user (server: GLOBAL_KILL_SWITCH_ROLES). */
export const GLOBAL_KILL_SWITCH_ROLES: readonly Role[] = ['administrator', 'superadmin'];

/** @example mayTrade('advanced') // true; mayTrade('trial') // false */
export function mayTrade(role: string | undefined): boolean {
  return (TRADING_ROLES as readonly string[]).includes(role ?? '');
}

/** @example mayUseGlobalSwitch('administrator') // true; mayUseGlobalSwitch('manager') // false */
export function mayUseGlobalSwitch(role: string | undefined): boolean {
  return (GLOBAL_KILL_SWITCH_ROLES as readonly string[]).includes(role ?? '');
}
