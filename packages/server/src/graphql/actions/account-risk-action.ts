// `set_account_risk`: /userAccounts' inline and bulk edits of the account-level stop-loss, target
// and trailing columns (../../trading/account-risk-settings.ts; the runtime enforces them:
// ../../trading/account-risk.ts).
//
// - Who: a manager (accounts of users linked to the signed-in manager) or a superadmin (any
//   account); every other role is refused before anything is read. The signed-in person is the
//   actor (x-hasura-actor-id), also while acting for a user.
// - One call changes the same columns of every account named, or nothing: the first issue's field
//   is the error's path, every issue is in `extensions.issues`.
import type { ActionDeclaration, ActionInvocation } from '../metadata/types';
import { GraphqlFailure, IssuesFailure } from '../types';
import { parseRiskChanges, updateAccountRisk } from '../../trading/account-risk-settings';
import type { RiskIssue } from '../../trading/account-risk-settings';
import type pg from 'pg';
import { actorId, isUuid, requireRole } from './session-access';

export const SET_ACCOUNT_RISK = 'set_account_risk';

export const ACCOUNT_RISK_ROLES: readonly string[] = ['manager', 'superadmin'];

/** More accounts than this in one call are refused (a desk runs dozens). */
const MAX_ACCOUNTS = 500;

export const ACCOUNT_RISK_TYPES = `
"""The columns to change; levels are whole hundredths of trail_mode's unit (POINTS: paise of the day P&L, PERCENT: basis points of the investment)."""
input account_risk_changes {
  enable_sl: Boolean
  sl: bigint
  default_sl: bigint
  trail_enabled: Boolean
  trail_mode: String
  trail_tsl: bigint
  enable_target: Boolean
  tgt: bigint
  default_tgt: bigint
  trail_ttg: bigint
}

type set_account_risk_result {
  user_broker_ids: [uuid!]!
}
`;

/** A refusal: the first issue's field as the path, every issue in the extensions. */
export class AccountRiskRefusal extends IssuesFailure<RiskIssue> {
  constructor(issues: readonly RiskIssue[]) {
    const first = issues[0];
    const code = first?.code === 'forbidden' ? 'permission-error' : first?.code === 'not-found' ? 'not-found' : 'validation-failed';
    const field = first === undefined ? '' : first.field.startsWith('user_broker_ids') ? `.args.${first.field}` : `.args.changes.${first.field}`;
    super(code, issues, `$.selectionSet.${SET_ACCOUNT_RISK}${field}`);
  }
}

function accountIds(value: unknown): string[] {
  const path = `$.selectionSet.${SET_ACCOUNT_RISK}.args.user_broker_ids`;
  if (!Array.isArray(value) || value.length === 0) throw new GraphqlFailure('validation-failed', 'user_broker_ids must list at least one broker account', path);
  if (value.length > MAX_ACCOUNTS) throw new GraphqlFailure('validation-failed', `user_broker_ids may list at most ${MAX_ACCOUNTS} accounts`, path);
  return value.map((id: unknown, index) => {
    if (!isUuid(id)) throw new GraphqlFailure('validation-failed', `user_broker_ids[${index}] must be a uuid, got ${JSON.stringify(id)}`, `${path}[${index}]`);
    return id;
  });
}

/**
 * The `set_account_risk` handler.
 * @example await setAccountRiskAction({ pool }, { args: { user_broker_ids: [id], changes: { enable_sl: true, sl: 500000, default_sl: 500000 } }, session })
 */
export async function setAccountRiskAction(context: { readonly pool: pg.Pool }, invocation: ActionInvocation): Promise<{ user_broker_ids: string[] }> {
  const { session, args } = invocation;
  requireRole(session, ACCOUNT_RISK_ROLES, SET_ACCOUNT_RISK);
  const ids = accountIds(args.user_broker_ids);
  const changes = parseRiskChanges(args.changes);
  if (!changes.ok) throw new AccountRiskRefusal(changes.error);
  const role = session.admin ? 'superadmin' : session.role;
  const written = await updateAccountRisk(context.pool, { actorId: actorId(session), role, userBrokerIds: ids, changes: changes.value });
  if (!written.ok) throw new AccountRiskRefusal(written.error);
  return { user_broker_ids: [...written.value.userBrokerIds] };
}

/** The account-risk action declarations (for trading-actions.ts). */
export function accountRiskActions(context: { readonly pool: pg.Pool }): ActionDeclaration[] {
  return [{
    name: SET_ACCOUNT_RISK,
    kind: 'mutation',
    field: `${SET_ACCOUNT_RISK}(user_broker_ids: [uuid!]!, changes: account_risk_changes!): set_account_risk_result!`,
    types: ACCOUNT_RISK_TYPES,
    description: "Changes the account-level stop-loss, target and trailing settings of broker accounts (a manager: accounts of the users they "
      + 'manage; a superadmin: any). All accounts or none; a bad value is refused naming its field. Enforced by the runtime on the account\'s runs.',
    roles: ACCOUNT_RISK_ROLES,
    handler: (invocation) => setAccountRiskAction(context, invocation),
  }];
}
