// The trading actions of the GraphQL schema (Hasura actions over ../../trading/): the kill
// switches, a user's own (set_kill_switch) and the administrators' over everyone
// (set_global_kill_switch). Both mutations answer the switch as stored after the call.
import type pg from 'pg';
import type { ActionDeclaration } from '../metadata/types';
import {
  GLOBAL_KILL_SWITCH_ROLES, KILL_SWITCH_ROLES, KILL_SWITCH_TYPES, SET_GLOBAL_KILL_SWITCH, SET_KILL_SWITCH,
  setGlobalKillSwitchAction, setKillSwitchAction,
} from './kill-switch-action';

export interface TradingActionsOptions {
  readonly pool: pg.Pool;
}

/**
 * The trading action declarations for the metadata (`Metadata.actions`).
 * @example tradingActions({ pool }).map((action) => action.name) // ['set_kill_switch', 'set_global_kill_switch']
 */
export function tradingActions(options: TradingActionsOptions): ActionDeclaration[] {
  const orphan = GLOBAL_KILL_SWITCH_ROLES.find((role) => !KILL_SWITCH_ROLES.includes(role));
  if (orphan !== undefined) throw new Error(`GraphQL metadata: role ${orphan} would get ${SET_GLOBAL_KILL_SWITCH} without its result type`);
  const context = { pool: options.pool };
  return [
    {
      name: SET_KILL_SWITCH,
      kind: 'mutation',
      field: `${SET_KILL_SWITCH}(on: Boolean!, square_off: Boolean): kill_switch_result!`,
      types: KILL_SWITCH_TYPES,
      description: "Turns the account's kill switch on (no new order leaves within 1 s, open orders cancelled, positions squared off "
        + 'when square_off is true) or off; a manager acting for a user sets that user\'s switch.',
      roles: KILL_SWITCH_ROLES,
      handler: (invocation) => setKillSwitchAction(context, invocation),
    },
    {
      name: SET_GLOBAL_KILL_SWITCH,
      kind: 'mutation',
      field: `${SET_GLOBAL_KILL_SWITCH}(on: Boolean!, square_off: Boolean): kill_switch_result!`,
      // The result type comes with set_kill_switch, which every role of this one also holds (checked below).
      types: '',
      description: "Turns the administrators' kill switch over every account on or off (square_off: close every open position).",
      roles: GLOBAL_KILL_SWITCH_ROLES,
      handler: (invocation) => setGlobalKillSwitchAction(context, invocation),
    },
  ];
}
