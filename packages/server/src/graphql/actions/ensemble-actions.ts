// The ensemble sync actions (/ensembleSync and /ensembleSync/{id}; ../../trading/ensembles/):
// the list, one ensemble's state (members, accounts with their drift, history), the sync preview
// and apply, and the administrator's management (create, members, accounts).
//
// - Roles: administrator and superadmin only; every other role (manager, support, the tiers,
//   user, me) is refused in words. Administrators manage every ensemble (staff), whoever made it.
// - A refusal changes nothing and answers one error naming the first issue's field
//   (`...args.as_of`), every issue in `extensions.issues`.
// - as_of and history_from: from 2021-01-01 (docs/PRODUCT.md section 9), never after today (IST).
import type pg from 'pg';
import type { JobQueue } from '../../jobs/job-queue';
import { createEnsemble, listEnsembles, removeAccount, removeMember, setAccount, setMember, syncHistory } from '../../trading/ensembles/ensemble-store';
import { applySync, asOfDate, EnsembleRefusal, ensembleState, previewSync } from '../../trading/ensembles/ensemble-sync';
import type { EnsembleContext, EnsembleIssue, EnsembleState, PreviewOrder } from '../../trading/ensembles/ensemble-sync';
import type { ActionDeclaration, ActionInvocation } from '../metadata/types';
import { IssuesFailure } from '../types';
import { actorId, isUuid, requireRole } from './session-access';

export const ENSEMBLE_ROLES: readonly string[] = ['administrator', 'superadmin'];

export const ENSEMBLES = 'ensembles';
export const ENSEMBLE_DETAIL = 'ensemble_detail';
export const ENSEMBLE_SYNC_PREVIEW = 'ensemble_sync_preview';
export const ENSEMBLE_SYNC_APPLY = 'ensemble_sync_apply';
export const CREATE_ENSEMBLE = 'create_ensemble';
export const SET_ENSEMBLE_MEMBER = 'set_ensemble_member';
export const REMOVE_ENSEMBLE_MEMBER = 'remove_ensemble_member';
export const SET_ENSEMBLE_ACCOUNT = 'set_ensemble_account';
export const REMOVE_ENSEMBLE_ACCOUNT = 'remove_ensemble_account';

const ENSEMBLE_TYPES = `
type ensemble_summary {
  ensemble_id: uuid!
  name: String!
  owner_name: String!
  members: Int!
  accounts: Int!
  last_sync_at: String
}

type ensemble_member_position {
  instrument_id: Int!
  symbol: String!
  quantity: Int!
}

type ensemble_member {
  strategy_id: uuid!
  name: String!
  weight: Float!
  """The member's PAPER or LIVE run in progress that counts, or null (then it adds nothing)."""
  run_id: uuid
  run_kind: String
  investment_paise: Float!
  positions: [ensemble_member_position!]!
}

type ensemble_drift_row {
  instrument_id: Int!
  symbol: String!
  lot_size: Int!
  target: Int!
  actual: Int!
  drift: Int!
}

type ensemble_account {
  user_broker_id: uuid!
  user_name: String!
  client_id: String!
  investment_paise: Float!
  mode: String!
  active: Boolean!
  in_sync: Boolean!
  rows: [ensemble_drift_row!]!
}

type ensemble_sync_order {
  user_broker_id: uuid!
  client_id: String!
  symbol: String!
  side: String!
  quantity: Int!
  mode: String!
  estimated_price_paise: Float!
  estimated_charges_paise: Float!
  run_id: uuid
  order_id: uuid
  """PENDING (a LIVE basket a runner is placing), FILLED, REFUSED, REJECTED, NOT_FILLED or NOT_SENT."""
  status: String!
  message: String
  average_price_paise: Float
}

type ensemble_sync_record {
  sync_id: uuid!
  actor_name: String
  as_of: String!
  """PLACING, COMPLETE, PARTIAL, FAILED or NOTHING."""
  status: String!
  orders_count: Int!
  filled_count: Int!
  accounts_count: Int!
  created_at: String!
  orders: [ensemble_sync_order!]!
}

type ensemble_candidate {
  id: String!
  label: String!
}

type ensemble_detail {
  ensemble_id: uuid!
  name: String!
  as_of: String!
  members: [ensemble_member!]!
  accounts: [ensemble_account!]!
  history: [ensemble_sync_record!]!
  """Algo strategies with a PAPER or LIVE run in progress, not yet members."""
  candidate_members: [ensemble_candidate!]!
  """Broker accounts not yet subscribed."""
  candidate_accounts: [ensemble_candidate!]!
}

type ensemble_preview_order {
  user_broker_id: uuid!
  client_id: String!
  mode: String!
  instrument_id: Int!
  symbol: String!
  side: String!
  quantity: Int!
  lot_size: Int!
  estimated_price_paise: Float!
  estimated_charges_paise: Float!
}

type ensemble_sync_preview_result {
  preview_token: String!
  as_of: String!
  orders: [ensemble_preview_order!]!
  charges_paise: Float!
}

type ensemble_sync_apply_result {
  sync_id: uuid!
  status: String!
  already_applied: Boolean!
}

type ensemble_change_result {
  ensemble_id: uuid!
}
`;

/** A refusal carrying every issue in its extensions. */
export class EnsembleActionRefusal extends IssuesFailure<EnsembleIssue> {
  constructor(action: string, issues: readonly EnsembleIssue[]) {
    const first = issues[0];
    super(first?.code === 'not-found' ? 'not-found' : 'validation-failed', issues, `$.selectionSet.${action}${first === undefined ? '' : `.args.${first.field}`}`);
  }
}

async function refusing<T>(action: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof EnsembleRefusal) throw new EnsembleActionRefusal(action, error.issues);
    throw error;
  }
}

function uuidArgument(action: string, value: unknown, name: string): string {
  if (!isUuid(value)) throw new EnsembleActionRefusal(action, [{ field: name, code: 'invalid', message: `${name}: must be a uuid, got ${JSON.stringify(value ?? null)}` }]);
  return value;
}

export interface EnsembleActionsOptions {
  readonly pool: pg.Pool;
  readonly queue?: JobQueue;
  readonly defaultAlgoId?: string;
  readonly now?: () => number;
}

function contextOf(options: EnsembleActionsOptions): EnsembleContext {
  return {
    pool: options.pool, ...(options.queue === undefined ? {} : { queue: options.queue }), ...(options.defaultAlgoId === undefined ? {} : { defaultAlgoId: options.defaultAlgoId }),
    ...(options.now === undefined ? {} : { now: options.now }),
  };
}

async function symbolsOf(pool: pg.Pool, ids: readonly number[]): Promise<Map<number, string>> {
  const { rows } = await pool.query<{ instrument_id: number; trading_symbol: string }>('SELECT instrument_id, trading_symbol FROM instruments WHERE instrument_id = ANY($1::int[])', [ids]);
  return new Map(rows.map((row) => [row.instrument_id, row.trading_symbol]));
}

async function stateOut(pool: pg.Pool, state: EnsembleState): Promise<Record<string, unknown>> {
  const symbols = await symbolsOf(pool, state.members.flatMap((member) => [...member.positions.keys()]));
  return {
    ensemble_id: state.ensembleId, name: state.name, as_of: state.asOf,
    members: state.members.map((member) => ({
      strategy_id: member.strategyId, name: member.name, weight: member.weight, run_id: member.runId, run_kind: member.runKind, investment_paise: member.investmentPaise,
      positions: [...member.positions].map(([instrumentId, quantity]) => ({ instrument_id: instrumentId, symbol: symbols.get(instrumentId) ?? String(instrumentId), quantity })),
    })),
    accounts: state.accounts.map((account) => ({
      user_broker_id: account.userBrokerId, user_name: account.userName, client_id: account.clientId, investment_paise: account.investmentPaise, mode: account.mode,
      active: account.active, in_sync: account.inSync,
      rows: account.rows.map((row) => ({ instrument_id: row.instrumentId, symbol: row.symbol, lot_size: row.lotSize, target: row.target, actual: row.actual, drift: row.drift })),
    })),
  };
}

async function candidates(pool: pg.Pool, ensembleId: string): Promise<{ members: { id: string; label: string }[]; accounts: { id: string; label: string }[] }> {
  const { rows: members } = await pool.query<{ id: string; label: string }>(
    `SELECT s.strategy_id::text AS id, s.name || ' (' || u.name || ')' AS label FROM strategies s JOIN users u ON u.user_id = s.user_id
      WHERE s.kind = 'algo' AND EXISTS (SELECT 1 FROM strategy_runs r WHERE r.strategy_id = s.strategy_id AND r.kind IN ('PAPER', 'LIVE') AND r.status = 'IN PROGRESS')
        AND NOT EXISTS (SELECT 1 FROM ensemble_members m WHERE m.ensemble_id = $1 AND m.member_strategy_id = s.strategy_id)
      ORDER BY s.name LIMIT 500`, [ensembleId]);
  const { rows: accounts } = await pool.query<{ id: string; label: string }>(
    `SELECT b.user_broker_id::text AS id, u.name || ' · ' || b.broker || ' ' || b.client_id AS label FROM user_brokers b JOIN users u ON u.user_id = b.user_id
      WHERE NOT EXISTS (SELECT 1 FROM ensemble_accounts a WHERE a.ensemble_id = $1 AND a.user_broker_id = b.user_broker_id)
      ORDER BY u.name, b.client_id LIMIT 500`, [ensembleId]);
  return { members, accounts };
}

function historyOut(rows: Awaited<ReturnType<typeof syncHistory>>): Record<string, unknown>[] {
  return rows.map((row) => ({
    sync_id: row.syncId, actor_name: row.actorName, as_of: row.asOf, status: row.status, orders_count: row.ordersCount, filled_count: row.filledCount,
    accounts_count: row.accountsCount, created_at: row.createdAt,
    orders: row.orders.map((order) => ({
      user_broker_id: order.userBrokerId, client_id: order.clientId, symbol: order.symbol, side: order.side, quantity: order.quantity, mode: order.mode,
      estimated_price_paise: order.estimatedPricePaise, estimated_charges_paise: order.estimatedChargesPaise, run_id: order.runId, order_id: order.orderId,
      status: order.status, message: order.message, average_price_paise: order.averagePricePaise,
    })),
  }));
}

function previewOut(state: EnsembleState, orders: readonly PreviewOrder[]): Record<string, unknown> {
  const clientOf = new Map(state.accounts.map((account) => [account.userBrokerId, account.clientId]));
  return {
    preview_token: state.token, as_of: state.asOf, charges_paise: orders.reduce((sum, order) => sum + order.estimatedChargesPaise, 0),
    orders: orders.map((order) => ({
      user_broker_id: order.userBrokerId, client_id: clientOf.get(order.userBrokerId) ?? '', mode: order.mode, instrument_id: order.instrumentId, symbol: order.symbol,
      side: order.side, quantity: order.quantity, lot_size: order.lotSize, estimated_price_paise: order.estimatedPricePaise, estimated_charges_paise: order.estimatedChargesPaise,
    })),
  };
}

/** ensemble_detail: the state as of `as_of`, the history from `history_from`, and the pickers' choices. */
export async function ensembleDetailAction(options: EnsembleActionsOptions, invocation: ActionInvocation): Promise<Record<string, unknown>> {
  requireRole(invocation.session, ENSEMBLE_ROLES, ENSEMBLE_DETAIL);
  const { pool } = options;
  return refusing(ENSEMBLE_DETAIL, async () => {
    const ensembleId = uuidArgument(ENSEMBLE_DETAIL, invocation.args.ensemble_id, 'ensemble_id');
    const nowMs = (options.now ?? Date.now)();
    const asOf = asOfDate(invocation.args.as_of, nowMs);
    let from: string;
    try {
      from = asOfDate(invocation.args.history_from ?? '2021-01-01', nowMs);
    } catch (error) {
      if (!(error instanceof EnsembleRefusal)) throw error;
      throw new EnsembleRefusal(error.issues.map((issue) => ({ ...issue, field: 'history_from', message: issue.message.replace(/^as_of/, 'history_from') })));
    }
    const state = await ensembleState(contextOf(options), ensembleId, asOf);
    const picks = await candidates(pool, ensembleId);
    return {
      ...await stateOut(pool, state), history: historyOut(await syncHistory(pool, ensembleId, from)),
      candidate_members: picks.members, candidate_accounts: picks.accounts,
    };
  });
}

/** ensemble_sync_preview: the orders a sync would place, per account, with the token apply needs. */
export async function ensembleSyncPreviewAction(options: EnsembleActionsOptions, invocation: ActionInvocation): Promise<Record<string, unknown>> {
  requireRole(invocation.session, ENSEMBLE_ROLES, ENSEMBLE_SYNC_PREVIEW);
  return refusing(ENSEMBLE_SYNC_PREVIEW, async () => {
    const ensembleId = uuidArgument(ENSEMBLE_SYNC_PREVIEW, invocation.args.ensemble_id, 'ensemble_id');
    const asOf = asOfDate(invocation.args.as_of, (options.now ?? Date.now)());
    const { state, orders } = await previewSync(contextOf(options), ensembleId, asOf);
    return previewOut(state, orders);
  });
}

/** ensemble_sync_apply: places exactly the previewed orders, once. */
export async function ensembleSyncApplyAction(options: EnsembleActionsOptions, invocation: ActionInvocation): Promise<Record<string, unknown>> {
  requireRole(invocation.session, ENSEMBLE_ROLES, ENSEMBLE_SYNC_APPLY);
  return refusing(ENSEMBLE_SYNC_APPLY, async () => {
    const ensembleId = uuidArgument(ENSEMBLE_SYNC_APPLY, invocation.args.ensemble_id, 'ensemble_id');
    const token = invocation.args.preview_token;
    if (typeof token !== 'string' || !/^[0-9a-f]{64}$/.test(token)) {
      throw new EnsembleRefusal([{ field: 'preview_token', code: 'invalid', message: 'preview_token: the token ensemble_sync_preview answered (64 hex digits)' }]);
    }
    const asOf = asOfDate(invocation.args.as_of, (options.now ?? Date.now)());
    const outcome = await applySync(contextOf(options), { ensembleId, token, asOf, actorId: actorId(invocation.session) });
    return { sync_id: outcome.syncId, status: outcome.status, already_applied: outcome.alreadyApplied };
  });
}

/** The management actions' handler: role, then the work, refusals as one error. */
function managing(options: EnsembleActionsOptions, action: string, work: (args: Record<string, unknown>, actor: string) => Promise<string>): (invocation: ActionInvocation) => Promise<Record<string, unknown>> {
  return async (invocation) => {
    requireRole(invocation.session, ENSEMBLE_ROLES, action);
    return refusing(action, async () => ({ ensemble_id: await work(invocation.args, actorId(invocation.session)) }));
  };
}

/**
 * The ensemble action declarations for the metadata (appended to tradingActions).
 * @example ensembleActions({ pool }).map((action) => action.name) // ['ensembles', 'ensemble_detail', ...]
 */
export function ensembleActions(options: EnsembleActionsOptions): ActionDeclaration[] {
  const { pool } = options;
  const now = options.now ?? Date.now;
  const id = (action: string, args: Record<string, unknown>, name = 'ensemble_id'): string => uuidArgument(action, args[name], name);
  return [
    {
      name: ENSEMBLES, kind: 'query', field: `${ENSEMBLES}: [ensemble_summary!]!`, types: ENSEMBLE_TYPES, roles: ENSEMBLE_ROLES,
      description: 'Every ensemble (strategies of kind ensemble), newest first, with its member and account counts and last sync.',
      handler: async ({ session }) => {
        requireRole(session, ENSEMBLE_ROLES, ENSEMBLES);
        return (await listEnsembles(pool)).map((row) => ({
          ensemble_id: row.ensembleId, name: row.name, owner_name: row.ownerName, members: row.members, accounts: row.accounts, last_sync_at: row.lastSyncAt,
        }));
      },
    },
    {
      name: ENSEMBLE_DETAIL, kind: 'query', field: `${ENSEMBLE_DETAIL}(ensemble_id: uuid!, as_of: String, history_from: String): ensemble_detail!`, types: '', roles: ENSEMBLE_ROLES,
      description: "One ensemble as of as_of (default today, from 2021-01-01): members with their counting run and positions, accounts with target, actual "
        + 'and drift per instrument, and the syncs from history_from, newest first.',
      handler: (invocation) => ensembleDetailAction(options, invocation),
    },
    {
      name: ENSEMBLE_SYNC_PREVIEW, kind: 'query', field: `${ENSEMBLE_SYNC_PREVIEW}(ensemble_id: uuid!, as_of: String): ensemble_sync_preview_result!`, types: '', roles: ENSEMBLE_ROLES,
      description: 'The orders a sync would place now per account (whole lots, MARKET, est. price and charges) and the token of the inputs for ensemble_sync_apply.',
      handler: (invocation) => ensembleSyncPreviewAction(options, invocation),
    },
    {
      name: ENSEMBLE_SYNC_APPLY, kind: 'mutation', field: `${ENSEMBLE_SYNC_APPLY}(ensemble_id: uuid!, preview_token: String!, as_of: String): ensemble_sync_apply_result!`,
      types: '', roles: ENSEMBLE_ROLES,
      description: 'Places exactly the previewed orders (paper or LIVE per account) once: refused, nothing placed, when the inputs changed since the preview; '
        + 'a token applied before answers that sync and places nothing.',
      handler: (invocation) => ensembleSyncApplyAction(options, invocation),
    },
    {
      name: CREATE_ENSEMBLE, kind: 'mutation', field: `${CREATE_ENSEMBLE}(name: String!): ensemble_change_result!`, types: '', roles: ENSEMBLE_ROLES,
      description: 'A new ensemble owned by you.',
      handler: managing(options, CREATE_ENSEMBLE, (args, actor) => createEnsemble(pool, { actorId: actor, name: args.name })),
    },
    {
      name: SET_ENSEMBLE_MEMBER, kind: 'mutation', field: `${SET_ENSEMBLE_MEMBER}(ensemble_id: uuid!, member_strategy_id: uuid!, weight: Float): ensemble_change_result!`,
      types: '', roles: ENSEMBLE_ROLES, description: 'Adds a member (an algo strategy with a PAPER or LIVE run in progress) or changes its weight (default 1).',
      handler: managing(options, SET_ENSEMBLE_MEMBER, async (args, actor) => {
        const ensembleId = id(SET_ENSEMBLE_MEMBER, args);
        await setMember(pool, { actorId: actor, ensembleId, memberId: id(SET_ENSEMBLE_MEMBER, args, 'member_strategy_id'), weight: args.weight });
        return ensembleId;
      }),
    },
    {
      name: REMOVE_ENSEMBLE_MEMBER, kind: 'mutation', field: `${REMOVE_ENSEMBLE_MEMBER}(ensemble_id: uuid!, member_strategy_id: uuid!): ensemble_change_result!`,
      types: '', roles: ENSEMBLE_ROLES, description: 'Removes a member.',
      handler: managing(options, REMOVE_ENSEMBLE_MEMBER, async (args, actor) => {
        const ensembleId = id(REMOVE_ENSEMBLE_MEMBER, args);
        await removeMember(pool, { actorId: actor, ensembleId, memberId: id(REMOVE_ENSEMBLE_MEMBER, args, 'member_strategy_id') });
        return ensembleId;
      }),
    },
    {
      name: SET_ENSEMBLE_ACCOUNT, kind: 'mutation',
      field: `${SET_ENSEMBLE_ACCOUNT}(ensemble_id: uuid!, user_broker_id: uuid!, investment_paise: Float, mode: String, active: Boolean): ensemble_change_result!`,
      types: '', roles: ENSEMBLE_ROLES,
      description: 'Subscribes a broker account (investment in paise above 0, PAPER or LIVE: LIVE needs a broker session today) or changes its investment, mode or active flag.',
      handler: managing(options, SET_ENSEMBLE_ACCOUNT, async (args, actor) => {
        const ensembleId = id(SET_ENSEMBLE_ACCOUNT, args);
        await setAccount(pool, {
          actorId: actor, ensembleId, userBrokerId: id(SET_ENSEMBLE_ACCOUNT, args, 'user_broker_id'), nowMs: now(),
          ...(args.investment_paise === undefined || args.investment_paise === null ? {} : { investmentPaise: args.investment_paise }),
          ...(args.mode === undefined || args.mode === null ? {} : { mode: args.mode }),
          ...(args.active === undefined || args.active === null ? {} : { active: args.active }),
        });
        return ensembleId;
      }),
    },
    {
      name: REMOVE_ENSEMBLE_ACCOUNT, kind: 'mutation', field: `${REMOVE_ENSEMBLE_ACCOUNT}(ensemble_id: uuid!, user_broker_id: uuid!): ensemble_change_result!`,
      types: '', roles: ENSEMBLE_ROLES, description: 'Unsubscribes a broker account (its positions stay where they are).',
      handler: managing(options, REMOVE_ENSEMBLE_ACCOUNT, async (args, actor) => {
        const ensembleId = id(REMOVE_ENSEMBLE_ACCOUNT, args);
        await removeAccount(pool, { actorId: actor, ensembleId, userBrokerId: id(REMOVE_ENSEMBLE_ACCOUNT, args, 'user_broker_id') });
        return ensembleId;
      }),
    },
  ];
}
