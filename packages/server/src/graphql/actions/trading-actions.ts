// The trading actions of the GraphQL schema (Hasura actions over ../../trading/): the kill
// switches, a user's own (set_kill_switch) and the administrators' over everyone
// (set_global_kill_switch), both answering the switch as stored after the call; and the
// deployments (strategy-actions.ts): create_strategy_from_backtest, deploy_strategy, stop_strategy,
// confirm_signal.
import type pg from 'pg';
import type { JobQueue } from '../../jobs/job-queue';
import type { ActionDeclaration } from '../metadata/types';
import {
  GLOBAL_KILL_SWITCH_ROLES, KILL_SWITCH_ROLES, KILL_SWITCH_TYPES, SET_GLOBAL_KILL_SWITCH, SET_KILL_SWITCH,
  setGlobalKillSwitchAction, setKillSwitchAction,
} from './kill-switch-action';
import { basketActions } from './basket-actions';
import { subscriptionActions } from './subscription-actions';
import { accountRiskActions } from './account-risk-action';
import { userAdminActions } from './user-admin-actions';
import { reportActions } from './report-actions';
import { ensembleActions } from './ensemble-actions';
import { SQUARE_OFF_POSITIONS, SQUARE_OFF_ROLES, SQUARE_OFF_TYPES, squareOffPositionsAction } from './square-off-action';
import {
  CONFIRM_ROLES, CONFIRM_SIGNAL, CONFIRM_SIGNAL_TYPES, confirmSignalAction, CREATE_STRATEGY_FROM_BACKTEST, CREATE_STRATEGY_FROM_BACKTEST_TYPES,
  createStrategyFromBacktestAction, DEPLOY_ROLES, DEPLOY_STRATEGY, DEPLOY_STRATEGY_TYPES, deployStrategyAction, STOP_STRATEGY,
  STOP_STRATEGY_TYPES, stopStrategyAction,
} from './strategy-actions';

export interface TradingActionsOptions {
  readonly pool: pg.Pool;
  /** Where deploy_strategy enqueues the run's job (in its transaction). */
  readonly queue: JobQueue;
  /** The platform's algo id for LIVE strategies without their own (VYUHA_ALGO_ID). */
  readonly defaultAlgoId?: string;
}

/**
 * The trading action declarations for the metadata (`Metadata.actions`).
 * @example tradingActions({ pool, queue }).map((action) => action.name) // ['set_kill_switch', 'set_global_kill_switch', 'deploy_strategy', ...]
 */
export function tradingActions(options: TradingActionsOptions): ActionDeclaration[] {
  const orphan = GLOBAL_KILL_SWITCH_ROLES.find((role) => !KILL_SWITCH_ROLES.includes(role));
  if (orphan !== undefined) throw new Error(`GraphQL metadata: role ${orphan} would get ${SET_GLOBAL_KILL_SWITCH} without its result type`);
  const context = { pool: options.pool };
  const deployments = { pool: options.pool, queue: options.queue, ...(options.defaultAlgoId === undefined ? {} : { defaultAlgoId: options.defaultAlgoId }) };
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
    {
      name: CREATE_STRATEGY_FROM_BACKTEST,
      kind: 'mutation',
      field: `${CREATE_STRATEGY_FROM_BACKTEST}(backtest_run_id: uuid!, name: String): create_strategy_from_backtest_result!`,
      types: CREATE_STRATEGY_FROM_BACKTEST_TYPES,
      description: '"Deploy this": a DRAFT PAPER algo strategy running what a COMPLETE backtest run of the account ran (algorithm version, '
        + 'option legs or instrument, interval, type, investment; all-in sizing), named `name` or after what it runs; deploy it with deploy_strategy.',
      roles: DEPLOY_ROLES,
      handler: (invocation) => createStrategyFromBacktestAction(deployments, invocation),
    },
    {
      name: DEPLOY_STRATEGY,
      kind: 'mutation',
      field: `${DEPLOY_STRATEGY}(strategy_id: uuid!, mode: String!, replay: deploy_replay_input, user_broker_id: uuid): deploy_strategy_result!`,
      types: DEPLOY_STRATEGY_TYPES,
      description: 'Deploys an algo strategy (DRAFT, PAUSED or STOPPED): on PAPER, a run trading it forward on the simulated market, or '
        + 'replaying stored candles when replay is given; LIVE, a run trading the market through the broker account user_broker_id '
        + '(Zerodha, with a session for today). Takes a STRATEGIES/DEPLOYED licence slot. A PAUSED strategy resumes its run.',
      roles: DEPLOY_ROLES,
      handler: (invocation) => deployStrategyAction(deployments, invocation),
    },
    {
      name: STOP_STRATEGY,
      kind: 'mutation',
      field: `${STOP_STRATEGY}(strategy_id: uuid!, square_off: Boolean!): stop_strategy_result!`,
      types: STOP_STRATEGY_TYPES,
      description: 'Stops an ACTIVE or PAUSED strategy: its run ends (after closing its positions when square_off is true) and its licence slot is freed.',
      roles: DEPLOY_ROLES,
      handler: (invocation) => stopStrategyAction(deployments, invocation),
    },
    {
      name: CONFIRM_SIGNAL,
      kind: 'mutation',
      field: `${CONFIRM_SIGNAL}(pending_signal_id: uuid!, accept: Boolean!): confirm_signal_result!`,
      types: CONFIRM_SIGNAL_TYPES,
      description: "Accepts (the strategy's runner places the order) or rejects a PENDING signal of a MANUAL strategy before it expires.",
      roles: CONFIRM_ROLES,
      handler: (invocation) => confirmSignalAction(deployments, invocation),
    },
    {
      name: SQUARE_OFF_POSITIONS,
      kind: 'mutation',
      field: `${SQUARE_OFF_POSITIONS}(positions: [position_key!]!): square_off_positions_result!`,
      types: SQUARE_OFF_TYPES,
      description: "Squares off open PAPER or LIVE positions of the account: each position's strategy is stopped with its square-off "
        + '(its runner closes the position at market and ends the run; deploy it again from /strategies).',
      roles: SQUARE_OFF_ROLES,
      handler: (invocation) => squareOffPositionsAction(deployments, invocation),
    },
    // Baskets (basket-actions.ts): save, preview, place on paper or LIVE, keep or square off.
    ...basketActions(deployments),
    // Subscriptions (subscription-actions.ts): subscribe, edit, pause, unsubscribe.
    ...subscriptionActions({ pool: options.pool }),
    // Reports and their read-only links (report-actions.ts): trading_report, the share links, shared_report.
    ...reportActions({ pool: options.pool }),
    // User administration (user-admin-actions.ts): /users/list and /users/edit, credits and licences.
    ...userAdminActions({ pool: options.pool }),
    // Account-level stop-loss, target and trailing (account-risk-action.ts): /userAccounts' edits.
    ...accountRiskActions({ pool: options.pool }),
    // Ensemble sync (ensemble-actions.ts): /ensembleSync's list, drift, preview and apply, and its management.
    ...ensembleActions(deployments),
  ];
}
